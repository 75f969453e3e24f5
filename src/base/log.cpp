// Process log: one line per event, to stderr or the configured log file, escaped here; the file
// opened so that root, appending to it in a directory another user owns, follows no link.
#include "base/log.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cms {

namespace {

// The sink is chosen once at start-up by log_open (stderr until then); requests never change it.
// log_reopen keeps the same FILE and puts the new file under its descriptor (dup3), so a thread
// writing meanwhile never sees it closed. Atomic: the probe thread writes while it is set.
std::atomic<FILE *> &log_stream_ref() {
    static std::atomic<FILE *> stream{stderr};
    return stream;
}

std::string &log_path_ref() {
    static std::string path;
    return path;
}

// The probe thread logs too, hence atomic; a forked child forgets its parent's id.
std::atomic<pid_t> g_pid{0};

// The request the calling thread serves, if any.
thread_local const std::string *t_request_id = nullptr;

extern "C" void forget_pid() { g_pid.store(0, std::memory_order_relaxed); }

// Whether a user other than root and this one may write in the directory dir describes.
bool shared_directory(const struct stat &dir) {
    return (dir.st_uid != 0 && dir.st_uid != geteuid()) || (dir.st_mode & (S_IWGRP | S_IWOTH));
}

// The log file at path opened for appending, or -1 with why in *why. The directory is the
// service account's (/var/log/cms-fcgi) and --backup, --restore run as root: O_NOFOLLOW so that
// a link planted there is not followed, and a second name (a hard link to /etc/crontab where
// protected_hardlinks is off) refuses the file; so does, in a directory that someone but root
// and this user may write, an owner other than this user, root or the directory's owner (a
// file moved in). O_NONBLOCK so that a FIFO planted there is refused rather than waited on.
// O_CLOEXEC: the master re-executes itself on USR2 and opens log_file again.
int open_log_file(const std::string &path, std::string *why) {
    int fd = open(path.c_str(),
                  O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
                  0666);
    if (fd < 0) {
        // ENXIO: a FIFO that nobody reads (O_NONBLOCK).
        *why = errno == ELOOP   ? "it is a symbolic link"
               : errno == ENXIO ? "it is not a regular file"
                                : std::strerror(errno);
        return -1;
    }
    size_t slash = path.rfind('/');
    std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
    struct stat file, parent;
    if (fstat(fd, &file) != 0 || stat(dir.c_str(), &parent) != 0)
        *why = std::strerror(errno);
    else if (!S_ISREG(file.st_mode))
        *why = "it is not a regular file";
    else if (file.st_nlink != 1)
        *why = "it has another name (a hard link)";
    else if (shared_directory(parent) && file.st_uid != geteuid() && file.st_uid != 0 &&
             file.st_uid != parent.st_uid)
        *why = "its owner (uid " + std::to_string(file.st_uid) +
               ") is neither this user, root nor the owner of its directory, which another "
               "user may write";
    else if (fcntl(fd, F_SETFL, O_WRONLY | O_APPEND) != 0)
        *why = std::strerror(errno);
    else
        return fd;
    close(fd);
    return -1;
}

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
    line.append(log_escape(message));
    if (t_request_id != nullptr)
        line.append(" request_id=").append(log_escape(*t_request_id));
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

std::string log_open(const char *path) {
    std::string why;
    int fd = open_log_file(path, &why);
    if (fd < 0)
        return why;
    FILE *f = fdopen(fd, "a");
    if (f == nullptr) {
        why = std::strerror(errno);
        close(fd);
        return why;
    }
    log_stream_ref() = f;
    log_path_ref() = path;
    return "";
}

bool log_reopen() {
    if (log_path_ref().empty())
        return true;
    std::string why;
    int fd = open_log_file(log_path_ref(), &why);
    if (fd < 0)
        return false;
    FILE *stream = log_stream_ref().load();
    std::fflush(stream);
    bool moved = dup3(fd, fileno(stream), O_CLOEXEC) >= 0;
    close(fd);
    return moved;
}

std::string log_escape(std::string_view text) {
    static const char k_hex[] = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f)
            out.append("\\x").append(1, k_hex[byte >> 4]).append(1, k_hex[byte & 0xf]);
        else
            out.push_back(c);
    }
    return out;
}

void log_request_id(const std::string *id) { t_request_id = id; }

void log_info(std::string_view message) { write_line("info", message); }
void log_warn(std::string_view message) { write_line("warn", message); }
void log_error(std::string_view message) { write_line("error", message); }
void log_access(std::string_view line) { write_line(nullptr, line); }

} // namespace cms
