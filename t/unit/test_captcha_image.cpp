// Unit tests for src/auth/captcha_image.cpp: a PNG of the announced size, small enough for a data:
// URL, different each time for one code, and no picture for a code it cannot hold.
#include "auth/captcha_image.h"

#include "auth/captcha.h"

#include <cppunit/extensions/HelperMacros.h>

#include <stdexcept>
#include <string>

namespace captcha = cms::captcha;

namespace {

// The big-endian 32-bit number at offset of bytes.
uint32_t be32(const std::string &bytes, std::size_t offset) {
    uint32_t n = 0;
    for (std::size_t i = 0; i < 4; ++i)
        n = n << 8 | static_cast<unsigned char>(bytes.at(offset + i));
    return n;
}

} // namespace

class CaptchaImageTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(CaptchaImageTest);
    CPPUNIT_TEST(png_has_the_signature_and_the_announced_size);
    CPPUNIT_TEST(png_stays_under_6_kib);
    CPPUNIT_TEST(two_pictures_of_one_code_differ);
    CPPUNIT_TEST(empty_or_long_code_is_refused);
    CPPUNIT_TEST_SUITE_END();

  public:
    void png_has_the_signature_and_the_announced_size() {
        std::string png = captcha::png("AB3DE");
        CPPUNIT_ASSERT_EQUAL(std::string("\x89PNG\r\n\x1a\n"), png.substr(0, 8));
        CPPUNIT_ASSERT_EQUAL(std::string("IHDR"), png.substr(12, 4));
        CPPUNIT_ASSERT_EQUAL(uint32_t(captcha::k_image_width), be32(png, 16));
        CPPUNIT_ASSERT_EQUAL(uint32_t(captcha::k_image_height), be32(png, 20));
    }

    void png_stays_under_6_kib() {
        for (int i = 0; i < 200; ++i)
            CPPUNIT_ASSERT(captcha::png(captcha::new_code()).size() <= 6144);
    }

    void two_pictures_of_one_code_differ() {
        CPPUNIT_ASSERT(captcha::png("AB3DE") != captcha::png("AB3DE"));
    }

    void empty_or_long_code_is_refused() {
        CPPUNIT_ASSERT_THROW(captcha::png(""), std::runtime_error);
        CPPUNIT_ASSERT_THROW(captcha::png("ABCDEFGHJ"), std::runtime_error);
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(CaptchaImageTest);
