// Unit tests for src/api/login_throttle.cpp: each limit at its boundary, and the attempts the rule must
// never refuse (another address, an address without failures once the username is at its ceiling),
// and when a captcha is asked in each login_captcha mode; the address a client is counted under.
#include "api/login_throttle.h"
#include "base/config.h"

#include <cppunit/extensions/HelperMacros.h>

using cms::account_throttle_name;
using cms::Config;
using cms::login_captcha_asked;
using cms::login_refused;
using cms::LoginFailures;
using cms::throttle_address;
using cms::username_throttle_name;

namespace {

// Limits small enough to read: 3 per pair, 6 per address, 10 per username.
Config limits() {
    Config config;
    config.login_max_failures = 3;
    config.login_address_max_failures = 6;
    config.login_username_max_failures = 10;
    return config;
}

// pair_checked: of the pair's failures, those whose password was checked (all unless given).
bool refused(int64_t pair, int64_t username, int64_t address, int64_t pair_checked = -1) {
    LoginFailures failures;
    failures.pair = pair;
    failures.pair_checked = pair_checked < 0 ? pair : pair_checked;
    failures.username = username;
    failures.address = address;
    return login_refused(failures, limits());
}

// Whether a captcha is asked, with the defaults (after_failures, from 3), of a check whose pair,
// username and address have failed that often.
bool asked(int64_t pair, int64_t username, int64_t address, const Config &config = Config()) {
    LoginFailures failures;
    failures.pair = pair;
    failures.username = username;
    failures.address = address;
    return login_captcha_asked(failures, config);
}

std::string counted(const std::string &address, int64_t prefix = 64) {
    Config config;
    config.login_ipv6_prefix = prefix;
    return throttle_address(address, config);
}

} // namespace

class LoginThrottleTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(LoginThrottleTest);
    CPPUNIT_TEST(no_failures_is_let_through);
    CPPUNIT_TEST(pair_below_its_limit_is_let_through_and_at_it_refused);
    CPPUNIT_TEST(address_below_its_limit_is_let_through_and_at_it_refused);
    CPPUNIT_TEST(address_at_its_limit_is_refused_for_a_username_it_never_tried);
    CPPUNIT_TEST(username_failures_from_other_addresses_below_the_ceiling_let_anyone_through);
    CPPUNIT_TEST(username_at_its_ceiling_refuses_an_address_that_failed_for_it);
    CPPUNIT_TEST(username_at_its_ceiling_lets_an_address_without_failures_through);
    CPPUNIT_TEST(username_at_its_ceiling_lets_through_an_address_that_failed_only_elsewhere);
    CPPUNIT_TEST(username_at_its_ceiling_lets_through_an_address_refused_only_for_the_captcha);
    CPPUNIT_TEST(captcha_after_failures_is_asked_from_login_captcha_after_on);
    CPPUNIT_TEST(captcha_always_and_off_ignore_the_failures);
    CPPUNIT_TEST(captcha_is_asked_by_address_whatever_the_username);
    CPPUNIT_TEST(captcha_is_asked_by_username_from_every_address);
    CPPUNIT_TEST(ipv4_is_counted_as_it_is);
    CPPUNIT_TEST(ipv6_is_counted_by_its_network_of_64_bits);
    CPPUNIT_TEST(ipv6_spellings_of_one_network_are_one_address);
    CPPUNIT_TEST(ipv6_prefix_follows_the_configuration);
    CPPUNIT_TEST(ipv4_mapped_ipv6_is_its_ipv4_address);
    CPPUNIT_TEST(what_is_not_an_address_is_kept_as_it_is);
    CPPUNIT_TEST(account_name_is_one_per_id_and_no_username);
    CPPUNIT_TEST(a_typed_name_is_kept_as_its_keyed_hash_under_a_derived_key);
    CPPUNIT_TEST(a_typed_name_counts_as_the_column_compared_it);
    CPPUNIT_TEST_SUITE_END();

    void no_failures_is_let_through() { CPPUNIT_ASSERT(!refused(0, 0, 0)); }

    void pair_below_its_limit_is_let_through_and_at_it_refused() {
        CPPUNIT_ASSERT(!refused(2, 2, 2));
        CPPUNIT_ASSERT(refused(3, 3, 3));
    }

    void address_below_its_limit_is_let_through_and_at_it_refused() {
        CPPUNIT_ASSERT(!refused(1, 1, 5));
        CPPUNIT_ASSERT(refused(1, 1, 6));
    }

    void address_at_its_limit_is_refused_for_a_username_it_never_tried() {
        CPPUNIT_ASSERT(refused(0, 0, 6));
    }

    void username_failures_from_other_addresses_below_the_ceiling_let_anyone_through() {
        CPPUNIT_ASSERT(!refused(0, 9, 0));
        CPPUNIT_ASSERT(!refused(2, 9, 2));
    }

    void username_at_its_ceiling_refuses_an_address_that_failed_for_it() {
        CPPUNIT_ASSERT(refused(1, 10, 1));
    }

    void username_at_its_ceiling_lets_an_address_without_failures_through() {
        // The owner, from an address of their own, while others guess at the account.
        CPPUNIT_ASSERT(!refused(0, 10, 0));
        CPPUNIT_ASSERT(!refused(0, 1000, 0));
    }

    void username_at_its_ceiling_lets_through_an_address_that_failed_only_elsewhere() {
        CPPUNIT_ASSERT(!refused(0, 10, 5));
    }

    void username_at_its_ceiling_lets_through_an_address_refused_only_for_the_captcha() {
        // The owner's first try from a fresh address, without the captcha it could not know of.
        CPPUNIT_ASSERT(!refused(1, 10, 1, 0));
        CPPUNIT_ASSERT(refused(2, 10, 2, 1));
    }

    void captcha_after_failures_is_asked_from_login_captcha_after_on() {
        Config config;
        CPPUNIT_ASSERT_EQUAL(std::string("after_failures"), config.login_captcha);
        CPPUNIT_ASSERT_EQUAL(int64_t(3), config.login_captcha_after);
        CPPUNIT_ASSERT(!asked(0, 0, 0));
        CPPUNIT_ASSERT(!asked(2, 2, 2));
        CPPUNIT_ASSERT(asked(3, 3, 3));
        CPPUNIT_ASSERT(asked(40, 40, 40));
    }

    void captcha_always_and_off_ignore_the_failures() {
        Config config;
        config.login_captcha = "always";
        CPPUNIT_ASSERT(asked(0, 0, 0, config));
        config.login_captcha = "off";
        CPPUNIT_ASSERT(!asked(0, 0, 0, config));
        CPPUNIT_ASSERT(!asked(1000, 1000, 1000, config));
    }

    void captcha_is_asked_by_address_whatever_the_username() {
        // Three failures of the address for other usernames; none for this one.
        CPPUNIT_ASSERT(asked(0, 0, 3));
        CPPUNIT_ASSERT(!asked(0, 0, 2));
    }

    void captcha_is_asked_by_username_from_every_address() {
        // A distributed guess: the username failed 3 times, from addresses other than this one.
        CPPUNIT_ASSERT(asked(0, 3, 0));
        CPPUNIT_ASSERT(!asked(0, 2, 0));
        CPPUNIT_ASSERT(asked(0, 500, 0));
    }

    void ipv4_is_counted_as_it_is() {
        CPPUNIT_ASSERT_EQUAL(std::string("192.0.2.1"), counted("192.0.2.1"));
        CPPUNIT_ASSERT_EQUAL(std::string("192.0.2.2"), counted("192.0.2.2"));
    }

    void ipv6_is_counted_by_its_network_of_64_bits() {
        CPPUNIT_ASSERT_EQUAL(std::string("2001:db8:1:2::/64"), counted("2001:db8:1:2::1"));
        CPPUNIT_ASSERT_EQUAL(std::string("2001:db8:1:2::/64"),
                             counted("2001:db8:1:2:ffff:ffff:ffff:ffff"));
        CPPUNIT_ASSERT_EQUAL(std::string("2001:db8:1:3::/64"), counted("2001:db8:1:3::1"));
        CPPUNIT_ASSERT_EQUAL(std::string("::/64"), counted("::1"));
    }

    void ipv6_spellings_of_one_network_are_one_address() {
        CPPUNIT_ASSERT_EQUAL(counted("2001:db8:1:2::1"), counted("2001:DB8:1:2:0:0:0:9"));
        CPPUNIT_ASSERT_EQUAL(counted("2001:db8:1:2::1"), counted("2001:0db8:0001:0002::abcd"));
    }

    void ipv6_prefix_follows_the_configuration() {
        CPPUNIT_ASSERT_EQUAL(std::string("2001:db8:1::/48"), counted("2001:db8:1:2::1", 48));
        CPPUNIT_ASSERT_EQUAL(std::string("2001:db8:1:2:8000::/65"),
                             counted("2001:db8:1:2:ffff::1", 65));
        CPPUNIT_ASSERT_EQUAL(std::string("2001:db8:1:2::1"), counted("2001:db8:1:2::1", 128));
        CPPUNIT_ASSERT(counted("2001:db8:1:2::1", 128) != counted("2001:db8:1:2::2", 128));
    }

    void ipv4_mapped_ipv6_is_its_ipv4_address() {
        CPPUNIT_ASSERT_EQUAL(std::string("192.0.2.1"), counted("::ffff:192.0.2.1"));
    }

    void what_is_not_an_address_is_kept_as_it_is() {
        CPPUNIT_ASSERT_EQUAL(std::string(""), counted(""));
        CPPUNIT_ASSERT_EQUAL(std::string("unix:"), counted("unix:"));
        CPPUNIT_ASSERT_EQUAL(std::string("fe80::1%eth0"), counted("fe80::1%eth0"));
    }

    // lin_user.username is varchar(24): a longer name is no user's, and fits the failure
    // table's 100 characters for any id.
    void account_name_is_one_per_id_and_no_username() {
        CPPUNIT_ASSERT_EQUAL(std::string("(the account of user id 1)"), account_throttle_name(1));
        CPPUNIT_ASSERT(account_throttle_name(1) != account_throttle_name(11));
        CPPUNIT_ASSERT(account_throttle_name(1).size() > 24);
        CPPUNIT_ASSERT(account_throttle_name(INT64_MAX).size() <= 100);
    }

    // Known answer: HMAC-SHA256(HMAC-SHA256(secret, "cms-fcgi login failure username v1"),
    // "alice"), as Python's hmac computes it; not HMAC-SHA256(secret, "alice") (f9ec79a4...),
    // which would make the JWT key the failure key.
    void a_typed_name_is_kept_as_its_keyed_hash_under_a_derived_key() {
        const std::string secret = "a jwt secret of thirty-two bytes!";
        CPPUNIT_ASSERT_EQUAL(
            std::string("cec92a3fa1121fdd097fb9619d45e2a9ce0be9f79a57435ce199a02488db4b5c"),
            username_throttle_name("alice", secret));
        CPPUNIT_ASSERT(username_throttle_name("alice", secret) !=
                       username_throttle_name("alice", "another secret of thirty-two bytes"));
        CPPUNIT_ASSERT(username_throttle_name("alice", secret) !=
                       username_throttle_name("alicf", secret));
    }

    // The column's utf8mb4_unicode_520_ci counted "Alice " and "alice" as one name.
    void a_typed_name_counts_as_the_column_compared_it() {
        const std::string secret = "a jwt secret of thirty-two bytes!";
        CPPUNIT_ASSERT_EQUAL(username_throttle_name("alice", secret),
                             username_throttle_name("ALICE  ", secret));
        CPPUNIT_ASSERT(username_throttle_name("alice", secret) !=
                       username_throttle_name(" alice", secret));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LoginThrottleTest);
