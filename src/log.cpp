// Process log: one line per event, to stderr or the configured log file.
#include "log.h"

#include <cstdio>
#include <ctime>
#include <string>

#include <unistd.h>

namespace cms {

namespace {

// The sink is chosen once at start-up by log_open (stderr until then); requests never change it.
FILE *&log_stream_ref() {
    static FILE *stream = stderr;
    return stream;
}

void write_line(const char *level, std::string_view message) {
    char stamp[32];
    std::time_t now = std::time(nullptr);
    std::tm tm_now;
    localtime_r(&now, &tm_now);
    std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm_now);
    std::string line;
    line.reserve(message.size() + 64);
    line.append(stamp).append(" [").append(std::to_string(getpid())).append("] ");
    if (level != nullptr)
        line.append(level).append(": ");
    line.append(message).push_back('\n');
    // One fwrite per line keeps lines from several workers whole in an O_APPEND file.
    std::fwrite(line.data(), 1, line.size(), log_stream_ref());
    std::fflush(log_stream_ref());
}

} // namespace

bool log_open(const char *path) {
    FILE *f = std::fopen(path, "a");
    if (f == nullptr)
        return false;
    log_stream_ref() = f;
    return true;
}

void log_info(std::string_view message) { write_line("info", message); }
void log_warn(std::string_view message) { write_line("warn", message); }
void log_error(std::string_view message) { write_line("error", message); }
void log_access(std::string_view line) { write_line(nullptr, line); }

} // namespace cms
