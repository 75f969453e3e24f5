// A FastCGI client of one GET request, for `cms-fcgi status`: asks a running pool for its own
// status page over its socket, as nginx would. No libfcgi (it has no client side).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cms {

// Sends one request with params (name, value) to the FastCGI server at address (a unix socket
// path, or host:port) and returns what it wrote to FCGI_STDOUT (a CGI response). Throws
// std::runtime_error when it cannot connect or the answer breaks off.
std::string fcgi_request(const std::string &address,
                         const std::vector<std::pair<std::string, std::string>> &params);

} // namespace cms
