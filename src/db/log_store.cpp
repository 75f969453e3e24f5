// Behaviour log storage: the SQL of lin_log.
#include "db/log_store.h"

#include "db/db.h"

namespace cms {

namespace {

constexpr const char *k_sql_insert_log =
    "INSERT INTO lin_log (message, user_id, username, status_code, method, path, permission) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)";
// Each filter is "(? IS NULL OR ...)" so that one prepared statement serves every combination.
constexpr const char *k_sql_select_logs =
    "SELECT id, message, user_id, username, status_code, method, path, permission, "
    "DATE_FORMAT(create_time, '%Y-%m-%d %H:%i:%s')"
    " FROM lin_log WHERE delete_time IS NULL AND (? IS NULL OR username = ?) "
    "AND (? IS NULL OR message LIKE CONCAT('%', ?, '%') ESCAPE '\\\\') "
    "AND (? IS NULL OR create_time >= ?) AND (? IS NULL OR create_time <= ?) "
    "ORDER BY create_time DESC, id DESC LIMIT ? OFFSET ?";
constexpr const char *k_sql_count_logs =
    "SELECT COUNT(*)"
    " FROM lin_log WHERE delete_time IS NULL AND (? IS NULL OR username = ?) "
    "AND (? IS NULL OR message LIKE CONCAT('%', ?, '%') ESCAPE '\\\\') "
    "AND (? IS NULL OR create_time >= ?) AND (? IS NULL OR create_time <= ?)";
constexpr const char *k_sql_select_log_users =
    "SELECT DISTINCT username FROM lin_log WHERE delete_time IS NULL AND username IS NOT NULL "
    "ORDER BY username LIMIT ? OFFSET ?";
constexpr const char *k_sql_count_log_users =
    "SELECT COUNT(DISTINCT username) FROM lin_log WHERE delete_time IS NULL";

} // namespace

void LogStore::write(const LogEntry &e) {
    db_.statement(k_sql_insert_log)
        .execute({e.message, e.user_id, e.username, e.status_code, e.method, e.path,
                  e.permission});
}

std::vector<LogEntry> LogStore::find(const LogFilter &f, int64_t page, int64_t count,
                                     int64_t &total) {
    std::optional<std::string> keyword;
    if (f.keyword)
        keyword = db::like_literal(*f.keyword);
    std::vector<db::Param> params = {f.name, f.name, keyword, keyword,
                                     f.start, f.start, f.end, f.end};
    total = db_.statement(k_sql_count_logs).execute(params).scalar();
    params.emplace_back(count);
    params.emplace_back(page * count);
    db::Statement &rows = db_.statement(k_sql_select_logs).execute(params);
    std::vector<LogEntry> entries;
    while (rows.next())
        entries.push_back({rows.integer(0), rows.text(1), rows.integer(2), rows.text(3),
                           rows.integer(4), rows.text(5), rows.text(6), rows.text(7),
                           rows.text(8)});
    return entries;
}

std::vector<std::string> LogStore::usernames(int64_t page, int64_t count, int64_t &total) {
    total = db_.statement(k_sql_count_log_users).execute({}).scalar();
    db::Statement &rows = db_.statement(k_sql_select_log_users).execute({count, page * count});
    std::vector<std::string> names;
    while (rows.next())
        names.push_back(rows.text(0));
    return names;
}

} // namespace cms
