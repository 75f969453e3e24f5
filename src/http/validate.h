// Input validation: turns outside strings and JSON members into typed values, collecting every
// field problem into one ApiError 400/10030 whose message maps field → text (doc/api.md §1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <json/json.h>

#include "base/errors.h"

namespace cms {
struct Request;
}

namespace cms::validate {

// Collects field problems; the first problem of a field is the one reported.
class Problems {
  public:
    void add(const std::string &field, FieldText text);
    // The same for a problem with its own placeholders or text (a declared field's).
    void add(FieldProblem problem);
    bool empty() const { return fields_.empty(); }
    // Throws ApiError 400/10030 with every problem, if there is any.
    void check() const;

  private:
    std::vector<FieldProblem> fields_;
};

// A path id: a positive integer that fits an `int unsigned` column; else 400 {field: text}.
int64_t path_id(const std::string &text, const char *field = "id");

// A string member: nullopt when absent or null; a non-string adds FieldText::wrong_type.
std::optional<std::string> string_member(const Json::Value &body, const char *name,
                                         Problems &problems);

// A required text of min..max characters: missing_text when absent or empty, long_text when
// longer than max (characters, not bytes). Returns the text (empty when invalid).
std::string required_text(const Json::Value &body, const char *name, size_t max,
                          FieldText missing_text, FieldText long_text, Problems &problems);

// An optional text of at most max characters (too_long_text otherwise).
std::optional<std::string> optional_text(const Json::Value &body, const char *name, size_t max,
                                         FieldText too_long_text, Problems &problems);

// A positive integer member that fits an id column, written as a JSON integer or as a string of
// 1 to 10 ASCII digits (as Spring's binding converts it): nullopt when absent or null.
std::optional<int64_t> id_member(const Json::Value &body, const char *name, FieldText bad_text,
                                 Problems &problems);

// The same, required: missing_text when absent or null (0 is returned for any problem).
int64_t required_id_member(const Json::Value &body, const char *name, FieldText bad_text,
                           FieldText missing_text, Problems &problems);

// An array of positive ids (possibly empty, at most 100), each written as id_member accepts it,
// as a sorted set without repeats: nullopt when absent or null.
std::optional<std::vector<int64_t>> id_list_member(const Json::Value &body, const char *name,
                                                   FieldText bad_text, Problems &problems);

// Paging of doc/api.md §1: page >= 0 (default 0), count 1..30 (default 10), from the query.
struct Page {
    int64_t page = 0;
    int64_t count = 10;
};
Page page_query(const Request &req);

// A query parameter as a positive id: nullopt when absent or empty.
std::optional<int64_t> id_query(const Request &req, const char *name, FieldText bad_text,
                                Problems &problems);

// Whether text is a real moment written YYYY-MM-DD HH:MM:SS (2024-02-30 or 25:00:00 are not).
bool datetime(const std::string &text);

// Length in characters of valid UTF-8 text.
size_t length(const std::string &text);

} // namespace cms::validate
