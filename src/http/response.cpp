// Response construction and CGI serialisation.
#include "http/response.h"

#include "base/json.h"

namespace cms {

Response Response::json(int status, const Json::Value &value) {
    return json_text(status, json::write(value));
}

Response Response::json_text(int status, std::string body) {
    Response res;
    res.status = status;
    res.body = std::move(body);
    res.headers.emplace_back("Content-Type", "application/json; charset=utf-8");
    return res;
}

Response Response::text(int status, std::string content_type, std::string body) {
    Response res;
    res.status = status;
    res.body = std::move(body);
    res.headers.emplace_back("Content-Type", std::move(content_type));
    return res;
}

Response Response::empty(int status) {
    Response res;
    res.status = status;
    return res;
}

const char *status_text(int status) {
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 409: return "Conflict";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    case 507: return "Insufficient Storage";
    default: return "Unknown";
    }
}

std::string Response::serialize() const {
    std::string out;
    out.reserve(body.size() + 256);
    out.append("Status: ").append(std::to_string(status)).append(" ").append(status_text(status));
    out.append("\r\n");
    for (const auto &[name, value] : headers)
        out.append(name).append(": ").append(value).append("\r\n");
    out.append("Content-Length: ").append(std::to_string(body.size())).append("\r\n\r\n");
    out.append(body);
    return out;
}

} // namespace cms
