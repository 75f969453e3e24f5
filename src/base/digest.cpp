// Message digests through OpenSSL's EVP interface.
#include "base/digest.h"

#include <stdexcept>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "base/text.h"

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

std::string hmac_sha256(std::string_view key, std::string_view data) {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
             reinterpret_cast<const unsigned char *>(data.data()), data.size(), out,
             &length) == nullptr)
        throw std::runtime_error("cannot compute an HMAC-SHA256 (HMAC failed)");
    return std::string(reinterpret_cast<const char *>(out), length);
}

std::string md5_hex(std::string_view data) {
    return hex_digest(data, EVP_md5(), "MD5");
}

Sha256::Sha256() : ctx_(EVP_MD_CTX_new()) {
    if (ctx_ == nullptr || EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr) != 1) {
        EVP_MD_CTX_free(ctx_);
        throw std::runtime_error("cannot start a SHA-256 (EVP_DigestInit_ex failed)");
    }
}

Sha256::~Sha256() {
    EVP_MD_CTX_free(ctx_);
}

void Sha256::update(const void *data, size_t size) {
    if (EVP_DigestUpdate(ctx_, data, size) != 1)
        throw std::runtime_error("cannot compute a SHA-256 (EVP_DigestUpdate failed)");
}

std::string Sha256::hex() {
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (EVP_DigestFinal_ex(ctx_, out, &length) != 1)
        throw std::runtime_error("cannot compute a SHA-256 (EVP_DigestFinal_ex failed)");
    return text::hex(out, length);
}

} // namespace cms::digest
