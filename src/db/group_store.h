// Group storage: lin_group and the user ↔ group links. Live groups only; no HTTP here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cms {

namespace db {
class Connection;
}

// Levels of doc/lin-cms.md §5.2.
constexpr int k_level_root = 1;
constexpr int k_level_guest = 2;
constexpr int k_level_user = 3;

// Whether groups can receive users (doc/lin-cms.md §5.2: not the root group, and only live groups).
enum class Membership { ok, root_group, missing };

struct Group {
    int64_t id = 0;
    std::string name;
    std::optional<std::string> info;
    int level = k_level_user;
};

class GroupStore {
  public:
    explicit GroupStore(db::Connection &db) : db_(db) {}

    std::optional<Group> find(int64_t id);
    // find(), with the group row locked until the transaction ends: a membership change and the
    // group's deletion cannot both pass their checks. Call inside a transaction.
    std::optional<Group> lock(int64_t id);
    // Every live group except the root group, by id.
    std::vector<Group> all_but_root();
    // The live group of a level (root or guest).
    std::optional<Group> by_level(int level);
    // Live groups of the user, by id.
    std::vector<Group> of_user(int64_t user_id);
    // Inserts a user-level group; nullopt when a live group already has the name.
    std::optional<int64_t> insert(const std::string &name, const std::optional<std::string> &info);
    // Locks each group (as lock()) and says whether all can receive users; the first group that
    // cannot decides. Call inside a transaction.
    Membership lock_for_members(const std::vector<int64_t> &group_ids);
    // Links the user to each group (existing links left alone).
    void add_user(int64_t user_id, const std::vector<int64_t> &group_ids);
    // A page of live groups (root included), by id; total counts them all.
    std::vector<Group> page(int64_t page, int64_t count, int64_t &total);
    // Renames the live group; info absent leaves it unchanged. false when the name is taken.
    bool update(int64_t id, const std::string &name, const std::optional<std::string> &info);
    // Soft delete of a live group.
    void remove(int64_t id);
    // Whether a live user is linked to the group.
    bool has_users(int64_t id);

  private:
    db::Connection &db_;
};

} // namespace cms
