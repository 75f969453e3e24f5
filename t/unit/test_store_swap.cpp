// Unit tests for src/cli/store_swap.cpp's pure part: which top-level entries of a file store a
// restore swaps (the restored tree's years, and those holding a lin_file row's file of the upload
// layout) and which stay, and when a store counts as holding data.
#include "cli/store_swap.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>
#include <vector>

using cms::store_swap::holds_data;
using cms::store_swap::replaced_names;
using Names = std::vector<std::string>;

class StoreSwapTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(StoreSwapTest);
    CPPUNIT_TEST(swaps_the_restored_entries_and_keeps_the_rest);
    CPPUNIT_TEST(swaps_an_entry_holding_a_row_file_of_either_database);
    CPPUNIT_TEST(a_row_naming_an_entry_not_in_the_store_adds_nothing);
    CPPUNIT_TEST(names_are_sorted_and_once_and_never_a_scratch_directory);
    CPPUNIT_TEST(a_row_path_outside_the_upload_layout_swaps_nothing);
    CPPUNIT_TEST(hidden_entries_are_no_data);
    CPPUNIT_TEST(a_fresh_file_systems_lost_and_found_is_no_data);
    CPPUNIT_TEST_SUITE_END();

  public:
    void swaps_the_restored_entries_and_keeps_the_rest() {
        Names present{".htaccess", "2026", "robots.txt"};
        CPPUNIT_ASSERT(replaced_names(present, {"2026", "2025"}, {}) == (Names{"2025", "2026"}));
    }

    void swaps_an_entry_holding_a_row_file_of_either_database() {
        Names present{".htaccess", "2026", "2024", "robots.txt"};
        Names rows{"2024/03/04/0123abcd.jpg", "2026/01/02/c.png"};
        CPPUNIT_ASSERT(replaced_names(present, {"2025"}, rows) ==
                       (Names{"2024", "2025", "2026"}));
    }

    void a_row_naming_an_entry_not_in_the_store_adds_nothing() {
        CPPUNIT_ASSERT(replaced_names({".htaccess"}, {}, {"2019/01/01/x.png"}) == Names{});
    }

    void names_are_sorted_and_once_and_never_a_scratch_directory() {
        Names present{"2021", "2020", ".cms-restore-AbC123"};
        Names restored{"2021", "2020", ".cms-restore-AbC123"};
        Names rows{"2020/01/01/x.png", "2021/01/01/y.png", ".cms-restore-AbC123/incoming/z",
                   "2020/01/02/w.png"};
        CPPUNIT_ASSERT(replaced_names(present, restored, rows) == (Names{"2020", "2021"}));
    }

    // The replaced database's rows are the pool's account's to write: a row 'important.conf'
    // must not make root move the store's (or a linked directory's) entry of that name.
    void a_row_path_outside_the_upload_layout_swaps_nothing() {
        Names present{"important.conf", "legacy", ".htaccess", "x.php", "2026"};
        Names rows{"important.conf", "legacy/a/b.png", ".htaccess", "x.php", "2026/01/02/c.txt"};
        CPPUNIT_ASSERT(replaced_names(present, {"legacy", ".htaccess"}, rows) == Names{});
    }

    void hidden_entries_are_no_data() {
        CPPUNIT_ASSERT(!holds_data({}));
        CPPUNIT_ASSERT(!holds_data({".htaccess", ".well-known"}));
        CPPUNIT_ASSERT(holds_data({".htaccess", "2026"}));
        CPPUNIT_ASSERT(holds_data({"robots.txt"}));
    }

    void a_fresh_file_systems_lost_and_found_is_no_data() {
        CPPUNIT_ASSERT(!holds_data({"lost+found", ".htaccess"}));
        CPPUNIT_ASSERT(holds_data({"lost+found", "2026"}));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(StoreSwapTest);
