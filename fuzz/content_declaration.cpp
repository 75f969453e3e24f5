// Fuzz target: a content declaration (content_file, or the one applied in the database) through
// content::parse and content::read, then what --setup-db and the pool make of one that passes:
// the plan from nothing, the plan from itself, the applied document and the OpenAPI description.
#include "base/json.h"
#include "content/declaration.h"
#include "content/openapi.h"
#include "content/plan.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    using namespace cms::content;
    std::string text(reinterpret_cast<const char *>(data), size);
    Limits limits;
    for (bool applied : {false, true}) {
        std::vector<Problem> problems;
        std::optional<Json::Value> doc = parse(text, problems);
        if (!doc)
            continue;
        Declaration declared = read(*doc, limits, applied, problems);
        if (!problems.empty())
            continue;
        // Applied again, a declaration changes nothing: no step, no check, no refusal.
        Plan again = plan(declared, declared);
        if (!again.steps.empty() || !again.checks.empty() || !again.refusals.empty())
            std::abort();
        Plan fresh = plan(Declaration{}, declared);
        if (!fresh.refusals.empty() || !fresh.checks.empty())
            std::abort();
        // What is stored reads back, retired marks included, as the pool reads it.
        std::string stored = cms::json::write(document(fresh.merged));
        std::vector<Problem> stored_problems;
        std::optional<Json::Value> back = parse(stored, stored_problems);
        if (!back)
            std::abort();
        read(*back, limits, true, stored_problems);
        if (!stored_problems.empty())
            std::abort();
        cms::json::write(openapi(declared));
    }
    return 0;
}
