// Request: the values of one HTTP request that handlers use, copied out of the FastCGI (or CGI)
// parameters, with the body read up to the configured cap. Query strings are parsed with cgicc.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cms {

// Looks up a CGI/FastCGI parameter; nullptr when absent.
using ParamLookup = std::function<const char *(const char *name)>;
// Reads up to n bytes of the body into buf; returns the count, 0 at the end.
using BodyReader = std::function<size_t(char *buf, size_t n)>;

struct Request {
    std::string method;
    std::string path;       // relative to the mount point, no trailing slash ("/" for the root)
    std::string raw_query;  // without '?'
    std::string content_type;
    std::string authorization;
    std::string origin;
    std::string accept;     // the Accept header
    std::string remote_addr;
    std::string idempotency_key; // the Idempotency-Key header, as sent
    std::string captcha_tag;     // the tag header of a login (a captcha's sealed tag), as sent
    std::string request_id;      // the web server's (REQUEST_ID, UNIQUE_ID) or one made here
    std::string body;
    bool body_read = false;          // read_request_body ran (a retried request reads no more)
    std::vector<std::string> params; // path parameters captured by the router, in order
    std::chrono::steady_clock::time_point started;

    // "METHOD /path" as the envelope's `request` field: no query string, no mount prefix; bytes
    // that are not UTF-8 (a path may hold any) are %XX-escaped so that the JSON stays valid.
    std::string line() const;

    // The first value of query parameter name, decoded; nullopt when absent.
    std::optional<std::string> query(const std::string &name) const;
    // Every query parameter, decoded, in order.
    const std::vector<std::pair<std::string, std::string>> &query_pairs() const;

  private:
    mutable std::optional<std::vector<std::pair<std::string, std::string>>> query_;
};

// Builds the request line and headers from the parameters; never throws, reads no body.
Request read_request_head(const ParamLookup &param);

// Reads the body announced by CONTENT_LENGTH into req.body, once; throws ApiError 413 when it
// exceeds max_bytes (before reading), 400 when CONTENT_LENGTH is not a number or the body ends
// before it.
void read_request_body(Request &req, const ParamLookup &param, const BodyReader &reader,
                       size_t max_bytes);

// Removes the trailing slash and empty segments' doubles; "" becomes "/".
std::string normalize_path(std::string path);

} // namespace cms
