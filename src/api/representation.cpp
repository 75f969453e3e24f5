// JSON shapes of groups and permissions.
#include "api/representation.h"

#include "base/config.h"
#include "db/group_store.h"
#include "db/permission_store.h"
#include "http/handler_util.h"

namespace cms {

Json::Value group_json(const Group &group) {
    Json::Value out(Json::objectValue);
    out["id"] = static_cast<Json::Int64>(group.id);
    out["name"] = group.name;
    out["info"] = nullable(group.info);
    out["level"] = group.level == k_level_root    ? "ROOT"
                   : group.level == k_level_guest ? "GUEST"
                                                  : "USER";
    return out;
}

Json::Value groups_json(const std::vector<Group> &groups) {
    Json::Value out(Json::arrayValue);
    for (const Group &group : groups)
        out.append(group_json(group));
    return out;
}

Json::Value permission_json(const PermissionRow &permission) {
    Json::Value out(Json::objectValue);
    out["id"] = static_cast<Json::Int64>(permission.id);
    out["name"] = permission.name;
    out["module"] = permission.module;
    out["mount"] = permission.mount;
    return out;
}

Json::Value permissions_json(const std::vector<PermissionRow> &permissions) {
    Json::Value out(Json::arrayValue);
    for (const PermissionRow &permission : permissions)
        out.append(permission_json(permission));
    return out;
}

Json::Value avatar_url(const std::optional<std::string> &avatar, const Config &config) {
    if (!avatar || avatar->empty())
        return nullable(avatar);
    if (avatar->rfind("http://", 0) == 0 || avatar->rfind("https://", 0) == 0)
        return *avatar;
    return config.file_public_url + *avatar;
}

Json::Value permissions_by_module(const std::vector<PermissionRow> &permissions) {
    Json::Value out(Json::objectValue);
    for (const PermissionRow &permission : permissions) {
        Json::Value &list = out[permission.module];
        if (list.isNull())
            list = Json::Value(Json::arrayValue);
        list.append(permission_json(permission));
    }
    return out;
}

} // namespace cms
