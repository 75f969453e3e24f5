// Unit tests for src/db/dump_scan.cpp: rows per table, the lin_file rows and the binary-log position
// read from mariadb-dump output as mariadb-dump 10.11 writes it (rows of one INSERT on several
// lines, quotes and backslash escapes inside strings).
#include "db/dump_scan.h"

#include <cppunit/extensions/HelperMacros.h>

#include <sstream>
#include <stdexcept>
#include <string>

namespace {

cms::dump::Summary scan(const std::string &text) {
    std::istringstream in(text);
    return cms::dump::scan(in);
}

const char *const k_dump =
    "-- MariaDB dump 10.19  Distrib 10.11.19-MariaDB\n"
    "-- CHANGE MASTER TO MASTER_LOG_FILE='binlog.000002', MASTER_LOG_POS=15927312;\n"
    "DROP TABLE IF EXISTS `book`;\n"
    "CREATE TABLE `book` (\n  `id` int(11) NOT NULL\n);\n"
    "INSERT INTO `book` (`id`, `title`) VALUES (1,'it\\'s; a (test), really'),\n"
    "(2,'two\\nlines'),\n(3,NULL);\n"
    "CREATE TABLE `lin_log` (\n  `id` int(11) NOT NULL\n);\n"
    "CREATE TABLE `lin_file` (\n  `id` int(11) NOT NULL\n);\n"
    "INSERT INTO `lin_file` (`id`, `path`, `type`, `name`, `sha256`) VALUES "
    "(7,'2026/01/01/a.png','LOCAL','a.png','abc'),(8,'2026/01/01/b.png','LOCAL','b''s.png',NULL);\n"
    "-- SET GLOBAL gtid_slave_pos='0-1-29';\n";

} // namespace

class DumpScanTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(DumpScanTest);
    CPPUNIT_TEST(rows_are_counted_per_table_across_lines_and_quotes);
    CPPUNIT_TEST(a_table_without_rows_counts_zero);
    CPPUNIT_TEST(lin_file_rows_give_id_path_name_and_sha256);
    CPPUNIT_TEST(the_binlog_position_and_gtid_are_read);
    CPPUNIT_TEST(a_dump_without_binlog_has_no_position);
    CPPUNIT_TEST(an_insert_without_column_list_is_refused);
    CPPUNIT_TEST(an_unterminated_string_is_refused);
    CPPUNIT_TEST_SUITE_END();

  public:
    void rows_are_counted_per_table_across_lines_and_quotes() {
        CPPUNIT_ASSERT_EQUAL(int64_t(3), scan(k_dump).rows.at("book"));
        CPPUNIT_ASSERT_EQUAL(int64_t(2), scan(k_dump).rows.at("lin_file"));
    }

    void a_table_without_rows_counts_zero() {
        CPPUNIT_ASSERT_EQUAL(int64_t(0), scan(k_dump).rows.at("lin_log"));
        CPPUNIT_ASSERT_EQUAL(size_t(3), scan(k_dump).rows.size());
    }

    void lin_file_rows_give_id_path_name_and_sha256() {
        cms::dump::Summary s = scan(k_dump);
        CPPUNIT_ASSERT_EQUAL(size_t(2), s.files.size());
        CPPUNIT_ASSERT_EQUAL(int64_t(7), s.files[0].id);
        CPPUNIT_ASSERT_EQUAL(std::string("2026/01/01/a.png"), s.files[0].path);
        CPPUNIT_ASSERT_EQUAL(std::string("abc"), s.files[0].sha256.value());
        CPPUNIT_ASSERT_EQUAL(std::string("b's.png"), s.files[1].name);
        CPPUNIT_ASSERT(!s.files[1].sha256);
    }

    void the_binlog_position_and_gtid_are_read() {
        cms::dump::Summary s = scan(k_dump);
        CPPUNIT_ASSERT(s.binlog.has_value());
        CPPUNIT_ASSERT_EQUAL(std::string("binlog.000002"), s.binlog->file);
        CPPUNIT_ASSERT_EQUAL(uint64_t(15927312), s.binlog->position);
        CPPUNIT_ASSERT_EQUAL(std::string("0-1-29"), s.binlog->gtid);
    }

    void a_dump_without_binlog_has_no_position() {
        CPPUNIT_ASSERT(!scan("CREATE TABLE `book` (\n);\n").binlog);
    }

    void an_insert_without_column_list_is_refused() {
        CPPUNIT_ASSERT_THROW(scan("INSERT INTO `book` VALUES (1);\n"), std::runtime_error);
    }

    void an_unterminated_string_is_refused() {
        CPPUNIT_ASSERT_THROW(scan("INSERT INTO `book` (`id`) VALUES ('open);\n"),
                             std::runtime_error);
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(DumpScanTest);
