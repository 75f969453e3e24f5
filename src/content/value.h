// The values of declared fields: a JSON member checked against its field and made into what is
// stored, and a stored value made into what is answered (doc/content.md, "On the wire"). Pure:
// no SQL, no HTTP.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <json/json.h>

#include "content/declaration.h"

namespace cms::content {

// A value as stored and bound: NULL, an integer (integer, boolean, relation, file) or text (the
// others; a decimal as its canonical text, a datetime as UTC "YYYY-MM-DD HH:MM:SS.mmm").
struct Value {
    enum class Kind { null, integer, text } kind = Kind::null;
    int64_t integer = 0;
    std::string text;

    static Value null() { return Value{}; }
    static Value of(int64_t v) { return Value{Kind::integer, v, {}}; }
    static Value of(std::string v) { return Value{Kind::text, 0, std::move(v)}; }
};

// Why a member was refused, each with its own text (doc/content.md, "Validation").
enum class Fault { none, required, invalid, length, range };

// The stored value of member for field, or the fault. source: the text member was parsed from
// (numbers are read from it, digit for digit, never through a double), or empty. A null member
// is Value::null() (required and nullable are the caller's). bounds: false for a filter's value,
// which may ask for values no row may hold (min, max and lengths are not checked).
Fault convert(const Field &field, const Json::Value &member, std::string_view source, Value &out,
              bool bounds = true);

// The answer of a stored value: a decimal as a string with its scale, a date YYYY-MM-DD, a
// datetime RFC 3339 in UTC with Z, a boolean true/false. text is what the database returned.
Json::Value answer(const Field &field, bool is_null, int64_t integer, const std::string &text);

// The text of a JSON number as it was written in source (jsoncpp keeps where each value was),
// or, without source, the shortest text that reads back as the same double when it has at most
// 15 significant digits (any such text does); nullopt otherwise.
std::optional<std::string> number_text(const Json::Value &number, std::string_view source);

// A decimal's canonical text with scale fraction digits, when text is a decimal that fits
// precision and scale exactly (no digit dropped): "-12.5" at (10, 2) is "-12.50".
std::optional<std::string> decimal(std::string_view text, int precision, int scale);

// a < b (-1), a == b (0), a > b (1), for two decimal texts (0 when either is not one).
int compare_decimal(const std::string &a, const std::string &b);

// The UTC moment of an RFC 3339 date-time (any offset, up to 3 fraction digits) as
// "YYYY-MM-DD HH:MM:SS.mmm", within MariaDB's range (years 1000 to 9999); nullopt otherwise.
std::optional<std::string> utc_datetime(std::string_view text);

// Whether text is a real date YYYY-MM-DD of years 1000 to 9999.
bool date(std::string_view text);

// Whether text looks like an e-mail address: one @, a local part and a dotted domain, no spaces.
bool email(std::string_view text);

// Whether text is an absolute http or https URL with a host and no spaces or control bytes.
bool url(std::string_view text);

} // namespace cms::content
