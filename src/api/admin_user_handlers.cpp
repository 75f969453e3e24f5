// Admin routes on users: the root user is hidden, members of the root group are never regrouped,
// reset or deleted here; every change writes its behaviour log row in its transaction.
#include "api/admin_user_handlers.h"

#include "api/representation.h"
#include "api/user_rules.h"
#include "auth/password.h"
#include "base/errors.h"
#include "db/db.h"
#include "db/group_store.h"
#include "db/user_store.h"
#include "http/context.h"
#include "http/handler_util.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"

namespace cms {

namespace {

// The live user of the path id, or 404/10021.
Principal user_or_404(UserStore &users, const Request &req) {
    std::optional<Principal> user = users.find_principal(validate::path_id(req.params.at(0)));
    if (!user)
        throw ApiError(404, Code::user_not_found);
    return *user;
}

} // namespace

Response handle_admin_user_list(const Request &req, Ctx &ctx) {
    validate::Page page = validate::page_query(req);
    validate::Problems problems;
    std::optional<int64_t> group_id =
        validate::id_query(req, "group_id", FieldText::group_id_positive, problems);
    problems.check();
    GroupStore groups(ctx.db);
    int64_t total = 0;
    std::vector<UserRow> rows;
    // The root group's members are hidden: filtering by it (or by a missing group) finds nobody.
    std::optional<Group> group = group_id ? groups.find(*group_id) : std::nullopt;
    if (!group_id || (group && group->level != k_level_root))
        rows = UserStore(ctx.db).page(group_id, page.page, page.count, total);
    Json::Value items(Json::arrayValue);
    for (const UserRow &row : rows) {
        Json::Value item(Json::objectValue);
        item["id"] = static_cast<Json::Int64>(row.id);
        item["username"] = row.username;
        item["nickname"] = nullable(row.nickname);
        item["avatar"] = nullable(row.avatar);
        item["email"] = nullable(row.email);
        item["groups"] = groups_json(groups.of_user(row.id));
        items.append(item);
    }
    return Response::json(200, page_json(items, total, page));
}

Response handle_admin_user_update(const Request &req, Ctx &ctx) {
    Json::Value body = parse_json_body(req, ctx);
    validate::Problems problems;
    std::optional<std::vector<int64_t>> group_ids =
        validate::id_list_member(body, "group_ids", FieldText::group_ids_positive, problems);
    if (!group_ids || group_ids->empty())
        problems.add("group_ids", FieldText::group_ids_not_empty);
    problems.check();
    UserStore users(ctx.db);
    GroupStore groups(ctx.db);
    Principal user = user_or_404(users, req);
    if (user.admin)
        throw ApiError(403, Code::root_user_regroup);
    // Locked, so that a group deleted meanwhile cannot end up with this user (see group delete).
    Membership membership = groups.lock_for_members(*group_ids);
    if (membership == Membership::root_group)
        throw ApiError(403, Code::root_group_no_users);
    if (membership == Membership::missing)
        throw ApiError(403, Code::group_assign_missing);
    users.set_groups(user.id, *group_ids);
    return message(200, Code::user_updated, req, ctx);
}

Response handle_admin_user_password(const Request &req, Ctx &ctx) {
    Json::Value body = parse_json_body(req, ctx);
    validate::Problems problems;
    std::string password = new_password(body, "new_password", problems);
    problems.check();
    UserStore users(ctx.db);
    Principal user = user_or_404(users, req);
    // An admin's password changes only through change_password, which asks for the old one:
    // otherwise any admin could take over another, root included.
    if (user.admin)
        throw ApiError(403, Code::forbidden);
    users.set_password(user.id, password::hash(password));
    return message(200, Code::password_changed, req, ctx);
}

Response handle_admin_user_delete(const Request &req, Ctx &ctx) {
    UserStore users(ctx.db);
    Principal user = user_or_404(users, req);
    if (user.admin)
        throw ApiError(403, Code::root_user_undeletable);
    users.remove(user.id);
    return message(200, Code::user_deleted, req, ctx);
}

} // namespace cms
