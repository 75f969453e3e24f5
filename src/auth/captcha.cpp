// Login captcha tags: HKDF key derivation, AES-256-GCM sealing and opening through OpenSSL EVP.
// Nothing in a tag is read before its GCM tag has been checked.
#include "auth/captcha.h"

#include "base/base64.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <memory>
#include <stdexcept>

namespace cms::captcha {

namespace {

constexpr unsigned char k_version = 1;
constexpr std::size_t k_expiry_size = 8;
constexpr std::size_t k_header_size = 1 + k_nonce_size + k_expiry_size; // also the GCM AAD
constexpr std::size_t k_gcm_tag_size = 16;
constexpr std::size_t k_max_code = 16;
constexpr char k_label[] = "cms-fcgi login captcha v1";

struct CipherFree {
    void operator()(EVP_CIPHER_CTX *ctx) const { EVP_CIPHER_CTX_free(ctx); }
};
using CipherCtx = std::unique_ptr<EVP_CIPHER_CTX, CipherFree>;

const unsigned char *bytes(std::string_view s) {
    return reinterpret_cast<const unsigned char *>(s.data());
}

unsigned char *bytes(std::string &s) { return reinterpret_cast<unsigned char *>(&s[0]); }

// The cipher context set up for key and nonce in the given direction, the AAD already fed; null
// when OpenSSL fails.
CipherCtx start(std::string_view key, std::string_view nonce, std::string_view aad, bool encrypt) {
    CipherCtx ctx(EVP_CIPHER_CTX_new());
    int ignored = 0;
    if (!ctx || key.size() != k_key_size ||
        EVP_CipherInit_ex(ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr, encrypt) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(nonce.size()),
                            nullptr) != 1 ||
        EVP_CipherInit_ex(ctx.get(), nullptr, nullptr, bytes(key), bytes(nonce), encrypt) != 1 ||
        EVP_CipherUpdate(ctx.get(), nullptr, &ignored, bytes(aad), static_cast<int>(aad.size())) != 1)
        return nullptr;
    return ctx;
}

// ASCII upper case; other bytes as they are.
char upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

} // namespace

std::string derive_key(std::string_view secret) {
    std::unique_ptr<EVP_KDF, decltype(&EVP_KDF_free)> kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr),
                                                          EVP_KDF_free);
    std::unique_ptr<EVP_KDF_CTX, decltype(&EVP_KDF_CTX_free)> ctx(
        kdf ? EVP_KDF_CTX_new(kdf.get()) : nullptr, EVP_KDF_CTX_free);
    std::string digest = "SHA256";
    std::string ikm(secret);
    std::string info(k_label);
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, &digest[0], 0),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, &ikm[0], ikm.size()),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, &info[0], info.size()),
        OSSL_PARAM_construct_end(),
    };
    std::string key(k_key_size, '\0');
    bool ok = ctx && EVP_KDF_derive(ctx.get(), bytes(key), key.size(), params) == 1;
    OPENSSL_cleanse(&ikm[0], ikm.size());
    if (!ok)
        throw std::runtime_error("cannot derive the captcha key (HKDF-SHA256 failed)");
    return key;
}

std::string random_bytes(std::size_t count) {
    std::string out(count, '\0');
    if (count > 0 && RAND_bytes(bytes(out), static_cast<int>(count)) != 1)
        throw std::runtime_error("RAND_bytes failed for a captcha");
    return out;
}

std::string new_code() {
    // 256 is a multiple of no alphabet size here: bytes past the last whole multiple are drawn
    // again, so that every character is as likely.
    const std::size_t n = k_alphabet.size();
    const std::size_t limit = 256 - 256 % n;
    std::string code;
    while (code.size() < k_code_length)
        for (unsigned char b : random_bytes(k_code_length * 2))
            if (b < limit && code.size() < k_code_length)
                code += k_alphabet[b % n];
    return code;
}

std::string seal(std::string_view code, std::string_view key, std::string_view nonce,
                 int64_t expires) {
    if (nonce.size() != k_nonce_size || code.empty() || code.size() > k_max_code)
        throw std::runtime_error("captcha seal: bad nonce or code size");
    std::string out(1, static_cast<char>(k_version));
    out.append(nonce);
    auto when = static_cast<uint64_t>(expires);
    for (int shift = 56; shift >= 0; shift -= 8)
        out += static_cast<char>((when >> shift) & 0xff);
    CipherCtx ctx = start(key, nonce, out, true);
    std::string sealed(code.size() + k_gcm_tag_size, '\0');
    int written = 0, final_written = 0;
    if (!ctx ||
        EVP_EncryptUpdate(ctx.get(), bytes(sealed), &written, bytes(code),
                          static_cast<int>(code.size())) != 1 ||
        EVP_EncryptFinal_ex(ctx.get(), bytes(sealed) + written, &final_written) != 1 ||
        static_cast<std::size_t>(written + final_written) != code.size() ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(k_gcm_tag_size),
                            bytes(sealed) + code.size()) != 1)
        throw std::runtime_error("captcha seal: AES-256-GCM failed");
    return base64::encode_url(out + sealed);
}

std::optional<Opened> open(std::string_view tag, std::string_view key) {
    if (tag.size() > k_max_tag)
        return std::nullopt;
    std::optional<std::string> raw = base64::decode_url(tag);
    if (!raw || raw->size() <= k_header_size + k_gcm_tag_size ||
        raw->size() > k_header_size + k_max_code + k_gcm_tag_size ||
        static_cast<unsigned char>((*raw)[0]) != k_version)
        return std::nullopt;
    std::string_view all(*raw);
    std::string_view header = all.substr(0, k_header_size);
    std::string_view nonce = all.substr(1, k_nonce_size);
    std::size_t code_size = all.size() - k_header_size - k_gcm_tag_size;
    std::string_view ciphertext = all.substr(k_header_size, code_size);
    std::string gcm_tag(all.substr(k_header_size + code_size));
    CipherCtx ctx = start(key, nonce, header, false);
    std::string code(code_size, '\0');
    int written = 0, final_written = 0;
    if (!ctx ||
        EVP_DecryptUpdate(ctx.get(), bytes(code), &written, bytes(ciphertext),
                          static_cast<int>(code_size)) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(k_gcm_tag_size),
                            bytes(gcm_tag)) != 1 ||
        EVP_DecryptFinal_ex(ctx.get(), bytes(code) + written, &final_written) != 1)
        return std::nullopt;
    uint64_t when = 0;
    for (std::size_t i = 0; i < k_expiry_size; ++i)
        when = when << 8 | static_cast<unsigned char>(all[1 + k_nonce_size + i]);
    if (when > static_cast<uint64_t>(INT64_MAX))
        return std::nullopt;
    return Opened{std::string(nonce), static_cast<int64_t>(when), code};
}

bool code_matches(std::string_view code, std::string_view typed) {
    if (code.empty() || code.size() != typed.size())
        return false;
    // Fold both to upper case first, then one comparison that reads every byte whatever differs.
    std::string a(code), b(typed);
    for (std::size_t i = 0; i < a.size(); ++i) {
        a[i] = upper(a[i]);
        b[i] = upper(b[i]);
    }
    return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

} // namespace cms::captcha
