// The nginx include of the texts of the errors nginx answers itself. The list of codes below is
// the one nginx/cms-fcgi.conf answers with; t/0116 keeps the two in agreement.
#include "http/nginx_texts.h"

#include "base/json.h"
#include "base/text.h"

namespace cms {

namespace {

// The codes of location /.cms-fcgi-error's answers.
const Code k_nginx_codes[] = {
    Code::internal,           Code::not_found,         Code::forbidden,
    Code::method_not_allowed, Code::too_many_requests, Code::body_too_large,
    Code::db_unavailable,     Code::http_malformed,    Code::http_timeout,
    Code::uri_too_long,       Code::headers_too_large, Code::upstream_timeout,
};

} // namespace

std::string nginx_set_value(const std::string &text) {
    std::string quoted = json::write(Json::Value(text));
    std::string out;
    // Without the quotes of the JSON string: cms-fcgi.conf's JSON bodies have them.
    for (size_t i = 1; i + 1 < quoted.size(); ++i) {
        char c = quoted[i];
        if (c == '$')
            out += "\\\\u0024";
        else if (c == '\\' || c == '"')
            out += {'\\', c};
        else
            out += c;
    }
    return out;
}

std::string nginx_texts(const Messages &messages, const std::string &origin) {
    auto unprintable = [](unsigned char c) { return c < 0x20 || c == 0x7f; };
    std::string out =
        "# The texts of the errors nginx answers itself (nginx/cms-fcgi.conf includes this file),\n"
        "# written by `cms-fcgi --nginx-texts` from message file '" +
        text::percent_escape(origin, unprintable) +
        "'.\n# Write it again after changing that file, then reload nginx.\n";
    for (Code code : k_nginx_codes)
        out += "set $cms_text_" + std::to_string(static_cast<int>(code)) + " \"" +
               nginx_set_value(messages.text(code)) + "\";\n";
    return out;
}

} // namespace cms
