// The pool's master process (cms-fcgi --supervise): holds the listening socket, keeps `workers`
// worker processes running (each one that dies is started again after a back-off that never gives
// up), and turns signals into a graceful stop (TERM, INT), a log reopen (HUP) or a graceful
// restart (USR2: re-exec with the same socket). It serves no request and opens no connection.
#pragma once

#include <cstddef>
#include <functional>

#include "pool/sockets.h"

namespace cms {

struct Config;
class Scoreboard;

// The body of a worker process, given the listening socket and its slot (0..workers-1) in the
// scoreboard; returns its exit status.
using WorkerMain = std::function<int(int listen_fd, size_t slot)>;

// Supervises config.workers processes running worker_main on socket until a stop signal; a
// restart re-executes exe with argv, handing socket over. Records starts, deaths and the listen queue in board (if any).
// Returns the exit status.
int run_supervisor(const Config &config, const ListenSocket &socket, const WorkerMain &worker_main,
                   const char *exe, char **argv, Scoreboard *board);

} // namespace cms
