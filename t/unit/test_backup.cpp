// Unit tests for the names src/cli/backup.cpp gives its archives and for what backup_keep removes:
// only this database's archives, never the one just written, never one dated after it.
#include "cli/backup.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>
#include <vector>

namespace {

using Names = std::vector<std::string>;

const std::string k_written = "cms-backup-cms-20261126-235254.tar";

Names removed(const Names &names, int64_t keep, const std::string &db = "cms") {
    return cms::retention(names, k_written, db, keep).remove;
}

} // namespace

namespace CppUnit {
template <> struct assertion_traits<Names> {
    static bool equal(const Names &a, const Names &b) { return a == b; }
    static std::string toString(const Names &names) {
        std::string out = "[";
        for (const std::string &name : names)
            out += (out.size() > 1 ? ", " : "") + name;
        return out + "]";
    }
};
} // namespace CppUnit

class BackupNamesTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(BackupNamesTest);
    CPPUNIT_TEST(an_archive_is_named_by_database_and_utc_time);
    CPPUNIT_TEST(a_database_name_outside_the_safe_bytes_is_escaped);
    CPPUNIT_TEST(only_exact_archive_names_of_the_database_are_read);
    CPPUNIT_TEST(the_archive_just_written_is_never_removed);
    CPPUNIT_TEST(the_oldest_beyond_keep_are_removed_newest_kept);
    CPPUNIT_TEST(names_given_by_hand_neither_count_nor_go);
    CPPUNIT_TEST(another_database_and_older_names_neither_count_nor_go);
    CPPUNIT_TEST(an_archive_dated_after_the_one_written_neither_counts_nor_goes);
    CPPUNIT_TEST(keep_zero_removes_nothing);
    CPPUNIT_TEST_SUITE_END();

  public:
    void an_archive_is_named_by_database_and_utc_time() {
        // 1764201174: 2025-11-26 23:52:54 UTC.
        CPPUNIT_ASSERT_EQUAL(std::string("cms-backup-cms-20251126-235254.tar"),
                             cms::archive_name("cms", 1764201174));
        CPPUNIT_ASSERT_EQUAL(std::string("20251126-235254"),
                             cms::archive_time(cms::archive_name("cms", 1764201174), "cms"));
    }

    void a_database_name_outside_the_safe_bytes_is_escaped() {
        CPPUNIT_ASSERT_EQUAL(std::string("cms-backup-my-cms_2.x-19700101-000000.tar"),
                             cms::archive_name("my-cms_2.x", 0));
        CPPUNIT_ASSERT_EQUAL(std::string("cms-backup-a%2Fb%25%20c-19700101-000000.tar"),
                             cms::archive_name("a/b% c", 0));
        CPPUNIT_ASSERT_EQUAL(std::string("cms-backup-%C3%A9-19700101-000000.tar"),
                             cms::archive_name("\xc3\xa9", 0));
        CPPUNIT_ASSERT_EQUAL(std::string("19700101-000000"),
                             cms::archive_time(cms::archive_name("a/b% c", 0), "a/b% c"));
    }

    void only_exact_archive_names_of_the_database_are_read() {
        CPPUNIT_ASSERT_EQUAL(std::string("20000101-000000"),
                             cms::archive_time("cms-backup-cms-20000101-000000.tar", "cms"));
        for (const char *name :
             {"cms-backup-cms-20000101-000000.tar.partial", "cms-backup-cms-20000101-00000.tar",
              "cms-backup-cms-2000010x-000000.tar", "cms-backup-cms-20000101_000000.tar",
              "cms-backup-cms-200001010-00000.tar", "cms-backup-cms-20000101-000000.tgz",
              "cms-backup-20000101-000000.tar", "cms-backup-cmsx-20000101-000000.tar",
              "cms-backup-cms-x-20000101-000000.tar", "xcms-backup-cms-20000101-000000.tar",
              ".cms-backup-cms-20000101-000000.tar", "cms-backup-manual.tar", ""})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(name, std::string(), cms::archive_time(name, "cms"));
    }

    // The reproduction of issue 25: with keep 2, the sort put the archive written among the oldest.
    void the_archive_just_written_is_never_removed() {
        Names names = {k_written, "cms-backup-cms-20261126-235253.tar",
                       "cms-backup-cms-20261125-000000.tar"};
        CPPUNIT_ASSERT_EQUAL(Names({"cms-backup-cms-20261126-235253.tar",
                                    "cms-backup-cms-20261125-000000.tar"}),
                             removed(names, 1));
        CPPUNIT_ASSERT_EQUAL(Names({"cms-backup-cms-20261125-000000.tar"}), removed(names, 2));
        CPPUNIT_ASSERT_EQUAL(Names(), removed(names, 3));
    }

    void the_oldest_beyond_keep_are_removed_newest_kept() {
        Names names = {"cms-backup-cms-20000103-000000.tar", k_written,
                       "cms-backup-cms-20000101-000000.tar", "cms-backup-cms-20000104-000000.tar",
                       "cms-backup-cms-20000102-000000.tar"};
        CPPUNIT_ASSERT_EQUAL(Names({"cms-backup-cms-20000102-000000.tar",
                                    "cms-backup-cms-20000101-000000.tar"}),
                             removed(names, 3));
    }

    void names_given_by_hand_neither_count_nor_go() {
        Names names = {"cms-backup-before-upgrade.tar", "cms-backup-manual.tar", k_written,
                       "cms-backup-cms-20000101-000000.tar"};
        CPPUNIT_ASSERT_EQUAL(Names(), removed(names, 2));
        CPPUNIT_ASSERT_EQUAL(Names({"cms-backup-cms-20000101-000000.tar"}), removed(names, 1));
    }

    void another_database_and_older_names_neither_count_nor_go() {
        Names names = {"cms-backup-shop-20000101-000000.tar", "cms-backup-20000101-000000.tar",
                       "cms-backup-cms2-20000101-000000.tar", k_written};
        CPPUNIT_ASSERT_EQUAL(Names(), removed(names, 1));
        CPPUNIT_ASSERT_EQUAL(Names({"cms-backup-shop-20000101-000000.tar"}),
                             cms::retention(names, "cms-backup-shop-20261126-235254.tar", "shop", 1)
                                 .remove);
    }

    void an_archive_dated_after_the_one_written_neither_counts_nor_goes() {
        Names names = {"cms-backup-cms-20991231-000000.tar", k_written,
                       "cms-backup-cms-20000101-000000.tar"};
        cms::Retention plan = cms::retention(names, k_written, "cms", 2);
        CPPUNIT_ASSERT_EQUAL(Names(), plan.remove);
        CPPUNIT_ASSERT_EQUAL(Names({"cms-backup-cms-20991231-000000.tar"}), plan.future);
        plan = cms::retention(names, k_written, "cms", 1);
        CPPUNIT_ASSERT_EQUAL(Names({"cms-backup-cms-20000101-000000.tar"}), plan.remove);
        CPPUNIT_ASSERT_EQUAL(Names({"cms-backup-cms-20991231-000000.tar"}), plan.future);
    }

    void keep_zero_removes_nothing() {
        Names names = {k_written, "cms-backup-cms-20000101-000000.tar"};
        CPPUNIT_ASSERT_EQUAL(Names(), removed(names, 0));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(BackupNamesTest);
