// Behaviour log storage: lin_log rows, written in the transaction of the change they record,
// and read with optional filters. Live rows only; no HTTP here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cms {

namespace db {
class Connection;
}

struct LogEntry {
    int64_t id = 0;
    std::string message;
    int64_t user_id = 0;
    std::string username;
    int64_t status_code = 0;
    std::string method;
    std::string path;
    std::string permission;
    std::string time; // YYYY-MM-DD HH:MM:SS
};

// Absent members mean "no filter".
struct LogFilter {
    std::optional<std::string> name;    // exact username
    std::optional<std::string> keyword; // message contains it literally
    std::optional<std::string> start;   // create_time >= start
    std::optional<std::string> end;     // create_time <= end
};

class LogStore {
  public:
    explicit LogStore(db::Connection &db) : db_(db) {}

    void write(const LogEntry &entry);
    // Newest first (by create_time); total is the count of all matching rows.
    std::vector<LogEntry> find(const LogFilter &filter, int64_t page, int64_t count,
                               int64_t &total);
    // Distinct usernames of live rows, by name.
    std::vector<std::string> usernames(int64_t page, int64_t count, int64_t &total);

  private:
    db::Connection &db_;
};

} // namespace cms
