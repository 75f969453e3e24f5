// Behaviour log routes: filters from the query (absent or empty = no filter), pages, `time`.
#include "log_handlers.h"

#include <regex>

#include "context.h"
#include "handler_util.h"
#include "log_store.h"
#include "request.h"
#include "response.h"
#include "validate.h"

namespace cms {

namespace {

// Whether text (already shaped YYYY-MM-DD HH:MM:SS) names a real moment: 2024-02-30 does not.
bool real_datetime(const std::string &text) {
    auto field = [&text](size_t pos, size_t len) { return std::stoi(text.substr(pos, len)); };
    int year = field(0, 4), month = field(5, 2), day = field(8, 2);
    static const int k_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12 || day < 1)
        return false;
    bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    int days = k_days[month - 1] + (month == 2 && leap ? 1 : 0);
    return day <= days && field(11, 2) <= 23 && field(14, 2) <= 59 && field(17, 2) <= 59;
}

// A query filter: nullopt when absent or empty; a malformed one is a problem of its field.
std::optional<std::string> filter(const Request &req, const char *name, validate::Problems &problems,
                                  bool is_time) {
    std::optional<std::string> value = req.query(name);
    if (!value || value->empty())
        return std::nullopt;
    static const std::regex time_pattern(R"(^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$)");
    if (!utf8_ok(*value) || validate::length(*value) > 100 ||
        (is_time && (!std::regex_match(*value, time_pattern) || !real_datetime(*value)))) {
        problems.add(name, is_time ? "时间格式必须为YYYY-MM-DD HH:mm:ss" : "参数格式错误");
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
