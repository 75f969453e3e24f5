// A worker's event loop: the listening socket and every connection the web server keeps open, in
// one epoll set that the worker's threads share. An idle kept connection costs a file descriptor,
// never a thread; a request is served by the first free thread when its connection has bytes.
// Stop and reopen signals are delivered only while a thread waits, so a request in progress
// always finishes.
#pragma once

#include <vector>

namespace cms {

struct Service;

// Blocks the signals the loop handles (TERM, INT, USR1: stop; HUP: reopen the log) and installs
// their handlers. Call before anything else of the worker starts (threads inherit the mask); a
// CGI request calls it too, so that no signal cuts its reads or writes short.
void install_worker_signals();

// Serves FastCGI connections accepted on listen_fd with one thread per Service (each with its own
// database connection; the calling thread is the first) until a stop signal, then finishes what
// the web server already handed over (see config stop_timeout); returns the exit status.
int run_worker(const std::vector<Service *> &threads, int listen_fd);

} // namespace cms
