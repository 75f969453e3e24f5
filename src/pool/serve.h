// The pool's entry (cms-fcgi, cms-fcgi --supervise, or as a CGI program): the listening socket,
// then the worker processes that serve on it.
#pragma once

namespace cms {

struct Config;
class Messages;

// Serves on config.listen (or the inherited socket, or as the one CGI request when there is none)
// until a stop: one worker in this process, or with supervise a master that keeps `workers`
// worker processes running and re-executes argv[0] on USR2. A database that answers with another
// schema version stops start-up (throws); the socket file it made is removed at a clean stop.
// Returns the exit status.
int serve(const Config &config, const Messages &messages, bool supervise, char **argv);

} // namespace cms
