// JSON in and out: a strict parser for request bodies (depth limit, duplicate keys, trailing
// garbage, invalid UTF-8 all rejected) and a compact UTF-8 writer for responses.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <json/json.h>

namespace cms::json {

// The strict parser of request bodies, configured once (jsoncpp spends more on configuring a
// reader than on parsing a typical body with it) and owned by main; it keeps no state from one
// body to the next.
class BodyParser {
  public:
    explicit BodyParser(int max_depth);
    ~BodyParser();
    BodyParser(const BodyParser &) = delete;
    BodyParser &operator=(const BodyParser &) = delete;

    // Parses body as one JSON object; throws ApiError 400/10030 whose text names the problem.
    Json::Value parse_object(std::string_view body);

  private:
    std::unique_ptr<Json::CharReader> reader_;
};

// The same with a parser made for this one body (tests, tools).
Json::Value parse_object(std::string_view body, int max_depth);

// Compact JSON with non-ASCII text as UTF-8 (not \u escapes).
std::string write(const Json::Value &value);

} // namespace cms::json
