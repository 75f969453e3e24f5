// The SQL of cms_content and of an apply's checks. A check's table and condition come from the
// planner (identifiers that passed content::identifier, and checked values); no value of a
// request ever reaches this file.
#include "content/declaration_store.h"

#include "db/db.h"

namespace cms::content {

namespace {

// Row 1 is the applied declaration, row 2 the target of an apply under way (content/apply.h).
constexpr const char *k_sql_select_applied = "SELECT declaration FROM cms_content WHERE id = 1";
constexpr const char *k_sql_store_applied =
    "INSERT INTO cms_content (id, declaration, apply_time) VALUES (1, ?, CURRENT_TIMESTAMP(3)) "
    "ON DUPLICATE KEY UPDATE declaration = VALUES(declaration), apply_time = VALUES(apply_time)";
constexpr const char *k_sql_select_pending = "SELECT declaration FROM cms_content WHERE id = 2";
constexpr const char *k_sql_store_pending =
    "INSERT INTO cms_content (id, declaration, apply_time) VALUES (2, ?, CURRENT_TIMESTAMP(3)) "
    "ON DUPLICATE KEY UPDATE declaration = VALUES(declaration), apply_time = VALUES(apply_time)";
constexpr const char *k_sql_delete_pending = "DELETE FROM cms_content WHERE id = 2";
// Within one server. On a Galera cluster each DDL statement is ordered cluster-wide (TOI), and
// every step is idempotent, so that two hosts applying one file end where one would.
constexpr const char *k_sql_lock = "SELECT GET_LOCK('cms_content_apply', ?)";
constexpr const char *k_sql_unlock = "SELECT RELEASE_LOCK('cms_content_apply')";
constexpr const char *k_sql_column_chars =
    "SELECT CHARACTER_MAXIMUM_LENGTH FROM information_schema.columns "
    "WHERE table_schema = DATABASE() AND table_name = ? AND column_name = ?";

} // namespace

std::optional<std::string> DeclarationStore::applied() {
    db::Statement &stmt = db_.statement(k_sql_select_applied).execute({});
    std::optional<std::string> text;
    while (stmt.next())
        text = stmt.text(0);
    return text;
}

void DeclarationStore::store(const std::string &text) {
    db::Transaction tx(db_);
    db_.statement(k_sql_store_applied).execute({text});
    db_.statement(k_sql_delete_pending).execute({});
    tx.commit();
}

std::optional<std::string> DeclarationStore::pending() {
    db::Statement &stmt = db_.statement(k_sql_select_pending).execute({});
    std::optional<std::string> text;
    while (stmt.next())
        text = stmt.text(0);
    return text;
}

void DeclarationStore::store_pending(const std::string &text) {
    db_.statement(k_sql_store_pending).execute({text});
}

int64_t DeclarationStore::breaking(const Check &check, std::vector<int64_t> &first_ids) {
    std::string count_sql, ids_sql;
    if (check.duplicates.empty()) {
        std::string from = " FROM " + check.table + " WHERE " + check.condition;
        count_sql = "SELECT COUNT(*)" + from;
        ids_sql = "SELECT id" + from + " ORDER BY id LIMIT 10";
    } else {
        std::string grouped = " FROM " + check.table + " WHERE delete_time IS NULL AND " +
                              check.duplicates + " IS NOT NULL GROUP BY " + check.duplicates +
                              " HAVING COUNT(*) > 1";
        count_sql = "SELECT COUNT(*) FROM (SELECT " + check.duplicates + grouped + ") AS taken";
        ids_sql = "SELECT MIN(id)" + grouped + " ORDER BY 1 LIMIT 10";
    }
    int64_t count = db_.shaped(count_sql).execute({}).scalar();
    if (count > 0) {
        db::Statement &ids = db_.shaped(ids_sql).execute({});
        while (ids.next())
            first_ids.push_back(ids.integer(0));
    }
    return count;
}

void DeclarationStore::run(const Step &step) {
    db_.run_script(step.sql);
}

bool DeclarationStore::lock(int seconds) {
    return db_.statement(k_sql_lock).execute({seconds}).scalar() == 1;
}

void DeclarationStore::unlock_if_connected() noexcept {
    if (!db_.connected())
        return;
    try {
        db::Statement &stmt = db_.statement(k_sql_unlock).execute({});
        while (stmt.next()) {
        }
    } catch (const db::DbError &) {
        // Lost just now: the server released the lock with the connection.
    }
}

int64_t DeclarationStore::column_chars(const std::string &table, const std::string &column) {
    return db_.statement(k_sql_column_chars).execute({table, column}).scalar();
}

} // namespace cms::content
