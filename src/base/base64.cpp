// Base64 codecs: OpenSSL's EVP block functions do the conversion; this file only validates the
// text first, because EVP_DecodeBlock skips whitespace and does not report padding.
#include "base/base64.h"

#include <openssl/evp.h>

#include <cstddef>

namespace cms::base64 {

namespace {

// Multiples of 3 bytes / 4 characters, so chunks concatenate without padding in between and the
// lengths always fit the int parameters of the EVP functions.
constexpr std::size_t k_encode_chunk = 3 * 4096;
constexpr std::size_t k_decode_chunk = 4 * 4096;

// Value of a standard-alphabet character, or -1.
int std_value(char c) {
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    if (c == '+')
        return 62;
    if (c == '/')
        return 63;
    return -1;
}

// Bits of the last character that carry no data must be zero; otherwise two different texts
// would decode to the same bytes (and a flipped signature character could go unnoticed).
bool canonical_tail(std::string_view data) {
    switch (data.size() % 4) {
    case 2:
        return (std_value(data.back()) & 0x0f) == 0;
    case 3:
        return (std_value(data.back()) & 0x03) == 0;
    default:
        return true;
    }
}

// Decodes validated standard base64 (length a multiple of 4) and drops the `padding` bytes that
// EVP_DecodeBlock emits for the trailing '=' characters.
std::optional<std::string> decode_padded(std::string_view text, std::size_t padding) {
    std::string out;
    out.reserve(text.size() / 4 * 3);
    unsigned char buf[k_decode_chunk / 4 * 3];
    for (std::size_t pos = 0; pos < text.size(); pos += k_decode_chunk) {
        std::string_view chunk = text.substr(pos, k_decode_chunk);
        int n = EVP_DecodeBlock(buf, reinterpret_cast<const unsigned char *>(chunk.data()),
                                static_cast<int>(chunk.size()));
        if (n < 0)
            return std::nullopt;
        out.append(reinterpret_cast<const char *>(buf), static_cast<std::size_t>(n));
    }
    out.resize(out.size() - padding);
    return out;
}

} // namespace

std::string encode_std(std::string_view bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    unsigned char buf[k_encode_chunk / 3 * 4 + 1];
    for (std::size_t pos = 0; pos < bytes.size(); pos += k_encode_chunk) {
        std::string_view chunk = bytes.substr(pos, k_encode_chunk);
        int n = EVP_EncodeBlock(buf, reinterpret_cast<const unsigned char *>(chunk.data()),
                                static_cast<int>(chunk.size()));
        out.append(reinterpret_cast<const char *>(buf), static_cast<std::size_t>(n));
    }
    return out;
}

std::string encode_url(std::string_view bytes) {
    std::string out = encode_std(bytes);
    while (!out.empty() && out.back() == '=')
        out.pop_back();
    for (char &c : out) {
        if (c == '+')
            c = '-';
        else if (c == '/')
            c = '_';
    }
    return out;
}

std::optional<std::string> decode_url(std::string_view text) {
    if (text.size() % 4 == 1)
        return std::nullopt;
    std::string std_text(text);
    for (char &c : std_text) {
        if (c == '-')
            c = '+';
        else if (c == '_')
            c = '/';
        else if (c == '+' || c == '/' || std_value(c) < 0) // standard-only or foreign
            return std::nullopt;
    }
    if (!canonical_tail(std_text))
        return std::nullopt;
    std::size_t padding = (4 - std_text.size() % 4) % 4;
    std_text.append(padding, '=');
    return decode_padded(std_text, padding);
}

std::optional<std::string> decode_std(std::string_view text) {
    if (text.size() % 4 != 0)
        return std::nullopt;
    std::size_t padding = 0;
    while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=')
        ++padding;
    std::string_view data = text.substr(0, text.size() - padding);
    for (char c : data) {
        if (std_value(c) < 0)
            return std::nullopt;
    }
    if (!canonical_tail(data))
        return std::nullopt;
    return decode_padded(text, padding);
}

} // namespace cms::base64
