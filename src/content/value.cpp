// Field values in and out: the per-type checks of doc/content.md and the canonical texts that are
// stored and answered. Numbers are handled as text, so that nothing goes through a double.
#include "content/value.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdio>

#include "base/utf8.h"

namespace cms::content {

namespace {

bool digits(std::string_view text) {
    return !text.empty() &&
           std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

int number(std::string_view text) {
    int n = 0;
    for (char c : text)
        n = n * 10 + (c - '0');
    return n;
}

bool leap(int year) {
    return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
}

int days_in_month(int year, int month) {
    static const int k_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && leap(year) ? 29 : k_days[month - 1];
}

// Days since 1970-01-01 of a civil date (Howard Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, int m, int d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void civil_from_days(int64_t z, int64_t &y, int &m, int &d) {
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    y = yoe + era * 400 + (m <= 2);
}

// A decimal split into sign, integer digits (no leading zeros) and fraction digits.
struct Parts {
    bool negative = false;
    std::string whole, fraction;
};

// Reads -?D+(.D+)?([eE][+-]?D+)? into parts, the exponent applied.
std::optional<Parts> parts(std::string_view text) {
    Parts p;
    size_t i = 0;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
        p.negative = text[i] == '-';
        ++i;
    }
    size_t start = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
        ++i;
    std::string whole(text.substr(start, i - start));
    std::string fraction;
    if (i < text.size() && text[i] == '.') {
        size_t f = ++i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
            ++i;
        fraction = std::string(text.substr(f, i - f));
        if (fraction.empty())
            return std::nullopt;
    }
    if (whole.empty())
        return std::nullopt;
    int exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool minus = i < text.size() && text[i] == '-';
        if (i < text.size() && (text[i] == '-' || text[i] == '+'))
            ++i;
        std::string_view e = text.substr(i);
        if (!digits(e) || e.size() > 3)
            return std::nullopt;
        exponent = number(e) * (minus ? -1 : 1);
        i = text.size();
    }
    if (i != text.size())
        return std::nullopt;
    std::string all = whole + fraction;
    long point = static_cast<long>(whole.size()) + exponent;
    if (point < 0) {
        all.insert(0, static_cast<size_t>(-point), '0');
        point = 0;
    }
    if (point > static_cast<long>(all.size()))
        all.append(static_cast<size_t>(point) - all.size(), '0');
    p.whole = all.substr(0, static_cast<size_t>(point));
    p.fraction = all.substr(static_cast<size_t>(point));
    p.whole.erase(0, std::min(p.whole.find_first_not_of('0'), p.whole.size()));
    while (!p.fraction.empty() && p.fraction.back() == '0')
        p.fraction.pop_back();
    if (p.whole.empty() && p.fraction.empty())
        p.negative = false; // -0 is 0
    return p;
}

size_t characters(const std::string &text) {
    return utf8::length(text).value_or(0);
}

Fault text_value(const Field &field, const Json::Value &member, bool bounds, Value &out) {
    if (!member.isString())
        return Fault::invalid;
    std::string text = member.asString();
    if (!utf8::valid_text(text))
        return Fault::invalid;
    size_t n = characters(text);
    if (bounds && ((field.min_length && n < static_cast<size_t>(*field.min_length)) ||
                   (field.max_length && n > static_cast<size_t>(*field.max_length))))
        return Fault::length;
    switch (field.type) {
    case Type::email:
        if (!email(text))
            return Fault::invalid;
        break;
    case Type::url:
        if (!url(text))
            return Fault::invalid;
        break;
    case Type::enumeration:
        if (std::find(field.values.begin(), field.values.end(), text) == field.values.end())
            return Fault::invalid;
        break;
    case Type::date:
        if (!date(text))
            return Fault::invalid;
        break;
    case Type::datetime: {
        std::optional<std::string> utc = utc_datetime(text);
        if (!utc)
            return Fault::invalid;
        text = *utc;
        break;
    }
    default:
        break;
    }
    out = Value::of(std::move(text));
    return Fault::none;
}

// An integer member written as a JSON integer (its text), within int64 and the field's bounds.
Fault integer_value(const Field &field, const Json::Value &member, std::string_view source,
                    bool bounds, Value &out) {
    if (!member.isNumeric())
        return Fault::invalid;
    std::optional<std::string> text = number_text(member, source);
    std::optional<Parts> p = text ? parts(*text) : std::nullopt;
    if (!p || !p->fraction.empty())
        return Fault::invalid;
    std::string signed_text = (p->negative ? "-" : "") + (p->whole.empty() ? "0" : p->whole);
    int64_t v = 0;
    auto [end, ec] =
        std::from_chars(signed_text.data(), signed_text.data() + signed_text.size(), v);
    if (ec != std::errc() || end != signed_text.data() + signed_text.size())
        return Fault::range;
    if (bounds && ((field.min_value && v < std::stoll(*field.min_value)) ||
                   (field.max_value && v > std::stoll(*field.max_value))))
        return Fault::range;
    out = Value::of(v);
    return Fault::none;
}

Fault decimal_value(const Field &field, const Json::Value &member, std::string_view source,
                    bool bounds, Value &out) {
    std::optional<std::string> text;
    if (member.isString())
        text = member.asString();
    else if (member.isNumeric())
        text = number_text(member, source);
    if (!text)
        return Fault::invalid;
    std::optional<std::string> d = decimal(*text, field.precision, field.scale);
    if (!d) // not a number, or one that the column cannot hold as written
        return parts(*text) ? Fault::range : Fault::invalid;
    if (bounds && ((field.min_value && compare_decimal(*d, *field.min_value) < 0) ||
                   (field.max_value && compare_decimal(*d, *field.max_value) > 0)))
        return Fault::range;
    out = Value::of(*d);
    return Fault::none;
}

// An id member of a relation or file: a positive integer that fits `int unsigned`, as a JSON
// integer or a string of digits.
Fault id_value(const Json::Value &member, std::string_view source, Value &out) {
    std::optional<std::string> text;
    if (member.isString())
        text = member.asString();
    else if (member.isIntegral())
        text = number_text(member, source);
    if (!text || !digits(*text) || text->size() > 10)
        return Fault::invalid;
    int64_t v = std::stoll(*text);
    if (v < 1 || v > 4294967295LL)
        return Fault::invalid;
    out = Value::of(v);
    return Fault::none;
}

} // namespace

Fault convert(const Field &field, const Json::Value &member, std::string_view source, Value &out,
              bool bounds) {
    if (member.isNull()) {
        out = Value::null();
        return Fault::none;
    }
    switch (field.type) {
    case Type::string:
    case Type::text:
    case Type::email:
    case Type::url:
    case Type::enumeration:
    case Type::date:
    case Type::datetime:
        return text_value(field, member, bounds, out);
    case Type::integer:
        return integer_value(field, member, source, bounds, out);
    case Type::decimal:
        return decimal_value(field, member, source, bounds, out);
    case Type::boolean:
        if (!member.isBool())
            return Fault::invalid;
        out = Value::of(int64_t(member.asBool() ? 1 : 0));
        return Fault::none;
    case Type::relation:
    case Type::file:
        return id_value(member, source, out);
    }
    return Fault::invalid;
}

Json::Value answer(const Field &field, bool is_null, int64_t integer, const std::string &text) {
    if (is_null)
        return Json::Value(Json::nullValue);
    switch (field.type) {
    case Type::integer:
    case Type::relation:
        return Json::Value(static_cast<Json::Int64>(integer));
    case Type::boolean:
        return Json::Value(integer != 0);
    case Type::datetime: {
        // "YYYY-MM-DD HH:MM:SS.mmm" as stored (UTC): the fraction only when it is not zero.
        std::string out = text.substr(0, 19);
        if (out.size() > 10)
            out[10] = 'T';
        if (text.size() > 20 && text.find_first_not_of('0', 20) != std::string::npos)
            out += text.substr(19);
        return Json::Value(out + "Z");
    }
    default:
        return Json::Value(text);
    }
}

std::optional<std::string> number_text(const Json::Value &number, std::string_view source) {
    ptrdiff_t start = number.getOffsetStart(), limit = number.getOffsetLimit();
    if (!source.empty() && limit > start && static_cast<size_t>(limit) <= source.size())
        return std::string(
            source.substr(static_cast<size_t>(start), static_cast<size_t>(limit - start)));
    if (number.isInt64())
        return std::to_string(number.asInt64());
    if (number.isUInt64())
        return std::to_string(number.asUInt64());
    std::array<char, 64> buf{};
    auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), number.asDouble());
    if (ec != std::errc())
        return std::nullopt;
    std::string text(buf.data(), end);
    std::optional<Parts> p = parts(text);
    if (!p)
        return std::nullopt;
    std::string significant = p->whole + p->fraction;
    significant.erase(0, std::min(significant.find_first_not_of('0'), significant.size()));
    while (!significant.empty() && significant.back() == '0')
        significant.pop_back();
    if (significant.size() > 15)
        return std::nullopt;
    return text;
}

std::optional<std::string> decimal(std::string_view text, int precision, int scale) {
    std::optional<Parts> p = parts(text);
    if (!p || static_cast<int>(p->fraction.size()) > scale ||
        static_cast<int>(p->whole.size()) > precision - scale)
        return std::nullopt;
    std::string out = p->negative ? "-" : "";
    out += p->whole.empty() ? "0" : p->whole;
    if (scale > 0)
        out +=
            "." + p->fraction + std::string(static_cast<size_t>(scale) - p->fraction.size(), '0');
    return out;
}

int compare_decimal(const std::string &a, const std::string &b) {
    std::optional<Parts> pa = parts(a), pb = parts(b);
    if (!pa || !pb)
        return 0;
    if (pa->negative != pb->negative) // zero is never negative
        return pa->negative ? -1 : 1;
    // The magnitudes: the longer integer part is the larger, else digit by digit.
    int magnitude = 0;
    if (pa->whole.size() != pb->whole.size()) {
        magnitude = pa->whole.size() < pb->whole.size() ? -1 : 1;
    } else {
        size_t n = std::max(pa->fraction.size(), pb->fraction.size());
        std::string ta = pa->whole + pa->fraction + std::string(n - pa->fraction.size(), '0');
        std::string tb = pb->whole + pb->fraction + std::string(n - pb->fraction.size(), '0');
        magnitude = ta < tb ? -1 : (ta > tb ? 1 : 0);
    }
    return pa->negative ? -magnitude : magnitude;
}

bool date(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-' || !digits(text.substr(0, 4)) ||
        !digits(text.substr(5, 2)) || !digits(text.substr(8, 2)))
        return false;
    int y = number(text.substr(0, 4)), m = number(text.substr(5, 2)), d = number(text.substr(8, 2));
    return y >= 1000 && m >= 1 && m <= 12 && d >= 1 && d <= days_in_month(y, m);
}

std::optional<std::string> utc_datetime(std::string_view text) {
    if (text.size() < 20 || !date(text.substr(0, 10)) ||
        (text[10] != 'T' && text[10] != 't' && text[10] != ' ') || text[13] != ':' ||
        text[16] != ':' || !digits(text.substr(11, 2)) || !digits(text.substr(14, 2)) ||
        !digits(text.substr(17, 2)))
        return std::nullopt;
    int hh = number(text.substr(11, 2)), mi = number(text.substr(14, 2)),
        ss = number(text.substr(17, 2));
    if (hh > 23 || mi > 59 || ss > 59) // no leap second: MariaDB has none
        return std::nullopt;
    size_t i = 19;
    std::string millis = "000";
    if (text[i] == '.') {
        size_t f = ++i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
            ++i;
        if (i == f || i - f > 3)
            return std::nullopt;
        millis = std::string(text.substr(f, i - f)) + std::string(3 - (i - f), '0');
    }
    int offset = 0; // minutes east of UTC
    std::string_view zone = text.substr(i);
    if (zone == "Z" || zone == "z") {
        offset = 0;
    } else if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && zone[3] == ':' &&
               digits(zone.substr(1, 2)) && digits(zone.substr(4, 2))) {
        int oh = number(zone.substr(1, 2)), om = number(zone.substr(4, 2));
        if (oh > 23 || om > 59)
            return std::nullopt;
        offset = (oh * 60 + om) * (zone[0] == '-' ? -1 : 1);
    } else {
        return std::nullopt;
    }
    int64_t days = days_from_civil(number(text.substr(0, 4)), number(text.substr(5, 2)),
                                   number(text.substr(8, 2)));
    int64_t minutes = days * 1440 + hh * 60 + mi - offset;
    int64_t y = 0;
    int m = 0, d = 0;
    int64_t day = minutes >= 0 ? minutes / 1440 : (minutes - 1439) / 1440;
    int64_t in_day = minutes - day * 1440;
    civil_from_days(day, y, m, d);
    if (y < 1000 || y > 9999)
        return std::nullopt;
    char out[32];
    std::snprintf(out, sizeof out, "%04d-%02d-%02d %02d:%02d:%02d.%s", static_cast<int>(y), m, d,
                  static_cast<int>(in_day / 60), static_cast<int>(in_day % 60), ss, millis.c_str());
    return std::string(out);
}

bool email(std::string_view text) {
    size_t at = text.find('@');
    if (at == std::string_view::npos || at == 0 || text.find('@', at + 1) != std::string_view::npos)
        return false;
    std::string_view domain = text.substr(at + 1);
    size_t dot = domain.find('.');
    if (dot == std::string_view::npos || dot == 0 || domain.back() == '.' ||
        domain.find("..") != std::string_view::npos)
        return false;
    return std::none_of(text.begin(), text.end(), [](unsigned char c) {
        return c <= ' ' || c == 0x7f || c == '<' || c == '>' || c == '"' || c == ',';
    });
}

bool url(std::string_view text) {
    size_t host;
    if (text.rfind("http://", 0) == 0)
        host = 7;
    else if (text.rfind("https://", 0) == 0)
        host = 8;
    else
        return false;
    if (host >= text.size() || text[host] == '/' || text[host] == '?' || text[host] == '#')
        return false;
    return std::none_of(text.begin(), text.end(),
                        [](unsigned char c) { return c <= ' ' || c == 0x7f; });
}

} // namespace cms::content
