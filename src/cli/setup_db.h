// `cms-fcgi --setup-db`: brings a database to schema::k_version with the files of
// sql_dir/migrations/, in order, recording each step: all of them, then the seed, for an empty
// one (a fresh install and an upgrade run the same files), those it lacks for an older one; then
// applies the content declaration of content_file (content/apply.h).
#pragma once

#include <cstdio>
#include <istream>
#include <string>

namespace cms {

struct Config;

// Sets up or upgrades the database of config, printing one line per step to out. When it
// creates the database, root's password is the first line of in, or a generated one (printed)
// when in is a terminal or empty. Throws std::runtime_error (db::DbError included) for a
// database it does not recognise, one newer than it knows, missing SQL files and SQL failures.
// apply_content: apply content_file after (a restore keeps the declaration of its archive). A
// content_file that does not exist applies nothing (said on stderr): a missing file must never
// retire every collection; one that breaks a rule stops the setup before anything is written.
void setup_database(const Config &config, std::istream &in, bool in_is_terminal, std::FILE *out,
                    bool apply_content);

// What setup_database does, preceded by what an administrator does once: connected as the
// MariaDB account admin (over the local unix socket: unix_socket authentication, no password),
// creates the database db_name and the account db_user@localhost with db_password, refused when
// empty, then sets up the database as that administrator. Throws std::runtime_error before
// changing anything for an empty db_password or a database that is not on this host.
void setup_database_as(const std::string &admin, const Config &config, std::istream &in,
                       bool in_is_terminal, std::FILE *out);

} // namespace cms
