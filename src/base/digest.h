// Message digests of byte strings through OpenSSL, as lower-case hex: content addressing of
// uploads, and the keyed request fingerprints of Idempotency-Key. No hand-rolled hashing.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

// OpenSSL's EVP_MD_CTX, without its headers.
struct evp_md_ctx_st;

namespace cms::digest {

// SHA-256 of data: 64 hex digits.
std::string sha256_hex(std::string_view data);

// HMAC-SHA256 of data under key: the 32 bytes, raw. Throws std::runtime_error if OpenSSL fails.
std::string hmac_sha256(std::string_view key, std::string_view data);

// MD5 of data: 32 hex digits (lin_file.md5, kept for the Lin CMS backends that read it).
std::string md5_hex(std::string_view data);

// SHA-256 of a stream read in pieces (a backup's members): update() with each piece, then hex().
class Sha256 {
  public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256 &) = delete;
    Sha256 &operator=(const Sha256 &) = delete;
    void update(const void *data, size_t size);
    // The 64 hex digits of everything given so far; the object is then spent.
    std::string hex();

  private:
    ::evp_md_ctx_st *ctx_;
};

} // namespace cms::digest
