// JSON shapes of resources that several handler files send (doc/lin-cms.md §4, the shared shapes).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <json/json.h>

namespace cms {

struct Config;
struct Group;
struct PermissionRow;

// {id, name, info, level} with level as Lin CMS Spring sends it: "ROOT", "GUEST" or "USER".
Json::Value group_json(const Group &group);
Json::Value groups_json(const std::vector<Group> &groups);
// {id, name, module, mount}.
Json::Value permission_json(const PermissionRow &permission);
Json::Value permissions_json(const std::vector<PermissionRow> &permissions);
// An avatar as an absolute URL: a stored path is prefixed with file_public_url; null stays null.
Json::Value avatar_url(const std::optional<std::string> &avatar, const Config &config);
// {"<module>": [permission...]} as GET /cms/admin/permission sends it.
Json::Value permissions_by_module(const std::vector<PermissionRow> &permissions);

} // namespace cms
