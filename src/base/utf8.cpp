// UTF-8 validation and code point counting (RFC 3629 table 3-7 of well-formed sequences).
#include "base/utf8.h"

namespace cms::utf8 {

std::optional<size_t> length(std::string_view text) {
    size_t count = 0;
    const auto *p = reinterpret_cast<const unsigned char *>(text.data());
    const unsigned char *end = p + text.size();
    while (p < end) {
        unsigned char c = *p;
        size_t need;
        unsigned char lo = 0x80, hi = 0xBF; // bounds of the second byte
        if (c < 0x80) {
            ++p;
            ++count;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            if (c == 0xE0)
                lo = 0xA0; // overlong
            else if (c == 0xED)
                hi = 0x9F; // surrogates
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            if (c == 0xF0)
                lo = 0x90; // overlong
            else if (c == 0xF4)
                hi = 0x8F; // above U+10FFFF
        } else {
            return std::nullopt;
        }
        if (static_cast<size_t>(end - p) <= need)
            return std::nullopt;
        if (p[1] < lo || p[1] > hi)
            return std::nullopt;
        for (size_t i = 2; i <= need; ++i)
            if (p[i] < 0x80 || p[i] > 0xBF)
                return std::nullopt;
        p += need + 1;
        ++count;
    }
    return count;
}

bool valid(std::string_view text) { return length(text).has_value(); }

bool valid_text(std::string_view text) {
    return text.find('\0') == std::string_view::npos && valid(text);
}

} // namespace cms::utf8
