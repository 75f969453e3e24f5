// Idempotency storage: the SQL of cms_idempotency.
#include "db/idempotency_store.h"

#include <mysqld_error.h>

#include "db/db.h"

namespace cms {

namespace {

// Locking, so that it reads the row as committed, not this transaction's snapshot; NOWAIT, so
// that a row another transaction has not committed yet fails at once instead of waiting.
constexpr const char *k_sql_select_key =
    "SELECT fingerprint, status, body, create_time < NOW(3) - INTERVAL ? SECOND "
    "FROM cms_idempotency WHERE user_id = ? AND idem_key = ? "
    "LOCK IN SHARE MODE NOWAIT";
constexpr const char *k_sql_insert_key =
    "INSERT INTO cms_idempotency (user_id, idem_key, fingerprint) VALUES (?, ?, ?)";
constexpr const char *k_sql_retake_key =
    "UPDATE cms_idempotency SET fingerprint = ?, status = 0, body = NULL, create_time = NOW(3) "
    "WHERE user_id = ? AND idem_key = ?";
constexpr const char *k_sql_answer_key =
    "UPDATE cms_idempotency SET status = ?, body = ? WHERE user_id = ? AND idem_key = ?";
// Every keyed POST deletes up to this many expired keys, of anyone: the table holds about one
// day of keys, whoever sent them and whether or not they send another.
constexpr const char *k_sql_prune_expired =
    "DELETE FROM cms_idempotency WHERE create_time < NOW(3) - INTERVAL ? SECOND "
    "ORDER BY create_time LIMIT 100";

KeyState busy() {
    KeyState state;
    state.kind = KeyState::Kind::busy;
    return state;
}

} // namespace

// The row of the key: nullopt when there is none; reserved when it had expired and is ours now.
std::optional<KeyState> IdempotencyStore::find(int64_t user_id, const std::string &key,
                                               const std::string &fingerprint,
                                               int64_t ttl_seconds) {
    db::Statement &row = db_.statement(k_sql_select_key).execute({ttl_seconds, user_id, key});
    if (!row.next())
        return std::nullopt;
    if (row.integer(3) != 0) {
        db_.statement(k_sql_retake_key).execute({fingerprint, user_id, key});
        return KeyState{};
    }
    KeyState state;
    state.kind = KeyState::Kind::answered;
    state.fingerprint = row.text(0);
    state.status = static_cast<int>(row.integer(1));
    state.body = row.text(2);
    return state;
}

KeyState IdempotencyStore::reserve(int64_t user_id, const std::string &key,
                                   const std::string &fingerprint, int64_t ttl_seconds) {
    try {
        if (std::optional<KeyState> found = find(user_id, key, fingerprint, ttl_seconds))
            return *found;
        db_.statement(k_sql_insert_key).execute({user_id, key, fingerprint});
        return KeyState{};
    } catch (const db::DbError &e) {
        // NOWAIT met a row not committed yet: the key's first request is still running.
        if (e.errnum == ER_LOCK_WAIT_TIMEOUT)
            return busy();
        // The first request committed between the read and the insert.
        if (e.errnum != ER_DUP_ENTRY)
            throw;
    }
    std::optional<KeyState> found = find(user_id, key, fingerprint, ttl_seconds);
    return found ? *found : busy();
}

void IdempotencyStore::answer(int64_t user_id, const std::string &key, int status,
                              const std::string &body, int64_t ttl_seconds) {
    db_.statement(k_sql_answer_key).execute({status, body, user_id, key});
    db_.statement(k_sql_prune_expired).execute({ttl_seconds});
}

} // namespace cms
