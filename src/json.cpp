// Strict JSON parsing of request bodies and compact writing of responses (jsoncpp).
#include "json.h"

#include <memory>

#include "errors.h"
#include "utf8.h"

namespace cms::json {

namespace {

[[noreturn]] void reject(Code text_code) { throw ApiError(400, Code::parameter, text_code); }

// jsoncpp does not check the UTF-8 it decodes from \u escapes (a lone \udc00 passes), nor NULs.
bool strings_ok(const Json::Value &value) {
    if (value.isString()) {
        const char *begin = nullptr;
        const char *end = nullptr;
        value.getString(&begin, &end);
        std::string_view text(begin, static_cast<size_t>(end - begin));
        return text.find('\0') == std::string_view::npos && utf8::valid(text);
    }
    if (value.isObject()) {
        for (auto it = value.begin(); it != value.end(); ++it)
            if (!utf8::valid(it.name()) || !strings_ok(*it))
                return false;
    } else if (value.isArray()) {
        for (const Json::Value &item : value)
            if (!strings_ok(item))
                return false;
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
