// The SQL of cms_content and of an apply's checks. A check's table and condition come from the
// planner (identifiers that passed content::identifier, and checked values); no value of a
// request ever reaches this file.
#include "content/declaration_store.h"

#include "db/db.h"

namespace cms::content {

namespace {

constexpr const char *k_sql_select_applied = "SELECT declaration FROM cms_content WHERE id = 1";
constexpr const char *k_sql_store_applied =
    "INSERT INTO cms_content (id, declaration, apply_time) VALUES (1, ?, CURRENT_TIMESTAMP(3)) "
    "ON DUPLICATE KEY UPDATE declaration = VALUES(declaration), apply_time = VALUES(apply_time)";
// Within one server. On a Galera cluster each DDL statement is ordered cluster-wide (TOI), and
// every step is idempotent, so that two hosts applying one file end where one would.
constexpr const char *k_sql_lock = "SELECT GET_LOCK('cms_content_apply', ?)";
constexpr const char *k_sql_unlock = "SELECT RELEASE_LOCK('cms_content_apply')";

} // namespace

std::optional<std::string> DeclarationStore::applied() {
    db::Statement &stmt = db_.statement(k_sql_select_applied).execute({});
    std::optional<std::string> text;
    while (stmt.next())
        text = stmt.text(0);
    return text;
}

void DeclarationStore::store(const std::string &text) {
    db_.statement(k_sql_store_applied).execute({text});
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

void DeclarationStore::unlock() {
    db::Statement &stmt = db_.statement(k_sql_unlock).execute({});
    while (stmt.next()) {
    }
}

} // namespace cms::content
