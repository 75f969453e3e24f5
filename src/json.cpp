// Strict JSON parsing of request bodies and compact writing of responses (jsoncpp).
#include "json.h"

#include <memory>
#include <sstream>

#include "errors.h"
#include "utf8.h"

namespace cms::json {

namespace {

[[noreturn]] void reject(Code text_code) { throw ApiError(400, Code::parameter, text_code); }

// jsoncpp does not check the UTF-8 it decodes from \u escapes (a lone \udc00 passes), nor NULs.
bool text_ok(std::string_view text) {
    return text.find('\0') == std::string_view::npos && utf8::valid(text);
}

bool strings_ok(const Json::Value &value) {
    if (value.isString()) {
        const char *begin = nullptr;
        const char *end = nullptr;
        value.getString(&begin, &end);
        return text_ok(std::string_view(begin, static_cast<size_t>(end - begin)));
    }
    if (value.isObject()) {
        for (auto it = value.begin(); it != value.end(); ++it)
            if (!text_ok(it.name()) || !strings_ok(*it))
                return false;
    } else if (value.isArray()) {
        for (const Json::Value &item : value)
            if (!strings_ok(item))
                return false;
    }
    return true;
}

// What jsoncpp's strict mode still lets through, though RFC 8259 does not: comments inside
// objects and arrays, and numbers with a leading zero (01, -02). Scans the text outside strings.
bool lexically_strict(std::string_view body) {
    bool in_string = false;
    char previous = '\0'; // last significant character outside strings
    for (size_t i = 0; i < body.size(); ++i) {
        char c = body[i];
        if (in_string) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                in_string = false;
            continue;
        }
        if (c == '"') {
            in_string = true;
        } else if (c == '/') {
            return false;
        } else if ((c == '-' || (c >= '0' && c <= '9')) &&
                   (previous == '\0' || previous == '[' || previous == ',' || previous == ':')) {
            size_t digit = c == '-' ? i + 1 : i;
            if (digit + 1 < body.size() && body[digit] == '0' && body[digit + 1] >= '0' &&
                body[digit + 1] <= '9')
                return false;
        }
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
            previous = c;
    }
    return true;
}

} // namespace

Json::Value parse_object(std::string_view body, int max_depth) {
    if (body.find_first_not_of(" \t\r\n") == std::string_view::npos)
        reject(Code::body_empty);
    if (!utf8::valid(body))
        reject(Code::body_not_utf8);

    Json::CharReaderBuilder builder;
    Json::CharReaderBuilder::strictMode(&builder.settings_);
    builder.settings_["stackLimit"] = max_depth;
    // A scalar root is valid JSON: let it parse so that it gets "must be an object", below.
    builder.settings_["strictRoot"] = false;
    std::unique_ptr<Json::CharReader> reader(builder.newCharReader());
    Json::Value root;
    std::string errors;
    bool parsed;
    try {
        parsed = reader->parse(body.data(), body.data() + body.size(), &root, &errors);
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
    static const std::unique_ptr<Json::StreamWriter> writer = [] {
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
