// THE route table: one line per route — method, path, access level, permission, handler.
// Permissions named here are the ones the service registers at start (see PermissionStore).
#include "admin_handlers.h"
#include "book_handlers.h"
#include "log_handlers.h"
#include "ops_handlers.h"
#include "router.h"
#include "user_handlers.h"

namespace cms {

namespace {

constexpr Permission k_none{};
constexpr Permission k_log_all{"日志", "查询所有日志"};
constexpr Permission k_log_search{"日志", "搜索日志"};
constexpr Permission k_log_users{"日志", "查询日志记录的用户"};
constexpr Permission k_book_delete{"图书", "删除图书"};

using A = Access;

} // namespace

const std::vector<Route> &route_table() {
    static const std::vector<Route> routes = {
        {"GET",    "/healthz",                              A::everyone, k_none,        handle_health_live},
        {"GET",    "/readyz",                               A::everyone, k_none,        handle_health_ready},

        {"GET",    "/v1/book",                              A::everyone, k_none,        handle_book_list},
        {"GET",    "/v1/book/search",                       A::everyone, k_none,        handle_book_search},
        {"GET",    "/v1/book/{id}",                         A::everyone, k_none,        handle_book_get},
        {"POST",   "/v1/book",                              A::login,    k_none,        handle_book_create},
        {"PUT",    "/v1/book/{id}",                         A::login,    k_none,        handle_book_update},
        {"DELETE", "/v1/book/{id}",                         A::group,    k_book_delete, handle_book_delete},

        {"POST",   "/cms/user/login",                       A::everyone, k_none,        handle_user_login},
        {"GET",    "/cms/user/refresh",                     A::refresh,  k_none,        handle_user_refresh},
        {"POST",   "/cms/user/register",                    A::admin,    k_none,        handle_user_register},
        {"GET",    "/cms/user/permissions",                 A::login,    k_none,        handle_user_permissions},
        {"GET",    "/cms/user/information",                 A::login,    k_none,        handle_user_information},
        {"PUT",    "/cms/user/change_password",             A::login,    k_none,        handle_user_change_password},

        {"GET",    "/cms/admin/permission",                 A::admin,    k_none,        handle_admin_permission_list},
        {"POST",   "/cms/admin/permission/dispatch/batch",  A::admin,    k_none,        handle_admin_permission_dispatch_batch},
        {"POST",   "/cms/admin/permission/remove",          A::admin,    k_none,        handle_admin_permission_remove},
        {"GET",    "/cms/admin/group/all",                  A::admin,    k_none,        handle_admin_group_all},
        {"GET",    "/cms/admin/group/{id}",                 A::admin,    k_none,        handle_admin_group_get},
        {"POST",   "/cms/admin/group",                      A::admin,    k_none,        handle_admin_group_create},

        {"GET",    "/cms/log",                              A::group,    k_log_all,     handle_log_list},
        {"GET",    "/cms/log/search",                       A::group,    k_log_search,  handle_log_search},
        {"GET",    "/cms/log/users",                        A::group,    k_log_users,   handle_log_users},
    };
    return routes;
}

} // namespace cms
