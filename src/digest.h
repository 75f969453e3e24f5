// Message digests of byte strings through OpenSSL, as lower-case hex: content addressing of
// uploads and request fingerprints. No hand-rolled hashing.
#pragma once

#include <string>
#include <string_view>

namespace cms::digest {

// SHA-256 of data: 64 hex digits.
std::string sha256_hex(std::string_view data);

// MD5 of data: 32 hex digits (lin_file.md5, kept for the Lin CMS backends that read it).
std::string md5_hex(std::string_view data);

} // namespace cms::digest
