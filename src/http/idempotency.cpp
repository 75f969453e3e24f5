// Idempotency-Key: key syntax, whose key it is, the keyed request fingerprint, replaying an answer.
#include "http/idempotency.h"

#include <algorithm>

#include "base/config.h"
#include "base/digest.h"
#include "base/errors.h"
#include "base/text.h"
#include "http/context.h"
#include "http/handler_util.h"
#include "http/request.h"
#include "http/response.h"

namespace cms {

namespace {

constexpr size_t k_max_key = 100;
// What the fingerprint key is derived from jwt_secret with, so that it is never the JWT key.
constexpr std::string_view k_fingerprint_label = "cms-fcgi idempotency fingerprint v1";

bool key_char(char c) {
    return c > 0x20 && c < 0x7F && c != '"' && c != '\\';
}

// The boundary parameter of a Content-Type, without its quotes; empty when there is none.
std::string boundary_of(const std::string &content_type) {
    size_t at = content_type.find("boundary=");
    if (at == std::string::npos)
        return {};
    std::string value = content_type.substr(at + 9);
    value.erase(std::min(value.find(';'), value.size()));
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
        value = value.substr(1, value.size() - 2);
    return value;
}

// HMAC-SHA256 of what makes a request what it is, as hex, under a key derived from jwt_secret:
// a body may hold a password (register), and a plain digest of it would let whoever reads the
// table or a backup test guesses offline, at the speed of SHA-256, past Argon2.
std::string keyed(std::string_view jwt_secret, const std::string &same) {
    std::string key = digest::hmac_sha256(jwt_secret, k_fingerprint_label);
    std::string mac = digest::hmac_sha256(key, same);
    return text::hex(reinterpret_cast<const unsigned char *>(mac.data()), mac.size());
}

} // namespace

// What makes two requests the same: method, path and body. A multipart body counts with its
// boundary replaced: the boundary is random, so a client that encodes the same upload again
// sends other bytes around the same parts, and another file must still be told apart.
std::string request_fingerprint(const Request &req, std::string_view jwt_secret) {
    std::string same = req.method + ' ' + req.path + '\n';
    std::string boundary;
    if (media_type(req.content_type) == "multipart/form-data")
        boundary = boundary_of(req.content_type);
    if (boundary.empty())
        return keyed(jwt_secret, same + req.content_type + '\n' + req.body);
    same += "multipart/form-data\n";
    std::string delimiter = "--" + boundary;
    for (size_t pos = 0;;) {
        size_t at = req.body.find(delimiter, pos);
        same.append(req.body, pos, at == std::string::npos ? std::string::npos : at - pos);
        if (at == std::string::npos)
            break;
        same += "--boundary";
        pos = at + delimiter.size();
    }
    return keyed(jwt_secret, same);
}

std::optional<IdempotencyKey> idempotency_key(const Request &req, const Ctx &ctx) {
    // No user: a public route, whose answer (a login's tokens, a captcha) is never stored.
    if (req.method != "POST" || req.idempotency_key.empty() || !ctx.user)
        return std::nullopt;
    std::string key = req.idempotency_key;
    if (key.size() >= 2 && key.front() == '"' && key.back() == '"')
        key = key.substr(1, key.size() - 2);
    bool valid = !key.empty() && key.size() <= k_max_key;
    for (char c : key)
        valid = valid && key_char(c);
    if (!valid)
        throw ApiError(400, Code::idempotency_key_invalid);
    return IdempotencyKey{key, ctx.user->id};
}

std::optional<Response> replay_or_reserve(const IdempotencyKey &key, const Request &req, Ctx &ctx) {
    std::string mine = request_fingerprint(req, ctx.config.jwt_secret);
    KeyState state =
        IdempotencyStore(ctx.db).reserve(key.user_id, key.key, mine, k_idempotency_seconds);
    if (state.kind == KeyState::Kind::busy)
        throw ApiError(409, Code::idempotency_key_busy);
    if (state.kind == KeyState::Kind::reserved)
        return std::nullopt;
    if (state.fingerprint != mine)
        throw ApiError(422, Code::idempotency_key_reused);
    Response res = Response::json_text(state.status, std::move(state.body));
    res.header("Idempotent-Replayed", "true");
    return res;
}

void remember_answer(const IdempotencyKey &key, const Ctx &ctx, const Response &res) {
    IdempotencyStore(ctx.db).answer(key.user_id, key.key, res.status, res.body,
                                    k_idempotency_seconds);
}

} // namespace cms
