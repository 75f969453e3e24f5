// Steps shared by handlers: the JSON body (content type checked), success envelopes, page
// objects, nullable fields. Named helpers so that handlers stay straight-line and never copy them.
#pragma once

#include <optional>
#include <string>

#include <json/json.h>

#include "base/errors.h"
#include "http/validate.h"

namespace cms {

struct Request;
struct Response;
struct Ctx;

// The request body as a JSON object; throws 415 for a non-JSON content type, 400 for bad JSON.
Json::Value parse_json_body(const Request &req, Ctx &ctx);

// A success envelope {code, message from the table, request} with status.
Response message(int status, Code code, const Request &req, const Ctx &ctx);

// The error envelope of error, returned rather than thrown: what the handler wrote commits with it
// (a thrown ApiError rolls the request's transaction back).
[[nodiscard]] Response refusal(const ApiError &error, const Request &req, const Ctx &ctx);

// {"total", "items", "page", "count"}.
Json::Value page_json(Json::Value items, int64_t total, const validate::Page &page);

// The text, or JSON null when absent.
Json::Value nullable(const std::optional<std::string> &text);

// The media type of a Content-Type header: before any parameter, trimmed, lower-case.
std::string media_type(const std::string &content_type);

} // namespace cms
