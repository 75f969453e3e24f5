// Small text encodings shared across the service.
#include "base/text.h"

namespace cms::text {

int hex_digit(char c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

std::string hex(const unsigned char *bytes, size_t size) {
    static const char k_digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(2 * size);
    for (size_t i = 0; i < size; ++i) {
        out += k_digits[bytes[i] >> 4];
        out += k_digits[bytes[i] & 15];
    }
    return out;
}

std::string percent_escape(std::string_view text, bool (*escape)(unsigned char)) {
    static const char k_hex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size());
    for (char ch : text) {
        unsigned char c = static_cast<unsigned char>(ch);
        if (escape(c)) {
            out += '%';
            out += k_hex[c >> 4];
            out += k_hex[c & 15];
        } else {
            out += ch;
        }
    }
    return out;
}

std::string lower(std::string text) {
    for (char &c : text)
        if (c >= 'A' && c <= 'Z')
            c = static_cast<char>(c - 'A' + 'a');
    return text;
}

} // namespace cms::text
