// The commands of cms-fcgi besides serving (pool/serve.h): one function each, as the command
// table of main.cpp calls them, once it has loaded what the command's row needs (the
// configuration, the log file, the MariaDB client library).
#pragma once

#include <string>

namespace cms {

struct Config;
struct RestoreOptions;

// `cms-fcgi status`: the running pool's own GET /status, asked over its socket at address, as a
// few lines for a person.
int cmd_status(const std::string &address);

// --hash-password: the first line of stdin as an Argon2id hash, when the password rule allows it.
int cmd_hash_password();

// --backup (into dir, backup_dir when empty) or, with archive, --restore; the archive's path on
// stdout, the steps on stderr (and to log_file, opened by the caller). Throws std::runtime_error with the reason.
int cmd_backup_or_restore(const Config &config, const std::string &dir,
                          const std::string &archive, const RestoreOptions &options);

// --setup-db [--db-admin USER]: the schema created or upgraded (root's password from stdin, or
// generated and printed); with db_admin, the database and its account made first.
int cmd_setup_db(const Config &config, const std::string &db_admin);

// --check-content FILE: the declaration checked with no database (every broken rule, with its
// JSON pointer); with_database, then the plan of applying it to the configured database, each
// DDL statement printed, nothing changed. Throws std::runtime_error with the reasons.
int cmd_check_content(const Config &config, const std::string &path, bool with_database);

} // namespace cms
