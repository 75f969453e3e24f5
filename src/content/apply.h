// Applying a declaration file to a database (doc/content.md, "Changing a declaration"): under a
// named lock, the plan from the applied declaration, its checks, its target kept as pending, its
// DDL, the collections' permissions, then the new applied declaration stored. An apply that stops
// half-way is finished by the next one before it plans its own file: every step is idempotent,
// and the applied declaration changes last.
#pragma once

#include <cstdio>
#include <string>

#include "content/declaration.h"

namespace cms {
namespace db {
class Connection;
}
} // namespace cms

namespace cms::content {

// The declaration of the file at path, checked with no database. Throws std::runtime_error with
// every broken rule, one "POINTER: RULE" line each.
Declaration check_file(const std::string &path, const Limits &limits);

// Applies declared to the database of db, printing each step to out; with dry_run, prints the
// plan and changes nothing. Throws std::runtime_error when the plan is refused (a type change),
// when rows break a tightened rule (their count and first ids), or when another apply holds the
// lock; the database is then as it was (a DDL error half-way leaves steps that the next apply
// finishes).
void apply(db::Connection &db, const Declaration &declared, const Limits &limits, bool dry_run,
           std::FILE *out);

} // namespace cms::content
