// The SQL of backup and restore: whether the binary log is on, the lin_file rows of a restored
// database, and the statements on whole databases (a staging one, the swap into place).
// Nothing here decides what is kept or refused (backup.cpp and restore.cpp do).
#pragma once

#include <string>
#include <vector>

#include "db/dump_scan.h"

namespace cms {

namespace db {
class Connection;
}

class BackupStore {
  public:
    explicit BackupStore(db::Connection &db) : db_(db) {}

    // Whether the server writes a binary log (a backup then records its position).
    bool binlog_on();
    // Every lin_file row of the connection's database, soft-deleted ones included, by id.
    std::vector<dump::FileRow> file_rows();
    // The path of every lin_file row of the connection's database (any schema version).
    std::vector<std::string> file_paths();
    // Whether database name exists.
    bool database_exists(const std::string &name);
    // Drops database name if it exists, then creates it empty (utf8mb4).
    void recreate_database(const std::string &name);
    void drop_database(const std::string &name);
    // Creates database name (utf8mb4) unless it exists.
    void create_database(const std::string &name);
    // In one atomic RENAME TABLE: the tables of target (target_tables) into database aside, and
    // those of staging (staging_tables) into target.
    void swap_in(const std::vector<std::string> &target_tables, const std::string &target,
                 const std::string &aside, const std::vector<std::string> &staging_tables,
                 const std::string &staging);
    // Raises the credential_version of every user of database staging above both its own and
    // that of the same id in database target (when target_has_users), so that no token issued
    // before a restore, by either database, is accepted after it.
    void raise_credential_versions(const std::string &staging, const std::string &target,
                                   bool target_has_users);

  private:
    db::Connection &db_;
};

} // namespace cms
