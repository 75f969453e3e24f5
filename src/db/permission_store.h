// Permission storage: the registry of (module, name) pairs, group grants and the per-user check.
// Live rows only; nothing here knows about HTTP.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cms {

namespace db {
class Connection;
}

// A permission the service declares in its route table, registers and checks: (module, name), e.g. (图书, 删除图书).
struct Permission {
    const char *module = nullptr;
    const char *name = nullptr;
};

struct PermissionRow {
    int64_t id = 0;
    std::string name;
    std::string module;
    bool mount = true;
};

class PermissionStore {
  public:
    explicit PermissionStore(db::Connection &db) : db_(db) {}

    // Makes the mounted rows exactly the declared permissions: missing ones are inserted,
    // others unmounted (never deleted), but for those of the modules in elsewhere, which another
    // party mounts and unmounts (the collections' labels: --setup-db's apply). Serialised across
    // workers by a named lock.
    void register_declared(const std::vector<Permission> &declared,
                           const std::vector<std::string> &elsewhere = {});
    // The same for the modules of only: declared mounted, the others of those modules unmounted,
    // nothing of another module touched.
    void register_modules(const std::vector<Permission> &declared,
                          const std::vector<std::string> &only);
    // Mounted permissions, by module then id.
    std::vector<PermissionRow> mounted();
    // The ids among ids that are live, mounted permissions.
    std::vector<int64_t> existing(const std::vector<int64_t> &ids);
    // Mounted permissions granted to the group.
    std::vector<PermissionRow> of_group(int64_t group_id);
    // Mounted permissions granted to any live group of the user.
    std::vector<PermissionRow> of_user(int64_t user_id);
    // Whether a live group of the user holds the mounted permission (module, name).
    bool user_has(int64_t user_id, const char *module, const char *name);
    // Grants ids to the group; ones already granted are left alone (no duplicate rows).
    void grant(int64_t group_id, const std::vector<int64_t> &ids);
    // Revokes ids from the group.
    void revoke(int64_t group_id, const std::vector<int64_t> &ids);

  private:
    // Mounts declared and unmounts the other rows for which mine(row) holds.
    template <typename Mine>
    void register_where(const std::vector<Permission> &declared, Mine mine);

    db::Connection &db_;
};

} // namespace cms
