// Unit tests for src/http/authorize.cpp: the Authorization header's token (bearer_token). The token checks
// that need a user row are covered by the black-box tests (t/0202-auth-token-errors.t).
#include "base/errors.h"
#include "http/authorize.h"

#include <cppunit/extensions/HelperMacros.h>

#include <string>

using cms::ApiError;
using cms::bearer_token;
using cms::Code;

namespace {

// The code bearer_token raises for header (its status must be 401), or 0 when it returns a token.
int rejection(const std::string &header) {
    try {
        bearer_token(header);
    } catch (const ApiError &e) {
        CPPUNIT_ASSERT_EQUAL(401, e.status);
        return static_cast<int>(e.code);
    }
    return 0;
}

int num(Code code) {
    return static_cast<int>(code);
}

} // namespace

class AuthTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(AuthTest);
    CPPUNIT_TEST(bearer_header_gives_the_token_unchanged);
    CPPUNIT_TEST(empty_or_blank_header_is_missing);
    CPPUNIT_TEST(other_schemes_and_case_are_malformed);
    CPPUNIT_TEST(bearer_without_token_is_malformed);
    CPPUNIT_TEST(extra_spaces_are_malformed);
    CPPUNIT_TEST_SUITE_END();

  public:
    void bearer_header_gives_the_token_unchanged() {
        CPPUNIT_ASSERT_EQUAL(std::string("a.b.c"), bearer_token("Bearer a.b.c"));
        // Only the scheme is checked here; the token's shape is jwt::decode's business.
        CPPUNIT_ASSERT_EQUAL(std::string("not-a-jwt"), bearer_token("Bearer not-a-jwt"));
    }

    void empty_or_blank_header_is_missing() {
        CPPUNIT_ASSERT_EQUAL(num(Code::auth_header_missing), rejection(""));
        CPPUNIT_ASSERT_EQUAL(num(Code::auth_header_missing), rejection("   "));
    }

    void other_schemes_and_case_are_malformed() {
        CPPUNIT_ASSERT_EQUAL(num(Code::auth_header_malformed), rejection("Basic cm9vdDp4"));
        CPPUNIT_ASSERT_EQUAL(num(Code::auth_header_malformed), rejection("bearer a.b.c"));
        CPPUNIT_ASSERT_EQUAL(num(Code::auth_header_malformed), rejection("Bearera.b.c"));
        CPPUNIT_ASSERT_EQUAL(num(Code::auth_header_malformed), rejection("a.b.c"));
    }

    void bearer_without_token_is_malformed() {
        CPPUNIT_ASSERT_EQUAL(num(Code::auth_header_malformed), rejection("Bearer"));
        CPPUNIT_ASSERT_EQUAL(num(Code::auth_header_malformed), rejection("Bearer "));
    }

    void extra_spaces_are_malformed() {
        CPPUNIT_ASSERT_EQUAL(num(Code::auth_header_malformed), rejection("Bearer  a.b.c"));
        CPPUNIT_ASSERT_EQUAL(num(Code::auth_header_malformed), rejection("Bearer a.b.c "));
        CPPUNIT_ASSERT_EQUAL(num(Code::auth_header_malformed), rejection(" Bearer a.b.c"));
    }
};

CPPUNIT_TEST_SUITE_REGISTRATION(AuthTest);
