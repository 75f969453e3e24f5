// The request loop: accepts FastCGI requests (or serves the one CGI request), builds the Request,
// dispatches it and writes the Response. The only place that catches exceptions per request.
#pragma once

namespace cms {

struct Config;
class Messages;
class Router;
namespace db {
class Connection;
}
namespace jwt {
class Key;
}
namespace json {
class BodyParser;
}

// Process-wide things a request needs, owned by main.
struct Service {
    const Config &config;
    const Messages &messages;
    db::Connection &db;
    const jwt::Key &jwt_key;
    json::BodyParser &json;
    const Router &router;
};

// Installs SIGTERM/SIGUSR1/SIGINT handlers that finish the request in flight and stop the loop.
void install_stop_handlers();

// Serves FastCGI requests accepted on listen_fd until a stop signal; returns the exit status.
int run_fastcgi(Service &service, int listen_fd);

// Serves the single CGI request described by the environment and stdin; returns the exit status.
int run_cgi(Service &service);

} // namespace cms
