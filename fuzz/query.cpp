// Fuzz target: a query string through Request::query (cgicc) and the readers handlers build on it:
// validate::page_query, validate::id_query and validate::datetime.
#include "base/errors.h"
#include "http/request.h"
#include "http/validate.h"

#include <cstdint>
#include <cstdlib>
#include <string>

// Treats data as QUERY_STRING (without the '?').
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    cms::Request req;
    req.raw_query.assign(reinterpret_cast<const char *>(data), size);
    // Every name a handler asks for, and one that is never sent.
    for (const char *name :
         {"page", "count", "q", "name", "start", "end", "keyword", "group_id", ""})
        req.query(name);
    try {
        cms::validate::Page page = cms::validate::page_query(req);
        if (page.page < 0 || page.count < 1 || page.count > 30)
            std::abort();
    } catch (const cms::ApiError &) {
    }
    for (const char *name : {"start", "end"})
        if (std::optional<std::string> value = req.query(name))
            cms::validate::datetime(*value);
    cms::validate::Problems problems;
    std::optional<int64_t> id =
        cms::validate::id_query(req, "group_id", cms::FieldText::group_id_positive, problems);
    if (id && *id <= 0)
        std::abort();
    return 0;
}
