// The worker's event loop over the listening socket and the kept connections (epoll), the
// per-connection read/write timeouts that libfcgi lacks, and the graceful stop. libfcgi parses
// each request: a connection is handed to FCGX_Accept_r only when it has bytes to read.
#include "worker.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>

#include <fcgiapp.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "config.h"
#include "fcgi_loop.h"
#include "log.h"

namespace cms {

namespace {

using Clock = std::chrono::steady_clock;

volatile std::sig_atomic_t g_stop = 0;
volatile std::sig_atomic_t g_reopen = 0;

extern "C" void on_stop_signal(int) { g_stop = 1; }
extern "C" void on_reopen_signal(int) { g_reopen = 1; }

const int k_stop_signals[] = {SIGTERM, SIGINT, SIGUSR1};

// File descriptors kept back from connections for the database, the log and the probe.
constexpr rlim_t k_reserved_fds = 64;
// While stopping, a kept connection idle this long is closed: the web server is not about to
// reuse it (it reuses the most recently used one first).
constexpr auto k_stopping_idle = std::chrono::seconds(1);
constexpr int k_max_events = 64;
// New connections a worker takes per turn of its loop, before it serves what is ready. One a turn
// left a burst (the web server opening 256 connections at once) waiting in the backlog behind
// ever longer turns: a GET p99 near 1 s at 256 connections, 200-250 ms with 8.
constexpr int k_accept_burst = 8;

// One connection the web server opened; its FCGX_Request must not move (libfcgi points into it).
struct Conn {
    FCGX_Request request;
    Clock::time_point idle_since;
};

using Conns = std::unordered_map<int, std::unique_ptr<Conn>>;

sigset_t handled_signals() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : k_stop_signals)
        sigaddset(&set, sig);
    sigaddset(&set, SIGHUP);
    return set;
}

// Most connections one worker holds: the descriptor limit, raised to its hard maximum.
size_t connection_capacity() {
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0)
        return 64;
    if (lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max == RLIM_INFINITY ? 65536 : lim.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &lim) != 0)
            getrlimit(RLIMIT_NOFILE, &lim);
    }
    rlim_t usable = lim.rlim_cur > 2 * k_reserved_fds ? lim.rlim_cur - k_reserved_fds : 64;
    return static_cast<size_t>(usable);
}

void set_timeouts(int fd, int64_t seconds) {
    struct timeval tv;
    tv.tv_sec = static_cast<time_t>(seconds);
    tv.tv_usec = 0;
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    // Fails harmlessly on a unix socket; on TCP a response must not wait for Nagle.
    int on = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

class Loop {
  public:
    Loop(Service &svc, int listen_fd)
        : svc_(svc), listen_fd_(listen_fd), capacity_(connection_capacity()) {}
    ~Loop() {
        for (auto &[fd, conn] : conns_)
            close(fd);
        if (epoll_fd_ >= 0)
            close(epoll_fd_);
    }
    int run();

  private:
    bool watch(int fd);
    bool accept_one();
    void serve(int fd);
    void forget(int fd, bool close_it);
    void stop_accepting();
    void close_idle(Clock::duration idle_for);

    Service &svc_;
    int listen_fd_;
    size_t capacity_;
    int epoll_fd_ = -1;
    bool accepting_ = false;
    Conns conns_;
};

bool Loop::watch(int fd) {
    struct epoll_event ev;
    std::memset(&ev, 0, sizeof ev);
    ev.events = EPOLLIN;
    // Only one waiting worker is woken for a new connection, not the whole pool.
    if (fd == listen_fd_)
        ev.events |= EPOLLEXCLUSIVE;
    ev.data.fd = fd;
    return epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &ev) == 0;
}

// Takes one new connection; false when there is none or no room. The loop calls it at most
// k_accept_burst times a turn: a worker that took a whole burst of new connections would serve all
// their requests alone while the others idle, since the web server keeps reusing its connections.
bool Loop::accept_one() {
    if (conns_.size() >= capacity_) {
        // Full: leave the rest in the backlog for a worker with room.
        if (accepting_)
            epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
        accepting_ = false;
        return false;
    }
    int fd = accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
        if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED)
            log_error(std::string("cannot accept a FastCGI connection: ") + std::strerror(errno));
        return false;
    }
    set_timeouts(fd, svc_.config.fcgi_read_timeout);
    auto conn = std::make_unique<Conn>();
    // No listening socket of its own: when the connection ends, FCGX_Accept_r returns instead
    // of blocking in accept(). Kept open across requests until we decide; closed without
    // libfcgi's wait for the peer (detached).
    FCGX_InitRequest(&conn->request, -1, 0);
    conn->request.ipcFd = fd;
    conn->request.keepConnection = 1;
    conn->request.detached = 1;
    conn->idle_since = Clock::now();
    if (!watch(fd)) {
        log_error(std::string("cannot watch a FastCGI connection: ") + std::strerror(errno));
        close(fd);
        return false;
    }
    conns_.emplace(fd, std::move(conn));
    return true;
}

void Loop::forget(int fd, bool close_it) {
    // A descriptor libfcgi closed already left the epoll set with its last reference.
    if (close_it) {
        epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
        close(fd);
    }
    conns_.erase(fd);
    if (!accepting_ && listen_fd_ >= 0 && conns_.size() < capacity_)
        accepting_ = watch(listen_fd_);
}

void Loop::serve(int fd) {
    auto it = conns_.find(fd);
    if (it == conns_.end())
        return;
    FCGX_Request &request = it->second->request;
    // Reads the next request's parameters; on end of connection or a broken one libfcgi closes
    // the descriptor and returns an error.
    if (FCGX_Accept_r(&request) < 0) {
        forget(fd, false);
        return;
    }
    bool keep = request.keepConnection != 0;
    request.keepConnection = 1; // so that FCGX_Finish_r closes only after a stream error
    serve_fastcgi(svc_, request);
    FCGX_Finish_r(&request);
    if (request.ipcFd < 0) {
        forget(fd, false);
    } else if (!keep) {
        request.ipcFd = -1;
        forget(fd, true);
    } else {
        it->second->idle_since = Clock::now();
    }
}

void Loop::stop_accepting() {
    if (listen_fd_ < 0)
        return;
    // What the web server connected before the signal is served; then the socket is left to
    // the supervisor (a restart's new workers) or closed with the last process holding it.
    while (accept_one()) {
    }
    if (accepting_)
        epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, listen_fd_, nullptr);
    accepting_ = false;
    close(listen_fd_);
    listen_fd_ = -1;
}

void Loop::close_idle(Clock::duration idle_for) {
    Clock::time_point now = Clock::now();
    for (auto it = conns_.begin(); it != conns_.end();) {
        auto next = std::next(it);
        if (now - it->second->idle_since >= idle_for) {
            it->second->request.ipcFd = -1;
            forget(it->first, true);
        }
        it = next;
    }
}

int Loop::run() {
    epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
    int flags = fcntl(listen_fd_, F_GETFL);
    if (epoll_fd_ < 0 || flags < 0 || fcntl(listen_fd_, F_SETFL, flags | O_NONBLOCK) != 0 ||
        !(accepting_ = watch(listen_fd_))) {
        log_error(std::string("cannot watch the listening socket: ") + std::strerror(errno));
        return 1;
    }
    sigset_t waiting;
    sigprocmask(SIG_SETMASK, nullptr, &waiting);
    sigset_t handled = handled_signals();
    for (int sig = 1; sig < NSIG; ++sig)
        if (sigismember(&handled, sig) == 1)
            sigdelset(&waiting, sig);

    log_info("ready: accepting FastCGI requests");
    const auto idle_timeout = std::chrono::seconds(svc_.config.fcgi_idle_timeout);
    Clock::time_point stop_deadline;
    Clock::time_point last_sweep = Clock::now();
    struct epoll_event events[k_max_events];
    for (;;) {
        bool stopping = listen_fd_ < 0;
        if (stopping && (conns_.empty() || Clock::now() >= stop_deadline))
            break;
        int timeout_ms = stopping ? 100 : conns_.empty() ? -1 : 1000;
        int n = epoll_pwait(epoll_fd_, events, k_max_events, timeout_ms, &waiting);
        if (n < 0 && errno != EINTR) {
            log_error(std::string("cannot wait for FastCGI connections: ") + std::strerror(errno));
            return 1;
        }
        if (g_reopen) {
            g_reopen = 0;
            if (!log_reopen())
                log_error("cannot reopen the log file; logging to stderr");
        }
        if (g_stop && !stopping) {
            log_info("stopping: signal received; finishing what the web server handed over");
            stop_accepting();
            stop_deadline = Clock::now() + std::chrono::seconds(svc_.config.stop_timeout);
        }
        for (int i = 0; i < n; ++i)
            if (events[i].data.fd == listen_fd_)
                for (int taken = 0; taken < k_accept_burst && listen_fd_ >= 0 && accept_one();)
                    ++taken;
        for (int i = 0; i < n; ++i)
            if (events[i].data.fd != listen_fd_)
                serve(events[i].data.fd);
        Clock::time_point now = Clock::now();
        if (listen_fd_ < 0) {
            close_idle(k_stopping_idle);
        } else if (now - last_sweep >= std::chrono::seconds(1)) {
            close_idle(idle_timeout);
            last_sweep = now;
        }
    }
    if (!conns_.empty())
        log_warn("stopping: closing " + std::to_string(conns_.size()) +
                 " connections still open after stop_timeout");
    return 0;
}

} // namespace

void install_worker_signals() {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_stop_signal;
    for (int sig : k_stop_signals)
        sigaction(sig, &sa, nullptr);
    sa.sa_handler = on_reopen_signal;
    sigaction(SIGHUP, &sa, nullptr);
    // A write to a connection the peer closed fails with EPIPE instead of killing the worker.
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, nullptr);
    sigset_t set = handled_signals();
    sigprocmask(SIG_BLOCK, &set, nullptr);
}

int run_worker(Service &service, int listen_fd) {
    Loop loop(service, listen_fd);
    int status = loop.run();
    log_info("stopped");
    return status;
}

} // namespace cms
