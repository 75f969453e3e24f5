// Small text encodings shared across the service: hex digits, %XX escaping, ASCII lower case.
#pragma once

#include <string>
#include <string_view>

namespace cms::text {

// The value of a hex digit (either case), or -1.
int hex_digit(char c);

// bytes as lower-case hex, two digits a byte.
std::string hex(const unsigned char *bytes, size_t size);

// text with every byte for which escape() is true written as %XX (upper-case hex).
std::string percent_escape(std::string_view text, bool (*escape)(unsigned char));

// text with ASCII letters lower-cased (other bytes, UTF-8 included, unchanged).
std::string lower(std::string text);

} // namespace cms::text
