// One request, FastCGI or CGI: builds the Request, dispatches it and writes the Response. The only
// place that catches exceptions per request. Connections and signals are the worker's (worker.h).
#pragma once

#include <functional>

#include <fcgiapp.h>

#include "http/context.h"

namespace cms {

class Meter;
class Router;

// What a thread needs to serve requests: the parts each request's Ctx starts from, the router
// and the thread's slot of the scoreboard (nullptr without a pool: CGI, a lone worker).
struct Service : Shared {
    const Router &router;
    Meter *meter = nullptr;
    // Run by the worker's loop before each request, when no request of this thread is under
    // way: the moment the thread's parts may change what the router points to.
    std::function<void()> before_request = nullptr;
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
