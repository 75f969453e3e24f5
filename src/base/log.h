// Process log: one line per event, to stderr or the configured log file, each line's control
// characters escaped here and nowhere else. Never pass a password, token or Authorization header.
#pragma once

#include <string>
#include <string_view>

#include <sys/types.h>

namespace cms {

// Sends further log lines to the file at path (appending); "" when opened, else why not. Never
// through a symbolic link, and only a regular file with one name; in a directory another user
// may write (the service's, for a root backup), only one owned by this process's user, by root
// or by the directory's owner.
std::string log_open(const char *path);

// Opens the log file again under its name (after logrotate moved it), as log_open does; a no-op
// for stderr. Returns false if it cannot be opened (lines then go on to the old file).
bool log_reopen();

// text with each control character (C0 and DEL: a line break, ESC...) written as \xHH, so that no
// text logged (an archive member's name, say) ends its line or starts one of its own.
std::string log_escape(std::string_view text);

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
