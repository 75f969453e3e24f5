// Unit tests for src/base/log.cpp: the escape every log line passes through (control characters
// as \xHH, everything else, UTF-8 included, as it is).
#include "base/log.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using cms::log_escape;

class LogTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(LogTest);
    CPPUNIT_TEST(line_breaks_cannot_start_a_line_of_their_own);
    CPPUNIT_TEST(every_c0_byte_and_del_is_escaped);
    CPPUNIT_TEST(printable_text_and_utf8_pass_unchanged);
    CPPUNIT_TEST_SUITE_END();

  public:
    void line_breaks_cannot_start_a_line_of_their_own() {
        CPPUNIT_ASSERT_EQUAL(std::string("member 'files/x\\x0a* * * * * root sh /tmp/x\\x0d'"),
                             log_escape("member 'files/x\n* * * * * root sh /tmp/x\r'"));
        CPPUNIT_ASSERT_EQUAL(std::string("\\x1b[2J\\x09tab"), log_escape("\x1b[2J\ttab"));
    }

    void every_c0_byte_and_del_is_escaped() {
        for (int c = 0; c < 0x20; ++c)
            CPPUNIT_ASSERT_EQUAL(size_t{4},
                                 log_escape(std::string(1, static_cast<char>(c))).size());
        CPPUNIT_ASSERT_EQUAL(std::string("\\x00"), log_escape(std::string(1, '\0')));
        CPPUNIT_ASSERT_EQUAL(std::string("\\x7f"), log_escape("\x7f"));
    }

    void printable_text_and_utf8_pass_unchanged() {
        std::string text = "restore failed: '/var/lib/cms-fcgi/backups/a b.tar' \\ \"q\" "
                           "\xe4\xb8\xad\xe6\x96\x87 ~";
        CPPUNIT_ASSERT_EQUAL(text, log_escape(text));
        CPPUNIT_ASSERT_EQUAL(std::string(""), log_escape(""));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LogTest);
