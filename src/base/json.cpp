// Strict JSON parsing of request bodies and compact writing of responses (jsoncpp).
#include "base/json.h"

#include <memory>
#include <sstream>

#include "base/errors.h"
#include "base/utf8.h"

namespace cms::json {

namespace {

[[noreturn]] void reject(Code text_code) { throw ApiError(400, Code::parameter, text_code); }

// jsoncpp does not check the UTF-8 it decodes from \u escapes (a lone \udc00 passes), nor NULs.
bool strings_ok(const Json::Value &value) {
    if (value.isString()) {
        const char *begin = nullptr;
        const char *end = nullptr;
        value.getString(&begin, &end);
        return utf8::valid_text(std::string_view(begin, static_cast<size_t>(end - begin)));
    }
    if (value.isObject()) {
        for (auto it = value.begin(); it != value.end(); ++it)
            if (!utf8::valid_text(it.name()) || !strings_ok(*it))
                return false;
    } else if (value.isArray()) {
        for (const Json::Value &item : value)
            if (!strings_ok(item))
                return false;
    }
    return true;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The end of the RFC 8259 number that starts at i, or npos when it is not one:
// -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
size_t number_end(std::string_view s, size_t i) {
    auto digits = [&s](size_t k) {
        while (k < s.size() && is_digit(s[k]))
            ++k;
        return k;
    };
    if (i < s.size() && s[i] == '-')
        ++i;
    if (i >= s.size() || !is_digit(s[i]))
        return std::string_view::npos;
    i = s[i] == '0' ? i + 1 : digits(i);
    if (i < s.size() && s[i] == '.') {
        if (i + 1 >= s.size() || !is_digit(s[i + 1]))
            return std::string_view::npos;
        i = digits(i + 1);
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-'))
            ++i;
        if (i >= s.size() || !is_digit(s[i]))
            return std::string_view::npos;
        i = digits(i);
    }
    return i;
}

// What jsoncpp's strict mode still lets through, though RFC 8259 does not: comments inside
// objects and arrays, control characters (a raw newline) inside strings, a NUL byte (jsoncpp stops
// reading there), and numbers such as 01, -, 1., +1, .5. Checks the text outside and inside strings.
bool lexically_strict(std::string_view body) {
    for (size_t i = 0; i < body.size(); ++i) {
        unsigned char c = static_cast<unsigned char>(body[i]);
        if (c == '"') {
            for (++i; i < body.size() && body[i] != '"'; ++i) {
                if (static_cast<unsigned char>(body[i]) < 0x20)
                    return false;
                if (body[i] == '\\')
                    ++i;
            }
        } else if (c == '-' || is_digit(static_cast<char>(c))) {
            size_t end = number_end(body, i);
            // A number runs up to a delimiter: "01" is "0" followed by a stray digit.
            if (end == std::string_view::npos ||
                (end < body.size() && std::string_view("0123456789.eE+-").find(body[end]) !=
                                          std::string_view::npos))
                return false;
            i = end - 1;
        } else if (c == '/' || c == '+' || c == '.' ||
                   (c < 0x20 && c != ' ' && c != '\t' && c != '\r' && c != '\n')) {
            return false;
        }
    }
    return true;
}

} // namespace

BodyParser::BodyParser(int max_depth) {
    Json::CharReaderBuilder builder;
    Json::CharReaderBuilder::strictMode(&builder.settings_);
    builder.settings_["stackLimit"] = max_depth;
    // A scalar root is valid JSON: let it parse so that it gets "must be an object".
    builder.settings_["strictRoot"] = false;
    reader_.reset(builder.newCharReader());
}

BodyParser::~BodyParser() = default;

Json::Value parse_object(std::string_view body, int max_depth) {
    return BodyParser(max_depth).parse_object(body);
}

Json::Value BodyParser::parse_object(std::string_view body) {
    if (body.find_first_not_of(" \t\r\n") == std::string_view::npos)
        reject(Code::body_empty);
    if (!utf8::valid(body))
        reject(Code::body_not_utf8);

    Json::CharReader &reader = *reader_;
    Json::Value root;
    std::string errors;
    bool parsed;
    try {
        parsed = reader.parse(body.data(), body.data() + body.size(), &root, &errors);
    } catch (const Json::RuntimeError &) {
        // jsoncpp throws (rather than failing) when the nesting exceeds stackLimit.
        reject(Code::json_too_deep);
    }
    if (!parsed) {
        if (errors.find("Duplicate key") != std::string::npos)
            reject(Code::json_duplicate_key);
        reject(Code::json_malformed);
    }
    if (!lexically_strict(body))
        reject(Code::json_malformed);
    if (!root.isObject())
        reject(Code::json_not_object);
    if (!strings_ok(root))
        reject(Code::body_not_utf8);
    return root;
}

std::string write(const Json::Value &value) {
    // One per thread: a writer keeps its indentation and child lists while it writes.
    thread_local const std::unique_ptr<Json::StreamWriter> writer = [] {
        Json::StreamWriterBuilder builder;
        builder["indentation"] = "";
        builder["emitUTF8"] = true;
        return std::unique_ptr<Json::StreamWriter>(builder.newStreamWriter());
    }();
    std::ostringstream out;
    writer->write(value, &out);
    return out.str();
}

} // namespace cms::json
