// HS256 JWT signing and verification with OpenSSL HMAC and jsoncpp. Nothing in a token is trusted
// before the signature matches, and only the one algorithm we issue is ever accepted.
#include "auth/jwt.h"

#include "base/base64.h"

#include <json/json.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#include <memory>
#include <optional>
#include <stdexcept>

namespace cms::jwt {

namespace {

constexpr std::string_view k_header = R"({"alg":"HS256","typ":"JWT"})";
// Far above any token we issue; bounds the work an anonymous request can cause.
constexpr std::size_t k_max_token = 8192;
constexpr std::size_t k_signature_size = 32;

// Parses one base64url part as a JSON object, refusing anything a lenient parser would forgive
// (duplicate keys could make us and another verifier disagree on a claim).
std::optional<Json::Value> parse_object(Json::CharReader &reader, std::string_view part) {
    std::optional<std::string> text = base64::decode_url(part);
    if (!text)
        return std::nullopt;
    Json::Value root;
    std::string errors;
    try {
        if (!reader.parse(text->data(), text->data() + text->size(), &root, &errors))
            return std::nullopt;
    } catch (const Json::Exception &) {
        // Thrown for nesting deeper than stackLimit: just another malformed token.
        return std::nullopt;
    }
    if (!root.isObject())
        return std::nullopt;
    return root;
}

// A JSON integer literal within int64; 1.0 or 1e3 parse as reals and are refused, so a claim has
// exactly one spelling.
bool is_integer(const Json::Value &v) {
    return v.type() == Json::intValue || (v.type() == Json::uintValue && v.isInt64());
}

bool header_ok(const Json::Value &header) {
    const Json::Value &alg = header["alg"];
    return alg.isString() && alg.asString() == "HS256" && !header.isMember("crit");
}

std::optional<Claims> read_claims(const Json::Value &payload) {
    const Json::Value &identity = payload["identity"];
    const Json::Value &type = payload["type"];
    const Json::Value &scope = payload["scope"];
    const Json::Value &exp = payload["exp"];
    const Json::Value &iat = payload["iat"];
    const Json::Value &ver = payload["ver"];
    // A token without ver was not issued by this service (a Lin CMS backend sharing the secret
    // issues such tokens); read as 0, it would pass for every user who never changed a password.
    if (!is_integer(identity) || identity.asInt64() <= 0 || !type.isString() || !scope.isString() ||
        !is_integer(exp) || !is_integer(ver))
        return std::nullopt;
    if (payload.isMember("iat") && !is_integer(iat))
        return std::nullopt;
    Claims claims;
    claims.identity = identity.asInt64();
    claims.type = type.asString();
    claims.scope = scope.asString();
    claims.exp = exp.asInt64();
    claims.iat = payload.isMember("iat") ? iat.asInt64() : 0;
    claims.ver = ver.asInt64();
    return claims;
}

// A context of HMAC-SHA256 under secret, or null if OpenSSL cannot set one up.
EVP_MAC_CTX *keyed_hmac(const std::string &secret) {
    EVP_MAC *hmac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    if (hmac == nullptr)
        return nullptr;
    EVP_MAC_CTX *ctx = EVP_MAC_CTX_new(hmac);
    EVP_MAC_free(hmac); // the context keeps its own reference
    char digest[] = "SHA256";
    OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                           OSSL_PARAM_construct_end()};
    // A null key would mean "no key": an empty secret must still be a key (of length 0).
    static const unsigned char empty = 0;
    const unsigned char *bytes =
        secret.empty() ? &empty : reinterpret_cast<const unsigned char *>(secret.data());
    if (ctx == nullptr || EVP_MAC_init(ctx, bytes, secret.size(), params) != 1) {
        EVP_MAC_CTX_free(ctx);
        return nullptr;
    }
    return ctx;
}

} // namespace

Key::Key(std::string_view secret) : secret_(secret) {}

Key::~Key() { EVP_MAC_CTX_free(ctx_); }

Json::CharReader &Key::reader() const {
    if (!reader_) {
        Json::CharReaderBuilder builder;
        Json::CharReaderBuilder::strictMode(&builder.settings_);
        builder.settings_["skipBom"] = false;
        reader_.reset(builder.newCharReader());
    }
    return *reader_;
}

std::optional<std::string> Key::mac(std::string_view message) const {
    if (ctx_ == nullptr && (ctx_ = keyed_hmac(secret_)) == nullptr)
        throw std::runtime_error("jwt: cannot set up HMAC-SHA256");
    std::unique_ptr<EVP_MAC_CTX, void (*)(EVP_MAC_CTX *)> ctx(EVP_MAC_CTX_dup(ctx_),
                                                              EVP_MAC_CTX_free);
    unsigned char out[EVP_MAX_MD_SIZE];
    size_t out_len = 0;
    if (!ctx ||
        EVP_MAC_update(ctx.get(), reinterpret_cast<const unsigned char *>(message.data()),
                       message.size()) != 1 ||
        EVP_MAC_final(ctx.get(), out, &out_len, sizeof out) != 1)
        return std::nullopt;
    return std::string(reinterpret_cast<const char *>(out), out_len);
}

std::string encode(const Claims &claims, std::string_view secret) {
    return encode(claims, Key(secret));
}

Decoded decode(std::string_view token, std::string_view secret, int64_t now) {
    return decode(token, Key(secret), now);
}

std::string encode(const Claims &claims, const Key &key) {
    Json::Value payload(Json::objectValue);
    payload["identity"] = Json::Int64(claims.identity);
    payload["scope"] = claims.scope;
    payload["type"] = claims.type;
    payload["exp"] = Json::Int64(claims.exp);
    payload["iat"] = Json::Int64(claims.iat);
    payload["ver"] = Json::Int64(claims.ver);
    Json::StreamWriterBuilder writer;
    writer["indentation"] = "";
    // jsoncpp writes object keys in sorted order, so the same claims always give the same token.
    std::string signing_input =
        base64::encode_url(k_header) + '.' + base64::encode_url(Json::writeString(writer, payload));
    std::optional<std::string> signature = key.mac(signing_input);
    if (!signature)
        throw std::runtime_error("jwt: HMAC-SHA256 failed");
    return signing_input + '.' + base64::encode_url(*signature);
}

Decoded decode(std::string_view token, const Key &key, int64_t now) {
    Decoded result;
    if (token.size() > k_max_token)
        return result;
    std::size_t dot1 = token.find('.');
    std::size_t dot2 = dot1 == std::string_view::npos ? dot1 : token.find('.', dot1 + 1);
    if (dot2 == std::string_view::npos || token.find('.', dot2 + 1) != std::string_view::npos)
        return result;
    std::string_view signing_input = token.substr(0, dot2);
    std::string_view payload_part = token.substr(dot1 + 1, dot2 - dot1 - 1);

    std::optional<Json::Value> header = parse_object(key.reader(), token.substr(0, dot1));
    if (!header || !header_ok(*header))
        return result;
    std::optional<std::string> signature = base64::decode_url(token.substr(dot2 + 1));
    if (!signature || signature->size() != k_signature_size)
        return result;
    std::optional<std::string> expected = key.mac(signing_input);
    if (!expected || expected->size() != k_signature_size ||
        CRYPTO_memcmp(expected->data(), signature->data(), k_signature_size) != 0)
        return result;

    std::optional<Json::Value> payload = parse_object(key.reader(), payload_part);
    std::optional<Claims> claims = payload ? read_claims(*payload) : std::nullopt;
    if (!claims)
        return result;
    result.claims = *claims;
    result.verdict = claims->exp <= now ? Verdict::expired : Verdict::ok;
    return result;
}

} // namespace cms::jwt
