// The query of a collection's list (doc/content.md, "Queries"): sort, q and filter parameters
// read against the declaration into conditions with typed values. Pure: no SQL, no HTTP; page
// and count are the handler's (validate::page_query), as for every Lin CMS page.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "content/declaration.h"
#include "content/value.h"

namespace cms::content {

enum class Op { eq, ne, gt, gte, lt, lte, in };

struct Condition {
    const Field *field = nullptr; // nullptr: the id
    Op op = Op::eq;
    std::vector<Value> values; // one, or those of in
};

struct SortKey {
    const Field *field = nullptr; // nullptr: the id
    bool descending = false;
};

struct Query {
    std::vector<Condition> conditions;
    std::vector<SortKey> sort; // empty: by id
    std::string q;             // searched in every search field; empty: no search
};

// The limits of one query (configuration keys content_max_conditions, content_max_sort).
struct QueryLimits {
    int64_t max_conditions = 10;
    int64_t max_sort = 3;
    int64_t max_in = 100;
    int64_t max_q = 100; // characters
};

// Why a parameter was refused: one that is not a parameter of this list, a value that does not
// fit the field (or the operator), a field that the declaration does not let be filtered or
// sorted on, or a limit passed.
enum class QueryFault { unknown, value, not_allowed, too_many };

struct QueryProblem {
    std::string parameter; // as the client wrote it
    QueryFault fault = QueryFault::unknown;
};

// Reads params (decoded name, value pairs, in order) of a list of collection. page and count
// are passed over. Each refused parameter adds a problem; the query is usable only when none
// was added.
Query read_query(const Collection &collection,
                 const std::vector<std::pair<std::string, std::string>> &params,
                 const QueryLimits &limits, std::vector<QueryProblem> &problems);

} // namespace cms::content
