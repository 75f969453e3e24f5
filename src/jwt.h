// HS256 JSON Web Tokens in the Lin CMS layout (identity, scope, type, exp, iat, ver).
// Checks the signature, the shape of the claims and expiry; type and scope are the caller's job.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cms::jwt {

struct Claims {
    int64_t identity = 0; // user id (JSON number)
    std::string type;     // "access" | "refresh"
    std::string scope;    // "lin"
    int64_t exp = 0;      // seconds since epoch
    int64_t iat = 0;
    int64_t ver = 0; // the user's credential version when the token was issued
};

enum class Verdict { ok, invalid, expired };

struct Decoded {
    Verdict verdict = Verdict::invalid;
    Claims claims;
};

// Signs claims with HMAC-SHA256 under secret; returns "header.payload.signature" (throws
// std::runtime_error only if OpenSSL fails).
std::string encode(const Claims &claims, std::string_view secret);

// Verifies token under secret at time now (seconds); claims are filled for ok and expired only.
// Never throws.
Decoded decode(std::string_view token, std::string_view secret, int64_t now);

} // namespace cms::jwt
