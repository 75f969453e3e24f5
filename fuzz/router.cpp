// Fuzz target: "METHOD REQUEST_URI" through read_request_head (percent-decoding, normalize_path),
// Router::match over the real route table (routes.cpp) and Request::line.
#include "base/utf8.h"
#include "http/request.h"
#include "http/router.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

size_t parameters_in(const char *pattern) {
    size_t n = 0;
    for (const char *p = pattern; *p != '\0'; ++p)
        n += *p == '{' ? 1 : 0;
    return n;
}

} // namespace

// Treats data as the method, one space, then the request URI (PATH_INFO unset, as without nginx's
// split). A match has one value per {param}; the request line is always UTF-8.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static const cms::Router router(cms::route_table());
    std::string input(reinterpret_cast<const char *>(data), size);
    if (input.find('\0') != std::string::npos) // CGI parameters are C strings
        return 0;
    size_t space = input.find(' ');
    std::string method = input.substr(0, space);
    std::string uri = space == std::string::npos ? std::string() : input.substr(space + 1);
    cms::Request req = cms::read_request_head([&](const char *name) -> const char * {
        if (std::strcmp(name, "REQUEST_METHOD") == 0)
            return method.c_str();
        if (std::strcmp(name, "REQUEST_URI") == 0)
            return uri.c_str();
        return nullptr;
    });
    if (req.path.empty() || req.path[0] != '/' || req.path != cms::normalize_path(req.path))
        std::abort();
    cms::Router::Match match = router.match(req.method, req.path);
    if (match.route != nullptr &&
        (!match.path_known || match.params.size() != parameters_in(match.route->pattern)))
        std::abort();
    if (!cms::utf8::valid(req.line()))
        std::abort();
    return 0;
}
