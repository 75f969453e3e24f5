// Schema versions: the one this binary needs, which one a database has (by its recorded version,
// or by its tables for the first release, which recorded none), and the migrations between them.
// The decisions only; the SQL is in schema_store, the --setup-db command in setup_db.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cms {

namespace db {
class Connection;
}

namespace schema {

// The schema version this binary needs, and the only one the service runs on: the number of the
// last file of sql/migrations/, which the Makefile gives schema.cpp (the migrations are the one
// source of the schema and of its version).
extern const int64_t k_version;

// What a database is, judged by its tables and the row of cms_schema_version.
struct State {
    enum class Kind { empty, known, unknown } kind = Kind::unknown;
    int64_t version = 0; // when known (may be newer than k_version)
    std::string reason;  // when unknown: what is not ours
};

// Judges a database holding tables (any order) whose cms_schema_version row says recorded.
State recognise(const std::vector<std::string> &tables, std::optional<int64_t> recorded);

// The tables that hold a cache, not data: the login throttle's failures and gate rows, the spent
// captcha tags, the Idempotency-Key answers. A backup keeps their definitions and none of their rows.
const std::vector<std::string> &cache_tables();

// One file of sql/migrations/: NNNN-what.sql takes a database from version NNNN - 1 to NNNN.
struct Migration {
    int64_t version = 0;
    std::string file;
};

// The migrations among files (names in sql/migrations/) that take a database from version from to
// version to, in order. Throws std::runtime_error when one is missing or given twice, or when
// files go beyond to (they belong to a newer cms-fcgi). Names that are not NNNN-*.sql are ignored.
std::vector<Migration> plan(const std::vector<std::string> &files, int64_t from, int64_t to);

// Throws db::WrongSchema, naming both versions and the upgrade command, unless the database of
// conn (named db_name) is at k_version. Run at every connect of the service.
void check_version(db::Connection &conn, const std::string &db_name);

} // namespace schema
} // namespace cms
