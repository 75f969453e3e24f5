// Route matching: method + path against patterns with {param} segments. The most literal
// patterns that match own the path (its methods, its Allow list); a known path with the wrong
// method yields that list. No I/O here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cms {

struct Config;
struct Request;
struct Response;
struct Ctx;

// Who may call a route (api.md §3): anyone; a valid access token; a token plus the route's
// permission (root passes); a member of the root group; a valid refresh token.
enum class Access { everyone, login, group, admin, refresh };

// A permission the service registers and checks: (module, name), e.g. (图书, 删除图书).
struct Permission {
    const char *module = nullptr;
    const char *name = nullptr;
};

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
};

class Router {
  public:
    explicit Router(const std::vector<Route> &routes);

    struct Match {
        const Route *route = nullptr;    // set when path and method match
        std::vector<std::string> params; // captured {param} segments, in order
        bool path_known = false;         // some route has this path
        std::string allow;               // methods of this path (HEAD with GET), for 405 and preflight
    };

    // Matches method (HEAD as GET) and a normalized path.
    Match match(std::string_view method, std::string_view path) const;

  private:
    struct Compiled {
        const Route *route;
        std::vector<std::string> segments; // "{}" marks a parameter
        int literals;
    };
    std::vector<Compiled> compiled_;
};

// The largest body route reads: file_total_limit for an upload, else max_body_bytes lowered to
// the route's body_cap.
int64_t body_cap(const Route &route, const Config &config);

// The service's routes (routes.cpp).
const std::vector<Route> &route_table();

// The distinct permissions declared by routes, in table order.
std::vector<Permission> declared_permissions(const std::vector<Route> &routes);

} // namespace cms
