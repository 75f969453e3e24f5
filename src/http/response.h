// Response: status, headers and body of one answer, and its CGI serialisation
// ("Status:" line, headers, blank line, body) that libfcgi or stdout carries to the web server.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <json/json.h>

namespace cms {

struct Response {
    int status = 200;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;

    // A JSON body with Content-Type application/json; charset=utf-8.
    static Response json(int status, const Json::Value &value);
    // The same for a body that is JSON text already (a stored answer).
    static Response json_text(int status, std::string body);
    // A text body of content_type (the status page's metrics).
    static Response text(int status, std::string content_type, std::string body);
    // An empty body (CORS preflight).
    static Response empty(int status);

    Response &header(std::string name, std::string value) {
        headers.emplace_back(std::move(name), std::move(value));
        return *this;
    }

    // The CGI form of the response.
    std::string serialize() const;
};

// "200 OK", "404 Not Found", ... for the Status header.
const char *status_text(int status);

} // namespace cms
