// Idempotency storage: the SQL of cms_idempotency, one row per (user, key) holding the request's
// keyed fingerprint and its first answer. Nothing here knows HTTP.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace cms {

namespace db {
class Connection;
}

// What reserve() found for a key.
struct KeyState {
    enum class Kind { reserved, answered, busy } kind = Kind::reserved;
    std::string fingerprint; // answered: of the request that was answered
    int status = 0;          // answered: its answer
    std::string body;
};

class IdempotencyStore {
  public:
    explicit IdempotencyStore(db::Connection &db) : db_(db) {}

    // In a transaction: reserves user_id's key for the request of fingerprint (reserved; a key
    // older than ttl_seconds is taken over), or finds it answered, or held by a transaction that
    // has not committed yet (busy: never waits for it).
    KeyState reserve(int64_t user_id, const std::string &key, const std::string &fingerprint,
                     int64_t ttl_seconds);
    // Stores the answer of the key reserved in this transaction, and deletes up to 100 keys, of
    // anyone, older than ttl_seconds.
    void answer(int64_t user_id, const std::string &key, int status, const std::string &body,
                int64_t ttl_seconds);

  private:
    std::optional<KeyState> find(int64_t user_id, const std::string &key,
                                 const std::string &fingerprint, int64_t ttl_seconds);

    db::Connection &db_;
};

} // namespace cms
