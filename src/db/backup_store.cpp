// Backup and restore storage: the SQL of the binary-log check and of lin_file, and the database
// statements whose names cannot be parameters (each quoted as an identifier).
#include "db/backup_store.h"

#include "db/db.h"

namespace cms {

namespace {

constexpr const char *k_sql_log_bin = "SELECT @@GLOBAL.log_bin";
constexpr const char *k_sql_select_files =
    "SELECT id, path, name, sha256 FROM lin_file ORDER BY id";
constexpr const char *k_sql_select_paths = "SELECT path FROM lin_file";
constexpr const char *k_sql_database_exists =
    "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?";

// name as a MariaDB identifier: in backquotes, a backquote doubled.
std::string quoted(const std::string &name) {
    std::string out = "`";
    for (char c : name)
        out += c == '`' ? std::string("``") : std::string(1, c);
    return out + "`";
}

std::string renames(const std::vector<std::string> &tables, const std::string &from,
                    const std::string &to) {
    std::string out;
    for (const std::string &table : tables)
        out += (out.empty() ? "" : ", ") + quoted(from) + "." + quoted(table) + " TO " +
               quoted(to) + "." + quoted(table);
    return out;
}

} // namespace

bool BackupStore::binlog_on() {
    return db_.statement(k_sql_log_bin).execute({}).scalar() != 0;
}

std::vector<dump::FileRow> BackupStore::file_rows() {
    db::Statement &stmt = db_.statement(k_sql_select_files).execute({});
    std::vector<dump::FileRow> rows;
    while (stmt.next())
        rows.push_back(dump::FileRow{stmt.integer(0), stmt.text(1), stmt.text(2),
                                     stmt.optional_text(3)});
    return rows;
}

std::vector<std::string> BackupStore::file_paths() {
    db::Statement &stmt = db_.statement(k_sql_select_paths).execute({});
    std::vector<std::string> paths;
    while (stmt.next())
        paths.push_back(stmt.text(0));
    return paths;
}

bool BackupStore::database_exists(const std::string &name) {
    return db_.statement(k_sql_database_exists).execute({name}).scalar() != 0;
}

void BackupStore::recreate_database(const std::string &name) {
    db_.run_script("DROP DATABASE IF EXISTS " + quoted(name) + "; CREATE DATABASE " +
                   quoted(name) + " CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci");
}

void BackupStore::drop_database(const std::string &name) {
    db_.run_script("DROP DATABASE IF EXISTS " + quoted(name));
}

void BackupStore::create_database(const std::string &name) {
    db_.run_script("CREATE DATABASE IF NOT EXISTS " + quoted(name) +
                   " CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci");
}

void BackupStore::swap_in(const std::vector<std::string> &target_tables, const std::string &target,
                          const std::string &aside, const std::vector<std::string> &staging_tables,
                          const std::string &staging) {
    std::string aside_part = renames(target_tables, target, aside);
    std::string in_part = renames(staging_tables, staging, target);
    db_.run_script("RENAME TABLE " + aside_part + (aside_part.empty() ? "" : ", ") + in_part);
}

void BackupStore::raise_credential_versions(const std::string &staging, const std::string &target,
                                            bool target_has_users) {
    std::string users = quoted(staging) + ".`lin_user`";
    if (!target_has_users) {
        db_.run_script("UPDATE " + users + " SET credential_version = credential_version + 1, "
                       "update_time = update_time");
        return;
    }
    db_.run_script("UPDATE " + users + " r LEFT JOIN " + quoted(target) +
                   ".`lin_user` t ON t.id = r.id SET r.credential_version = "
                   "GREATEST(r.credential_version, COALESCE(t.credential_version, 0)) + 1, "
                   "r.update_time = r.update_time");
}

} // namespace cms
