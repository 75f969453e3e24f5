// Unit tests for src/db/schema.cpp: recognising a database by its tables and recorded version, and
// the plan of migration files between two versions.
#include "db/schema.h"

#include <cppunit/extensions/HelperMacros.h>

#include <stdexcept>
#include <string>
#include <vector>

using cms::schema::plan;
using cms::schema::recognise;
using cms::schema::State;

namespace {

const std::vector<std::string> k_released = {
    "book",    "cms_login_failure", "lin_file", "lin_group",      "lin_group_permission",
    "lin_log", "lin_permission",    "lin_user", "lin_user_group", "lin_user_identity",
};

std::vector<std::string> with(std::vector<std::string> tables, const std::string &table) {
    tables.push_back(table);
    return tables;
}

} // namespace

class SchemaTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(SchemaTest);
    CPPUNIT_TEST(no_tables_is_an_empty_database);
    CPPUNIT_TEST(the_released_tables_without_a_version_are_version_1);
    CPPUNIT_TEST(a_recorded_version_is_taken_newer_ones_included);
    CPPUNIT_TEST(a_table_that_is_not_ours_makes_it_unknown);
    CPPUNIT_TEST(some_lin_tables_without_a_version_are_unknown);
    CPPUNIT_TEST(an_empty_version_table_is_unknown);
    CPPUNIT_TEST(plan_lists_the_files_after_from_in_order);
    CPPUNIT_TEST(plan_is_empty_when_up_to_date);
    CPPUNIT_TEST(plan_refuses_a_gap_a_duplicate_and_a_newer_file);
    CPPUNIT_TEST_SUITE_END();

  public:
    void no_tables_is_an_empty_database() {
        CPPUNIT_ASSERT(recognise({}, std::nullopt).kind == State::Kind::empty);
    }

    void the_released_tables_without_a_version_are_version_1() {
        State s = recognise(k_released, std::nullopt);
        CPPUNIT_ASSERT(s.kind == State::Kind::known);
        CPPUNIT_ASSERT_EQUAL(int64_t(1), s.version);
    }

    void a_recorded_version_is_taken_newer_ones_included() {
        State s = recognise(with(k_released, "cms_schema_version"), 2);
        CPPUNIT_ASSERT(s.kind == State::Kind::known);
        CPPUNIT_ASSERT_EQUAL(int64_t(2), s.version);
        CPPUNIT_ASSERT_EQUAL(int64_t(7),
                             recognise(with(k_released, "cms_schema_version"), 7).version);
    }

    void a_table_that_is_not_ours_makes_it_unknown() {
        State s = recognise(with(with(k_released, "wp_posts"), "cms_schema_version"), 2);
        CPPUNIT_ASSERT(s.kind == State::Kind::unknown);
        CPPUNIT_ASSERT_EQUAL(std::string("tables that are not cms-fcgi's: wp_posts"), s.reason);
    }

    void some_lin_tables_without_a_version_are_unknown() {
        State s = recognise({"lin_user", "lin_group", "book"}, std::nullopt);
        CPPUNIT_ASSERT(s.kind == State::Kind::unknown);
        CPPUNIT_ASSERT(s.reason.find("no cms_login_failure") != std::string::npos);
    }

    void an_empty_version_table_is_unknown() {
        State s = recognise(with(k_released, "cms_schema_version"), std::nullopt);
        CPPUNIT_ASSERT(s.kind == State::Kind::unknown);
        CPPUNIT_ASSERT_EQUAL(std::string("cms_schema_version has no row"), s.reason);
    }

    void plan_lists_the_files_after_from_in_order() {
        auto steps =
            plan({"README.md", "0003-c.sql", "0001-released.sql", "0002-b.sql", "."}, 1, 3);
        CPPUNIT_ASSERT_EQUAL(size_t(2), steps.size());
        CPPUNIT_ASSERT_EQUAL(int64_t(2), steps[0].version);
        CPPUNIT_ASSERT_EQUAL(std::string("0002-b.sql"), steps[0].file);
        CPPUNIT_ASSERT_EQUAL(std::string("0003-c.sql"), steps[1].file);
    }

    void plan_is_empty_when_up_to_date() {
        CPPUNIT_ASSERT(plan({"0001-released.sql", "0002-b.sql"}, 2, 2).empty());
    }

    void plan_refuses_a_gap_a_duplicate_and_a_newer_file() {
        CPPUNIT_ASSERT_THROW(plan({"0001-a.sql", "0003-c.sql"}, 1, 3), std::runtime_error);
        CPPUNIT_ASSERT_THROW(plan({"0002-a.sql", "0002-b.sql"}, 1, 2), std::runtime_error);
        CPPUNIT_ASSERT_THROW(plan({"0002-a.sql", "0003-b.sql"}, 1, 2), std::runtime_error);
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(SchemaTest);
