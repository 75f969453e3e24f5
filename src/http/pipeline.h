// One request, FastCGI or CGI: builds the Request, dispatches it and writes the Response. The only
// place that catches exceptions per request. Connections and signals are the worker's (worker.h).
#pragma once

#include <fcgiapp.h>

namespace cms {

struct Config;
class Messages;
class Meter;
class Router;
class Scoreboard;
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
    // The pool's scoreboard and this thread's slot in it; nullptr without a pool (CGI, a lone
    // worker).
    const Scoreboard *board;
    Meter *meter;
};

// Answers the FastCGI request FCGX_Accept_r just read: reads what is left of its body (drained
// even when refused), writes the response. The caller finishes the request.
void serve_fastcgi(Service &service, FCGX_Request &request);

// Serves the single CGI request described by the environment and stdin; returns the exit status.
int run_cgi(Service &service);

// Answers the CGI request with the 500 envelope (built-in text: the message table may be what
// failed) when start-up failed before a Service existed; the caller logs the reason. Returns 1.
int fail_cgi();

} // namespace cms
