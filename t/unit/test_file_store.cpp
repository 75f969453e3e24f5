// Unit tests for src/db/file_store.cpp's pure part: the names of the upload layout, the only ones
// a restore writes into the file store or moves in it. Saving is t/0400-file-upload.t's.
#include "db/file_store.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using cms::upload_layout;

class FileStoreTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(FileStoreTest);
    CPPUNIT_TEST(what_save_makes_is_of_the_layout);
    CPPUNIT_TEST(a_lin_cms_name_is_of_the_layout);
    CPPUNIT_TEST(a_name_the_web_server_could_run_or_obey_is_not);
    CPPUNIT_TEST(a_name_off_the_date_directories_is_not);
    CPPUNIT_TEST_SUITE_END();

  public:
    void what_save_makes_is_of_the_layout() {
        CPPUNIT_ASSERT(upload_layout("2026/01/31/0123456789abcdef0123456789abcdef.png"));
        CPPUNIT_ASSERT(upload_layout("2026/01/31/0123456789abcdef0123456789abcdef.jpeg"));
        CPPUNIT_ASSERT(upload_layout("2026/01/31/0123456789abcdef0123456789abcdef.gif"));
    }

    void a_lin_cms_name_is_of_the_layout() {
        CPPUNIT_ASSERT(upload_layout("2019/08/12/3b0c1d6e-1a2b-4c3d-8e9f-0a1b2c3d4e5f.JPG"));
        CPPUNIT_ASSERT(upload_layout("2020/01/01/legacy_name.png"));
    }

    void a_name_the_web_server_could_run_or_obey_is_not() {
        CPPUNIT_ASSERT(!upload_layout(".htaccess"));
        CPPUNIT_ASSERT(!upload_layout("x.php"));
        CPPUNIT_ASSERT(!upload_layout("2026/01/31/x.php"));
        CPPUNIT_ASSERT(!upload_layout("2026/01/31/x.png.php"));
        CPPUNIT_ASSERT(!upload_layout("2026/01/31/x.php.png"));
        CPPUNIT_ASSERT(!upload_layout("2026/01/31/.htaccess"));
        CPPUNIT_ASSERT(!upload_layout("2026/01/31/x"));
    }

    void a_name_off_the_date_directories_is_not() {
        CPPUNIT_ASSERT(!upload_layout("important.conf"));
        CPPUNIT_ASSERT(!upload_layout("legacy/old.png"));
        CPPUNIT_ASSERT(!upload_layout("2026/1/31/x.png"));
        CPPUNIT_ASSERT(!upload_layout("2026/01/31/a/x.png"));
        CPPUNIT_ASSERT(!upload_layout("2026/01/31/../x.png"));
        CPPUNIT_ASSERT(!upload_layout("/2026/01/31/x.png"));
        CPPUNIT_ASSERT(!upload_layout("2026/01/31/"));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(FileStoreTest);
