// Admin routes on groups and permissions: the root/guest/has-users rules, grants and revocations
// checked against live groups and mounted permissions, each change logged in its transaction.
#include "api/admin_handlers.h"

#include "api/representation.h"
#include "base/errors.h"
#include "db/db.h"
#include "db/group_store.h"
#include "db/permission_store.h"
#include "http/context.h"
#include "http/handler_util.h"
#include "http/request.h"
#include "http/response.h"
#include "http/validate.h"

namespace cms {

namespace {

// The group of a path id, or 404/10024.
Group group_or_404(GroupStore &groups, int64_t id) {
    std::optional<Group> group = groups.find(id);
    if (!group)
        throw ApiError(404, Code::group_not_found);
    return *group;
}

// Throws 404 unless every id names a live, mounted permission.
void require_permissions(PermissionStore &permissions, const std::vector<int64_t> &ids) {
    if (permissions.existing(ids).size() != ids.size())
        throw ApiError(404, Code::permission_not_found);
}

// The required group_id of a permission body.
int64_t group_id_member(const Json::Value &body, validate::Problems &problems) {
    return validate::required_id_member(body, "group_id", FieldText::group_id_positive,
                                        FieldText::group_id_not_null, problems);
}

// {group_id, permission_ids} of dispatch/batch and remove: both required, ids non-empty.
struct GroupPermissions {
    int64_t group_id = 0;
    std::vector<int64_t> permission_ids;
};

GroupPermissions group_permissions_body(const Request &req, Ctx &ctx) {
    Json::Value body = parse_json_body(req, ctx);
    validate::Problems problems;
    int64_t group_id = group_id_member(body, problems);
    std::optional<std::vector<int64_t>> ids = validate::id_list_member(
        body, "permission_ids", FieldText::permission_id_positive, problems);
    if (!ids || ids->empty())
        problems.add("permission_ids", FieldText::permission_ids_not_empty);
    problems.check();
    return {group_id, *ids};
}

// name (required, 1..60) and info (optional, at most 255) of a group body.
struct GroupFields {
    std::string name;
    std::optional<std::string> info;
};

GroupFields group_fields(const Json::Value &body, validate::Problems &problems) {
    GroupFields f;
    f.name = validate::required_text(body, "name", 60, FieldText::group_name_not_blank,
                                     FieldText::group_name_length, problems);
    f.info = validate::optional_text(body, "info", 255, FieldText::group_info_length, problems);
    return f;
}

// Grants ids to the group after checking both exist.
void grant_checked(Ctx &ctx, int64_t group_id, const std::vector<int64_t> &ids) {
    GroupStore groups(ctx.db);
    PermissionStore permissions(ctx.db);
    group_or_404(groups, group_id);
    require_permissions(permissions, ids);
    permissions.grant(group_id, ids);
}

} // namespace

Response handle_admin_group_page(const Request &req, Ctx &ctx) {
    validate::Page page = validate::page_query(req);
    int64_t total = 0;
    std::vector<Group> groups = GroupStore(ctx.db).page(page.page, page.count, total);
    return Response::json(200, page_json(groups_json(groups), total, page));
}

Response handle_admin_group_update(const Request &req, Ctx &ctx) {
    int64_t id = validate::path_id(req.params.at(0));
    Json::Value body = parse_json_body(req, ctx);
    validate::Problems problems;
    GroupFields f = group_fields(body, problems);
    problems.check();
    GroupStore groups(ctx.db);
    group_or_404(groups, id);
    if (!groups.update(id, f.name, f.info))
        throw ApiError(409, Code::group_name_taken);
    return message(200, Code::group_updated, req, ctx);
}

Response handle_admin_group_delete(const Request &req, Ctx &ctx) {
    int64_t id = validate::path_id(req.params.at(0));
    GroupStore groups(ctx.db);
    // Locked: a user added to the group concurrently waits, and then finds it deleted.
    std::optional<Group> locked = groups.lock(id);
    if (!locked)
        throw ApiError(404, Code::group_not_found);
    const Group &group = *locked;
    if (group.level == k_level_root)
        throw ApiError(403, Code::root_group_undeletable);
    if (group.level == k_level_guest)
        throw ApiError(403, Code::guest_group_undeletable);
    if (groups.has_users(id))
        throw ApiError(409, Code::group_has_users);
    groups.remove(id);
    return message(200, Code::group_deleted, req, ctx);
}

Response handle_admin_group_all(const Request &, Ctx &ctx) {
    return Response::json(200, groups_json(GroupStore(ctx.db).all_but_root()));
}

Response handle_admin_group_get(const Request &req, Ctx &ctx) {
    GroupStore groups(ctx.db);
    Group group = group_or_404(groups, validate::path_id(req.params.at(0)));
    Json::Value out(Json::objectValue);
    out["id"] = static_cast<Json::Int64>(group.id);
    out["name"] = group.name;
    out["info"] = nullable(group.info);
    out["permissions"] = permissions_json(PermissionStore(ctx.db).of_group(group.id));
    return Response::json(200, out);
}

Response handle_admin_group_create(const Request &req, Ctx &ctx) {
    Json::Value body = parse_json_body(req, ctx);
    validate::Problems problems;
    GroupFields f = group_fields(body, problems);
    std::vector<int64_t> permission_ids =
        validate::id_list_member(body, "permission_ids", FieldText::permission_id_positive, problems)
            .value_or(std::vector<int64_t>());
    problems.check();
    PermissionStore permissions(ctx.db);
    require_permissions(permissions, permission_ids);
    std::optional<int64_t> id = GroupStore(ctx.db).insert(f.name, f.info);
    if (!id)
        throw ApiError(409, Code::group_name_taken);
    permissions.grant(*id, permission_ids);
    return message(201, Code::group_created, req, ctx);
}

Response handle_admin_permission_list(const Request &, Ctx &ctx) {
    return Response::json(200, permissions_by_module(PermissionStore(ctx.db).mounted()));
}

Response handle_admin_permission_dispatch_batch(const Request &req, Ctx &ctx) {
    GroupPermissions input = group_permissions_body(req, ctx);
    grant_checked(ctx, input.group_id, input.permission_ids);
    return message(201, Code::permissions_granted, req, ctx);
}

Response handle_admin_permission_dispatch(const Request &req, Ctx &ctx) {
    Json::Value body = parse_json_body(req, ctx);
    validate::Problems problems;
    int64_t group_id = group_id_member(body, problems);
    int64_t permission_id =
        validate::required_id_member(body, "permission_id", FieldText::permission_id_positive,
                                     FieldText::permission_id_not_null, problems);
    problems.check();
    grant_checked(ctx, group_id, {permission_id});
    return message(201, Code::permissions_granted, req, ctx);
}

Response handle_admin_permission_remove(const Request &req, Ctx &ctx) {
    GroupPermissions input = group_permissions_body(req, ctx);
    GroupStore groups(ctx.db);
    PermissionStore permissions(ctx.db);
    group_or_404(groups, input.group_id);
    require_permissions(permissions, input.permission_ids);
    permissions.revoke(input.group_id, input.permission_ids);
    return message(200, Code::permissions_removed, req, ctx);
}

} // namespace cms
