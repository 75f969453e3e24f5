// Unit tests for src/auth/captcha.cpp: the key derivation and the sealed tag, checked against a vector
// made with Python's cryptography package (HKDF-SHA256, AES-256-GCM), and every way a tag can be
// altered, cut or made under another key.
#include "auth/captcha.h"

#include "base/base64.h"

#include <cppunit/extensions/HelperMacros.h>

#include <set>
#include <string>

namespace captcha = cms::captcha;

namespace {

const std::string k_secret = "unit-test secret of thirty-two bytes!!";
const std::string k_nonce = std::string("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b", 12);
const std::string k_tag = "AQABAgMEBQYHCAkKCwAAAABlU_EAe-UBif8aR7I9rgGCf-WzBzM1K8ou";

std::string hex(const std::string &bytes) {
    static const char digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned char c : bytes) {
        out += digits[c >> 4];
        out += digits[c & 15];
    }
    return out;
}

} // namespace

class CaptchaTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(CaptchaTest);
    CPPUNIT_TEST(key_is_hkdf_sha256_of_the_secret_with_the_label);
    CPPUNIT_TEST(seal_matches_the_reference_vector);
    CPPUNIT_TEST(open_returns_nonce_expiry_and_code);
    CPPUNIT_TEST(every_flipped_bit_is_refused);
    CPPUNIT_TEST(cut_or_extended_tags_are_refused);
    CPPUNIT_TEST(another_secret_cannot_open_a_tag);
    CPPUNIT_TEST(garbage_and_oversized_text_are_refused);
    CPPUNIT_TEST(two_seals_of_one_code_differ_by_nonce);
    CPPUNIT_TEST(codes_use_the_alphabet_only);
    CPPUNIT_TEST(code_matches_ignores_case_only);
    CPPUNIT_TEST_SUITE_END();

  public:
    void key_is_hkdf_sha256_of_the_secret_with_the_label() {
        CPPUNIT_ASSERT_EQUAL(
            std::string("046254099bd496aa94397a90d9698de0e8846588a76c1f3387276ad3716d817e"),
            hex(captcha::derive_key(k_secret)));
    }

    void seal_matches_the_reference_vector() {
        CPPUNIT_ASSERT_EQUAL(k_tag,
                             captcha::seal("ABCDE", captcha::derive_key(k_secret), k_nonce,
                                           1700000000));
    }

    void open_returns_nonce_expiry_and_code() {
        std::optional<captcha::Opened> opened = captcha::open(k_tag, captcha::derive_key(k_secret));
        CPPUNIT_ASSERT(opened);
        CPPUNIT_ASSERT(opened->nonce == k_nonce);
        CPPUNIT_ASSERT_EQUAL(int64_t(1700000000), opened->expires);
        CPPUNIT_ASSERT_EQUAL(std::string("ABCDE"), opened->code);
    }

    void every_flipped_bit_is_refused() {
        std::string key = captcha::derive_key(k_secret);
        std::string raw = *cms::base64::decode_url(k_tag);
        for (std::size_t i = 0; i < raw.size(); ++i)
            for (int bit = 0; bit < 8; ++bit) {
                std::string altered = raw;
                altered[i] = static_cast<char>(altered[i] ^ (1 << bit));
                CPPUNIT_ASSERT(!captcha::open(cms::base64::encode_url(altered), key));
            }
    }

    void cut_or_extended_tags_are_refused() {
        std::string key = captcha::derive_key(k_secret);
        std::string raw = *cms::base64::decode_url(k_tag);
        for (std::size_t n = 0; n < raw.size(); ++n)
            CPPUNIT_ASSERT(!captcha::open(cms::base64::encode_url(raw.substr(0, n)), key));
        CPPUNIT_ASSERT(!captcha::open(cms::base64::encode_url(raw + "A"), key));
        CPPUNIT_ASSERT(!captcha::open(k_tag + "=", key));
    }

    void another_secret_cannot_open_a_tag() {
        CPPUNIT_ASSERT(!captcha::open(k_tag, captcha::derive_key(k_secret + "x")));
    }

    void garbage_and_oversized_text_are_refused() {
        std::string key = captcha::derive_key(k_secret);
        CPPUNIT_ASSERT(!captcha::open("", key));
        CPPUNIT_ASSERT(!captcha::open("not a tag", key));
        CPPUNIT_ASSERT(!captcha::open(std::string(captcha::k_max_tag + 1, 'A'), key));
    }

    void two_seals_of_one_code_differ_by_nonce() {
        std::string key = captcha::derive_key(k_secret);
        std::string a = captcha::seal("ABCDE", key, captcha::random_bytes(12), 1700000000);
        std::string b = captcha::seal("ABCDE", key, captcha::random_bytes(12), 1700000000);
        CPPUNIT_ASSERT(a != b);
        CPPUNIT_ASSERT_EQUAL(std::string("ABCDE"), captcha::open(a, key)->code);
        CPPUNIT_ASSERT_EQUAL(std::string("ABCDE"), captcha::open(b, key)->code);
    }

    void codes_use_the_alphabet_only() {
        std::set<char> seen;
        for (int i = 0; i < 400; ++i) {
            std::string code = captcha::new_code();
            CPPUNIT_ASSERT_EQUAL(captcha::k_code_length, code.size());
            for (char c : code) {
                CPPUNIT_ASSERT(captcha::k_alphabet.find(c) != std::string_view::npos);
                seen.insert(c);
            }
        }
        // 2000 draws from 31 characters: a character never drawn would mean a biased draw.
        CPPUNIT_ASSERT_EQUAL(captcha::k_alphabet.size(), seen.size());
        for (char c : std::string("0O1lIL"))
            CPPUNIT_ASSERT(captcha::k_alphabet.find(c) == std::string_view::npos);
    }

    void code_matches_ignores_case_only() {
        CPPUNIT_ASSERT(captcha::code_matches("AB3DE", "AB3DE"));
        CPPUNIT_ASSERT(captcha::code_matches("AB3DE", "ab3de"));
        CPPUNIT_ASSERT(!captcha::code_matches("AB3DE", "AB3DF"));
        CPPUNIT_ASSERT(!captcha::code_matches("AB3DE", "AB3D"));
        CPPUNIT_ASSERT(!captcha::code_matches("AB3DE", "AB3DEE"));
        CPPUNIT_ASSERT(!captcha::code_matches("AB3DE", ""));
        CPPUNIT_ASSERT(!captcha::code_matches("", ""));
        // '@' and '`' sit next to the letters in ASCII: folding must not make them match.
        CPPUNIT_ASSERT(!captcha::code_matches("A", "@"));
        CPPUNIT_ASSERT(!captcha::code_matches("A", "`"));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CaptchaTest);
