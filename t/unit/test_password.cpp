// Unit tests for src/auth/password.cpp: the seed hashes of the three Lin CMS backends, published Argon2
// vectors, malformed or costly stored values, and the Argon2id hashes we write ourselves.
#include "auth/password.h"

#include <argon2.h>
#include <cppunit/extensions/HelperMacros.h>

#include <stdexcept>
#include <string>

using cms::password::hash;
using cms::password::needs_rehash;
using cms::password::verify;

namespace {

// Seed values of doc/lin-cms.md §5.5; each is the hash of "123456".
const std::string k_spring = "pbkdf2sha256:64000:18:24:n:yUnDokcNRbwILZllmUOItIyo9MnI00QW:"
                             "6ZcPf+sfzyoygOU8h/GSoirF";
const std::string k_koa = "sha1$c419e500$1$84869e5560ebf3de26b6690386484929456d6c07";
const std::string k_koa_3 = "sha1$c419e500$3$4bfb9fdd94435f711a03c906635a6f95dbe5994a";
const std::string k_flask = "pbkdf2:sha256:260000$LinCmsTestSalt16$"
                            "06a1f4626f0a24d07f14b74ba910bfb3e911cf93fed90abafbd6aadfbd5a8e3c";
// Published in libargon2's src/test.c, for the password "password".
const std::string k_argon2id_ref =
    "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4";
const std::string k_argon2id_ref_64m =
    "$argon2id$v=19$m=65536,t=2,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";

// A correct argon2id hash with chosen costs, made with libargon2 directly, so that a rejection
// can only come from verify()'s cost ceilings.
std::string argon2id_with(uint32_t t, uint32_t m, uint32_t p, const std::string &plain) {
    const char salt[] = "0123456789abcdef";
    std::string out(argon2_encodedlen(t, m, p, 16, 32, Argon2_id), '\0');
    int rc = argon2id_hash_encoded(t, m, p, plain.data(), plain.size(), salt, 16, 32, out.data(),
                                   out.size());
    CPPUNIT_ASSERT_EQUAL(int(ARGON2_OK), rc);
    out.resize(out.find('\0'));
    return out;
}

} // namespace

class PasswordTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(PasswordTest);
    CPPUNIT_TEST(spring_seed_hash_accepts_its_password);
    CPPUNIT_TEST(spring_seed_hash_rejects_another_password);
    CPPUNIT_TEST(spring_sha1_and_sha512_variants_accept_their_password);
    CPPUNIT_TEST(spring_hash_with_wrong_hash_bytes_is_rejected);
    CPPUNIT_TEST(spring_hash_with_bad_base64_is_rejected);
    CPPUNIT_TEST(spring_hash_with_bad_iterations_is_rejected);
    CPPUNIT_TEST(spring_hash_with_pepper_is_rejected);
    CPPUNIT_TEST(spring_hash_with_unknown_algorithm_is_rejected);
    CPPUNIT_TEST(spring_hash_with_extra_field_is_rejected);
    CPPUNIT_TEST(koa_seed_hash_accepts_its_password);
    CPPUNIT_TEST(koa_seed_hash_rejects_another_password);
    CPPUNIT_TEST(koa_three_round_hash_accepts_its_password);
    CPPUNIT_TEST(koa_sha256_and_md5_variants_accept_their_password);
    CPPUNIT_TEST(koa_hash_with_unknown_algorithm_is_rejected);
    CPPUNIT_TEST(koa_hash_with_bad_iterations_is_rejected);
    CPPUNIT_TEST(koa_hash_with_zero_rounds_is_rejected);
    CPPUNIT_TEST(koa_hash_with_uppercase_digest_is_rejected);
    CPPUNIT_TEST(flask_hash_accepts_its_password);
    CPPUNIT_TEST(flask_hash_rejects_another_password);
    CPPUNIT_TEST(flask_hash_without_iterations_means_260000);
    CPPUNIT_TEST(flask_sha512_variant_accepts_its_password);
    CPPUNIT_TEST(flask_hash_with_unknown_digest_is_rejected);
    CPPUNIT_TEST(flask_hash_with_bad_iterations_is_rejected);
    CPPUNIT_TEST(flask_hash_with_odd_or_non_hex_digest_is_rejected);
    CPPUNIT_TEST(argon2id_reference_vectors_accept_their_password);
    CPPUNIT_TEST(argon2id_reference_vector_rejects_another_password);
    CPPUNIT_TEST(argon2id_with_changed_tag_is_rejected);
    CPPUNIT_TEST(argon2_variants_other_than_id_are_rejected);
    CPPUNIT_TEST(argon2id_costs_at_the_ceiling_are_accepted);
    CPPUNIT_TEST(argon2id_costs_above_the_ceiling_are_rejected_even_when_correct);
    CPPUNIT_TEST(unknown_or_empty_stored_value_is_rejected);
    CPPUNIT_TEST(password_over_4096_bytes_is_rejected);
    CPPUNIT_TEST(hash_writes_argon2id_with_current_parameters);
    CPPUNIT_TEST(hash_is_read_by_libargon2_itself);
    CPPUNIT_TEST(argon2id_of_the_previous_parameters_still_verifies);
    CPPUNIT_TEST(hash_verifies_its_password_only);
    CPPUNIT_TEST(hashes_of_one_password_differ);
    CPPUNIT_TEST(fresh_hash_needs_no_rehash);
    CPPUNIT_TEST(lin_formats_need_rehash);
    CPPUNIT_TEST(argon2id_with_other_parameters_needs_rehash);
    CPPUNIT_TEST(malformed_stored_value_needs_rehash);
    CPPUNIT_TEST(empty_password_round_trips);
    CPPUNIT_TEST(password_of_64_chars_round_trips);
    CPPUNIT_TEST(cjk_and_emoji_password_round_trips);
    CPPUNIT_TEST(hash_refuses_password_over_4096_bytes);
    CPPUNIT_TEST_SUITE_END();

  public:
    void spring_seed_hash_accepts_its_password() { CPPUNIT_ASSERT(verify("123456", k_spring)); }

    void spring_seed_hash_rejects_another_password() {
        CPPUNIT_ASSERT(!verify("1234567", k_spring));
    }

    void spring_sha1_and_sha512_variants_accept_their_password() {
        // Computed with python3 hashlib.pbkdf2_hmac; the sha1 one ends in '=' padding.
        CPPUNIT_ASSERT(verify("123456", "pbkdf2sha1:1000:20:24:n:yUnDokcNRbwILZllmUOItIyo9MnI00QW:"
                                        "7MJjKqUZzpWvYY4Gqg8xVDfjamM="));
        CPPUNIT_ASSERT(verify("123456", "pbkdf2sha512:1000:20:24:n:yUnDokcNRbwILZllmUOItIyo9MnI00QW"
                                        ":yDk7DLn0h4RxZtvISv8+Ck91lzs="));
    }

    void spring_hash_with_wrong_hash_bytes_is_rejected() {
        CPPUNIT_ASSERT(!verify("123456", "pbkdf2sha256:64000:17:24:n:yUnDokcNRbwILZllmUOItIyo9MnI00"
                                         "QW:6ZcPf+sfzyoygOU8h/GSoirF"));
        CPPUNIT_ASSERT(!verify("123456", "pbkdf2sha256:64000:x:24:n:yUnDokcNRbwILZllmUOItIyo9MnI00"
                                         "QW:6ZcPf+sfzyoygOU8h/GSoirF"));
    }

    void spring_hash_with_bad_base64_is_rejected() {
        CPPUNIT_ASSERT(!verify("123456", "pbkdf2sha256:64000:18:24:n:yUnDokcNRbwILZllmUOItIyo9MnI00"
                                         "Q*:6ZcPf+sfzyoygOU8h/GSoirF"));
        // The url alphabet spelling of the same bytes.
        CPPUNIT_ASSERT(!verify("123456", "pbkdf2sha256:64000:18:24:n:yUnDokcNRbwILZllmUOItIyo9MnI00"
                                         "QW:6ZcPf-sfzyoygOU8h_GSoirF"));
    }

    void spring_hash_with_bad_iterations_is_rejected() {
        for (const char *iterations : {"0", "-64000", "+64000", "64000 ", "", "10000001"}) {
            std::string stored =
                std::string("pbkdf2sha256:") + iterations +
                ":18:24:n:yUnDokcNRbwILZllmUOItIyo9MnI00QW:6ZcPf+sfzyoygOU8h/GSoirF";
            CPPUNIT_ASSERT_MESSAGE(stored, !verify("123456", stored));
        }
    }

    void spring_hash_with_pepper_is_rejected() {
        CPPUNIT_ASSERT(!verify("123456", "pbkdf2sha256:64000:18:24:y:yUnDokcNRbwILZllmUOItIyo9MnI00"
                                         "QW:6ZcPf+sfzyoygOU8h/GSoirF"));
    }

    void spring_hash_with_unknown_algorithm_is_rejected() {
        CPPUNIT_ASSERT(!verify("123456", "pbkdf2sha384:64000:18:24:n:yUnDokcNRbwILZllmUOItIyo9MnI00"
                                         "QW:6ZcPf+sfzyoygOU8h/GSoirF"));
        CPPUNIT_ASSERT(!verify("123456", "pbkdf2sha256x:64000:18:24:n:yUnDokcNRbwILZllmUOItIyo9MnI0"
                                         "0QW:6ZcPf+sfzyoygOU8h/GSoirF"));
    }

    void spring_hash_with_extra_field_is_rejected() {
        CPPUNIT_ASSERT(!verify("123456", k_spring + ":"));
    }

    void koa_seed_hash_accepts_its_password() { CPPUNIT_ASSERT(verify("123456", k_koa)); }

    void koa_seed_hash_rejects_another_password() { CPPUNIT_ASSERT(!verify("1234567", k_koa)); }

    void koa_three_round_hash_accepts_its_password() {
        CPPUNIT_ASSERT(verify("123456", k_koa_3));
        CPPUNIT_ASSERT(!verify("1234567", k_koa_3));
    }

    void koa_sha256_and_md5_variants_accept_their_password() {
        // Computed with python3 hmac.
        CPPUNIT_ASSERT(verify(
            "123456",
            "sha256$c419e500$2$e5f7ee0c476cd0cc1a143b24a7bffeb621d720f3f2b34cec1fab8d247ea339b5"));
        CPPUNIT_ASSERT(verify("123456", "md5$c419e500$1$08ead4ca26408d426856fdd0f7d521c5"));
    }

    void koa_hash_with_unknown_algorithm_is_rejected() {
        CPPUNIT_ASSERT(
            !verify("123456", "SHA1$c419e500$1$84869e5560ebf3de26b6690386484929456d6c07"));
        CPPUNIT_ASSERT(
            !verify("123456", "sha3$c419e500$1$84869e5560ebf3de26b6690386484929456d6c07"));
    }

    void koa_hash_with_bad_iterations_is_rejected() {
        for (const char *iterations : {"0", "01x", "-1", "", "1000001"}) {
            std::string stored = std::string("sha1$c419e500$") + iterations +
                                 "$84869e5560ebf3de26b6690386484929456d6c07";
            CPPUNIT_ASSERT_MESSAGE(stored, !verify("123456", stored));
        }
    }

    void koa_hash_with_zero_rounds_is_rejected() {
        // Zero rounds would leave the digest equal to the password itself.
        CPPUNIT_ASSERT(!verify("123456", "sha1$c419e500$0$123456"));
    }

    void koa_hash_with_uppercase_digest_is_rejected() {
        // koa compares the rebuilt string, so another spelling of the digest never matched there.
        CPPUNIT_ASSERT(
            !verify("123456", "sha1$c419e500$1$84869E5560EBF3DE26B6690386484929456D6C07"));
    }

    void flask_hash_accepts_its_password() { CPPUNIT_ASSERT(verify("123456", k_flask)); }

    void flask_hash_rejects_another_password() { CPPUNIT_ASSERT(!verify("1234567", k_flask)); }

    void flask_hash_without_iterations_means_260000() {
        CPPUNIT_ASSERT(verify("123456", "pbkdf2:sha256$LinCmsTestSalt16$06a1f4626f0a24d07f14b74ba91"
                                        "0bfb3e911cf93fed90abafbd6aadfbd5a8e3c"));
    }

    void flask_sha512_variant_accepts_its_password() {
        // Computed with python3 hashlib.pbkdf2_hmac('sha512', ..., 1000, 64).
        CPPUNIT_ASSERT(verify(
            "123456", "pbkdf2:sha512:1000$LinCmsTestSalt16$"
                      "b7c2e168fbf1faf14f1bffc334207a1c3cf709b160139d86695477b21f32f6546bcc634faab2"
                      "17c5c51bf6a9e3d7d89e4e15932579e66a7d9d03ce85cec9f9e6"));
    }

    void flask_hash_with_unknown_digest_is_rejected() {
        CPPUNIT_ASSERT(!verify("123456", "pbkdf2:sha384:260000$LinCmsTestSalt16$06a1f4626f0a24d07f1"
                                         "4b74ba910bfb3e911cf93fed90abafbd6aadfbd5a8e3c"));
        CPPUNIT_ASSERT(!verify("123456", "pbkdf2:SHA256:260000$LinCmsTestSalt16$06a1f4626f0a24d07f1"
                                         "4b74ba910bfb3e911cf93fed90abafbd6aadfbd5a8e3c"));
    }

    void flask_hash_with_bad_iterations_is_rejected() {
        for (const char *method : {"pbkdf2:sha256:0", "pbkdf2:sha256:", "pbkdf2:sha256:26e4",
                                   "pbkdf2:sha256:260000:1"}) {
            std::string stored = std::string(method) + "$LinCmsTestSalt16$06a1f4626f0a24d07f14b74b"
                                                       "a910bfb3e911cf93fed90abafbd6aadfbd5a8e3c";
            CPPUNIT_ASSERT_MESSAGE(stored, !verify("123456", stored));
        }
    }

    void flask_hash_with_odd_or_non_hex_digest_is_rejected() {
        CPPUNIT_ASSERT(!verify("123456", k_flask.substr(0, k_flask.size() - 1)));
        CPPUNIT_ASSERT(!verify("123456", k_flask.substr(0, k_flask.size() - 1) + "g"));
    }

    void argon2id_reference_vectors_accept_their_password() {
        CPPUNIT_ASSERT(verify("password", k_argon2id_ref));
        CPPUNIT_ASSERT(verify("password", k_argon2id_ref_64m));
    }

    void argon2id_reference_vector_rejects_another_password() {
        CPPUNIT_ASSERT(!verify("passwore", k_argon2id_ref));
        CPPUNIT_ASSERT(!verify("123456", k_argon2id_ref));
    }

    void argon2id_with_changed_tag_is_rejected() {
        std::string stored = k_argon2id_ref;
        stored[stored.size() - 3] = 'A';
        CPPUNIT_ASSERT(!verify("password", stored));
    }

    void argon2_variants_other_than_id_are_rejected() {
        // libargon2's published argon2i vector for "password": correct, but not what we accept.
        CPPUNIT_ASSERT(!verify("password", "$argon2i$v=19$m=65536,t=2,p=1$ZGlmZnNhbHQ$"
                                           "sDV8zPvvkfOGCw26RHsjSMvv7K2vmQq/6cxAcmxSEnE"));
    }

    void argon2id_costs_at_the_ceiling_are_accepted() {
        CPPUNIT_ASSERT(verify("123456", argon2id_with(10, 8, 1, "123456")));
        CPPUNIT_ASSERT(verify("123456", argon2id_with(1, 128, 16, "123456")));
    }

    void argon2id_costs_above_the_ceiling_are_rejected_even_when_correct() {
        CPPUNIT_ASSERT(!verify("123456", argon2id_with(11, 8, 1, "123456")));
        CPPUNIT_ASSERT(!verify("123456", argon2id_with(1, 136, 17, "123456")));
        // One pass over 256 MiB + 1 KiB: correct, and one KiB more memory than verify() allows.
        CPPUNIT_ASSERT(!verify("123456", argon2id_with(1, 262145, 1, "123456")));
    }

    void unknown_or_empty_stored_value_is_rejected() {
        for (const char *stored : {"", "!", "*", "123456", "$argon2id$", "pbkdf2sha256", "$$$",
                                   "pbkdf2:sha256$$", "::::::"})
            CPPUNIT_ASSERT_MESSAGE(stored, !verify("123456", stored));
        CPPUNIT_ASSERT(!verify("", ""));
    }

    void password_over_4096_bytes_is_rejected() {
        // Both computed with python3 hmac for "a" repeated 4096 and 4097 times.
        CPPUNIT_ASSERT(verify(std::string(4096, 'a'),
                              "sha1$c419e500$1$a6b89258bb94a207c1f50ce2ba39ccb559ad370d"));
        CPPUNIT_ASSERT(!verify(std::string(4097, 'a'),
                               "sha1$c419e500$1$5f0553f368841b74481d762f71324deb50776ea6"));
    }

    void hash_writes_argon2id_with_current_parameters() {
        const std::string prefix = "$argon2id$v=19$m=7168,t=5,p=1$";
        std::string stored = hash("123456");
        CPPUNIT_ASSERT_EQUAL(prefix, stored.substr(0, prefix.size()));
        // 16-byte salt and 32-byte tag, unpadded base64: 22 and 43 characters.
        CPPUNIT_ASSERT_EQUAL(prefix.size() + 22 + 1 + 43, stored.size());
    }

    void hash_is_read_by_libargon2_itself() {
        std::string stored = hash("123456");
        CPPUNIT_ASSERT_EQUAL(int(ARGON2_OK), argon2id_verify(stored.c_str(), "123456", 6));
    }

    void argon2id_of_the_previous_parameters_still_verifies() {
        // What hash() wrote before it traded memory for passes (m=19456, t=2).
        std::string stored = argon2id_with(2, 19456, 1, "123456");
        CPPUNIT_ASSERT(verify("123456", stored));
        CPPUNIT_ASSERT(!verify("1234567", stored));
        CPPUNIT_ASSERT(needs_rehash(stored));
    }

    void hash_verifies_its_password_only() {
        std::string stored = hash("123456");
        CPPUNIT_ASSERT(verify("123456", stored));
        CPPUNIT_ASSERT(!verify("1234567", stored));
    }

    void hashes_of_one_password_differ() { CPPUNIT_ASSERT(hash("123456") != hash("123456")); }

    void fresh_hash_needs_no_rehash() { CPPUNIT_ASSERT(!needs_rehash(hash("123456"))); }

    void lin_formats_need_rehash() {
        CPPUNIT_ASSERT(needs_rehash(k_spring));
        CPPUNIT_ASSERT(needs_rehash(k_koa));
        CPPUNIT_ASSERT(needs_rehash(k_flask));
    }

    void argon2id_with_other_parameters_needs_rehash() {
        std::string current = hash("123456");
        std::string t3 = current;
        t3.replace(t3.find("t=5"), 3, "t=3");
        CPPUNIT_ASSERT(needs_rehash(t3));
        CPPUNIT_ASSERT(needs_rehash(k_argon2id_ref_64m));
        std::string v16 = current;
        v16.replace(v16.find("v=19"), 4, "v=16");
        CPPUNIT_ASSERT(needs_rehash(v16));
    }

    void malformed_stored_value_needs_rehash() {
        CPPUNIT_ASSERT(needs_rehash(""));
        CPPUNIT_ASSERT(needs_rehash("!"));
        CPPUNIT_ASSERT(needs_rehash("$argon2id$v=19$m=19456,t=2,p=1"));
    }

    void empty_password_round_trips() {
        std::string stored = hash("");
        CPPUNIT_ASSERT(verify("", stored));
        CPPUNIT_ASSERT(!verify(" ", stored));
    }

    void password_of_64_chars_round_trips() {
        std::string plain = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!?";
        CPPUNIT_ASSERT_EQUAL(std::size_t(64), plain.size());
        std::string stored = hash(plain);
        CPPUNIT_ASSERT(verify(plain, stored));
        CPPUNIT_ASSERT(!verify(plain.substr(0, 63), stored));
    }

    void cjk_and_emoji_password_round_trips() {
        std::string plain = "\xe5\xaf\x86\xe7\xa0\x81\xf0\x9f\x94\x91"; // 密码🔑 in UTF-8
        std::string stored = hash(plain);
        CPPUNIT_ASSERT(verify(plain, stored));
        CPPUNIT_ASSERT(!verify("\xe5\xaf\x86\xe7\xa0\x81", stored));
    }

    void hash_refuses_password_over_4096_bytes() {
        CPPUNIT_ASSERT_THROW(hash(std::string(4097, 'a')), std::invalid_argument);
        CPPUNIT_ASSERT(verify(std::string(4096, 'a'), hash(std::string(4096, 'a'))));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(PasswordTest);
