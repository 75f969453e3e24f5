// HS256 JSON Web Tokens in the Lin CMS layout (identity, scope, type, exp, iat, ver).
// Checks the signature, the shape of the claims (identity, type, scope, exp and ver required; iat
// optional) and expiry; type and scope are the caller's job.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

typedef struct evp_mac_ctx_st EVP_MAC_CTX;

namespace Json {
class CharReader;
}

namespace cms::jwt {

// The HMAC-SHA256 key and the strict reader of token JSON, owned by each thread of a worker and
// prepared on first use: OpenSSL's one-shot HMAC() looks the algorithm up on every call, and
// configuring a jsoncpp reader costs more than parsing a token with it. Not before: the first
// fetch builds OpenSSL's table of algorithms, a tenth of a CGI request that checks no token.
class Key {
  public:
    explicit Key(std::string_view secret);
    ~Key();
    Key(const Key &) = delete;
    Key &operator=(const Key &) = delete;

    // The 32-byte MAC of message; nullopt only if OpenSSL fails. Throws std::runtime_error if
    // OpenSSL cannot set up HMAC-SHA256 at all: a broken library, not a bad token.
    std::optional<std::string> mac(std::string_view message) const;
    // The strict JSON reader of header and payload (it keeps no state between tokens).
    Json::CharReader &reader() const;

  private:
    std::string secret_;
    mutable EVP_MAC_CTX *ctx_ = nullptr; // keyed on first use; copied for each message
    mutable std::unique_ptr<Json::CharReader> reader_;
};

struct Claims {
    int64_t identity = 0; // user id (JSON number)
    std::string type;     // "access" | "refresh"
    std::string scope;    // "lin"
    int64_t exp = 0;      // seconds since epoch
    int64_t iat = 0;
    int64_t ver = 0; // the user's credential version when the token was issued (required)
};

enum class Verdict { ok, invalid, expired };

struct Decoded {
    Verdict verdict = Verdict::invalid;
    Claims claims;
};

// Signs claims with HMAC-SHA256 under key; returns "header.payload.signature" (throws
// std::runtime_error only if OpenSSL fails).
std::string encode(const Claims &claims, const Key &key);
std::string encode(const Claims &claims, std::string_view secret);

// Verifies token under key at time now (seconds); claims are filled for ok and expired only.
// Throws only what Key::mac throws when OpenSSL cannot set up HMAC-SHA256.
Decoded decode(std::string_view token, const Key &key, int64_t now);
Decoded decode(std::string_view token, std::string_view secret, int64_t now);

} // namespace cms::jwt
