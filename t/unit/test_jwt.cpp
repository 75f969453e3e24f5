// Unit tests for src/auth/jwt.cpp: a known token computed outside this code base, the expiry boundary,
// and every way a token can be forged, tampered with or malformed.
#include "auth/jwt.h"
#include "base/base64.h"

#include <cppunit/extensions/HelperMacros.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <string>

using cms::base64::encode_url;
using cms::jwt::Claims;
using cms::jwt::decode;
using cms::jwt::Decoded;
using cms::jwt::encode;
using cms::jwt::Verdict;

namespace CppUnit {
template <> struct assertion_traits<Verdict> {
    static bool equal(Verdict a, Verdict b) { return a == b; }
    static std::string toString(Verdict v) {
        return v == Verdict::ok ? "ok" : v == Verdict::expired ? "expired" : "invalid";
    }
};
} // namespace CppUnit

namespace {

const std::string k_secret = "test-secret";
const std::string k_header = R"({"alg":"HS256","typ":"JWT"})";
constexpr int64_t k_now = 1700000000;

// Claims with a payload part that is ok at k_now; tests vary one key at a time.
std::string payload_with(const std::string &identity) {
    return R"({"identity":)" + identity +
           R"(,"scope":"lin","type":"access","exp":2000000000,"ver":0})";
}

std::string mac(const EVP_MD *md, const std::string &key, const std::string &message) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    HMAC(md, key.data(), static_cast<int>(key.size()),
         reinterpret_cast<const unsigned char *>(message.data()), message.size(), out, &len);
    return std::string(reinterpret_cast<const char *>(out), len);
}

// Signs any header and payload text, so tests can build tokens encode() would never write; the
// signature is valid, so a rejection can only come from the check under test.
std::string forge(const std::string &header, const std::string &payload,
                  const std::string &secret = k_secret, const EVP_MD *md = EVP_sha256()) {
    std::string input = encode_url(header) + "." + encode_url(payload);
    return input + "." + encode_url(mac(md, secret, input));
}

Verdict verdict_of(const std::string &token) {
    return decode(token, k_secret, k_now).verdict;
}

Claims sample_claims() {
    Claims c;
    c.identity = 42;
    c.type = "refresh";
    c.scope = "lin";
    c.exp = k_now + 3600;
    c.iat = k_now;
    c.ver = 7;
    return c;
}

// Replaces the character at pos with another of the base64url alphabet.
std::string flip(std::string token, std::size_t pos) {
    token[pos] = token[pos] == 'A' ? 'B' : 'A';
    return token;
}

} // namespace

class JwtTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(JwtTest);
    CPPUNIT_TEST(encode_matches_independently_computed_token);
    CPPUNIT_TEST(decode_returns_every_encoded_claim);
    CPPUNIT_TEST(exp_equal_to_now_is_expired_with_claims);
    CPPUNIT_TEST(exp_one_second_after_now_is_ok);
    CPPUNIT_TEST(forged_token_with_our_header_is_ok);
    CPPUNIT_TEST(absent_iat_reads_as_zero);
    CPPUNIT_TEST(missing_ver_is_invalid);
    CPPUNIT_TEST(type_and_scope_are_left_to_the_caller);
    CPPUNIT_TEST(changed_payload_byte_is_invalid);
    CPPUNIT_TEST(changed_signature_byte_is_invalid);
    CPPUNIT_TEST(wrong_secret_is_invalid);
    CPPUNIT_TEST(expired_token_with_wrong_secret_is_invalid_not_expired);
    CPPUNIT_TEST(invalid_token_yields_empty_claims);
    CPPUNIT_TEST(alg_none_with_empty_signature_is_invalid);
    CPPUNIT_TEST(alg_hs512_signed_with_sha512_is_invalid);
    CPPUNIT_TEST(alg_other_than_hs256_is_invalid_even_with_valid_signature);
    CPPUNIT_TEST(missing_or_non_string_alg_is_invalid);
    CPPUNIT_TEST(crit_header_is_invalid);
    CPPUNIT_TEST(header_that_is_not_an_object_is_invalid);
    CPPUNIT_TEST(two_or_four_parts_are_invalid);
    CPPUNIT_TEST(padding_or_whitespace_in_signature_is_invalid);
    CPPUNIT_TEST(non_base64url_characters_are_invalid);
    CPPUNIT_TEST(short_signature_is_invalid);
    CPPUNIT_TEST(identity_as_string_is_invalid);
    CPPUNIT_TEST(fractional_identity_is_invalid);
    CPPUNIT_TEST(overflowing_identity_is_invalid);
    CPPUNIT_TEST(identity_written_as_real_is_invalid);
    CPPUNIT_TEST(identity_beyond_int64_is_invalid);
    CPPUNIT_TEST(missing_identity_is_invalid);
    CPPUNIT_TEST(zero_or_negative_identity_is_invalid);
    CPPUNIT_TEST(missing_or_non_integer_exp_is_invalid);
    CPPUNIT_TEST(non_string_type_or_scope_is_invalid);
    CPPUNIT_TEST(non_integer_iat_or_ver_is_invalid);
    CPPUNIT_TEST(duplicate_key_in_payload_is_invalid);
    CPPUNIT_TEST(trailing_garbage_in_payload_is_invalid);
    CPPUNIT_TEST(payload_that_is_not_an_object_is_invalid);
    CPPUNIT_TEST(deeply_nested_payload_is_invalid_without_throwing);
    CPPUNIT_TEST(token_longer_than_8192_bytes_is_invalid);
    CPPUNIT_TEST_SUITE_END();

  public:
    void encode_matches_independently_computed_token() {
        // Computed with python3 (json.dumps sort_keys, hmac, hashlib, base64), not with this code.
        const std::string expected =
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."
            "eyJleHAiOjIwMDAwMDAwMDAsImlhdCI6MTcwMDAwMDAwMCwiaWRlbnRpdHkiOjEsInNjb3BlIjoibGluIiwidH"
            "lwZSI6ImFjY2VzcyIsInZlciI6MH0."
            "msP2ASbnC3FAqRfBBMx8MN0gpNDzk-vcuup0Bk2CdaY";
        Claims c;
        c.identity = 1;
        c.scope = "lin";
        c.type = "access";
        c.exp = 2000000000;
        c.iat = 1700000000;
        c.ver = 0;
        CPPUNIT_ASSERT_EQUAL(expected, encode(c, "test-secret"));
    }

    void decode_returns_every_encoded_claim() {
        Decoded d = decode(encode(sample_claims(), k_secret), k_secret, k_now);
        CPPUNIT_ASSERT_EQUAL(Verdict::ok, d.verdict);
        CPPUNIT_ASSERT_EQUAL(int64_t(42), d.claims.identity);
        CPPUNIT_ASSERT_EQUAL(std::string("refresh"), d.claims.type);
        CPPUNIT_ASSERT_EQUAL(std::string("lin"), d.claims.scope);
        CPPUNIT_ASSERT_EQUAL(k_now + 3600, d.claims.exp);
        CPPUNIT_ASSERT_EQUAL(k_now, d.claims.iat);
        CPPUNIT_ASSERT_EQUAL(int64_t(7), d.claims.ver);
    }

    void exp_equal_to_now_is_expired_with_claims() {
        Claims c = sample_claims();
        c.exp = k_now;
        Decoded d = decode(encode(c, k_secret), k_secret, k_now);
        CPPUNIT_ASSERT_EQUAL(Verdict::expired, d.verdict);
        CPPUNIT_ASSERT_EQUAL(int64_t(42), d.claims.identity);
        CPPUNIT_ASSERT_EQUAL(std::string("refresh"), d.claims.type);
    }

    void exp_one_second_after_now_is_ok() {
        Claims c = sample_claims();
        c.exp = k_now + 1;
        CPPUNIT_ASSERT_EQUAL(Verdict::ok, verdict_of(encode(c, k_secret)));
    }

    void forged_token_with_our_header_is_ok() {
        CPPUNIT_ASSERT_EQUAL(Verdict::ok, verdict_of(forge(k_header, payload_with("1"))));
    }

    void absent_iat_reads_as_zero() {
        Decoded d = decode(forge(k_header, payload_with("5")), k_secret, k_now);
        CPPUNIT_ASSERT_EQUAL(Verdict::ok, d.verdict);
        CPPUNIT_ASSERT_EQUAL(int64_t(5), d.claims.identity);
        CPPUNIT_ASSERT_EQUAL(int64_t(0), d.claims.iat);
    }

    void missing_ver_is_invalid() {
        // What lin-cms-spring-boot signs: a token of another backend sharing the secret.
        std::string payload = R"({"identity":1,"scope":"lin","type":"access","exp":2000000000})";
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(forge(k_header, payload)));
    }

    void type_and_scope_are_left_to_the_caller() {
        std::string payload =
            R"({"identity":1,"scope":"","type":"other","exp":2000000000,"ver":0})";
        Decoded d = decode(forge(k_header, payload), k_secret, k_now);
        CPPUNIT_ASSERT_EQUAL(Verdict::ok, d.verdict);
        CPPUNIT_ASSERT_EQUAL(std::string("other"), d.claims.type);
    }

    void changed_payload_byte_is_invalid() {
        std::string token = encode(sample_claims(), k_secret);
        std::size_t payload_start = token.find('.') + 1;
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(flip(token, payload_start + 10)));
    }

    void changed_signature_byte_is_invalid() {
        std::string token = encode(sample_claims(), k_secret);
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(flip(token, token.rfind('.') + 1)));
    }

    void wrong_secret_is_invalid() {
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid,
                             verdict_of(encode(sample_claims(), "another-secret")));
    }

    void expired_token_with_wrong_secret_is_invalid_not_expired() {
        Claims c = sample_claims();
        c.exp = k_now - 10;
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(encode(c, "another-secret")));
    }

    void invalid_token_yields_empty_claims() {
        Decoded d = decode(encode(sample_claims(), "another-secret"), k_secret, k_now);
        CPPUNIT_ASSERT_EQUAL(int64_t(0), d.claims.identity);
        CPPUNIT_ASSERT_EQUAL(std::string(""), d.claims.type);
    }

    void alg_none_with_empty_signature_is_invalid() {
        std::string token =
            encode_url(R"({"alg":"none"})") + "." + encode_url(payload_with("1")) + ".";
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(token));
    }

    void alg_hs512_signed_with_sha512_is_invalid() {
        std::string header = R"({"alg":"HS512","typ":"JWT"})";
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid,
                             verdict_of(forge(header, payload_with("1"), k_secret, EVP_sha512())));
    }

    void alg_other_than_hs256_is_invalid_even_with_valid_signature() {
        for (const char *alg : {"none", "None", "HS512", "RS256", "hs256", "HS256 "}) {
            std::string header = std::string(R"({"alg":")") + alg + R"(","typ":"JWT"})";
            CPPUNIT_ASSERT_EQUAL_MESSAGE(header, Verdict::invalid,
                                         verdict_of(forge(header, payload_with("1"))));
        }
    }

    void missing_or_non_string_alg_is_invalid() {
        for (const char *header :
             {R"({"typ":"JWT"})", R"({"alg":null})", R"({"alg":["HS256"]})", R"({"alg":256})"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(header, Verdict::invalid,
                                         verdict_of(forge(header, payload_with("1"))));
    }

    void crit_header_is_invalid() {
        std::string header = R"({"alg":"HS256","crit":["x"],"x":1})";
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(forge(header, payload_with("1"))));
    }

    void header_that_is_not_an_object_is_invalid() {
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid,
                             verdict_of(forge(R"(["HS256"])", payload_with("1"))));
    }

    void two_or_four_parts_are_invalid() {
        std::string token = encode(sample_claims(), k_secret);
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(token.substr(0, token.rfind('.'))));
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(token + ".e30"));
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(token + "."));
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(""));
    }

    void padding_or_whitespace_in_signature_is_invalid() {
        // A lenient decoder would read the same 32 bytes from each of these.
        std::string token = encode(sample_claims(), k_secret);
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(token + "="));
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(token + "\n"));
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(token.insert(token.rfind('.') + 1, " ")));
    }

    void non_base64url_characters_are_invalid() {
        std::string token = encode(sample_claims(), k_secret);
        std::string with_plus = token;
        with_plus[token.find('.') + 1] = '+';
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(with_plus));
        std::string with_star = token;
        with_star[2] = '*';
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(with_star));
    }

    void short_signature_is_invalid() {
        std::string token = forge(k_header, payload_with("1"));
        std::string input = token.substr(0, token.rfind('.'));
        std::string truncated = mac(EVP_sha256(), k_secret, input).substr(0, 16);
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(input + "." + encode_url(truncated)));
    }

    void identity_as_string_is_invalid() {
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(forge(k_header, payload_with("\"1\""))));
    }

    void fractional_identity_is_invalid() {
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(forge(k_header, payload_with("1.5"))));
    }

    void overflowing_identity_is_invalid() {
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(forge(k_header, payload_with("1e309"))));
    }

    void identity_written_as_real_is_invalid() {
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(forge(k_header, payload_with("1.0"))));
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(forge(k_header, payload_with("1e0"))));
    }

    void identity_beyond_int64_is_invalid() {
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid,
                             verdict_of(forge(k_header, payload_with("9223372036854775808"))));
    }

    void missing_identity_is_invalid() {
        std::string payload = R"({"scope":"lin","type":"access","exp":2000000000,"ver":0})";
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(forge(k_header, payload)));
    }

    void zero_or_negative_identity_is_invalid() {
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(forge(k_header, payload_with("0"))));
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(forge(k_header, payload_with("-3"))));
    }

    void missing_or_non_integer_exp_is_invalid() {
        for (const char *payload :
             {R"({"identity":1,"scope":"lin","type":"access","ver":0})",
              R"({"identity":1,"scope":"lin","type":"access","exp":"2","ver":0})",
              R"({"identity":1,"scope":"lin","type":"access","exp":2e9,"ver":0})"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(payload, Verdict::invalid,
                                         verdict_of(forge(k_header, payload)));
    }

    void non_string_type_or_scope_is_invalid() {
        for (const char *payload :
             {R"({"identity":1,"scope":"lin","type":1,"exp":2000000000,"ver":0})",
              R"({"identity":1,"scope":null,"type":"access","exp":2000000000,"ver":0})",
              R"({"identity":1,"type":"access","exp":2000000000,"ver":0})"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(payload, Verdict::invalid,
                                         verdict_of(forge(k_header, payload)));
    }

    void non_integer_iat_or_ver_is_invalid() {
        for (const char *claims : {R"("iat":"1","ver":0)", R"("iat":1.5,"ver":0)", R"("ver":null)",
                                   R"("ver":[0])", R"("ver":"0")", R"("ver":0.0)"}) {
            std::string payload =
                R"({"identity":1,"scope":"lin","type":"access","exp":2000000000,)" +
                std::string(claims) + "}";
            CPPUNIT_ASSERT_EQUAL_MESSAGE(payload, Verdict::invalid,
                                         verdict_of(forge(k_header, payload)));
        }
    }

    void duplicate_key_in_payload_is_invalid() {
        std::string payload =
            R"({"identity":1,"identity":2,"scope":"lin","type":"access","exp":2000000000,"ver":0})";
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(forge(k_header, payload)));
    }

    void trailing_garbage_in_payload_is_invalid() {
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid,
                             verdict_of(forge(k_header, payload_with("1") + "x")));
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid,
                             verdict_of(forge(k_header, payload_with("1") + "{}")));
    }

    void payload_that_is_not_an_object_is_invalid() {
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(forge(k_header, "[1]")));
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(forge(k_header, "")));
    }

    void deeply_nested_payload_is_invalid_without_throwing() {
        std::string nested = std::string(3000, '[') + std::string(3000, ']');
        std::string payload =
            R"({"identity":1,"scope":"lin","type":"access","exp":2000000000,"ver":0,"x":)" +
            nested + "}";
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(forge(k_header, payload)));
    }

    void token_longer_than_8192_bytes_is_invalid() {
        // Grow a validly signed token until it crosses the limit; the last one below must pass.
        std::string fits, too_long;
        for (std::size_t pad = 6000; too_long.empty(); ++pad) {
            std::string payload =
                R"({"identity":1,"scope":"lin","type":"access","exp":2000000000,"ver":0,)"
                R"("pad":")" +
                std::string(pad, 'p') + "\"}";
            std::string token = forge(k_header, payload);
            (token.size() <= 8192 ? fits : too_long) = token;
        }
        CPPUNIT_ASSERT_EQUAL(Verdict::ok, verdict_of(fits));
        CPPUNIT_ASSERT_EQUAL(Verdict::invalid, verdict_of(too_long));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(JwtTest);
