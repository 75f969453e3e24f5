// Schema storage: the SQL of cms_schema_version and information_schema.
#include "schema_store.h"

#include "db.h"

namespace cms {

namespace {

constexpr const char *k_sql_select_tables =
    "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() "
    "ORDER BY TABLE_NAME";
constexpr const char *k_sql_has_version_table =
    "SELECT 1 FROM information_schema.TABLES "
    "WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'cms_schema_version'";
// Prepared only once the table is known to exist: preparing it fails without the table.
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
    if (!db_.statement(k_sql_has_version_table).execute({}).next())
        return std::nullopt;
    db::Statement &stmt = db_.statement(k_sql_select_version).execute({});
    if (!stmt.next())
        return std::nullopt;
    return stmt.integer(0);
}

void SchemaStore::record_version(int64_t version) {
    db_.statement(k_sql_record_version).execute({version});
}

} // namespace cms
