// JSON in and out: a strict parser for request bodies (depth limit, duplicate keys, trailing
// garbage, invalid UTF-8 all rejected) and a compact UTF-8 writer for responses.
#pragma once

#include <string>
#include <string_view>

#include <json/json.h>

namespace cms::json {

// Parses body as one JSON object; throws ApiError 400/10030 whose text names the problem.
Json::Value parse_object(std::string_view body, int max_depth);

// Compact JSON with non-ASCII text as UTF-8 (not \u escapes).
std::string write(const Json::Value &value);

} // namespace cms::json
