// Message digests through OpenSSL's EVP interface.
#include "digest.h"

#include <stdexcept>

#include <openssl/evp.h>

#include "text.h"

namespace cms::digest {

namespace {

std::string hex_digest(std::string_view data, const EVP_MD *type, const char *name) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_Digest(data.data(), data.size(), out, &length, type, nullptr) != 1)
        throw std::runtime_error(std::string("cannot compute a ") + name + " (EVP_Digest failed)");
    return text::hex(out, length);
}

} // namespace

std::string sha256_hex(std::string_view data) {
    return hex_digest(data, EVP_sha256(), "SHA-256");
}

std::string md5_hex(std::string_view data) {
    return hex_digest(data, EVP_md5(), "MD5");
}

} // namespace cms::digest
