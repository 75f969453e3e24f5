// Idempotency-Key on POST (doc/limits.md): the same key from the same user within 24 hours gets
// the first answer again and runs nothing. Public routes (login, captcha) ignore it: their answers
// hold tokens and codes, which are never stored. The stored fingerprint is keyed (HMAC), so that
// a body holding a password (register) cannot be guessed from the table or a backup. Called by
// dispatch inside the request's transaction, so that a key is recorded if and only if the change
// it answered committed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "db/idempotency_store.h"

namespace cms {

struct Ctx;
struct Request;
struct Response;

// How long a key is remembered.
constexpr int64_t k_idempotency_seconds = 24 * 60 * 60;

// A request's key and whose it is.
struct IdempotencyKey {
    std::string key;
    int64_t user_id = 0;
};

// The fingerprint of req that cms_idempotency keeps: hex HMAC-SHA256 of its method, path, media
// type and body (a multipart body without its boundary) under a key derived from jwt_secret with
// a label of its own, never under jwt_secret itself, which signs the tokens.
std::string request_fingerprint(const Request &req, std::string_view jwt_secret);

// The key of req when it is a POST by an authenticated user that carries one, else nullopt (the
// header is ignored); 400/10390 for a malformed key: 1 to 100 visible ASCII characters,
// optionally in double quotes (the structured-field string of the IETF draft), no quote or
// backslash inside.
std::optional<IdempotencyKey> idempotency_key(const Request &req, const Ctx &ctx);

// In the request's transaction: reserves the key and returns nullopt, or returns the first answer
// given to it (header Idempotent-Replayed: true); 422/10391 when that answered another request
// (another route or body), 409/10392 while the first request with the key is still running.
std::optional<Response> replay_or_reserve(const IdempotencyKey &key, const Request &req, Ctx &ctx);

// Stores res as the answer to the key reserved in this transaction.
void remember_answer(const IdempotencyKey &key, const Ctx &ctx, const Response &res);

} // namespace cms
