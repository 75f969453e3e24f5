// Fuzz target: request bodies through json::BodyParser (the strict parser every JSON route uses).
// Beyond "no crash": an accepted body is an object within the depth limit whose compact writing
// parses back to the same value.
#include "base/errors.h"
#include "base/json.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

constexpr int k_max_depth = 32; // the json_max_depth default

// Nesting as the parser counts it: a scalar or an empty container is 1.
int depth(const Json::Value &value) {
    int deepest = 0;
    if (value.isObject() || value.isArray())
        for (const Json::Value &item : value)
            deepest = std::max(deepest, depth(item));
    return 1 + deepest;
}

} // namespace

// Parses data as a body; aborts when an accepted body breaks the properties above.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static cms::json::BodyParser parser(k_max_depth);
    Json::Value root;
    try {
        root = parser.parse_object(std::string_view(reinterpret_cast<const char *>(data), size));
    } catch (const cms::ApiError &) {
        return 0;
    }
    if (!root.isObject() || depth(root) > k_max_depth)
        std::abort();
    if (parser.parse_object(cms::json::write(root)) != root)
        std::abort();
    return 0;
}
