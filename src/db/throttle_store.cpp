// Login throttling storage: the SQL of cms_login_failure.
#include "db/throttle_store.h"

#include "db/db.h"

namespace cms {

namespace {

constexpr const char *k_sql_count_username_failures =
    "SELECT COUNT(*), SUM(address = ?), SUM(address = ? AND checked) FROM cms_login_failure "
    "WHERE username IN (?, ?) AND create_time > NOW(3) - INTERVAL ? SECOND";
constexpr const char *k_sql_count_address_failures =
    "SELECT COUNT(*) FROM cms_login_failure "
    "WHERE address = ? AND create_time > NOW(3) - INTERVAL ? SECOND";
// The username's bucket follows the column's collation (as username = ? compares), trailing
// spaces aside as PAD SPACE ignores them, so that "Root " and "root" share one gate. Locked in
// bucket order, so that two checks never wait for each other's second row. The update is a
// write, so that a Galera cluster certifies two hosts' checks of one bucket against each other.
constexpr const char *k_sql_gate =
    "INSERT INTO cms_login_gate (bucket, uses) "
    "SELECT bucket, 1 FROM ("
    "SELECT CRC32(WEIGHT_STRING(RTRIM(CONVERT(? USING utf8mb4)) "
    "COLLATE utf8mb4_unicode_520_ci)) % 4096 AS bucket "
    "UNION SELECT CRC32(CONCAT('address ', ?)) % 4096) AS mine "
    "ORDER BY bucket ON DUPLICATE KEY UPDATE uses = uses + 1";
constexpr const char *k_sql_busiest_username =
    "SELECT COUNT(*) FROM cms_login_failure "
    "WHERE create_time > NOW(3) - INTERVAL ? SECOND AND username IN "
    "(SELECT username FROM cms_login_failure "
    "WHERE address = ? AND create_time > NOW(3) - INTERVAL ? SECOND) "
    "GROUP BY username ORDER BY COUNT(*) DESC LIMIT 1";
constexpr const char *k_sql_insert_failure =
    "INSERT INTO cms_login_failure (username, address, checked) VALUES (?, ?, ?)";
constexpr const char *k_sql_prune_failures =
    "DELETE FROM cms_login_failure WHERE create_time < NOW(3) - INTERVAL ? SECOND LIMIT 1000";
constexpr const char *k_sql_clear_pair =
    "DELETE FROM cms_login_failure WHERE username IN (?, ?) AND address = ?";

} // namespace

void ThrottleStore::gate(const std::string &username, const std::string &address) {
    db_.statement(k_sql_gate).execute({username, address});
}

LoginFailures ThrottleStore::recent(const std::string &username, const std::string &account,
                                    const std::string &address, int64_t window_seconds) {
    LoginFailures failures;
    db::Statement &by_username =
        db_.statement(k_sql_count_username_failures)
            .execute({address, address, username, account, window_seconds});
    if (by_username.next()) {
        failures.username = by_username.integer(0);
        failures.pair = by_username.integer(1);
        failures.pair_checked = by_username.integer(2);
    }
    failures.address = address_failures(address, window_seconds);
    return failures;
}

int64_t ThrottleStore::address_failures(const std::string &address, int64_t window_seconds) {
    return db_.statement(k_sql_count_address_failures).execute({address, window_seconds}).scalar();
}

int64_t ThrottleStore::busiest_username_failures(const std::string &address,
                                                int64_t window_seconds) {
    return db_.statement(k_sql_busiest_username)
        .execute({window_seconds, address, window_seconds})
        .scalar();
}

void ThrottleStore::record_failure(const std::string &username, const std::string &address,
                                   int64_t window_seconds, bool checked) {
    db_.statement(k_sql_prune_failures).execute({window_seconds});
    db_.statement(k_sql_insert_failure).execute({username, address, checked ? 1 : 0});
}

void ThrottleStore::clear(const std::string &username, const std::string &account,
                          const std::string &address) {
    db_.statement(k_sql_clear_pair).execute({username, account, address});
}

} // namespace cms
