// `cms-fcgi --backup`: one archive (ustar, mode 0600) holding a consistent dump of the database,
// every file a lin_file row of that dump names, and a manifest; and the retention of backup_keep.
// The archive's layout and what a restore checks of it are described in backup.cpp.
#pragma once

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

namespace cms {

struct Config;

// The names of an archive's members and the manifest's format, shared with restore.cpp.
namespace backup_layout {
constexpr const char *k_dump = "db.sql";
constexpr const char *k_files = "files/";
constexpr const char *k_manifest = "manifest.json";
constexpr const char *k_manifest_sum = "manifest.sha256";
constexpr const char *k_format = "cms-fcgi-backup 1";
constexpr const char *k_name_prefix = "cms-backup-"; // then the database, "-", the UTC time
constexpr const char *k_scratch_prefix = ".cms-backup-";
constexpr const char *k_name_suffix = ".tar";
} // namespace backup_layout

// The name of db_name's archive taken at UTC time t: cms-backup-DB-YYYYmmdd-HHMMSS.tar, where DB
// is db_name with each byte but [A-Za-z0-9_.-] written %XX.
std::string archive_name(const std::string &db_name, std::time_t t);

// The YYYYmmdd-HHMMSS of name when it is exactly what archive_name makes for db_name; empty for
// any other name (one given by hand, another database's, an older cms-fcgi's cms-backup-TIME.tar).
std::string archive_time(const std::string &name, const std::string &db_name);

// What backup_keep does after archive written was made, given the names of the regular files of
// its directory: keep written and the newest keep - 1 other archives of db_name dated no later;
// remove the other such archives; leave every other name alone, the future ones (dated after
// written: a clock that was, or is, wrong) listed apart. keep <= 0 removes nothing.
struct Retention {
    std::vector<std::string> remove; // newest first
    std::vector<std::string> future;
};
Retention retention(const std::vector<std::string> &names, const std::string &written,
                    const std::string &db_name, int64_t keep);

// The version of this cms-fcgi (configure.ac's), as a manifest records it.
const char *program_version();

// Writes a new archive of config's database and file store into dir (made if missing), named
// cms-backup-DB-YYYYmmdd-HHMMSS.tar, then removes the oldest archives of that database in dir
// beyond config.backup_keep (0: none), never the one just written. Returns the archive's
// path. Progress and warnings (a row whose file is missing) go to log. Throws
// std::runtime_error (db::DbError included) on failure, leaving no archive under its final name.
std::string make_backup(const Config &config, const std::string &dir, std::FILE *log);

} // namespace cms
