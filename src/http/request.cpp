// Request construction from CGI/FastCGI parameters: path relative to the mount point,
// headers we use, body with its cap. Query parsing is delegated to cgicc.
#include "http/request.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <random>

#include <cgicc/CgiInput.h>
#include <cgicc/Cgicc.h>

#include "base/errors.h"
#include "base/text.h"
#include "base/utf8.h"

namespace cms {

namespace {

std::string param_or_empty(const ParamLookup &param, const char *name) {
    const char *value = param(name);
    return value == nullptr ? std::string() : std::string(value);
}

std::string percent_decode(const std::string &text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        int hi, lo;
        if (text[i] == '%' && i + 2 < text.size() && (hi = text::hex_digit(text[i + 1])) >= 0 &&
            (lo = text::hex_digit(text[i + 2])) >= 0) {
            out += static_cast<char>(hi * 16 + lo);
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

// cgicc reads its environment through this; it sees only the query string, never the body.
class QueryInput : public cgicc::CgiInput {
  public:
    explicit QueryInput(const std::string &query) : query_(query) {}
    size_t read(char *, size_t) override { return 0; }
    std::string getenv(const char *name) override {
        if (std::strcmp(name, "REQUEST_METHOD") == 0)
            return "GET";
        if (std::strcmp(name, "QUERY_STRING") == 0)
            return query_;
        return {};
    }

  private:
    const std::string &query_;
};

// The web server's id of the request (nginx's $request_id as REQUEST_ID, Apache's mod_unique_id
// as UNIQUE_ID) when it is a short token that is safe in a header and a log line; else a random
// one of ours, in nginx's form (32 hexadecimal digits).
std::string request_id(const ParamLookup &param) {
    for (const char *name : {"REQUEST_ID", "UNIQUE_ID"}) {
        const char *value = param(name);
        if (value == nullptr || *value == '\0' || std::strlen(value) > 64)
            continue;
        bool safe = true;
        for (const char *p = value; *p != '\0' && safe; ++p)
            safe = std::isalnum(static_cast<unsigned char>(*p)) || std::strchr("@_.-", *p);
        if (safe)
            return value;
    }
    thread_local std::mt19937_64 random(std::random_device{}());
    char id[33];
    std::snprintf(id, sizeof id, "%016llx%016llx", static_cast<unsigned long long>(random()),
                  static_cast<unsigned long long>(random()));
    return id;
}

} // namespace

std::string normalize_path(std::string path) {
    std::string out;
    out.reserve(path.size());
    for (char c : path) {
        if (c == '/' && !out.empty() && out.back() == '/')
            continue;
        out += c;
    }
    while (out.size() > 1 && out.back() == '/')
        out.pop_back();
    if (out.empty() || out[0] != '/')
        out.insert(out.begin(), '/');
    return out;
}

Request read_request_head(const ParamLookup &param) {
    Request req;
    req.started = std::chrono::steady_clock::now();
    req.method = param_or_empty(param, "REQUEST_METHOD");
    req.raw_query = param_or_empty(param, "QUERY_STRING");
    req.content_type = param_or_empty(param, "CONTENT_TYPE");
    req.authorization = param_or_empty(param, "HTTP_AUTHORIZATION");
    req.origin = param_or_empty(param, "HTTP_ORIGIN");
    req.accept = param_or_empty(param, "HTTP_ACCEPT");
    req.remote_addr = param_or_empty(param, "REMOTE_ADDR");
    req.idempotency_key = param_or_empty(param, "HTTP_IDEMPOTENCY_KEY");
    req.captcha_tag = param_or_empty(param, "HTTP_TAG");
    req.request_id = request_id(param);

    // The mount point is the web server's business: nginx (fastcgi_split_path_info) and Apache
    // (ScriptAlias) pass the part below it as PATH_INFO. Without one, take REQUEST_URI.
    const char *path_info = param("PATH_INFO");
    if (path_info != nullptr && *path_info != '\0') {
        req.path = normalize_path(path_info);
    } else {
        std::string uri = param_or_empty(param, "REQUEST_URI");
        uri = percent_decode(uri.substr(0, uri.find('?')));
        std::string script = param_or_empty(param, "SCRIPT_NAME");
        if (path_info != nullptr && !script.empty() && uri.compare(0, script.size(), script) == 0)
            uri.erase(0, script.size());
        req.path = normalize_path(uri);
    }
    return req;
}

void read_request_body(Request &req, const ParamLookup &param, const BodyReader &reader,
                       size_t max_bytes) {
    if (req.body_read)
        return;
    req.body_read = true;
    const char *length_text = param("CONTENT_LENGTH");
    if (length_text == nullptr || *length_text == '\0')
        return;
    size_t length = 0;
    for (const char *p = length_text; *p != '\0'; ++p) {
        if (*p < '0' || *p > '9' || length > (SIZE_MAX - 9) / 10)
            throw ApiError(400, Code::parameter);
        length = length * 10 + static_cast<size_t>(*p - '0');
    }
    if (length > max_bytes)
        throw ApiError(413, Code::body_too_large);
    req.body.resize(length);
    size_t got = 0;
    while (got < length) {
        size_t n = reader(&req.body[got], length - got);
        if (n == 0)
            break;
        got += n;
    }
    // The client stopped early: what came may parse (JSON that happens to be complete, the
    // first parts of an upload), but it is not the request that was announced.
    if (got < length)
        throw ApiError(400, Code::parameter);
}

std::string Request::line() const {
    std::string out = method + " " + path;
    if (utf8::valid(out))
        return out;
    return text::percent_escape(out, [](unsigned char c) { return c >= 0x80; });
}

const std::vector<std::pair<std::string, std::string>> &Request::query_pairs() const {
    if (!query_) {
        query_.emplace();
        QueryInput input(raw_query);
        cgicc::Cgicc cgi(&input);
        for (const cgicc::FormEntry &entry : cgi.getElements())
            query_->emplace_back(entry.getName(), entry.getValue());
    }
    return *query_;
}

std::optional<std::string> Request::query(const std::string &name) const {
    for (const auto &[key, value] : query_pairs())
        if (key == name)
            return value;
    return std::nullopt;
}

} // namespace cms
