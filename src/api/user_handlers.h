// User routes under /cms/user (doc/api.md §3, doc/lin-cms.md §4.1–§4.6): login, refresh, register,
// own profile, permissions and information, password change, captcha. No SQL here.
#pragma once

namespace cms {

struct Request;
struct Response;
struct Ctx;

Response handle_user_login(const Request &req, Ctx &ctx);
Response handle_user_refresh(const Request &req, Ctx &ctx);
Response handle_user_register(const Request &req, Ctx &ctx);
Response handle_user_permissions(const Request &req, Ctx &ctx);
Response handle_user_information(const Request &req, Ctx &ctx);
Response handle_user_change_password(const Request &req, Ctx &ctx);
Response handle_user_update(const Request &req, Ctx &ctx);
Response handle_user_captcha(const Request &req, Ctx &ctx);

} // namespace cms
