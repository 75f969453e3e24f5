// THE route table: one line per route — method, path, access level, permission, handler, the
// behaviour-log template dispatch writes (doc/lin-cms.md §6.2), a body cap where the route's body
// is small. Permissions named here are the ones the service registers at start
// (PermissionStore::register_declared).
#include "api/admin_handlers.h"
#include "api/admin_user_handlers.h"
#include "api/book_handlers.h"
#include "api/file_handlers.h"
#include "api/log_handlers.h"
#include "api/ops_handlers.h"
#include "api/user_handlers.h"
#include "http/router.h"

namespace cms {

namespace {

constexpr Permission k_none{};
constexpr Permission k_log_all{"日志", "查询所有日志"};
constexpr Permission k_log_search{"日志", "搜索日志"};
constexpr Permission k_log_users{"日志", "查询日志记录的用户"};
constexpr Permission k_book_delete{"图书", "删除图书"};

using A = Access;

// Routes whose requests carry no body (the Lin CMS client sends none): a stray one is read, up to
// this, and ignored. Public routes and /refresh, so that an anonymous client cannot make a worker
// read a large one.
constexpr int64_t k_no_body = 1024;
// A login body ({username, password, captcha}) is under 1.5 KiB with a 100-character username and
// a 256-character password in 4-byte UTF-8; the Lin CMS client's are under 100 bytes.
constexpr int64_t k_login_body = 4096;

} // namespace

const std::vector<Route> &route_table() {
    // clang-format off
    static const std::vector<Route> routes = {
        {"GET",    "/healthz",                             A::everyone, k_none,        handle_health_live, nullptr, k_no_body},
        {"GET",    "/readyz",                              A::everyone, k_none,        handle_health_ready, nullptr, k_no_body},
        {"GET",    "/status",                              A::everyone, k_none,        handle_pool_status, nullptr, k_no_body},

        {"GET",    "/v1/book",                             A::everyone, k_none,        handle_book_list, nullptr, k_no_body},
        {"GET",    "/v1/book/search",                      A::everyone, k_none,        handle_book_search, nullptr, k_no_body},
        {"GET",    "/v1/book/search/one",                  A::everyone, k_none,        handle_book_search_one, nullptr, k_no_body},
        {"GET",    "/v1/book/{id}",                        A::everyone, k_none,        handle_book_get, nullptr, k_no_body},
        {"POST",   "/v1/book",                             A::login,    k_none,        handle_book_create},
        {"PUT",    "/v1/book/{id}",                        A::login,    k_none,        handle_book_update},
        {"DELETE", "/v1/book/{id}",                        A::group,    k_book_delete, handle_book_delete,
                                                                                       "{user.username}删除了一本图书"},

        {"POST",   "/cms/user/login",                      A::everyone, k_none,        handle_user_login,
                                                                                       "{user.username}登录成功获取了令牌", k_login_body},
        {"POST",   "/cms/user/captcha",                    A::everyone, k_none,        handle_user_captcha, nullptr, k_no_body},
        {"GET",    "/cms/user/refresh",                    A::refresh,  k_none,        handle_user_refresh, nullptr, k_no_body},
        {"POST",   "/cms/user/register",                   A::admin,    k_none,        handle_user_register,
                                                                                       "管理员新建了一个用户"},
        {"PUT",    "/cms/user",                            A::login,    k_none,        handle_user_update,
                                                                                       "{user.username}更新了自己的信息"},
        {"PUT",    "/cms/user/change_password",            A::login,    k_none,        handle_user_change_password,
                                                                                       "{user.username}修改了自己的密码"},
        {"GET",    "/cms/user/permissions",                A::login,    k_none,        handle_user_permissions},
        {"GET",    "/cms/user/information",                A::login,    k_none,        handle_user_information},

        {"GET",    "/cms/admin/users",                     A::admin,    k_none,        handle_admin_user_list},
        {"PUT",    "/cms/admin/user/{id}",                 A::admin,    k_none,        handle_admin_user_update,
                                                                                       "管理员修改了一个用户的分组"},
        {"PUT",    "/cms/admin/user/{id}/password",        A::admin,    k_none,        handle_admin_user_password,
                                                                                       "管理员重置了一个用户的密码"},
        {"DELETE", "/cms/admin/user/{id}",                 A::admin,    k_none,        handle_admin_user_delete,
                                                                                       "管理员删除了一个用户"},
        {"GET",    "/cms/admin/group",                     A::admin,    k_none,        handle_admin_group_page},
        {"GET",    "/cms/admin/group/all",                 A::admin,    k_none,        handle_admin_group_all},
        {"GET",    "/cms/admin/group/{id}",                A::admin,    k_none,        handle_admin_group_get},
        {"POST",   "/cms/admin/group",                     A::admin,    k_none,        handle_admin_group_create,
                                                                                       "管理员新建了一个分组"},
        {"PUT",    "/cms/admin/group/{id}",                A::admin,    k_none,        handle_admin_group_update,
                                                                                       "管理员更新了一个分组"},
        {"DELETE", "/cms/admin/group/{id}",                A::admin,    k_none,        handle_admin_group_delete,
                                                                                       "管理员删除了一个分组"},
        {"GET",    "/cms/admin/permission",                A::admin,    k_none,        handle_admin_permission_list},
        {"POST",   "/cms/admin/permission/dispatch",       A::admin,    k_none,        handle_admin_permission_dispatch,
                                                                                       "管理员为分组分配了权限"},
        {"POST",   "/cms/admin/permission/dispatch/batch", A::admin,    k_none,        handle_admin_permission_dispatch_batch,
                                                                                       "管理员为分组分配了权限"},
        {"POST",   "/cms/admin/permission/remove",         A::admin,    k_none,        handle_admin_permission_remove,
                                                                                       "管理员删除了分组的权限"},

        {"POST",   "/cms/file",                            A::login,    k_none,        handle_file_upload, nullptr, 0, true},

        {"GET",    "/cms/log",                             A::group,    k_log_all,     handle_log_list},
        {"GET",    "/cms/log/search",                      A::group,    k_log_search,  handle_log_search},
        {"GET",    "/cms/log/users",                       A::group,    k_log_users,   handle_log_users},
    };
    // clang-format on
    return routes;
}

} // namespace cms
