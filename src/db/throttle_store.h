// Login throttling storage: one row of cms_login_failure per failed password check, with the
// name it counts under (never the username typed: its keyed hash, or the user's account, see
// login_throttle.h) and its client address (as the throttle counts it, see throttle_address()),
// and the gate rows of cms_login_gate that make a check and its count one step. No HTTP here,
// and no rule: the counts go to login_refused() (login_throttle.h).
#pragma once

#include <cstdint>
#include <string>

namespace cms {

namespace db {
class Connection;
}

// Failed password checks within the window: of the username from the address (and of those, the
// ones whose password was checked, not refused for the captcha first), of the username from any
// address, and from the address for any username.
struct LoginFailures {
    int64_t pair = 0;
    int64_t pair_checked = 0;
    int64_t username = 0;
    int64_t address = 0;
};

class ThrottleStore {
  public:
    explicit ThrottleStore(db::Connection &db) : db_(db) {}

    // Locks the gate rows of username and of address until the transaction ends: a concurrent
    // password check of either waits here until this one has committed, and then counts its
    // failure. Must come before the transaction's first plain read (whose snapshot would
    // otherwise miss what was committed while this waited). Throws DbError.
    void gate(const std::string &username, const std::string &address);
    // The failures of username and of address within the last window_seconds; those recorded
    // under account (another name of the same user, see account_throttle_name; "" for none)
    // count as the username's.
    LoginFailures recent(const std::string &username, const std::string &account,
                         const std::string &address, int64_t window_seconds);
    // The failures from address, for any username, within the last window_seconds.
    int64_t address_failures(const std::string &address, int64_t window_seconds);
    // The most failures, from any address, of one of the usernames that address has failed
    // for, within the last window_seconds (0 when it has failed for none).
    int64_t busiest_username_failures(const std::string &address, int64_t window_seconds);
    // Counts one failure of username from address, pruning rows older than window_seconds;
    // checked: a password was checked (false: the attempt was refused for its captcha first).
    void record_failure(const std::string &username, const std::string &address,
                        int64_t window_seconds, bool checked);
    // Forgets the failures of username and of account from address (after a successful login
    // from there).
    void clear(const std::string &username, const std::string &account,
               const std::string &address);

  private:
    db::Connection &db_;
};

} // namespace cms
