// The worker's event loop over the listening socket and the kept connections (epoll), the
// per-connection read/write timeouts that libfcgi lacks, and the graceful stop. libfcgi parses
// each request: a connection is handed to FCGX_Accept_r only when it has bytes to read.
#include "pool/worker.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <vector>

#include <fcgiapp.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/config.h"
#include "base/log.h"
#include "http/pipeline.h"
#include "metrics/scoreboard.h"

namespace cms {

namespace {

using Clock = std::chrono::steady_clock;

// Atomic, not volatile sig_atomic_t: the handler runs on whichever thread the signal reaches
// (and on each thread begin_stop wakes), while another thread reads the flags.
std::atomic<bool> g_stop{false};
std::atomic<bool> g_reopen{false};
static_assert(std::atomic<bool>::is_always_lock_free, "a signal handler needs a lock-free flag");

extern "C" void on_stop_signal(int) { g_stop.store(true); }
extern "C" void on_reopen_signal(int) { g_reopen.store(true); }

const int k_stop_signals[] = {SIGTERM, SIGINT, SIGUSR1};

// File descriptors kept back from connections for the log, the probe and such; and one more for
// each thread's database connection.
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
    uint32_t generation = 0; // tells an event for this connection from one for an earlier fd
    bool busy = false;       // a thread is serving it: no other thread or sweep may touch it
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

// Most connections one worker of `threads` threads holds: the descriptor limit, raised to its
// hard maximum, less what is kept back.
size_t connection_capacity(size_t threads) {
    struct rlimit lim;
    if (getrlimit(RLIMIT_NOFILE, &lim) != 0)
        return 64;
    if (lim.rlim_cur < lim.rlim_max) {
        lim.rlim_cur = lim.rlim_max == RLIM_INFINITY ? 65536 : lim.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &lim) != 0)
            getrlimit(RLIMIT_NOFILE, &lim);
    }
    rlim_t reserved = k_reserved_fds + threads;
    rlim_t usable = lim.rlim_cur > 2 * reserved ? lim.rlim_cur - reserved : 64;
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

// An event's data: the descriptor and the generation of the connection it was watched for.
uint64_t event_key(int fd, uint32_t generation) {
    return static_cast<uint64_t>(generation) << 32 | static_cast<uint32_t>(fd);
}

int event_fd(uint64_t key) { return static_cast<int>(key & 0xffffffffu); }

// The loop that every thread of a worker runs over one epoll set. With several threads each
// connection is watched one-shot: the thread that takes its event serves it alone and re-arms
// it after the response, so a request waits only while every thread is busy, never behind one
// busy thread while another idles. State shared by the threads is guarded by mutex_; a request
// is served outside it.
class Loop {
  public:
    Loop(const Config &config, int listen_fd, size_t threads)
        : config_(config), listen_fd_(listen_fd), listen_key_(event_key(listen_fd, 0)),
          capacity_(connection_capacity(threads)),
          one_shot_(threads > 1), max_events_(threads > 1 ? 1 : k_max_events) {}
    ~Loop() {
        for (auto &[fd, conn] : conns_)
            close(fd);
        if (epoll_fd_ >= 0)
            close(epoll_fd_);
    }
    bool open();
    // One thread's turns, until the worker has stopped; false after a failure of epoll.
    bool run(Service &svc);
    // Stops every thread at its next turn, without serving what is left.
    void abort() {
        std::lock_guard<std::mutex> lock(mutex_);
        begin_stop();
        stop_deadline_ = Clock::now();
    }
    size_t open_connections() {
        std::lock_guard<std::mutex> lock(mutex_);
        return conns_.size();
    }

  private:
    bool watch(int fd, uint64_t key, uint32_t events, int op = EPOLL_CTL_ADD);
    bool watch_listen();
    bool accept_one();
    Conn *claim(uint64_t key);
    void serve(Service &svc, int fd, Conn *conn);
    void finish(int fd, Conn *conn, bool ended, bool keep);
    void forget(int fd, bool close_it);
    void begin_stop();
    void close_idle(Clock::duration idle_for);
    void tend(Clock::time_point now);

    const Config &config_;
    int listen_fd_; // -1 once begin_stop closed it
    // The listening socket's event: fixed, so that a thread starting its run() after another
    // began the stop need not read listen_fd_ outside mutex_.
    const uint64_t listen_key_;
    size_t capacity_;
    const bool one_shot_;
    const int max_events_;
    sigset_t waiting_;
    int epoll_fd_ = -1;
    std::mutex mutex_;
    std::vector<pthread_t> threads_; // woken by a stop signal of their own when one sees the stop
    bool accepting_ = false;
    bool stopping_ = false;
    Clock::time_point stop_deadline_;
    Clock::time_point last_sweep_ = Clock::now();
    uint32_t generation_ = 0;
    Conns conns_;
    // Connections whose descriptor libfcgi closed while a thread served them, and whose number a
    // new connection got before that thread was done; that thread frees its own.
    std::vector<std::unique_ptr<Conn>> orphans_;
};

bool Loop::watch(int fd, uint64_t key, uint32_t events, int op) {
    struct epoll_event ev;
    std::memset(&ev, 0, sizeof ev);
    ev.events = events;
    ev.data.u64 = key;
    return epoll_ctl(epoll_fd_, op, fd, &ev) == 0;
}

// EPOLLEXCLUSIVE: only one waiting worker is woken for a new connection, not the whole pool.
bool Loop::watch_listen() { return watch(listen_fd_, listen_key_, EPOLLIN | EPOLLEXCLUSIVE); }

bool Loop::open() {
    epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
    int flags = fcntl(listen_fd_, F_GETFL);
    if (epoll_fd_ < 0 || flags < 0 || fcntl(listen_fd_, F_SETFL, flags | O_NONBLOCK) != 0 ||
        !(accepting_ = watch_listen())) {
        log_error(std::string("cannot watch the listening socket: ") + std::strerror(errno));
        return false;
    }
    sigprocmask(SIG_SETMASK, nullptr, &waiting_);
    sigset_t handled = handled_signals();
    for (int sig = 1; sig < NSIG; ++sig)
        if (sigismember(&handled, sig) == 1)
            sigdelset(&waiting_, sig);
    return true;
}

// Takes one new connection; false when there is none or no room. The loop calls it at most
// k_accept_burst times a turn: a worker that took a whole burst of new connections would serve all
// their requests alone while the others idle, since the web server keeps reusing its connections.
// Called with mutex_ held.
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
    set_timeouts(fd, config_.fcgi_read_timeout);
    auto conn = std::make_unique<Conn>();
    // No listening socket of its own: when the connection ends, FCGX_Accept_r returns instead
    // of blocking in accept(). Kept open across requests until we decide; closed without
    // libfcgi's wait for the peer (detached).
    FCGX_InitRequest(&conn->request, -1, 0);
    conn->request.ipcFd = fd;
    conn->request.keepConnection = 1;
    conn->request.detached = 1;
    conn->idle_since = Clock::now();
    conn->generation = ++generation_;
    uint32_t events = one_shot_ ? EPOLLIN | EPOLLONESHOT : EPOLLIN;
    if (!watch(fd, event_key(fd, conn->generation), events)) {
        log_error(std::string("cannot watch a FastCGI connection: ") + std::strerror(errno));
        close(fd);
        return false;
    }
    auto old = conns_.find(fd);
    if (old != conns_.end()) {
        orphans_.push_back(std::move(old->second));
        conns_.erase(old);
    }
    conns_.emplace(fd, std::move(conn));
    return true;
}

// Called with mutex_ held.
void Loop::forget(int fd, bool close_it) {
    // A descriptor libfcgi closed already left the epoll set with its last reference.
    if (close_it) {
        epoll_ctl(epoll_fd_, EPOLL_CTL_DEL, fd, nullptr);
        close(fd);
    }
    conns_.erase(fd);
    if (!accepting_ && listen_fd_ >= 0 && conns_.size() < capacity_)
        accepting_ = watch_listen();
}

// The connection of an event, marked busy so that no other thread and no sweep touches it; nullptr
// for an event of a connection closed meanwhile, or one another thread took. Called with mutex_
// held.
Conn *Loop::claim(uint64_t key) {
    auto it = conns_.find(event_fd(key));
    if (it == conns_.end() || it->second->generation != key >> 32 || it->second->busy)
        return nullptr;
    it->second->busy = true;
    return it->second.get();
}

void Loop::serve(Service &svc, int fd, Conn *conn) {
    FCGX_Request &request = conn->request;
    if (svc.meter != nullptr)
        svc.meter->begin();
    // Reads the next request's parameters; on end of connection or a broken one libfcgi closes
    // the descriptor and returns an error.
    bool ended = FCGX_Accept_r(&request) < 0;
    bool keep = true;
    if (!ended) {
        keep = request.keepConnection != 0;
        request.keepConnection = 1; // so that FCGX_Finish_r closes only after a stream error
        if (svc.before_request)
            svc.before_request();
        serve_fastcgi(svc, request);
        FCGX_Finish_r(&request);
    }
    if (svc.meter != nullptr)
        svc.meter->done(!ended);
    finish(fd, conn, ended, keep);
}

void Loop::finish(int fd, Conn *conn, bool ended, bool keep) {
    std::lock_guard<std::mutex> lock(mutex_);
    conn->busy = false;
    auto it = conns_.find(fd);
    if (it == conns_.end() || it->second.get() != conn) {
        // libfcgi closed it, and a new connection has the number already.
        for (auto orphan = orphans_.begin(); orphan != orphans_.end(); ++orphan)
            if (orphan->get() == conn) {
                orphans_.erase(orphan);
                break;
            }
        return;
    }
    FCGX_Request &request = conn->request;
    if (ended || request.ipcFd < 0) {
        forget(fd, false);
    } else if (!keep) {
        request.ipcFd = -1;
        forget(fd, true);
    } else {
        conn->idle_since = Clock::now();
        if (one_shot_ && !watch(fd, event_key(fd, conn->generation), EPOLLIN | EPOLLONESHOT,
                                EPOLL_CTL_MOD)) {
            request.ipcFd = -1;
            forget(fd, true);
        }
    }
}

// Called with mutex_ held.
void Loop::begin_stop() {
    if (stopping_)
        return;
    stopping_ = true;
    stop_deadline_ = Clock::now() + std::chrono::seconds(config_.stop_timeout);
    // The process's signal reached one thread; the others may wait without a timeout.
    for (pthread_t thread : threads_)
        if (!pthread_equal(thread, pthread_self()))
            pthread_kill(thread, SIGUSR1);
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

// Called with mutex_ held; a connection a thread is serving is not idle.
void Loop::close_idle(Clock::duration idle_for) {
    Clock::time_point now = Clock::now();
    for (auto it = conns_.begin(); it != conns_.end();) {
        auto next = std::next(it);
        if (!it->second->busy && now - it->second->idle_since >= idle_for) {
            it->second->request.ipcFd = -1;
            forget(it->first, true);
        }
        it = next;
    }
}

// The signals' flags, the stop and the idle sweep, by whichever thread wakes; mutex_ held.
void Loop::tend(Clock::time_point now) {
    if (g_reopen.exchange(false)) {
        if (!log_reopen())
            log_error("cannot reopen the log file; logging to stderr");
    }
    if (g_stop.load() && !stopping_) {
        log_info("stopping: signal received; finishing what the web server handed over");
        begin_stop();
    }
    if (stopping_) {
        close_idle(k_stopping_idle);
    } else if (now - last_sweep_ >= std::chrono::seconds(1)) {
        close_idle(std::chrono::seconds(config_.fcgi_idle_timeout));
        last_sweep_ = now;
    }
}

bool Loop::run(Service &svc) {
    struct epoll_event events[k_max_events];
    if (svc.meter != nullptr)
        svc.meter->attach();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        threads_.push_back(pthread_self());
    }
    for (;;) {
        int timeout_ms;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (stopping_ && (conns_.empty() || Clock::now() >= stop_deadline_))
                return true;
            timeout_ms = stopping_ ? 100 : conns_.empty() ? -1 : 1000;
        }
        int n = epoll_pwait(epoll_fd_, events, max_events_, timeout_ms, &waiting_);
        if (n < 0 && errno != EINTR) {
            log_error(std::string("cannot wait for FastCGI connections: ") + std::strerror(errno));
            abort();
            return false;
        }
        // The connections with a request are claimed before the sweep, which would otherwise
        // close one that idled long enough with its request already in hand.
        Conn *claimed[k_max_events];
        {
            std::lock_guard<std::mutex> lock(mutex_);
            bool listen_ready = false;
            for (int i = 0; i < n; ++i) {
                listen_ready = listen_ready || events[i].data.u64 == listen_key_;
                claimed[i] = events[i].data.u64 == listen_key_ ? nullptr : claim(events[i].data.u64);
            }
            tend(Clock::now());
            if (listen_ready)
                for (int taken = 0; taken < k_accept_burst && listen_fd_ >= 0 && accept_one();)
                    ++taken;
        }
        for (int i = 0; i < n; ++i)
            if (claimed[i] != nullptr)
                serve(svc, event_fd(events[i].data.u64), claimed[i]);
    }
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

int run_worker(const std::vector<Service *> &threads, int listen_fd) {
    const Config &config = threads.front()->config;
    Loop loop(config, listen_fd, threads.size());
    if (!loop.open())
        return 1;
    log_info(threads.size() > 1
                 ? "ready: accepting FastCGI requests, " + std::to_string(threads.size()) + " threads"
                 : std::string("ready: accepting FastCGI requests"));
    std::atomic<bool> failed{false};
    std::vector<std::thread> others;
    try {
        for (size_t i = 1; i < threads.size(); ++i)
            others.emplace_back([&loop, &failed, svc = threads[i]] {
                if (!loop.run(*svc))
                    failed = true;
            });
    } catch (const std::system_error &e) {
        // Too many threads for the host (ulimit -u, systemd's TasksMax): the ones started stop.
        log_error(std::string("cannot start the worker's threads: ") + e.what());
        loop.abort();
        failed = true;
    }
    if (!failed && !loop.run(*threads.front()))
        failed = true;
    for (auto &thread : others)
        thread.join();
    if (size_t left = loop.open_connections())
        log_warn("stopping: closing " + std::to_string(left) +
                 " connections still open after stop_timeout");
    log_info("stopped");
    return failed ? 1 : 0;
}

} // namespace cms
