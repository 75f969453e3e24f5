// Process log: one line per event, to stderr or the configured log file.
#include "base/log.h"

#include <atomic>
#include <cstdio>
#include <ctime>
#include <string>

#include <pthread.h>
#include <unistd.h>

namespace cms {

namespace {

// The sink is chosen once at start-up by log_open (stderr until then); requests never change it.
// log_reopen keeps the same FILE (freopen), so a thread writing meanwhile never sees it closed.
// Atomic: when the reopen fails it falls back to stderr while the worker's other threads and the
// probe thread write.
std::atomic<FILE *> &log_stream_ref() {
    static std::atomic<FILE *> stream{stderr};
    return stream;
}

// "e": close-on-exec (O_CLOEXEC). The master re-executes itself on USR2 and opens log_file again;
// without it every reload kept the previous handle open, in the master and in every worker.
constexpr const char *k_log_mode = "ae";

std::string &log_path_ref() {
    static std::string path;
    return path;
}

// The probe thread logs too, hence atomic; a forked child forgets its parent's id.
std::atomic<pid_t> g_pid{0};

// The request the calling thread serves, if any.
thread_local const std::string *t_request_id = nullptr;

extern "C" void forget_pid() { g_pid.store(0, std::memory_order_relaxed); }

void write_line(const char *level, std::string_view message) {
    char stamp[32];
    std::time_t now = std::time(nullptr);
    std::tm tm_now;
    localtime_r(&now, &tm_now);
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm_now);
    std::string line;
    line.reserve(message.size() + 64);
    line.append(stamp).append(" [").append(std::to_string(log_pid())).append("] ");
    if (level != nullptr)
        line.append(level).append(": ");
    line.append(message);
    if (t_request_id != nullptr)
        line.append(" request_id=").append(*t_request_id);
    line.push_back('\n');
    // One fwrite per line keeps lines from several workers whole in an O_APPEND file.
    FILE *stream = log_stream_ref().load();
    std::fwrite(line.data(), 1, line.size(), stream);
    std::fflush(stream);
}

} // namespace

pid_t log_pid() {
    static const bool registered = pthread_atfork(nullptr, nullptr, forget_pid) == 0;
    pid_t pid = g_pid.load(std::memory_order_relaxed);
    if (pid == 0 || !registered) {
        pid = getpid();
        g_pid.store(pid, std::memory_order_relaxed);
    }
    return pid;
}

bool log_open(const char *path) {
    FILE *f = std::fopen(path, k_log_mode);
    if (f == nullptr)
        return false;
    log_stream_ref() = f;
    log_path_ref() = path;
    return true;
}

bool log_reopen() {
    if (log_path_ref().empty())
        return true;
    FILE *f = std::freopen(log_path_ref().c_str(), k_log_mode, log_stream_ref());
    if (f != nullptr)
        return true;
    // freopen closed the old stream whatever happened: fall back to stderr rather than lose lines.
    log_stream_ref() = stderr;
    log_path_ref().clear();
    return false;
}

void log_request_id(const std::string *id) { t_request_id = id; }

void log_info(std::string_view message) { write_line("info", message); }
void log_warn(std::string_view message) { write_line("warn", message); }
void log_error(std::string_view message) { write_line("error", message); }
void log_access(std::string_view line) { write_line(nullptr, line); }

} // namespace cms
