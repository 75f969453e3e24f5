// Behaviour log rendering and writing.
#include "http/behaviour_log.h"

#include "db/log_store.h"
#include "http/context.h"
#include "http/request.h"
#include "http/router.h"

namespace cms {

namespace {

std::string html_escape(const std::string &text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string placeholder_value(const std::string &name, const Principal &user) {
    if (name == "user.username")
        return user.username;
    if (name == "user.nickname")
        return user.nickname.value_or("");
    if (name == "user.email")
        return user.email.value_or("");
    if (name == "user.id")
        return std::to_string(user.id);
    return {};
}

} // namespace

std::string render_log_template(const std::string &tmpl, const Principal &user) {
    std::string out;
    size_t pos = 0;
    while (pos < tmpl.size()) {
        size_t open = tmpl.find('{', pos);
        size_t close = open == std::string::npos ? open : tmpl.find('}', open);
        if (close == std::string::npos) {
            out.append(tmpl, pos, std::string::npos);
            break;
        }
        out.append(tmpl, pos, open - pos);
        out += html_escape(placeholder_value(tmpl.substr(open + 1, close - open - 1), user));
        pos = close + 1;
    }
    return out;
}

void record_behaviour(const Request &req, Ctx &ctx, int status) {
    // A route with a template names its principal (authorize() or, for login, the handler),
    // but for an anonymous write to a collection open to everyone: lin_log has no row for one.
    if (ctx.route == nullptr || ctx.route->log == nullptr || !ctx.user)
        return;
    const Principal &user = *ctx.user;
    LogEntry entry;
    entry.message = render_log_template(ctx.route->log, user);
    entry.user_id = user.id;
    entry.username = user.username;
    entry.status_code = status;
    entry.method = req.method;
    entry.path = req.path;
    entry.permission = ctx.route->permission.name != nullptr ? ctx.route->permission.name : "";
    LogStore(ctx.db).write(entry);
}

} // namespace cms
