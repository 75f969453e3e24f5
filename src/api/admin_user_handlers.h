// Admin routes on users (doc/lin-cms.md §4.8–§4.11): list, regroup, password reset, delete.
// The admin level is checked by authorize() before any of these runs. No SQL here.
#pragma once

namespace cms {

struct Request;
struct Response;
struct Ctx;

Response handle_admin_user_list(const Request &req, Ctx &ctx);
Response handle_admin_user_update(const Request &req, Ctx &ctx);
Response handle_admin_user_password(const Request &req, Ctx &ctx);
Response handle_admin_user_delete(const Request &req, Ctx &ctx);

} // namespace cms
