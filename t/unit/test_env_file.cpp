// Unit tests for src/base/env_file.cpp: KEY=VALUE lines into the environment, comments and quotes, a
// malformed line refused with its file and line.
#include "base/env_file.h"

#include <cppunit/extensions/HelperMacros.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>

#include <unistd.h>

using cms::load_env_file;

namespace {

// A file holding text, removed when the test ends.
struct TempFile {
    std::string path;
    explicit TempFile(const std::string &text) {
        char name[] = "/tmp/test_env_file.XXXXXX";
        int fd = mkstemp(name);
        close(fd);
        path = name;
        std::ofstream(path) << text;
    }
    ~TempFile() { unlink(path.c_str()); }
};

std::string env(const char *name) {
    const char *value = std::getenv(name);
    return value != nullptr ? value : "(unset)";
}

} // namespace

class EnvFileTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(EnvFileTest);
    CPPUNIT_TEST(sets_each_key_over_the_environment);
    CPPUNIT_TEST(skips_comments_and_blank_lines_and_drops_quotes);
    CPPUNIT_TEST(refuses_a_line_without_a_key_naming_file_and_line);
    CPPUNIT_TEST(refuses_a_file_it_cannot_read);
    CPPUNIT_TEST(refuses_what_systemd_reads_otherwise);
    CPPUNIT_TEST_SUITE_END();

  public:
    void sets_each_key_over_the_environment() {
        setenv("TEST_ENV_A", "old", 1);
        TempFile file("TEST_ENV_A=new\nTEST_ENV_B=b=c\nTEST_ENV_EMPTY=\n");
        load_env_file(file.path);
        CPPUNIT_ASSERT_EQUAL(std::string("new"), env("TEST_ENV_A"));
        CPPUNIT_ASSERT_EQUAL(std::string("b=c"), env("TEST_ENV_B"));
        CPPUNIT_ASSERT_EQUAL(std::string(""), env("TEST_ENV_EMPTY"));
    }

    void skips_comments_and_blank_lines_and_drops_quotes() {
        TempFile file("# a comment\n\n; another\n  TEST_ENV_C = \"two words\"  \nTEST_ENV_D='x'\n");
        load_env_file(file.path);
        CPPUNIT_ASSERT_EQUAL(std::string("two words"), env("TEST_ENV_C"));
        CPPUNIT_ASSERT_EQUAL(std::string("x"), env("TEST_ENV_D"));
    }

    void refuses_a_line_without_a_key_naming_file_and_line() {
        TempFile file("TEST_ENV_E=1\nexport TEST_ENV_F=2\n");
        try {
            load_env_file(file.path);
            CPPUNIT_FAIL("a line without KEY= was taken");
        } catch (const std::runtime_error &e) {
            CPPUNIT_ASSERT_EQUAL(file.path + ":2: not a KEY=VALUE line", std::string(e.what()));
        }
    }

    void refuses_what_systemd_reads_otherwise() {
        for (const char *line : {"TEST_ENV_G=a\\b\n", "TEST_ENV_G=a\\\n", "TEST_ENV_G=a\"b c\"\n",
                                 "TEST_ENV_G=\"a\"b\"\n", "TEST_ENV_G='a'b'\n", "TEST_ENV_G=\"a\n"}) {
            TempFile file(std::string("TEST_ENV_H=1\n") + line);
            try {
                load_env_file(file.path);
                CPPUNIT_FAIL(std::string("taken: ") + line);
            } catch (const std::runtime_error &e) {
                CPPUNIT_ASSERT_EQUAL(file.path + ":2: a backslash or a quote inside the value, "
                                                 "which systemd reads otherwise",
                                     std::string(e.what()));
            }
        }
        TempFile file("TEST_ENV_I=\"it's\"\nTEST_ENV_J='say \"x\"'\n");
        load_env_file(file.path);
        CPPUNIT_ASSERT_EQUAL(std::string("it's"), env("TEST_ENV_I"));
        CPPUNIT_ASSERT_EQUAL(std::string("say \"x\""), env("TEST_ENV_J"));
    }

    void refuses_a_file_it_cannot_read() {
        CPPUNIT_ASSERT_THROW(load_env_file("/nonexistent/cms.env"), std::runtime_error);
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(EnvFileTest);
