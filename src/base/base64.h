// Base64 text <-> bytes for JWT (url alphabet, no padding), stored hashes and data: URLs
// (standard, padded).
// Decoders are strict and canonical: anything another decoder might read differently is refused.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cms::base64 {

// Encodes bytes as base64url without '=' padding (RFC 7515 §2).
std::string encode_url(std::string_view bytes);

// Encodes bytes as standard base64 with '=' padding (RFC 4648 §4).
std::string encode_std(std::string_view bytes);

// Decodes unpadded base64url; nullopt on any character outside [A-Za-z0-9_-], on '=', on a length
// of 1 mod 4 or on non-zero unused trailing bits.
std::optional<std::string> decode_url(std::string_view text);

// Decodes standard base64 with mandatory '=' padding; nullopt on any other character, misplaced
// padding, a length not a multiple of 4 or non-zero unused trailing bits.
std::optional<std::string> decode_std(std::string_view text);

} // namespace cms::base64
