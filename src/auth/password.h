// Password hashing: writes Argon2id, and verifies it plus the three formats the Lin CMS backends
// (spring-boot, koa, flask) left in lin_user_identity.credential, so their databases log in as-is.
#pragma once

#include <string>
#include <string_view>

namespace cms::password {

// Argon2id PHC string (m=7168 KiB, t=5, p=1, 16-byte random salt, 32-byte tag); throws
// std::invalid_argument for a password over 4096 bytes, std::runtime_error if hashing fails.
std::string hash(std::string_view plain);

// True iff plain matches stored in any supported format; false for unknown or malformed stored
// values and for passwords over 4096 bytes. Never throws.
bool verify(std::string_view plain, std::string_view stored);

// True unless stored is argon2id (v=19) with exactly the parameters hash() uses today.
bool needs_rehash(std::string_view stored);

} // namespace cms::password
