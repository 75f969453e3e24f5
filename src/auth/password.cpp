// Password hashes: Argon2id via libargon2, legacy Lin CMS formats via OpenSSL HMAC/PBKDF2.
// Stored values are untrusted input: every cost parameter is bounded before any work is done.
#include "auth/password.h"

#include "base/base64.h"
#include "base/text.h"

#include <argon2.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <sys/mman.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cms::password {

namespace {

constexpr std::size_t k_max_password = 4096;

// OWASP's Argon2id settings trade memory for passes at equal strength (19 MiB t=2, 12 MiB t=3,
// 9 MiB t=4, 7 MiB t=5); the least memory is the cheapest to map afresh for every hash, and a
// worker's 7 MiB peak is what a concurrent login costs the host.
constexpr uint32_t k_argon2_m_kib = 7168;
constexpr uint32_t k_argon2_t = 5;
constexpr uint32_t k_argon2_p = 1;
constexpr std::size_t k_argon2_salt = 16;
constexpr std::size_t k_argon2_tag = 32;
// Tags we compare with: libargon2 writes 4 bytes at least, and no one stores more than this.
constexpr std::size_t k_argon2_max_tag = 1024;
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

// libargon2's block memory is mapped for one hash and unmapped after it, so a worker gives it
// back at once (malloc would keep it in the heap). MAP_POPULATE faults it in with one call
// rather than a page at a time while hashing.
int map_blocks(uint8_t **memory, size_t size) {
    void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (p == MAP_FAILED)
        return ARGON2_MEMORY_ALLOCATION_ERROR;
    *memory = static_cast<uint8_t *>(p);
    return ARGON2_OK;
}

void unmap_blocks(uint8_t *memory, size_t size) { munmap(memory, size); }

// Computes the tag of plain into tag (its size chosen by the caller) with our allocator;
// libargon2's result code.
int argon2id_tag(std::string_view plain, std::string_view salt, const Argon2Params &params,
                  std::string &tag) {
    argon2_context ctx{};
    ctx.out = reinterpret_cast<uint8_t *>(tag.data());
    ctx.outlen = static_cast<uint32_t>(tag.size());
    ctx.pwd = const_cast<uint8_t *>(bytes_of(plain));
    ctx.pwdlen = static_cast<uint32_t>(plain.size());
    ctx.salt = const_cast<uint8_t *>(bytes_of(salt));
    ctx.saltlen = static_cast<uint32_t>(salt.size());
    ctx.t_cost = params.t;
    ctx.m_cost = params.m;
    ctx.lanes = params.p;
    ctx.threads = params.p;
    ctx.version = params.version;
    ctx.allocate_cbk = map_blocks;
    ctx.free_cbk = unmap_blocks;
    ctx.flags = ARGON2_DEFAULT_FLAGS;
    return argon2id_ctx(&ctx);
}

// PHC strings hold standard base64 without its '=' padding.
std::optional<std::string> decode_phc(std::string_view text) {
    if (text.size() % 4 == 1)
        return std::nullopt;
    std::string padded(text);
    padded.append((4 - text.size() % 4) % 4, '=');
    return base64::decode_std(padded);
}

std::string encode_phc(std::string_view bytes) {
    std::string text = base64::encode_url(bytes);
    std::replace(text.begin(), text.end(), '-', '+');
    std::replace(text.begin(), text.end(), '_', '/');
    return text;
}

bool verify_argon2id(std::string_view plain, std::string_view stored) {
    std::optional<Argon2Params> params = argon2id_params(stored);
    if (!params || params->m > k_argon2_max_m_kib || params->t > k_argon2_max_t ||
        params->p > k_argon2_max_p ||
        (params->version != ARGON2_VERSION_10 && params->version != ARGON2_VERSION_13))
        return false;
    std::vector<std::string_view> f = split(stored, '$');
    std::optional<std::string> salt = decode_phc(f[4]);
    std::optional<std::string> expected = decode_phc(f[5]);
    if (!salt || !expected || expected->size() > k_argon2_max_tag)
        return false;
    std::string actual(expected->size(), '\0');
    int rc = argon2id_tag(plain, *salt, *params, actual);
    // No memory for the block says nothing of the password: not a failed login, a failed request.
    if (rc == ARGON2_MEMORY_ALLOCATION_ERROR)
        throw std::runtime_error("argon2id verification found no memory for its block");
    return rc == ARGON2_OK && equal_ct(actual, *expected);
}

} // namespace

std::string hash(std::string_view plain) {
    if (plain.size() > k_max_password)
        throw std::invalid_argument("password longer than 4096 bytes");
    unsigned char salt[k_argon2_salt];
    if (RAND_bytes(salt, sizeof salt) != 1)
        throw std::runtime_error("RAND_bytes failed for a password salt");
    std::string_view salt_bytes(reinterpret_cast<const char *>(salt), sizeof salt);
    const Argon2Params params{ARGON2_VERSION_13, k_argon2_m_kib, k_argon2_t, k_argon2_p};
    std::string tag(k_argon2_tag, '\0');
    int rc = argon2id_tag(plain, salt_bytes, params, tag);
    if (rc != ARGON2_OK)
        throw std::runtime_error(std::string("argon2id hashing failed: ") +
                                 argon2_error_message(rc));
    return "$argon2id$v=" + std::to_string(params.version) + "$m=" + std::to_string(params.m) +
           ",t=" + std::to_string(params.t) + ",p=" + std::to_string(params.p) + "$" +
           encode_phc(salt_bytes) + "$" + encode_phc(tag);
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
