// Login throttling storage: one row of cms_login_failure per failed password check, with its
// username and client address (each at most 100 characters). No HTTP here, and no rule: the
// counts go to login_refused() (login_throttle.h).
#pragma once

#include <cstdint>
#include <string>

namespace cms {

namespace db {
class Connection;
}

// Failed password checks within the window: of the username from the address, of the username
// from any address, and from the address for any username.
struct LoginFailures {
    int64_t pair = 0;
    int64_t username = 0;
    int64_t address = 0;
};

class ThrottleStore {
  public:
    explicit ThrottleStore(db::Connection &db) : db_(db) {}

    // The failures of username and of address within the last window_seconds.
    LoginFailures recent(const std::string &username, const std::string &address,
                         int64_t window_seconds);
    // The failures from address, for any username, within the last window_seconds.
    int64_t address_failures(const std::string &address, int64_t window_seconds);
    // Counts one failure of username from address, pruning rows older than window_seconds.
    void record_failure(const std::string &username, const std::string &address,
                        int64_t window_seconds);
    // Forgets the failures of username from address (after a successful login from there).
    void clear(const std::string &username, const std::string &address);

  private:
    db::Connection &db_;
};

} // namespace cms
