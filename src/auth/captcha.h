// Login captcha tags (doc/api.md §8): the code sealed with AES-256-GCM under a key derived from
// jwt_secret, with a random nonce and an expiry, so that any worker on any host can check it.
// Pure crypto: whether a tag was already spent is captcha_store's, the picture captcha_image's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cms::captcha {

// Characters a code is drawn from: no 0/O and no 1/I/L, read the same in any case.
constexpr std::string_view k_alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
constexpr std::size_t k_code_length = 5;
constexpr std::size_t k_nonce_size = 12;
constexpr std::size_t k_key_size = 32;
// Longer than any tag seal() makes; the parser reads no further.
constexpr std::size_t k_max_tag = 128;

// What a tag that opened carries. Expiry is the caller's to judge (a test may open an old tag).
struct Opened {
    std::string nonce; // k_nonce_size bytes: the tag's identity for single use
    int64_t expires = 0; // seconds since the epoch
    std::string code;
};

// The 32-byte AES key of secret: HKDF-SHA256 with the label "cms-fcgi login captcha v1", so
// that it is never the JWT key itself. Throws std::runtime_error if OpenSSL fails.
std::string derive_key(std::string_view secret);

// count bytes from OpenSSL's RAND_bytes; throws std::runtime_error if it fails.
std::string random_bytes(std::size_t count);

// A fresh code of k_code_length characters of k_alphabet.
std::string new_code();

// The tag of code under key (derive_key), with nonce (k_nonce_size bytes) and expiry: base64url
// text of version, nonce, expiry, ciphertext and GCM tag. Throws std::runtime_error if OpenSSL
// fails or nonce has the wrong size.
std::string seal(std::string_view code, std::string_view key, std::string_view nonce,
                 int64_t expires);

// The contents of tag when it is one seal() made under key, unaltered; nullopt for anything else.
std::optional<Opened> open(std::string_view tag, std::string_view key);

// Whether typed is code, case-insensitively, in time independent of where they differ.
bool code_matches(std::string_view code, std::string_view typed);

} // namespace cms::captcha
