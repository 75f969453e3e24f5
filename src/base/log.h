// Process log: one line per event, to stderr or the configured log file.
// Never pass a password, token or Authorization header to these functions.
#pragma once

#include <string>
#include <string_view>

#include <sys/types.h>

namespace cms {

// Sends further log lines to the file at path (appending); returns false if it cannot be opened.
bool log_open(const char *path);

// Opens the log file again under its name (after logrotate moved it); a no-op for stderr.
// Returns false if it cannot be opened (lines then go on to the old file).
bool log_reopen();

void log_info(std::string_view message);
void log_warn(std::string_view message);
void log_error(std::string_view message);

// This process's id, as every log line shows it: asked of the kernel once per process (a child
// forked since asks again), not once per line.
pid_t log_pid();

// Until the next call, every line this thread writes ends with " request_id=ID" (the request it
// serves); nullptr: no request. The string must outlive that.
void log_request_id(const std::string *id);

// Writes one access-log line exactly as given (no level prefix).
void log_access(std::string_view line);

} // namespace cms
