// Unit tests for the pure part of src/db/db.cpp: LIKE patterns that match text literally. The rest of
// the database layer runs against MariaDB in the black-box tests.
#include "db/db.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using cms::db::like_literal;

class DbTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(DbTest);
    CPPUNIT_TEST(like_literal_escapes_wildcards_and_the_escape_character);
    CPPUNIT_TEST_SUITE_END();

  public:
    void like_literal_escapes_wildcards_and_the_escape_character() {
        CPPUNIT_ASSERT_EQUAL(std::string("100\\%"), like_literal("100%"));
        CPPUNIT_ASSERT_EQUAL(std::string("a\\_b"), like_literal("a_b"));
        CPPUNIT_ASSERT_EQUAL(std::string("c:\\\\d"), like_literal("c:\\d"));
        CPPUNIT_ASSERT_EQUAL(std::string("三体"), like_literal("三体"));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(DbTest);
