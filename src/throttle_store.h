// Login throttling storage: failed logins per username and per client address in
// cms_login_failure (subjects of at most 100 characters). No HTTP here; the login handler
// decides on 429.
#pragma once

#include <cstdint>
#include <string>

namespace cms {

namespace db {
class Connection;
}

class ThrottleStore {
  public:
    explicit ThrottleStore(db::Connection &db) : db_(db) {}

    // Failures of the username, and of the address, within the last window_seconds.
    int64_t username_failures(const std::string &username, int64_t window_seconds);
    int64_t address_failures(const std::string &address, int64_t window_seconds);
    // Counts one failure for both, pruning rows older than window_seconds.
    void record_failure(const std::string &username, const std::string &address,
                        int64_t window_seconds);
    // Forgets the username's failures (after a successful login).
    void clear_username(const std::string &username);

  private:
    int64_t failures(const char *kind, const std::string &subject, int64_t window_seconds);

    db::Connection &db_;
};

} // namespace cms
