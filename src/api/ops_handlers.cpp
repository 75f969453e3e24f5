// Operations routes: /healthz, /readyz and /status.
#include "api/ops_handlers.h"

#include <string_view>

#include "base/address_list.h"
#include "base/config.h"
#include "base/errors.h"
#include "db/db.h"
#include "http/context.h"
#include "http/request.h"
#include "http/response.h"
#include "metrics/status_page.h"

namespace cms {

namespace {

Response status_ok() {
    Json::Value body(Json::objectValue);
    body["status"] = "ok";
    return Response::json(200, body);
}

// Whether the query string has key, with a value or without one ("?full").
bool has_query_key(const Request &req, std::string_view key) {
    std::string_view query = req.raw_query;
    while (!query.empty()) {
        size_t end = query.find('&');
        std::string_view item = query.substr(0, end);
        if (item.substr(0, item.find('=')) == key)
            return true;
        query = end == std::string_view::npos ? std::string_view() : query.substr(end + 1);
    }
    return false;
}

// Which form of the page the client asked for: ?format= first, then Accept.
enum class StatusFormat { json, prometheus, openmetrics };

StatusFormat status_format(const Request &req) {
    std::optional<std::string> format = req.query("format");
    if (format == std::string("openmetrics"))
        return StatusFormat::openmetrics;
    if (format == std::string("prometheus"))
        return StatusFormat::prometheus;
    if (format)
        return StatusFormat::json;
    if (req.accept.find("application/openmetrics-text") != std::string::npos)
        return StatusFormat::openmetrics;
    if (req.accept.find("text/plain") != std::string::npos &&
        req.accept.find("application/json") == std::string::npos)
        return StatusFormat::prometheus;
    return StatusFormat::json;
}

} // namespace

Response handle_health_live(const Request &, Ctx &) { return status_ok(); }

Response handle_health_ready(const Request &, Ctx &ctx) {
    if (!ctx.db.ping())
        throw ApiError(503, Code::db_unavailable);
    return status_ok();
}

Response handle_pool_status(const Request &req, Ctx &ctx) {
    if (!address_list::matches(ctx.config.status_allow, req.remote_addr))
        throw ApiError(404, Code::not_found);
    if (ctx.board == nullptr) {
        Json::Value body(Json::objectValue);
        body["code"] = static_cast<int>(Code::status_no_pool);
        body["message"] = ctx.messages.text(Code::status_no_pool);
        body["request"] = req.line();
        body["pool"] = Json::Value(Json::nullValue);
        return Response::json(200, body);
    }
    switch (status_format(req)) {
    case StatusFormat::openmetrics:
        return Response::text(200, "application/openmetrics-text; version=1.0.0; charset=utf-8",
                              status_metrics(*ctx.board, true));
    case StatusFormat::prometheus:
        return Response::text(200, "text/plain; version=0.0.4; charset=utf-8",
                              status_metrics(*ctx.board, false));
    case StatusFormat::json:
        break;
    }
    return Response::json(200, status_json(*ctx.board, has_query_key(req, "full")));
}

} // namespace cms
