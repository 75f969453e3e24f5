// Fuzz target: the query string of a collection's list through Request::query_pairs (cgicc) and
// content::read_query, against a collection with a field of every type that can be filtered.
#include "content/declaration.h"
#include "content/query.h"
#include "http/request.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

const cms::content::Collection &collection() {
    static const cms::content::Declaration declaration = [] {
        const char *text = R"({"collections": [{"id": "c", "name": "c", "label": "C", "fields": [
            {"id": "s", "name": "s", "type": "string", "max": 20, "filter": true, "sort": true,
             "search": true},
            {"id": "t", "name": "t", "type": "text", "search": true},
            {"id": "i", "name": "i", "type": "integer", "min": 0, "filter": true, "sort": true},
            {"id": "d", "name": "d", "type": "decimal", "precision": 6, "scale": 2,
             "filter": true},
            {"id": "b", "name": "b", "type": "boolean", "filter": true},
            {"id": "day", "name": "day", "type": "date", "filter": true},
            {"id": "at", "name": "at", "type": "datetime", "filter": true, "sort": true},
            {"id": "e", "name": "e", "type": "enum", "values": ["x", "y"], "filter": true},
            {"id": "r", "name": "r", "type": "relation", "target": "user", "filter": true},
            {"id": "h", "name": "h", "type": "string", "hidden": true}]}]})";
        std::vector<cms::content::Problem> problems;
        std::optional<Json::Value> doc = cms::content::parse(text, problems);
        cms::content::Declaration out = cms::content::read(*doc, {}, false, problems);
        if (!problems.empty())
            std::abort();
        return out;
    }();
    return declaration.collections.front();
}

} // namespace

// Treats data as QUERY_STRING (without the '?').
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cms::Request req;
    req.raw_query.assign(reinterpret_cast<const char *>(data), size);
    cms::content::QueryLimits limits;
    std::vector<cms::content::QueryProblem> problems;
    cms::content::Query query =
        cms::content::read_query(collection(), req.query_pairs(), limits, problems);
    if (!problems.empty())
        return 0;
    // A query read without a problem stays within its limits and names only what may be used.
    if (static_cast<int64_t>(query.conditions.size()) > limits.max_conditions ||
        static_cast<int64_t>(query.sort.size()) > limits.max_sort)
        std::abort();
    for (const cms::content::Condition &c : query.conditions) {
        if (c.values.empty() || (c.op != cms::content::Op::in && c.values.size() != 1) ||
            (c.field != nullptr && (!c.field->filter || c.field->hidden)))
            std::abort();
        for (const cms::content::Value &v : c.values)
            if (v.kind == cms::content::Value::Kind::null)
                std::abort();
    }
    for (const cms::content::SortKey &k : query.sort)
        if (k.field != nullptr && !k.field->sort)
            std::abort();
    return 0;
}
