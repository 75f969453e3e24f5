// Changing the applied declaration into a new one without losing anything (doc/content.md,
// "Changing a declaration"): the merged declaration (what the file drops is retired, never
// dropped), the checks that rows must pass before a rule is tightened, and the DDL, each
// statement idempotent so that an apply that was cut short is finished by running it again.
// Pure: the statements are text, run by the caller.
#pragma once

#include <string>
#include <vector>

#include "content/declaration.h"

namespace cms::content {

// Rows that would break a tightened rule (the store counts them and names the first): those of
// table, live or deleted (a restored row must pass too), where condition holds; or, for a new
// unique rule, the live rows whose value of column another live row holds.
struct Check {
    std::string what; // "collection article, field title: max 80 -> 40"
    std::string table;
    std::string condition;  // SQL over the table's columns
    std::string duplicates; // a column, for a unique rule (condition is empty then)
};

struct Step {
    std::string what;
    std::string sql; // idempotent: IF NOT EXISTS, IF EXISTS, or a MODIFY to the same type
    // A widened varchar: skipped when the column of table holds chars characters already. A max
    // made smaller is never made physical (the engine enforces it), so that pools still serving
    // the old declaration until their reload never meet a column too short for what they write.
    std::string table, column;
    int64_t chars = 0;
};

struct Plan {
    Declaration merged;             // the new applied declaration, retired items included
    std::vector<Check> checks;      // every one must count 0 before any step runs
    std::vector<Step> steps;        // in order
    std::vector<std::string> notes; // what changes without DDL: retired, renamed, re-added
    std::vector<Problem> refusals;  // changes that cannot be made in place, with what to do
};

// The plan from applied (the database's; empty for none) to declared (a checked file).
Plan plan(const Declaration &applied, const Declaration &declared);

// The column definition of a field ("`title` varchar(80) DEFAULT NULL").
std::string column_definition(const Field &field);

// The declaration as the JSON document that is stored (retired marks included).
Json::Value document(const Declaration &declaration);

} // namespace cms::content
