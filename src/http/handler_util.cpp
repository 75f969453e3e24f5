// Steps shared by handlers.
#include "http/handler_util.h"

#include "base/config.h"
#include "base/json.h"
#include "base/text.h"
#include "http/context.h"
#include "http/request.h"
#include "http/response.h"

namespace cms {

Json::Value parse_json_body(const Request &req, Ctx &ctx) {
    if (!req.body.empty() && media_type(req.content_type) != "application/json")
        throw ApiError(415, Code::unsupported_media_type);
    return ctx.json.parse_object(req.body);
}

Response message(int status, Code code, const Request &req, const Ctx &ctx) {
    return Response::json(status, make_envelope(code, ctx.messages.text(code), req.line()));
}

Response refusal(const ApiError &error, const Request &req, const Ctx &ctx) {
    Response res = Response::json(error.status, error_envelope(error, ctx.messages, req.line()));
    for (const auto &[name, value] : error.headers)
        res.header(name, value);
    return res;
}

Json::Value page_json(Json::Value items, int64_t total, const validate::Page &page) {
    Json::Value out(Json::objectValue);
    out["total"] = static_cast<Json::Int64>(total);
    out["items"] = std::move(items);
    out["page"] = static_cast<Json::Int64>(page.page);
    out["count"] = static_cast<Json::Int64>(page.count);
    return out;
}

Json::Value nullable(const std::optional<std::string> &text) {
    return text ? Json::Value(*text) : Json::Value(Json::nullValue);
}

std::string media_type(const std::string &content_type) {
    std::string type = content_type.substr(0, content_type.find(';'));
    while (!type.empty() && type.back() == ' ')
        type.pop_back();
    return text::lower(type);
}

} // namespace cms
