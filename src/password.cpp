// Password hashes: Argon2id via libargon2, legacy Lin CMS formats via OpenSSL HMAC/PBKDF2.
// Stored values are untrusted input: every cost parameter is bounded before any work is done.
#include "password.h"

#include "base64.h"
#include "text.h"

#include <argon2.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <vector>

namespace cms::password {

namespace {

constexpr std::size_t k_max_password = 4096;

constexpr uint32_t k_argon2_m_kib = 19456;
constexpr uint32_t k_argon2_t = 2;
constexpr uint32_t k_argon2_p = 1;
constexpr std::size_t k_argon2_salt = 16;
constexpr std::size_t k_argon2_tag = 32;
// Ceilings for a stored argon2id value (256 MiB, ten passes), so a planted credential cannot make
// one login exhaust the server. p becomes a thread count inside libargon2, so it is bounded too.
constexpr uint32_t k_argon2_max_m_kib = 262144;
constexpr uint32_t k_argon2_max_t = 10;
constexpr uint32_t k_argon2_max_p = 16;

constexpr uint32_t k_pbkdf2_max_iterations = 10'000'000;
constexpr uint32_t k_koa_max_iterations = 1'000'000;
constexpr uint32_t k_werkzeug_default_iterations = 260'000;
// PBKDF2 cost grows with every digest-sized block of output; no Lin backend writes more than 32.
constexpr std::size_t k_pbkdf2_max_key = 64;

// Parses text made only of decimal digits as a number in [1, max]; nullopt otherwise (signs,
// spaces, empty text and overflow included).
std::optional<uint32_t> parse_count(std::string_view text, uint32_t max) {
    uint32_t value = 0;
    if (text.empty() ||
        !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return std::nullopt;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < 1 || value > max)
        return std::nullopt;
    return value;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    for (std::size_t pos; (pos = text.find(sep, start)) != std::string_view::npos; start = pos + 1)
        parts.push_back(text.substr(start, pos - start));
    parts.push_back(text.substr(start));
    return parts;
}

bool equal_ct(std::string_view a, std::string_view b) {
    // Lengths come from the stored format, not from the secret, so they may leak.
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

// Non-null pointer for possibly empty views: OpenSSL treats some null arguments specially.
const unsigned char *bytes_of(std::string_view text) {
    static const unsigned char empty = 0;
    return text.empty() ? &empty : reinterpret_cast<const unsigned char *>(text.data());
}

std::optional<std::string> pbkdf2(const EVP_MD *md, std::string_view plain, std::string_view salt,
                                  uint32_t iterations, std::size_t key_size) {
    unsigned char key[k_pbkdf2_max_key];
    if (key_size == 0 || key_size > k_pbkdf2_max_key || salt.size() > k_max_password)
        return std::nullopt;
    if (PKCS5_PBKDF2_HMAC(reinterpret_cast<const char *>(bytes_of(plain)),
                          static_cast<int>(plain.size()), bytes_of(salt),
                          static_cast<int>(salt.size()), static_cast<int>(iterations), md,
                          static_cast<int>(key_size), key) != 1)
        return std::nullopt;
    return std::string(reinterpret_cast<const char *>(key), key_size);
}

// spring-boot (jhash): pbkdf2sha256:<iterations>:<hashBytes>:<saltBytes>:<pepper>:<salt>:<hash>
bool verify_spring(std::string_view plain, std::string_view stored) {
    std::vector<std::string_view> f = split(stored, ':');
    if (f.size() != 7)
        return false;
    const EVP_MD *md = f[0] == "pbkdf2sha1"     ? EVP_sha1()
                       : f[0] == "pbkdf2sha256" ? EVP_sha256()
                       : f[0] == "pbkdf2sha512" ? EVP_sha512()
                                                : nullptr;
    std::optional<uint32_t> iterations = parse_count(f[1], k_pbkdf2_max_iterations);
    std::optional<uint32_t> hash_bytes = parse_count(f[2], k_pbkdf2_max_key);
    // The salt size field is informational in jhash; only its shape is checked.
    std::optional<uint32_t> salt_bytes = parse_count(f[3], k_max_password);
    // A pepper ('y') is a secret we were never given, so such a hash cannot be checked.
    if (!md || !iterations || !hash_bytes || !salt_bytes || f[4] != "n")
        return false;
    std::optional<std::string> salt = base64::decode_std(f[5]);
    std::optional<std::string> expected = base64::decode_std(f[6]);
    if (!salt || !expected || expected->size() != *hash_bytes)
        return false;
    std::optional<std::string> actual = pbkdf2(md, plain, *salt, *iterations, expected->size());
    return actual && equal_ct(*actual, *expected);
}

const EVP_MD *koa_digest(std::string_view name) {
    if (name == "sha1")
        return EVP_sha1();
    if (name == "sha256")
        return EVP_sha256();
    if (name == "sha512")
        return EVP_sha512();
    if (name == "md5")
        return EVP_md5();
    return nullptr;
}

// koa (lin-mizar): <algorithm>$<salt>$<iterations>$<hex>, each round h = hex(HMAC(salt, h)).
bool verify_koa(std::string_view plain, std::string_view stored) {
    std::vector<std::string_view> f = split(stored, '$');
    if (f.size() != 4)
        return false;
    const EVP_MD *md = koa_digest(f[0]);
    std::string_view salt = f[1];
    std::optional<uint32_t> iterations = parse_count(f[2], k_koa_max_iterations);
    if (!md || salt.empty() || salt.size() > k_max_password || !iterations)
        return false;
    std::string h(plain);
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int mac_len = 0;
    for (uint32_t i = 0; i < *iterations; ++i) {
        if (!HMAC(md, bytes_of(salt), static_cast<int>(salt.size()), bytes_of(h), h.size(), mac,
                  &mac_len))
            return false;
        h = text::hex(mac, mac_len);
    }
    return equal_ct(h, f[3]);
}

// flask (werkzeug): pbkdf2:<digest>[:<iterations>]$<salt>$<hex>; the salt is used as text.
bool verify_werkzeug(std::string_view plain, std::string_view stored) {
    std::vector<std::string_view> f = split(stored, '$');
    std::vector<std::string_view> method = split(f[0], ':');
    if (f.size() != 3 || method.size() < 2 || method.size() > 3 || method[0] != "pbkdf2")
        return false;
    const EVP_MD *md = method[1] == "sha1"     ? EVP_sha1()
                       : method[1] == "sha256" ? EVP_sha256()
                       : method[1] == "sha512" ? EVP_sha512()
                                               : nullptr;
    std::optional<uint32_t> iterations =
        method.size() == 3 ? parse_count(method[2], k_pbkdf2_max_iterations)
                           : std::optional<uint32_t>(k_werkzeug_default_iterations);
    std::string_view salt = f[1];
    std::string_view expected = f[2];
    if (!md || !iterations || salt.empty() || expected.empty() || expected.size() % 2 != 0)
        return false;
    std::optional<std::string> actual = pbkdf2(md, plain, salt, *iterations, expected.size() / 2);
    return actual && equal_ct(text::hex(reinterpret_cast<const unsigned char *>(actual->data()),
                                        actual->size()),
                              expected);
}

struct Argon2Params {
    uint32_t version = 0;
    uint32_t m = 0;
    uint32_t t = 0;
    uint32_t p = 0;
};

// Reads "$argon2id$v=<n>$m=<n>,t=<n>,p=<n>$..." without trusting libargon2 to bound the costs.
std::optional<Argon2Params> argon2id_params(std::string_view stored) {
    std::vector<std::string_view> f = split(stored, '$');
    if (f.size() != 6 || !f[0].empty() || f[1] != "argon2id" || f[2].substr(0, 2) != "v=")
        return std::nullopt;
    std::vector<std::string_view> costs = split(f[3], ',');
    if (costs.size() != 3 || costs[0].substr(0, 2) != "m=" || costs[1].substr(0, 2) != "t=" ||
        costs[2].substr(0, 2) != "p=")
        return std::nullopt;
    constexpr uint32_t k_any = UINT32_MAX;
    std::optional<uint32_t> version = parse_count(f[2].substr(2), k_any);
    std::optional<uint32_t> m = parse_count(costs[0].substr(2), k_any);
    std::optional<uint32_t> t = parse_count(costs[1].substr(2), k_any);
    std::optional<uint32_t> p = parse_count(costs[2].substr(2), k_any);
    if (!version || !m || !t || !p)
        return std::nullopt;
    return Argon2Params{*version, *m, *t, *p};
}

bool verify_argon2id(std::string_view plain, std::string_view stored) {
    std::optional<Argon2Params> params = argon2id_params(stored);
    if (!params || params->m > k_argon2_max_m_kib || params->t > k_argon2_max_t ||
        params->p > k_argon2_max_p)
        return false;
    // argon2id_verify needs a NUL-terminated string; an embedded NUL would truncate it.
    if (stored.find('\0') != std::string_view::npos)
        return false;
    std::string encoded(stored);
    return argon2id_verify(encoded.c_str(), bytes_of(plain), plain.size()) == ARGON2_OK;
}

} // namespace

std::string hash(std::string_view plain) {
    if (plain.size() > k_max_password)
        throw std::invalid_argument("password longer than 4096 bytes");
    unsigned char salt[k_argon2_salt];
    if (RAND_bytes(salt, sizeof salt) != 1)
        throw std::runtime_error("RAND_bytes failed for a password salt");
    std::string encoded(argon2_encodedlen(k_argon2_t, k_argon2_m_kib, k_argon2_p, k_argon2_salt,
                                          k_argon2_tag, Argon2_id),
                        '\0');
    int rc =
        argon2id_hash_encoded(k_argon2_t, k_argon2_m_kib, k_argon2_p, bytes_of(plain), plain.size(),
                              salt, sizeof salt, k_argon2_tag, encoded.data(), encoded.size());
    if (rc != ARGON2_OK)
        throw std::runtime_error(std::string("argon2id hashing failed: ") +
                                 argon2_error_message(rc));
    // argon2_encodedlen counts the terminating NUL.
    encoded.resize(encoded.find('\0'));
    return encoded;
}

bool verify(std::string_view plain, std::string_view stored) {
    if (plain.size() > k_max_password)
        return false;
    if (stored.substr(0, 10) == "$argon2id$")
        return verify_argon2id(plain, stored);
    std::size_t colons = std::count(stored.begin(), stored.end(), ':');
    std::size_t dollars = std::count(stored.begin(), stored.end(), '$');
    if (stored.substr(0, 9) == "pbkdf2sha" && colons == 6)
        return verify_spring(plain, stored);
    if (stored.substr(0, 7) == "pbkdf2:" && dollars == 2)
        return verify_werkzeug(plain, stored);
    if (dollars == 3)
        return verify_koa(plain, stored);
    return false;
}

bool needs_rehash(std::string_view stored) {
    std::optional<Argon2Params> params = argon2id_params(stored);
    return !params || params->version != ARGON2_VERSION_13 || params->m != k_argon2_m_kib ||
           params->t != k_argon2_t || params->p != k_argon2_p;
}

} // namespace cms::password
