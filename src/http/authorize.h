// Authentication and authorization (doc/api.md §3): the Authorization header, HS256 tokens with a
// credential version, the four access levels and the permission check. Raises 401/403 only.
#pragma once

#include <cstdint>
#include <string>

#include <json/json.h>

namespace cms {

struct Ctx;
struct Principal;
struct Request;
struct Route;

// The token of an Authorization header "Bearer <token>"; throws ApiError 401 10012 when the
// header is missing or blank, 10013 when it is malformed.
std::string bearer_token(const std::string &header);

// Checks route.access for req and sets ctx.user; throws ApiError 401 (token) or 403 (level).
void authorize(const Route &route, const Request &req, Ctx &ctx);

// {"access_token", "refresh_token"} for user, issued at now (seconds).
Json::Value issue_tokens(const Ctx &ctx, const Principal &user, int64_t now);

// Seconds since the epoch.
int64_t now_seconds();

} // namespace cms
