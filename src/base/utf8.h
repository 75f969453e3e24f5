// UTF-8 checks: validity (no overlongs, surrogates or code points above U+10FFFF) and
// length in characters (code points), which is how every text limit is counted.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace cms::utf8 {

// True when text is well-formed UTF-8.
bool valid(std::string_view text);

// True when text is well-formed UTF-8 without NUL: text fit to store and to send back.
bool valid_text(std::string_view text);

// The number of code points in text, or nullopt when it is not well-formed UTF-8.
std::optional<size_t> length(std::string_view text);

} // namespace cms::utf8
