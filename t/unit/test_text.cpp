// Unit tests for src/base/text.cpp: hex digits and bytes as hex, %XX escaping with a chosen byte class,
// ASCII lower case.
#include "base/text.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using cms::text::hex;
using cms::text::hex_digit;
using cms::text::lower;
using cms::text::percent_escape;

class TextTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(TextTest);
    CPPUNIT_TEST(hex_digits_of_both_cases_and_non_digits);
    CPPUNIT_TEST(hex_writes_two_lower_case_digits_a_byte);
    CPPUNIT_TEST(percent_escape_escapes_only_the_chosen_bytes);
    CPPUNIT_TEST(lower_changes_ascii_letters_only);
    CPPUNIT_TEST_SUITE_END();

  public:
    void hex_digits_of_both_cases_and_non_digits() {
        CPPUNIT_ASSERT_EQUAL(0, hex_digit('0'));
        CPPUNIT_ASSERT_EQUAL(9, hex_digit('9'));
        CPPUNIT_ASSERT_EQUAL(10, hex_digit('a'));
        CPPUNIT_ASSERT_EQUAL(15, hex_digit('F'));
        CPPUNIT_ASSERT_EQUAL(-1, hex_digit('g'));
        CPPUNIT_ASSERT_EQUAL(-1, hex_digit('%'));
    }

    void hex_writes_two_lower_case_digits_a_byte() {
        const unsigned char bytes[] = {0x00, 0x0f, 0xa5, 0xff};
        CPPUNIT_ASSERT_EQUAL(std::string("000fa5ff"), hex(bytes, sizeof bytes));
        CPPUNIT_ASSERT_EQUAL(std::string(""), hex(bytes, 0));
    }

    void percent_escape_escapes_only_the_chosen_bytes() {
        auto high = [](unsigned char c) { return c >= 0x80; };
        CPPUNIT_ASSERT_EQUAL(std::string("GET /a%FF%FE b"), percent_escape("GET /a\xff\xfe b", high));
        auto space = [](unsigned char c) { return c == ' ' || c == '\n'; };
        CPPUNIT_ASSERT_EQUAL(std::string("a%20b%0A"), percent_escape("a b\n", space));
        CPPUNIT_ASSERT_EQUAL(std::string(""), percent_escape("", space));
    }

    void lower_changes_ascii_letters_only() {
        CPPUNIT_ASSERT_EQUAL(std::string("application/json"), lower("Application/JSON"));
        CPPUNIT_ASSERT_EQUAL(std::string(".png"), lower(".PNG"));
        CPPUNIT_ASSERT_EQUAL(std::string("三体ä"), lower("三体ä"));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(TextTest);
