// Schema storage: the SQL of cms_schema_version and information_schema.
#include "db/schema_store.h"

#include <mysqld_error.h>

#include "db/db.h"

namespace cms {

namespace {

constexpr const char *k_sql_select_tables =
    "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() "
    "ORDER BY TABLE_NAME";
// Preparing it fails with ER_NO_SUCH_TABLE in a database without the table (version 1, or empty).
constexpr const char *k_sql_select_version = "SELECT version FROM cms_schema_version WHERE id = 1";
constexpr const char *k_sql_record_version =
    "INSERT INTO cms_schema_version (id, version) VALUES (1, ?) "
    "ON DUPLICATE KEY UPDATE version = VALUES(version)";

} // namespace

std::vector<std::string> SchemaStore::tables() {
    db::Statement &stmt = db_.statement(k_sql_select_tables).execute({});
    std::vector<std::string> names;
    while (stmt.next())
        names.push_back(stmt.text(0));
    return names;
}

std::optional<int64_t> SchemaStore::recorded_version() {
    // The version row itself, not an information_schema look-up for its table first: this runs
    // at every connect, and a CGI request connects every time (two round trips fewer).
    try {
        db::Statement &stmt = db_.statement(k_sql_select_version).execute({});
        if (!stmt.next())
            return std::nullopt;
        return stmt.integer(0);
    } catch (const db::DbError &e) {
        if (e.errnum != ER_NO_SUCH_TABLE)
            throw;
        return std::nullopt;
    }
}

void SchemaStore::record_version(int64_t version) {
    db_.statement(k_sql_record_version).execute({version});
}

} // namespace cms
