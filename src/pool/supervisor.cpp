// The master: a fixed set of worker slots, each restarted when its process dies, with a back-off
// that grows while its workers die young; signals are taken synchronously (sigtimedwait), so the
// master never runs code in a signal handler. Workers die with the master (PR_SET_PDEATHSIG).
#include "pool/supervisor.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/config.h"
#include "base/log.h"
#include "metrics/scoreboard.h"
#include "pool/sockets.h"

namespace cms {

namespace {

using Clock = std::chrono::steady_clock;

// A worker that lived less than this died young, and the next start of its slot waits longer.
constexpr auto k_stable_after = std::chrono::seconds(10);
constexpr auto k_first_backoff = std::chrono::milliseconds(100);
// Short enough that a pool whose crash loop ended serves again within two seconds.
constexpr auto k_max_backoff = std::chrono::milliseconds(1000);
// The master's signals, blocked from the start to the end and taken by sigtimedwait.
const int k_handled_signals[] = {SIGTERM, SIGINT, SIGHUP, SIGUSR2, SIGCHLD};
// How long after stop_timeout stopped workers get before they are killed.
constexpr auto k_kill_grace = std::chrono::seconds(5);

struct Slot {
    pid_t pid = 0;
    Clock::time_point started;
    Clock::time_point next_start;
    Clock::duration backoff{0};
    bool started_before = false;
};

extern "C" void on_child(int) {}

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// A worker that crashed (a bug) is an error; one killed from outside (the OOM killer, an
// operator) or that exited on its own is a warning. Both are started again.
bool crashed(int status) {
    if (!WIFSIGNALED(status))
        return WEXITSTATUS(status) != 0;
    switch (WTERMSIG(status)) {
    case SIGSEGV:
    case SIGABRT:
    case SIGBUS:
    case SIGFPE:
    case SIGILL:
    case SIGSYS:
        return true;
    default:
        return false;
    }
}

std::string describe_exit(int status) {
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        return "killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
    }
    return "exited with status " + std::to_string(WEXITSTATUS(status));
}

std::string format_seconds(Clock::duration d) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f s", seconds(d));
    return text;
}

class Supervisor {
  public:
    Supervisor(const Config &config, const ListenSocket &socket, const WorkerMain &worker_main,
               const char *exe, char **argv, Scoreboard *board)
        : config_(config), socket_(socket), listen_fd_(socket.fd), worker_main_(worker_main), exe_(exe), argv_(argv),
          board_(board), slots_(static_cast<size_t>(config.workers)) {}
    int run();

  private:
    void start(Slot &slot);
    void reap();
    void signal_all(int sig);
    void stop();
    void restart();
    bool alive() const;

    const Config &config_;
    const ListenSocket socket_;
    int listen_fd_;
    const WorkerMain &worker_main_;
    const char *exe_;
    char **argv_;
    Scoreboard *board_;
    std::vector<Slot> slots_;
    sigset_t handled_;
    sigset_t original_;
    bool stopping_ = false;
    Clock::time_point kill_at_;
};

void Supervisor::start(Slot &slot) {
    size_t index = static_cast<size_t>(&slot - slots_.data());
    pid_t master = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        slot.backoff = k_max_backoff;
        slot.next_start = Clock::now() + slot.backoff;
        log_error(std::string("cannot start a worker: ") + std::strerror(errno) +
                  "; trying again in " + format_seconds(slot.backoff));
        return;
    }
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != master)
            _exit(0);
        signal(SIGCHLD, SIG_DFL);
        sigprocmask(SIG_SETMASK, &original_, nullptr);
        try {
            _exit(worker_main_(listen_fd_, index));
        } catch (const std::exception &e) {
            log_error(std::string("worker failed to start: ") + e.what());
            _exit(1);
        }
    }
    slot.pid = pid;
    slot.started = Clock::now();
    if (board_ != nullptr)
        board_->started(index, pid, slot.started_before);
    slot.started_before = true;
}

void Supervisor::reap() {
    int status;
    pid_t pid;
    while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
        Slot *slot = nullptr;
        for (Slot &s : slots_)
            if (s.pid == pid)
                slot = &s;
        if (slot == nullptr) {
            log_info("worker " + std::to_string(pid) + " of the previous generation " +
                     describe_exit(status));
            continue;
        }
        slot->pid = 0;
        if (board_ != nullptr)
            board_->died(static_cast<size_t>(slot - slots_.data()), status);
        Clock::duration lived = Clock::now() - slot->started;
        if (stopping_) {
            log_info("worker " + std::to_string(pid) + " " + describe_exit(status));
            continue;
        }
        if (lived >= k_stable_after)
            slot->backoff = Clock::duration(0);
        else if (slot->backoff < k_first_backoff)
            slot->backoff = k_first_backoff;
        else if (slot->backoff * 2 < k_max_backoff)
            slot->backoff *= 2;
        else
            slot->backoff = k_max_backoff;
        slot->next_start = Clock::now() + slot->backoff;
        std::string line = "worker " + std::to_string(pid) + " " + describe_exit(status) +
                           " after " + format_seconds(lived) + "; starting another in " +
                           format_seconds(slot->backoff);
        if (crashed(status))
            log_error(line);
        else
            log_warn(line);
    }
}

void Supervisor::signal_all(int sig) {
    for (const Slot &slot : slots_)
        if (slot.pid > 0)
            kill(slot.pid, sig);
}

bool Supervisor::alive() const {
    for (const Slot &slot : slots_)
        if (slot.pid > 0)
            return true;
    // Workers of an earlier generation are children too; only ECHILD says none is left.
    siginfo_t info;
    std::memset(&info, 0, sizeof info);
    return waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0;
}

void Supervisor::stop() {
    log_info("stopping: workers finish what the web server handed over");
    stopping_ = true;
    signal_all(SIGTERM);
    kill_at_ = Clock::now() + std::chrono::seconds(config_.stop_timeout) + k_kill_grace;
}

void Supervisor::restart() {
    // The new binary and config must start before this process becomes them.
    std::vector<char *> check_argv;
    for (char **a = argv_; *a != nullptr; ++a)
        check_argv.push_back(*a);
    check_argv.push_back(const_cast<char *>("-t"));
    check_argv.push_back(nullptr);
    pid_t pid = fork();
    if (pid == 0) {
        sigprocmask(SIG_SETMASK, &original_, nullptr);
        execv(exe_, check_argv.data());
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
        log_error(std::string("restart refused: '") + exe_ + " -t' fails; the pool runs on");
        return;
    }
    log_info("restarting: re-executing " + std::string(exe_) +
             "; the current workers finish what they were handed");
    signal_all(SIGTERM);
    hand_over_socket(socket_);
    // With the signals still blocked: the mask survives execv, so a TERM or a USR2 that arrives
    // before the new program has taken them over waits for its sigtimedwait instead of killing
    // the master by the default action (the handlers do not survive).
    execv(exe_, argv_);
    // Still this program: its workers were told to stop, and their slots start new ones.
    take_back_socket();
    log_error(std::string("cannot re-execute '") + exe_ + "': " + std::strerror(errno));
}

int Supervisor::run() {
    sigemptyset(&handled_);
    for (int sig : k_handled_signals)
        sigaddset(&handled_, sig);
    sigprocmask(SIG_BLOCK, &handled_, &original_);
    // A master re-executed by restart() starts with them blocked already; its workers and its
    // -t check must not.
    for (int sig : k_handled_signals)
        sigdelset(&original_, sig);
    // A handler, so that SIGCHLD is never discarded as ignored; it is taken by sigtimedwait.
    signal(SIGCHLD, on_child);
    signal(SIGPIPE, SIG_IGN);
    log_info("supervising " + std::to_string(slots_.size()) + " workers");
    for (;;) {
        reap();
        if (board_ != nullptr)
            board_->sample_listen_queue();
        Clock::time_point now = Clock::now();
        Clock::duration wait = std::chrono::seconds(1);
        if (stopping_) {
            if (!alive())
                break;
            if (now >= kill_at_) {
                log_warn("stopping: killing workers still running after stop_timeout");
                signal_all(SIGKILL);
            }
            wait = std::chrono::milliseconds(100);
        } else {
            for (Slot &slot : slots_) {
                if (slot.pid > 0)
                    continue;
                if (slot.next_start <= now)
                    start(slot);
                else if (slot.next_start - now < wait)
                    wait = slot.next_start - now;
            }
        }
        auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(wait).count();
        struct timespec ts;
        ts.tv_sec = static_cast<time_t>(ns / 1000000000);
        ts.tv_nsec = static_cast<long>(ns % 1000000000);
        int sig = sigtimedwait(&handled_, nullptr, &ts);
        if ((sig == SIGTERM || sig == SIGINT) && !stopping_) {
            stop();
        } else if (sig == SIGHUP) {
            if (!log_reopen())
                log_error("cannot reopen the log file; logging to stderr");
            signal_all(SIGHUP);
        } else if (sig == SIGUSR2 && !stopping_) {
            restart();
        }
    }
    log_info("stopped");
    return 0;
}

} // namespace

int run_supervisor(const Config &config, const ListenSocket &socket, const WorkerMain &worker_main,
                   const char *exe, char **argv, Scoreboard *board) {
    Supervisor supervisor(config, socket, worker_main, exe, argv, board);
    return supervisor.run();
}

} // namespace cms
