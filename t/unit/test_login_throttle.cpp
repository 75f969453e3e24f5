// Unit tests for src/api/login_throttle.cpp: each limit at its boundary, and the attempts the rule must
// never refuse (another address, an address without failures once the username is at its ceiling),
// and when a captcha is asked in each login_captcha mode.
#include "api/login_throttle.h"
#include "base/config.h"

#include <cppunit/extensions/HelperMacros.h>

using cms::Config;
using cms::login_captcha_asked;
using cms::login_refused;
using cms::LoginFailures;

namespace {

// Limits small enough to read: 3 per pair, 6 per address, 10 per username.
Config limits() {
    Config config;
    config.login_max_failures = 3;
    config.login_address_max_failures = 6;
    config.login_username_max_failures = 10;
    return config;
}

bool refused(int64_t pair, int64_t username, int64_t address) {
    LoginFailures failures;
    failures.pair = pair;
    failures.username = username;
    failures.address = address;
    return login_refused(failures, limits());
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
    CPPUNIT_TEST(captcha_after_failures_is_asked_from_login_captcha_after_on);
    CPPUNIT_TEST(captcha_always_and_off_ignore_the_failures);
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

    void captcha_after_failures_is_asked_from_login_captcha_after_on() {
        Config config;
        CPPUNIT_ASSERT_EQUAL(std::string("after_failures"), config.login_captcha);
        CPPUNIT_ASSERT_EQUAL(int64_t(3), config.login_captcha_after);
        CPPUNIT_ASSERT(!login_captcha_asked(0, config));
        CPPUNIT_ASSERT(!login_captcha_asked(2, config));
        CPPUNIT_ASSERT(login_captcha_asked(3, config));
        CPPUNIT_ASSERT(login_captcha_asked(40, config));
    }

    void captcha_always_and_off_ignore_the_failures() {
        Config config;
        config.login_captcha = "always";
        CPPUNIT_ASSERT(login_captcha_asked(0, config));
        config.login_captcha = "off";
        CPPUNIT_ASSERT(!login_captcha_asked(0, config));
        CPPUNIT_ASSERT(!login_captcha_asked(1000, config));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(LoginThrottleTest);
