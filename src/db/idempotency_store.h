// Idempotency storage: the SQL of cms_idempotency, one row per (scope, key) holding the request's
// fingerprint and its first answer. Nothing here knows HTTP.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace cms {

namespace db {
class Connection;
}

// Whose keys: a user's (user_id, address empty), or a client address's on a public route
// (user_id 0).
struct KeyScope {
    int64_t user_id = 0;
    std::string address;
};

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

    // In a transaction: reserves key of scope for the request of fingerprint (reserved; a key
    // older than ttl_seconds is taken over), or finds it answered, or held by a transaction that
    // has not committed yet (busy: never waits for it).
    KeyState reserve(const KeyScope &scope, const std::string &key, const std::string &fingerprint,
                     int64_t ttl_seconds);
    // Stores the answer of the key reserved in this transaction, and deletes the scope's keys
    // older than ttl_seconds.
    void answer(const KeyScope &scope, const std::string &key, int status, const std::string &body,
                int64_t ttl_seconds);

  private:
    std::optional<KeyState> find(const KeyScope &scope, const std::string &key,
                                 const std::string &fingerprint, int64_t ttl_seconds);

    db::Connection &db_;
};

} // namespace cms
