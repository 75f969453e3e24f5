// Unit tests for src/base/digest.cpp: SHA-256 and MD5 as lower-case hex, and HMAC-SHA256, checked
// against the published test vectors (FIPS 180-2 for "abc", RFC 1321 for MD5, RFC 4231).
#include "base/digest.h"
#include "base/text.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using cms::digest::hmac_sha256;
using cms::digest::md5_hex;
using cms::digest::sha256_hex;

class DigestTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(DigestTest);
    CPPUNIT_TEST(sha256_of_the_published_vectors);
    CPPUNIT_TEST(md5_of_the_published_vectors);
    CPPUNIT_TEST(hmac_sha256_of_the_published_vectors);
    CPPUNIT_TEST(digests_cover_every_byte_nul_included);
    CPPUNIT_TEST_SUITE_END();

  public:
    void sha256_of_the_published_vectors() {
        CPPUNIT_ASSERT_EQUAL(
            std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            sha256_hex("abc"));
        CPPUNIT_ASSERT_EQUAL(
            std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            sha256_hex(""));
    }

    void md5_of_the_published_vectors() {
        CPPUNIT_ASSERT_EQUAL(std::string("900150983cd24fb0d6963f7d28e17f72"), md5_hex("abc"));
        CPPUNIT_ASSERT_EQUAL(std::string("d41d8cd98f00b204e9800998ecf8427e"), md5_hex(""));
    }

    static std::string hex(const std::string &raw) {
        return cms::text::hex(reinterpret_cast<const unsigned char *>(raw.data()), raw.size());
    }

    void hmac_sha256_of_the_published_vectors() {
        // RFC 4231, test cases 1 and 2.
        CPPUNIT_ASSERT_EQUAL(
            std::string("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
            hex(hmac_sha256(std::string(20, '\x0b'), "Hi There")));
        CPPUNIT_ASSERT_EQUAL(
            std::string("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
            hex(hmac_sha256("Jefe", "what do ya want for nothing?")));
    }

    void digests_cover_every_byte_nul_included() {
        std::string with_nul("a\0b", 3);
        CPPUNIT_ASSERT(sha256_hex(with_nul) != sha256_hex("a"));
        CPPUNIT_ASSERT(md5_hex(with_nul) != md5_hex("a"));
        CPPUNIT_ASSERT(hmac_sha256("k", with_nul) != hmac_sha256("k", "a"));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(DigestTest);
