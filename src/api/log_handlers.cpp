// Behaviour log routes: filters from the query (absent or empty = no filter), pages, `time`.
#include "api/log_handlers.h"

#include "base/utf8.h"
#include "db/log_store.h"
#include "http/context.h"
#include "http/handler_util.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"

namespace cms {

namespace {

// A query filter: nullopt when absent or empty; a malformed one is a problem of its field.
std::optional<std::string> filter(const Request &req, const char *name, validate::Problems &problems,
                                  bool is_time) {
    std::optional<std::string> value = req.query(name);
    if (!value || value->empty())
        return std::nullopt;
    if (!utf8::valid_text(*value) || validate::length(*value) > 100 ||
        (is_time && !validate::datetime(*value))) {
        problems.add(name, is_time ? FieldText::log_time_format : FieldText::log_filter_format);
        return std::nullopt;
    }
    return value;
}

Response log_page(const Request &req, Ctx &ctx, bool with_keyword) {
    validate::Page page = validate::page_query(req);
    validate::Problems problems;
    LogFilter f;
    f.name = filter(req, "name", problems, false);
    if (with_keyword)
        f.keyword = filter(req, "keyword", problems, false);
    f.start = filter(req, "start", problems, true);
    f.end = filter(req, "end", problems, true);
    problems.check();
    int64_t total = 0;
    Json::Value items(Json::arrayValue);
    for (const LogEntry &e : LogStore(ctx.db).find(f, page.page, page.count, total)) {
        Json::Value item(Json::objectValue);
        item["id"] = static_cast<Json::Int64>(e.id);
        item["message"] = e.message;
        item["user_id"] = static_cast<Json::Int64>(e.user_id);
        item["username"] = e.username;
        item["status_code"] = static_cast<Json::Int64>(e.status_code);
        item["method"] = e.method;
        item["path"] = e.path;
        item["permission"] = e.permission;
        item["time"] = e.time;
        items.append(item);
    }
    return Response::json(200, page_json(items, total, page));
}

} // namespace

Response handle_log_list(const Request &req, Ctx &ctx) { return log_page(req, ctx, false); }

Response handle_log_search(const Request &req, Ctx &ctx) { return log_page(req, ctx, true); }

Response handle_log_users(const Request &req, Ctx &ctx) {
    validate::Page page = validate::page_query(req);
    int64_t total = 0;
    Json::Value items(Json::arrayValue);
    for (const std::string &name : LogStore(ctx.db).usernames(page.page, page.count, total))
        items.append(name);
    return Response::json(200, page_json(items, total, page));
}

} // namespace cms
