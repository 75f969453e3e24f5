// Unit tests for src/base/digest.cpp: SHA-256 and MD5 as lower-case hex, checked against the
// published test vectors (FIPS 180-2 for "abc", RFC 1321 for MD5).
#include "base/digest.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using cms::digest::md5_hex;
using cms::digest::sha256_hex;

class DigestTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(DigestTest);
    CPPUNIT_TEST(sha256_of_the_published_vectors);
    CPPUNIT_TEST(md5_of_the_published_vectors);
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

    void digests_cover_every_byte_nul_included() {
        std::string with_nul("a\0b", 3);
        CPPUNIT_ASSERT(sha256_hex(with_nul) != sha256_hex("a"));
        CPPUNIT_ASSERT(md5_hex(with_nul) != md5_hex("a"));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(DigestTest);
