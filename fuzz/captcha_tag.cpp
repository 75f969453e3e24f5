// Fuzz target: a login captcha tag (the tag header) through captcha::open, and the same bytes as
// the fields of a tag that seal makes and open must read back, unaltered or not at all.
#include "auth/captcha.h"

#include <cstdint>
#include <cstdlib>
#include <string>

namespace {

const std::string &key() {
    static const std::string k = cms::captcha::derive_key("fuzz-secret-0123456789abcdef0123456789");
    return k;
}

// A tag that opens is the one seal makes of what it holds: one spelling per tag.
void check_opened(const std::string &tag) {
    std::optional<cms::captcha::Opened> opened = cms::captcha::open(tag, key());
    if (!opened)
        return;
    if (opened->nonce.size() != cms::captcha::k_nonce_size || opened->code.empty() ||
        opened->expires < 0 ||
        cms::captcha::seal(opened->code, key(), opened->nonce, opened->expires) != tag)
        std::abort();
}

// data as nonce (12 bytes), expiry (8), code (1..16): sealed, it opens to the same fields, and
// with any one character changed it does not open.
void check_sealed(const std::string &data) {
    constexpr size_t fields = cms::captcha::k_nonce_size + 8;
    if (data.size() <= fields || data.size() > fields + 16)
        return;
    std::string nonce = data.substr(0, cms::captcha::k_nonce_size);
    int64_t expires = 0;
    for (size_t i = cms::captcha::k_nonce_size; i < fields; ++i)
        expires = expires << 8 | static_cast<unsigned char>(data[i]);
    expires &= INT64_MAX;
    std::string code = data.substr(fields);
    std::string tag = cms::captcha::seal(code, key(), nonce, expires);
    std::optional<cms::captcha::Opened> opened = cms::captcha::open(tag, key());
    if (!opened || opened->nonce != nonce || opened->expires != expires || opened->code != code)
        std::abort();
    std::string altered = tag;
    size_t at = static_cast<unsigned char>(data[0]) % altered.size();
    altered[at] = altered[at] == 'A' ? 'B' : 'A';
    if (cms::captcha::open(altered, key()))
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    std::string text(reinterpret_cast<const char *>(data), size);
    check_opened(text);
    check_sealed(text);
    return 0;
}
