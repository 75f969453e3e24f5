// Unit tests for src/http/router.cpp: matching over a small local table (captures, literal over
// parameter, 404 and 405 with Allow), declared permissions, body caps, and two facts of the
// shipped table.
#include "base/config.h"
#include "http/response.h"
#include "http/router.h"

#include <cppunit/extensions/HelperMacros.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

using cms::Access;
using cms::body_cap;
using cms::Config;
using cms::Ctx;
using cms::declared_permissions;
using cms::Permission;
using cms::Request;
using cms::Response;
using cms::Route;
using cms::Router;

namespace {

Response dummy(const Request &, Ctx &) {
    return Response::empty(204);
}

constexpr Permission k_none{};
constexpr Permission k_perm_delete{"图书", "删除图书"};
constexpr Permission k_perm_search{"日志", "搜索日志"};

std::vector<Route> local_routes() {
    return {
        {"GET", "/v1/book", Access::everyone, k_none, dummy},
        {"POST", "/v1/book", Access::login, k_none, dummy},
        {"GET", "/v1/book/search", Access::everyone, k_none, dummy},
        {"GET", "/v1/book/{id}", Access::everyone, k_none, dummy},
        {"PUT", "/v1/book/{id}", Access::login, k_none, dummy},
        {"DELETE", "/v1/book/{id}", Access::group, k_perm_delete, dummy},
        {"GET", "/healthz", Access::everyone, k_none, dummy},
    };
}

// The default body limits: max_body_bytes 1 MiB, file_total_limit 10 MiB.
Config caps() {
    Config config;
    config.max_body_bytes = 1048576;
    config.file_total_limit = 10485760;
    return config;
}

// "METHOD pattern" of the matched route, "none" without one.
std::string route_of(const Router::Match &m) {
    return m.route == nullptr ? "none" : std::string(m.route->method) + " " + m.route->pattern;
}

std::string joined(const std::vector<std::string> &items) {
    std::string out;
    for (const std::string &item : items)
        out += (out.empty() ? "" : "|") + item;
    return out;
}

// "module/name" of each permission, sorted and joined, so a difference prints readably.
std::string listed(const std::vector<Permission> &perms) {
    std::set<std::string> sorted;
    for (const Permission &p : perms)
        sorted.insert(std::string(p.module) + "/" + p.name);
    return joined(std::vector<std::string>(sorted.begin(), sorted.end()));
}

} // namespace

class RouterTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(RouterTest);
    CPPUNIT_TEST(literal_path_matches_its_route);
    CPPUNIT_TEST(parameter_segment_is_captured);
    CPPUNIT_TEST(literal_segment_beats_parameter);
    CPPUNIT_TEST(literal_segment_wins_whatever_the_table_order);
    CPPUNIT_TEST(method_selects_among_routes_of_one_path);
    CPPUNIT_TEST(wrong_method_has_no_route_but_known_path_and_allow_list);
    CPPUNIT_TEST(allow_lists_each_method_once);
    CPPUNIT_TEST(literal_path_lists_only_its_own_methods);
    CPPUNIT_TEST(literal_path_is_not_served_by_a_parameter_route);
    CPPUNIT_TEST(allow_has_no_head_without_get);
    CPPUNIT_TEST(unknown_path_is_not_known);
    CPPUNIT_TEST(head_matches_get);
    CPPUNIT_TEST(segment_count_must_match);
    CPPUNIT_TEST(trailing_literal_must_match_exactly);
    CPPUNIT_TEST(declared_permissions_skips_routes_without_one);
    CPPUNIT_TEST(declared_permissions_removes_duplicates_by_text);
    CPPUNIT_TEST(body_cap_without_a_route_cap_is_max_body_bytes);
    CPPUNIT_TEST(body_cap_of_a_route_below_max_body_bytes_is_the_route_cap);
    CPPUNIT_TEST(body_cap_never_exceeds_max_body_bytes);
    CPPUNIT_TEST(body_cap_of_an_upload_is_file_total_limit);
    CPPUNIT_TEST(route_table_has_get_book_by_id);
    CPPUNIT_TEST(route_table_declares_exactly_the_four_shipped_permissions);
    CPPUNIT_TEST_SUITE_END();

  public:
    void setUp() override {
        routes_ = local_routes();
        router_ = std::make_unique<Router>(routes_);
    }

    void tearDown() override { router_.reset(); }

    void literal_path_matches_its_route() {
        Router::Match m = router_->match("GET", "/v1/book");
        CPPUNIT_ASSERT_EQUAL(std::string("GET /v1/book"), route_of(m));
        CPPUNIT_ASSERT(m.path_known);
        CPPUNIT_ASSERT(m.params.empty());
    }

    void parameter_segment_is_captured() {
        Router::Match m = router_->match("GET", "/v1/book/42");
        CPPUNIT_ASSERT_EQUAL(std::string("GET /v1/book/{id}"), route_of(m));
        CPPUNIT_ASSERT_EQUAL(std::string("42"), joined(m.params));
    }

    void literal_segment_beats_parameter() {
        Router::Match m = router_->match("GET", "/v1/book/search");
        CPPUNIT_ASSERT_EQUAL(std::string("GET /v1/book/search"), route_of(m));
        CPPUNIT_ASSERT(m.params.empty());
    }

    void literal_segment_wins_whatever_the_table_order() {
        std::vector<Route> reversed = {
            {"GET", "/v1/book/{id}", Access::everyone, k_none, dummy},
            {"GET", "/v1/book/search", Access::everyone, k_none, dummy},
        };
        Router router(reversed);
        Router::Match m = router.match("GET", "/v1/book/search");
        CPPUNIT_ASSERT_EQUAL(std::string("GET /v1/book/search"), route_of(m));
        CPPUNIT_ASSERT(m.params.empty());
    }

    void method_selects_among_routes_of_one_path() {
        CPPUNIT_ASSERT_EQUAL(std::string("PUT /v1/book/{id}"),
                             route_of(router_->match("PUT", "/v1/book/7")));
        CPPUNIT_ASSERT_EQUAL(std::string("DELETE /v1/book/{id}"),
                             route_of(router_->match("DELETE", "/v1/book/7")));
        CPPUNIT_ASSERT_EQUAL(std::string("POST /v1/book"),
                             route_of(router_->match("POST", "/v1/book")));
    }

    void wrong_method_has_no_route_but_known_path_and_allow_list() {
        Router::Match m = router_->match("POST", "/v1/book/7");
        CPPUNIT_ASSERT_EQUAL(std::string("none"), route_of(m));
        CPPUNIT_ASSERT(m.path_known);
        CPPUNIT_ASSERT_EQUAL(std::string("GET, HEAD, PUT, DELETE, OPTIONS"), m.allow);
    }

    void allow_lists_each_method_once() {
        std::vector<Route> twice = {
            {"GET", "/v1/book", Access::everyone, k_none, dummy},
            {"GET", "/v1/book", Access::login, k_none, dummy},
        };
        Router router(twice);
        CPPUNIT_ASSERT_EQUAL(std::string("GET, HEAD, OPTIONS"), router.match("PUT", "/v1/book").allow);
    }

    void literal_path_lists_only_its_own_methods() {
        // /v1/book/search also matches the {id} routes, which must not lend it their methods.
        Router::Match m = router_->match("PATCH", "/v1/book/search");
        CPPUNIT_ASSERT_EQUAL(std::string("none"), route_of(m));
        CPPUNIT_ASSERT_EQUAL(std::string("GET, HEAD, OPTIONS"), m.allow);
    }

    void literal_path_is_not_served_by_a_parameter_route() {
        Router::Match m = router_->match("DELETE", "/v1/book/search");
        CPPUNIT_ASSERT_EQUAL(std::string("none"), route_of(m));
        CPPUNIT_ASSERT(m.path_known);
    }

    void allow_has_no_head_without_get() {
        CPPUNIT_ASSERT_EQUAL(std::string("POST, OPTIONS"),
                             Router(std::vector<Route>{{"POST", "/cms/user/login", Access::everyone,
                                                        k_none, dummy}})
                                 .match("GET", "/cms/user/login")
                                 .allow);
    }

    void unknown_path_is_not_known() {
        Router::Match m = router_->match("GET", "/v1/author");
        CPPUNIT_ASSERT_EQUAL(std::string("none"), route_of(m));
        CPPUNIT_ASSERT(!m.path_known);
        CPPUNIT_ASSERT_EQUAL(std::string(""), m.allow);
    }

    void head_matches_get() {
        Router::Match m = router_->match("HEAD", "/v1/book/9");
        CPPUNIT_ASSERT_EQUAL(std::string("GET /v1/book/{id}"), route_of(m));
        CPPUNIT_ASSERT_EQUAL(std::string("9"), joined(m.params));
    }

    void segment_count_must_match() {
        CPPUNIT_ASSERT(!router_->match("GET", "/v1/book/7/pages").path_known);
        CPPUNIT_ASSERT(!router_->match("GET", "/v1").path_known);
        CPPUNIT_ASSERT(!router_->match("GET", "/").path_known);
    }

    void trailing_literal_must_match_exactly() {
        CPPUNIT_ASSERT(!router_->match("GET", "/healthzz").path_known);
        CPPUNIT_ASSERT(!router_->match("GET", "/v1/books").path_known);
    }

    void declared_permissions_skips_routes_without_one() {
        std::vector<Permission> perms = declared_permissions(routes_);
        CPPUNIT_ASSERT_EQUAL(std::size_t(1), perms.size());
        CPPUNIT_ASSERT_EQUAL(std::string("图书"), std::string(perms[0].module));
        CPPUNIT_ASSERT_EQUAL(std::string("删除图书"), std::string(perms[0].name));
    }

    void declared_permissions_removes_duplicates_by_text() {
        // Separate arrays, so equal texts sit at different addresses.
        char module[] = "图书";
        char name[] = "删除图书";
        std::vector<Route> routes = {
            {"DELETE", "/v1/book/{id}", Access::group, k_perm_delete, dummy},
            {"GET", "/cms/log/search", Access::group, k_perm_search, dummy},
            {"DELETE", "/v2/book/{id}", Access::group, Permission{module, name}, dummy},
            {"GET", "/v2/log/search", Access::group, k_perm_search, dummy},
        };
        std::vector<Permission> perms = declared_permissions(routes);
        CPPUNIT_ASSERT_EQUAL(std::size_t(2), perms.size());
        CPPUNIT_ASSERT_EQUAL(std::string("删除图书"), std::string(perms[0].name));
        CPPUNIT_ASSERT_EQUAL(std::string("搜索日志"), std::string(perms[1].name));
    }

    void body_cap_without_a_route_cap_is_max_body_bytes() {
        Route route{"POST", "/v1/book", Access::login, k_none, dummy};
        CPPUNIT_ASSERT_EQUAL(int64_t(1048576), body_cap(route, caps()));
    }

    void body_cap_of_a_route_below_max_body_bytes_is_the_route_cap() {
        Route route{"POST", "/cms/user/login", Access::everyone, k_none, dummy, nullptr, 4096};
        CPPUNIT_ASSERT_EQUAL(int64_t(4096), body_cap(route, caps()));
    }

    void body_cap_never_exceeds_max_body_bytes() {
        Route route{"POST", "/cms/user/login", Access::everyone, k_none, dummy, nullptr, 4096};
        Config config = caps();
        config.max_body_bytes = 2048;
        CPPUNIT_ASSERT_EQUAL(int64_t(2048), body_cap(route, config));
    }

    void body_cap_of_an_upload_is_file_total_limit() {
        Route route{"POST", "/cms/file", Access::login, k_none, dummy, nullptr, 0, true};
        CPPUNIT_ASSERT_EQUAL(int64_t(10485760), body_cap(route, caps()));
    }

    void route_table_has_get_book_by_id() {
        Router router(cms::route_table());
        Router::Match m = router.match("GET", "/v1/book/5");
        CPPUNIT_ASSERT_EQUAL(std::string("GET /v1/book/{id}"), route_of(m));
        CPPUNIT_ASSERT_EQUAL(std::string("5"), joined(m.params));
    }

    void route_table_declares_exactly_the_four_shipped_permissions() {
        std::vector<Permission> perms = declared_permissions(cms::route_table());
        std::vector<Permission> expected = {
            {"日志", "查询所有日志"},
            {"日志", "搜索日志"},
            {"日志", "查询日志记录的用户"},
            {"图书", "删除图书"},
        };
        CPPUNIT_ASSERT_EQUAL(std::size_t(4), perms.size());
        CPPUNIT_ASSERT_EQUAL(listed(expected), listed(perms));
    }

  private:
    std::vector<Route> routes_;
    std::unique_ptr<Router> router_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(RouterTest);
