// Ctx: what a handler may use besides its Request — the process-wide config, message table and
// database connection (owned by main), and the authenticated user of this request.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "db/user_store.h" // Principal

namespace cms {

struct Config;
class Messages;
struct Route;
class Scoreboard;
namespace db {
class Connection;
}
namespace jwt {
class Key;
}
namespace json {
class BodyParser;
}

struct Ctx {
    const Config &config;
    const Messages &messages;
    db::Connection &db;
    const jwt::Key &jwt_key;  // jwt_secret, prepared once
    json::BodyParser &json;   // the strict request-body parser
    const Route *route = nullptr;  // the matched route
    // Set by authorize() for every route but the public ones, and by login to the user it
    // authenticated: the principal of the route's behaviour-log row.
    std::optional<Principal> user;
    // The pool's scoreboard, for its status page; nullptr without a pool (CGI).
    const Scoreboard *board = nullptr;
};

} // namespace cms
