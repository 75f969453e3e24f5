// Admin routes on groups and permissions (doc/api.md §5, doc/lin-cms.md §4.7, §4.12–§4.20).
// The admin level is checked by authorize() before any of these runs. No SQL here.
#pragma once

namespace cms {

struct Request;
struct Response;
struct Ctx;

Response handle_admin_group_all(const Request &req, Ctx &ctx);
Response handle_admin_group_get(const Request &req, Ctx &ctx);
Response handle_admin_group_create(const Request &req, Ctx &ctx);
Response handle_admin_permission_list(const Request &req, Ctx &ctx);
Response handle_admin_permission_dispatch_batch(const Request &req, Ctx &ctx);
Response handle_admin_permission_remove(const Request &req, Ctx &ctx);
Response handle_admin_permission_dispatch(const Request &req, Ctx &ctx);
Response handle_admin_group_page(const Request &req, Ctx &ctx);
Response handle_admin_group_update(const Request &req, Ctx &ctx);
Response handle_admin_group_delete(const Request &req, Ctx &ctx);

} // namespace cms
