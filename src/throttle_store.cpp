// Login throttling storage: the SQL of cms_login_failure.
#include "throttle_store.h"

#include "db.h"

namespace cms {

namespace {

constexpr const char *k_sql_count_failures =
    "SELECT COUNT(*) FROM cms_login_failure WHERE kind = ? AND subject = ? "
    "AND create_time > NOW(3) - INTERVAL ? SECOND";
constexpr const char *k_sql_insert_failure =
    "INSERT INTO cms_login_failure (kind, subject) VALUES (?, ?)";
constexpr const char *k_sql_prune_failures =
    "DELETE FROM cms_login_failure WHERE create_time < NOW(3) - INTERVAL ? SECOND LIMIT 1000";
constexpr const char *k_sql_clear_username =
    "DELETE FROM cms_login_failure WHERE kind = 'username' AND subject = ?";

} // namespace

int64_t ThrottleStore::failures(const char *kind, const std::string &subject,
                                int64_t window_seconds) {
    db::Statement &stmt =
        db_.statement(k_sql_count_failures).execute({kind, subject, window_seconds});
    return stmt.next() ? stmt.integer(0) : 0;
}

int64_t ThrottleStore::username_failures(const std::string &username, int64_t window_seconds) {
    return failures("username", username, window_seconds);
}

int64_t ThrottleStore::address_failures(const std::string &address, int64_t window_seconds) {
    return failures("address", address, window_seconds);
}

void ThrottleStore::record_failure(const std::string &username, const std::string &address,
                                   int64_t window_seconds) {
    db_.statement(k_sql_prune_failures).execute({window_seconds});
    db_.statement(k_sql_insert_failure).execute({"username", username});
    db_.statement(k_sql_insert_failure).execute({"address", address});
}

void ThrottleStore::clear_username(const std::string &username) {
    db_.statement(k_sql_clear_username).execute({username});
}

} // namespace cms
