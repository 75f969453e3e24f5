// Behaviour log routes under /cms/log (doc/lin-cms.md §4.21): list, search, usernames. The group
// permissions 日志/查询所有日志, 搜索日志, 查询日志记录的用户 are checked by authorize(). No SQL here.
#pragma once

namespace cms {

struct Request;
struct Response;
struct Ctx;

Response handle_log_list(const Request &req, Ctx &ctx);
Response handle_log_search(const Request &req, Ctx &ctx);
Response handle_log_users(const Request &req, Ctx &ctx);

} // namespace cms
