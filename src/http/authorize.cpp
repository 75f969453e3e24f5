// Authentication and authorization: token checks in the order of Lin CMS (doc/lin-cms.md §3.4),
// then the access level of the route.
#include "http/authorize.h"

#include <ctime>

#include "auth/jwt.h"
#include "base/config.h"
#include "base/errors.h"
#include "db/permission_store.h"
#include "db/user_store.h"
#include "http/context.h"
#include "http/request.h"
#include "http/router.h"

namespace cms {

namespace {

constexpr const char *k_scope = "lin";

// The live user a token of type ("access" or "refresh") belongs to; expiry is checked before
// the type, as Lin CMS does, so an expired access token at /refresh reports "refresh expired".
Principal token_user(const Request &req, Ctx &ctx, const char *type) {
    bool refresh = std::string(type) == "refresh";
    Code bad = refresh ? Code::refresh_token_bad : Code::access_token_bad;
    Code expired = refresh ? Code::refresh_token_expired : Code::access_token_expired;
    jwt::Decoded token = jwt::decode(bearer_token(req.authorization), ctx.jwt_key, now_seconds());
    if (token.verdict == jwt::Verdict::invalid)
        throw ApiError(401, bad);
    if (token.verdict == jwt::Verdict::expired)
        throw ApiError(401, expired);
    if (token.claims.type != type || token.claims.scope != k_scope)
        throw ApiError(401, bad);
    std::optional<Principal> user = UserStore(ctx.db).find_principal(token.claims.identity);
    // A deleted user, or a password changed after the token was issued.
    if (!user || user->credential_version != token.claims.ver)
        throw ApiError(401, bad);
    return *user;
}

} // namespace

std::string bearer_token(const std::string &header) {
    if (header.find_first_not_of(' ') == std::string::npos)
        throw ApiError(401, Code::auth_header_missing);
    size_t space = header.find(' ');
    if (space == std::string::npos || header.compare(0, space, "Bearer") != 0 ||
        header.find(' ', space + 1) != std::string::npos || space + 1 == header.size())
        throw ApiError(401, Code::auth_header_malformed);
    return header.substr(space + 1);
}

int64_t now_seconds() { return static_cast<int64_t>(std::time(nullptr)); }

void authorize(const Route &route, const Request &req, Ctx &ctx) {
    switch (route.access) {
    case Access::everyone:
        return;
    case Access::refresh:
        ctx.user = token_user(req, ctx, "refresh");
        return;
    case Access::login:
        ctx.user = token_user(req, ctx, "access");
        return;
    case Access::anyone_named:
        if (!req.authorization.empty())
            ctx.user = token_user(req, ctx, "access");
        return;
    case Access::admin:
        ctx.user = token_user(req, ctx, "access");
        if (!ctx.user->admin)
            throw ApiError(403, Code::permission_denied);
        return;
    case Access::group:
        ctx.user = token_user(req, ctx, "access");
        if (ctx.user->admin)
            return;
        if (!PermissionStore(ctx.db).user_has(ctx.user->id, route.permission.module,
                                              route.permission.name))
            throw ApiError(403, Code::permission_denied);
        return;
    }
}

Json::Value issue_tokens(const Ctx &ctx, const Principal &user, int64_t now) {
    const Config &config = ctx.config;
    jwt::Claims claims;
    claims.identity = user.id;
    claims.scope = k_scope;
    claims.iat = now;
    claims.ver = user.credential_version;
    Json::Value out(Json::objectValue);
    claims.type = "access";
    claims.exp = now + config.access_token_lifetime;
    out["access_token"] = jwt::encode(claims, ctx.jwt_key);
    claims.type = "refresh";
    claims.exp = now + config.refresh_token_lifetime;
    out["refresh_token"] = jwt::encode(claims, ctx.jwt_key);
    return out;
}

} // namespace cms
