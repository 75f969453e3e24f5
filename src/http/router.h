// Route matching: method + path against patterns with {param} segments. The most literal
// patterns that match own the path (its methods, its Allow list); a known path with the wrong
// method yields that list. No I/O here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "db/permission_store.h" // Permission

namespace cms {

struct Config;
struct Request;
struct Response;
struct Ctx;

// Who may call a route (doc/api.md §3): anyone; a valid access token; a token plus the route's
// permission (root passes); a member of the root group; a valid refresh token; anyone, a token
// when sent checked and its user the caller (a declared collection's everyone write).
enum class Access { everyone, login, group, admin, refresh, anyone_named };

using Handler = Response (*)(const Request &, Ctx &);

struct Route {
    const char *method;
    const char *pattern;
    Access access;
    Permission permission;
    Handler handler;
    // Behaviour-log message that dispatch writes with the change after a 2xx answer of a route
    // that writes (behaviour_log.h); {user.username}, {user.nickname}, {user.email} and {user.id}
    // are replaced.
    const char *log = nullptr;
    // The largest body in bytes, when it is below max_body_bytes (0: max_body_bytes), so that a
    // route taking a small body, or none, never reads or parses a large one.
    int64_t body_cap = 0;
    // The body may be as large as file_total_limit rather than max_body_bytes.
    bool upload = false;
    // What the handler serves, when one handler serves several routes: a declared collection
    // for the content routes (content/catalog.h). The router never reads it.
    const void *data = nullptr;
};

class Router {
  public:
    // routes outlives the router.
    explicit Router(const std::vector<Route> &routes);

    struct Match {
        const Route *route = nullptr;    // set when path and method match
        std::vector<std::string> params; // captured {param} segments, in order
        bool path_known = false;         // some route has this path
        std::string allow;               // methods of this path (HEAD with GET), for 405 and preflight
    };

    // Matches method (HEAD as GET) and a normalized path.
    Match match(std::string_view method, std::string_view path) const;

    // The metrics label of route, a route of this router's table or none (nullptr): its index
    // in route_templates(table), where the last is "unmatched". No string is compared.
    uint16_t template_index(const Route *route) const;

  private:
    struct Compiled {
        const Route *route;
        std::vector<std::string> segments; // "{}" marks a parameter
        int literals;
    };
    std::vector<Compiled> compiled_;
    const Route *first_ = nullptr;       // the table, for template_index
    std::vector<uint16_t> template_of_; // by the route's place in the table
    uint16_t unmatched_ = 0;
};

// The distinct patterns of routes, in table order and fewer than the scoreboard's
// k_max_templates, then "unmatched": the route labels of the metrics (the scoreboard is handed
// them, and never reads a route table).
std::vector<std::string> route_templates(const std::vector<Route> &routes);

// The largest body route reads: file_total_limit for an upload, else max_body_bytes lowered to
// the route's body_cap.
int64_t body_cap(const Route &route, const Config &config);

// The service's routes (routes.cpp).
const std::vector<Route> &route_table();

// The distinct permissions declared by routes, in table order.
std::vector<Permission> declared_permissions(const std::vector<Route> &routes);

} // namespace cms
