// `cms-fcgi --backup`: one archive (ustar, mode 0600) holding a consistent dump of the database,
// every file a lin_file row of that dump names, and a manifest; and the retention of backup_keep.
// The archive's layout and what a restore checks of it are described in backup.cpp.
#pragma once

#include <cstdio>
#include <string>

namespace cms {

struct Config;

// The names of an archive's members and the manifest's format, shared with restore.cpp.
namespace backup_layout {
constexpr const char *k_dump = "db.sql";
constexpr const char *k_files = "files/";
constexpr const char *k_manifest = "manifest.json";
constexpr const char *k_manifest_sum = "manifest.sha256";
constexpr const char *k_format = "cms-fcgi-backup 1";
constexpr const char *k_name_prefix = "cms-backup-";
constexpr const char *k_name_suffix = ".tar";
} // namespace backup_layout

// The version of this cms-fcgi (configure.ac's), as a manifest records it.
const char *program_version();

// Writes a new archive of config's database and file store into dir (made if missing), then
// removes the oldest archives of dir beyond config.backup_keep (0: none). Returns the archive's
// path. Progress and warnings (a row whose file is missing) go to log. Throws
// std::runtime_error (db::DbError included) on failure, leaving no archive under its final name.
std::string make_backup(const Config &config, const std::string &dir, std::FILE *log);

} // namespace cms
