// Unit tests for src/base/address_list.cpp: which client addresses a status_allow list lets in,
// entry by entry, and which entries the configuration check refuses.
#include "base/address_list.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>
#include <vector>

using cms::address_list::entry_error;
using cms::address_list::matches;

namespace {

bool in(const std::string &entry, const std::string &remote) {
    return matches(std::vector<std::string>{entry}, remote);
}

} // namespace

class AddressListTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(AddressListTest);
    CPPUNIT_TEST(an_ipv4_address_matches_only_itself);
    CPPUNIT_TEST(an_ipv4_block_ends_at_its_prefix);
    CPPUNIT_TEST(a_prefix_inside_a_byte_splits_that_byte);
    CPPUNIT_TEST(an_ipv6_address_matches_however_it_is_written);
    CPPUNIT_TEST(an_ipv6_block_ends_at_its_prefix);
    CPPUNIT_TEST(families_never_match_each_other);
    CPPUNIT_TEST(an_ipv4_mapped_address_matches_as_ipv4);
    CPPUNIT_TEST(unix_matches_only_a_unix_socket_client);
    CPPUNIT_TEST(star_matches_anything);
    CPPUNIT_TEST(any_entry_of_the_list_lets_in);
    CPPUNIT_TEST(an_empty_list_and_an_odd_remote_let_nothing_in);
    CPPUNIT_TEST(entries_the_check_accepts);
    CPPUNIT_TEST(entries_the_check_refuses);
    CPPUNIT_TEST_SUITE_END();

  public:
    void an_ipv4_address_matches_only_itself() {
        CPPUNIT_ASSERT(in("127.0.0.1", "127.0.0.1"));
        CPPUNIT_ASSERT(!in("127.0.0.1", "127.0.0.10"));  // shares the text's beginning
        CPPUNIT_ASSERT(!in("127.0.0.10", "127.0.0.1"));
        CPPUNIT_ASSERT(!in("127.0.0.1", "127.0.0.2"));
        CPPUNIT_ASSERT(!in("127.0.0.1", "227.0.0.1"));
        CPPUNIT_ASSERT(!in("10.0.0.5", "10.0.0.50"));
        CPPUNIT_ASSERT(in("10.0.0.5/32", "10.0.0.5"));
        CPPUNIT_ASSERT(!in("10.0.0.5/32", "10.0.0.4"));
    }

    void an_ipv4_block_ends_at_its_prefix() {
        CPPUNIT_ASSERT(in("10.1.2.0/24", "10.1.2.0"));
        CPPUNIT_ASSERT(in("10.1.2.0/24", "10.1.2.255"));
        CPPUNIT_ASSERT(!in("10.1.2.0/24", "10.1.3.0"));
        CPPUNIT_ASSERT(!in("10.1.2.0/24", "10.1.1.255"));
        CPPUNIT_ASSERT(in("10.0.0.0/8", "10.255.255.255"));
        CPPUNIT_ASSERT(!in("10.0.0.0/8", "11.0.0.0"));
        CPPUNIT_ASSERT(!in("10.0.0.0/8", "9.255.255.255"));
        CPPUNIT_ASSERT(in("0.0.0.0/0", "203.0.113.9"));
        // The bits past the prefix of the entry itself do not count.
        CPPUNIT_ASSERT(in("10.1.2.77/24", "10.1.2.3"));
    }

    void a_prefix_inside_a_byte_splits_that_byte() {
        CPPUNIT_ASSERT(in("192.168.1.64/26", "192.168.1.64"));
        CPPUNIT_ASSERT(in("192.168.1.64/26", "192.168.1.127"));
        CPPUNIT_ASSERT(!in("192.168.1.64/26", "192.168.1.128"));
        CPPUNIT_ASSERT(!in("192.168.1.64/26", "192.168.1.63"));
        CPPUNIT_ASSERT(in("172.16.0.0/12", "172.31.255.255"));
        CPPUNIT_ASSERT(!in("172.16.0.0/12", "172.32.0.0"));
        CPPUNIT_ASSERT(!in("172.16.0.0/12", "172.15.255.255"));
        CPPUNIT_ASSERT(in("128.0.0.0/1", "255.0.0.1"));
        CPPUNIT_ASSERT(!in("128.0.0.0/1", "127.255.255.255"));
        CPPUNIT_ASSERT(in("10.0.0.4/31", "10.0.0.5"));
        CPPUNIT_ASSERT(!in("10.0.0.4/31", "10.0.0.6"));
    }

    void an_ipv6_address_matches_however_it_is_written() {
        CPPUNIT_ASSERT(in("::1", "::1"));
        CPPUNIT_ASSERT(in("::1", "0:0:0:0:0:0:0:1"));
        CPPUNIT_ASSERT(in("0000:0000::0001", "::1"));
        CPPUNIT_ASSERT(in("2001:db8::a", "2001:DB8:0:0::A"));
        CPPUNIT_ASSERT(!in("::1", "::10"));
        CPPUNIT_ASSERT(!in("::1", "::1:0"));
        CPPUNIT_ASSERT(!in("::1", "::2"));
        CPPUNIT_ASSERT(!in("2001:db8::a", "2001:db8::a:0"));
    }

    void an_ipv6_block_ends_at_its_prefix() {
        CPPUNIT_ASSERT(in("2001:db8:1:2::/64", "2001:db8:1:2:ffff:ffff:ffff:ffff"));
        CPPUNIT_ASSERT(in("2001:db8:1:2::/64", "2001:db8:1:2::"));
        CPPUNIT_ASSERT(!in("2001:db8:1:2::/64", "2001:db8:1:3::"));
        CPPUNIT_ASSERT(!in("2001:db8:1:2::/64", "2001:db8:1:1:ffff:ffff:ffff:ffff"));
        CPPUNIT_ASSERT(in("2001:db8::/33", "2001:db8:7fff::1"));
        CPPUNIT_ASSERT(!in("2001:db8::/33", "2001:db8:8000::1"));
        CPPUNIT_ASSERT(in("fe80::/10", "febf::1"));
        CPPUNIT_ASSERT(!in("fe80::/10", "fec0::1"));
        CPPUNIT_ASSERT(in("::/0", "2001:db8::1"));
        CPPUNIT_ASSERT(in("2001:db8::1/128", "2001:db8::1"));
        CPPUNIT_ASSERT(!in("2001:db8::1/128", "2001:db8::"));
    }

    void families_never_match_each_other() {
        CPPUNIT_ASSERT(!in("0.0.0.0/0", "::1"));
        CPPUNIT_ASSERT(!in("::/0", "127.0.0.1"));
        CPPUNIT_ASSERT(!in("::1", "127.0.0.1"));
        CPPUNIT_ASSERT(!in("127.0.0.1", "::1"));
        // ::7f00:1 holds 127.0.0.1's bytes, but is no IPv4-mapped address.
        CPPUNIT_ASSERT(!in("127.0.0.1", "::7f00:1"));
    }

    void an_ipv4_mapped_address_matches_as_ipv4() {
        CPPUNIT_ASSERT(in("127.0.0.1", "::ffff:127.0.0.1"));
        CPPUNIT_ASSERT(!in("127.0.0.1", "::ffff:127.0.0.2"));
        CPPUNIT_ASSERT(in("10.0.0.0/8", "::ffff:10.9.8.7"));
        CPPUNIT_ASSERT(in("::ffff:10.0.0.0/104", "10.9.8.7"));
        CPPUNIT_ASSERT(!in("::ffff:10.0.0.0/104", "11.0.0.1"));
        CPPUNIT_ASSERT(in("::ffff:127.0.0.1", "127.0.0.1"));
    }

    void unix_matches_only_a_unix_socket_client() {
        CPPUNIT_ASSERT(in("unix:", "unix:"));
        CPPUNIT_ASSERT(!in("unix:", "127.0.0.1"));
        CPPUNIT_ASSERT(!in("unix:", "::1"));
        CPPUNIT_ASSERT(!in("unix:", ""));
        CPPUNIT_ASSERT(!in("unix:", "unix:/run/x.sock"));
        CPPUNIT_ASSERT(!in("127.0.0.1", "unix:"));
        CPPUNIT_ASSERT(!in("::1", "unix:"));
        CPPUNIT_ASSERT(!in("0.0.0.0/0", "unix:"));
        CPPUNIT_ASSERT(!in("::/0", "unix:"));
    }

    void star_matches_anything() {
        CPPUNIT_ASSERT(in("*", "203.0.113.9"));
        CPPUNIT_ASSERT(in("*", "2001:db8::1"));
        CPPUNIT_ASSERT(in("*", "unix:"));
        CPPUNIT_ASSERT(in("*", ""));
    }

    void any_entry_of_the_list_lets_in() {
        const std::vector<std::string> list = {"127.0.0.1", "::1", "10.0.0.0/8", "unix:"};
        CPPUNIT_ASSERT(matches(list, "127.0.0.1"));
        CPPUNIT_ASSERT(matches(list, "::1"));
        CPPUNIT_ASSERT(matches(list, "10.2.3.4"));
        CPPUNIT_ASSERT(matches(list, "unix:"));
        CPPUNIT_ASSERT(!matches(list, "127.0.0.2"));
        CPPUNIT_ASSERT(!matches(list, "192.0.2.7"));
        CPPUNIT_ASSERT(!matches(list, "::2"));
        // The default: loopback only, not a client of a web server on a unix socket.
        const std::vector<std::string> loopback = {"127.0.0.1", "::1"};
        CPPUNIT_ASSERT(matches(loopback, "127.0.0.1"));
        CPPUNIT_ASSERT(matches(loopback, "::1"));
        CPPUNIT_ASSERT(!matches(loopback, "unix:"));
        CPPUNIT_ASSERT(!matches(loopback, "127.0.0.2"));
    }

    void an_empty_list_and_an_odd_remote_let_nothing_in() {
        CPPUNIT_ASSERT(!matches({}, "127.0.0.1"));
        CPPUNIT_ASSERT(!matches({}, "unix:"));
        const std::vector<std::string> list = {"127.0.0.1", "0.0.0.0/0", "::/0"};
        CPPUNIT_ASSERT(!matches(list, ""));
        CPPUNIT_ASSERT(!matches(list, "localhost"));
        CPPUNIT_ASSERT(!matches(list, "127.0.0.1 "));
        CPPUNIT_ASSERT(!matches(list, "127.0.0.1/8"));
        CPPUNIT_ASSERT(!matches(list, "fe80::1%eth0"));
        // An entry the check refuses matches nothing, not even its own text.
        CPPUNIT_ASSERT(!in("localhost", "localhost"));
        CPPUNIT_ASSERT(!in("10.0.0.0/33", "10.0.0.0"));
    }

    void entries_the_check_accepts() {
        for (const char *entry : {"*", "unix:", "127.0.0.1", "::1", "10.0.0.0/8", "0.0.0.0/0",
                                  "10.0.0.5/32", "2001:db8::/32", "::/0", "::1/128",
                                  "::ffff:10.0.0.0/104"})
            CPPUNIT_ASSERT_EQUAL_MESSAGE(entry, std::string(), entry_error(entry));
    }

    void entries_the_check_refuses() {
        for (const char *entry : {"", "localhost", "unix", "unix:/run/x.sock", "127.0.0",
                                  "127.0.0.256", "10.0.0.0/33", "::/129", "10.0.0.0/", "/8",
                                  "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.0/8/8", "10.0.0.0/0008",
                                  "10.0.0.0/ 8", "fe80::1%eth0", "**", "127.0.0.1:80"}) {
            std::string error = entry_error(entry);
            CPPUNIT_ASSERT_MESSAGE(entry, !error.empty());
            CPPUNIT_ASSERT_MESSAGE(error, error.find(std::string("'") + entry + "'") == 0);
        }
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(AddressListTest);
