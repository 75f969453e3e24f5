// Fuzz target: an Authorization header through bearer_token (http/authorize.h) and its token through
// jwt::decode, once as given and once re-signed with the key, so the claims parser is reached too.
#include "auth/jwt.h"
#include "base/base64.h"
#include "base/errors.h"
#include "base/utf8.h"
#include "http/authorize.h"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

constexpr int64_t k_now = 1700000000;

// What decode said about a token that the same key then signed again: the same verdict and claims.
void check_round_trip(const cms::jwt::Decoded &decoded, const cms::jwt::Key &key) {
    if (decoded.verdict == cms::jwt::Verdict::invalid)
        return;
    const cms::jwt::Claims &c = decoded.claims;
    if (c.identity <= 0)
        std::abort();
    // decode takes a signed claim that is not UTF-8 as it is, and encode writes a replacement
    // for it: no round trip there. Only a holder of the secret can sign one (fuzz/README.md).
    if (!cms::utf8::valid(c.type) || !cms::utf8::valid(c.scope))
        return;
    cms::jwt::Decoded again = cms::jwt::decode(cms::jwt::encode(c, key), key, k_now);
    const cms::jwt::Claims &a = again.claims;
    if (again.verdict != decoded.verdict || a.identity != c.identity || a.type != c.type ||
        a.scope != c.scope || a.exp != c.exp || a.iat != c.iat || a.ver != c.ver)
        std::abort();
}

} // namespace

// Treats data as the value of the Authorization header.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const cms::jwt::Key key("fuzz-secret-0123456789abcdef0123456789");
    std::string token;
    try {
        token = cms::bearer_token(std::string(reinterpret_cast<const char *>(data), size));
    } catch (const cms::ApiError &) {
        return 0;
    }
    check_round_trip(cms::jwt::decode(token, key, k_now), key);

    // The same header and payload with a valid signature: only then are the claims read.
    size_t last_dot = token.rfind('.');
    if (last_dot == std::string::npos)
        return 0;
    std::string signing_input = token.substr(0, last_dot);
    std::optional<std::string> mac = key.mac(signing_input);
    if (!mac)
        std::abort();
    std::string signed_token = signing_input + '.' + cms::base64::encode_url(*mac);
    check_round_trip(cms::jwt::decode(signed_token, key, k_now), key);
    return 0;
}
