// Ctx: what a handler may use besides its Request — the thread's Shared parts (config, message
// table, database connection, ...), and the matched route and authenticated user of this request.
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

// What every request of one thread shares, owned by the worker's assembly (pool/serve.cpp).
struct Shared {
    const Config &config;
    const Messages &messages;
    db::Connection &db;
    const jwt::Key &jwt_key; // jwt_secret, prepared once
    json::BodyParser &json;  // the strict request-body parser
    // The pool's scoreboard, for its status page; nullptr without a pool (CGI).
    const Scoreboard *board = nullptr;
};

// One attempt at one request: made anew from Shared when a request runs again after a lost
// connection or a deadlock, so that nothing of the failed attempt carries over.
struct Ctx : Shared {
    const Route *route = nullptr; // the matched route
    // Set by authorize() for every route but the public ones, and by login to the user it
    // authenticated: the principal of the route's behaviour-log row.
    std::optional<Principal> user;
};

} // namespace cms
