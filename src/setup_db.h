// `cms-fcgi --setup-db`: creates the schema and the seed in an empty database, or brings an
// existing one to schema::k_version with the files of sql_dir/migrations/, recording each step.
#pragma once

#include <cstdio>
#include <istream>

namespace cms {

struct Config;

// Sets up or upgrades the database of config, printing one line per step to out. When it
// creates the database, root's password is the first line of in, or a generated one (printed)
// when in is a terminal or empty. Throws std::runtime_error (db::DbError included) for a
// database it does not recognise, one newer than it knows, missing SQL files and SQL failures.
void setup_database(const Config &config, std::istream &in, bool in_is_terminal, std::FILE *out);

} // namespace cms
