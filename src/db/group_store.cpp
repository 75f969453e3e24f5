// Group storage: the SQL of lin_group and lin_user_group.
#include "db/group_store.h"

#include <mysqld_error.h>

#include "db/db.h"

namespace cms {

namespace {

constexpr const char *k_sql_select_group_by_id =
    "SELECT id, name, info, level FROM lin_group WHERE id = ? AND delete_time IS NULL";
constexpr const char *k_sql_lock_group_by_id =
    "SELECT id, name, info, level FROM lin_group WHERE id = ? AND delete_time IS NULL FOR UPDATE";
constexpr const char *k_sql_select_groups_but_root =
    "SELECT id, name, info, level FROM lin_group WHERE delete_time IS NULL AND level <> 1 "
    "ORDER BY id";
constexpr const char *k_sql_select_group_by_level =
    "SELECT id, name, info, level FROM lin_group WHERE level = ? AND delete_time IS NULL "
    "ORDER BY id LIMIT 1";
constexpr const char *k_sql_select_user_groups =
    "SELECT g.id, g.name, g.info, g.level FROM lin_group g "
    "JOIN lin_user_group ug ON ug.group_id = g.id "
    "WHERE ug.user_id = ? AND g.delete_time IS NULL ORDER BY g.id";
constexpr const char *k_sql_insert_group =
    "INSERT INTO lin_group (name, info, level) VALUES (?, ?, 3)";
constexpr const char *k_sql_insert_user_group =
    "INSERT INTO lin_user_group (user_id, group_id) VALUES (?, ?) "
    "ON DUPLICATE KEY UPDATE group_id = group_id";

constexpr const char *k_sql_count_groups = "SELECT COUNT(*) FROM lin_group WHERE delete_time IS NULL";
constexpr const char *k_sql_select_group_page =
    "SELECT id, name, info, level FROM lin_group WHERE delete_time IS NULL ORDER BY id "
    "LIMIT ? OFFSET ?";
constexpr const char *k_sql_update_group =
    "UPDATE lin_group SET name = ?, info = COALESCE(?, info) WHERE id = ? AND delete_time IS NULL";
constexpr const char *k_sql_delete_group =
    "UPDATE lin_group SET delete_time = CURRENT_TIMESTAMP(3) WHERE id = ? AND delete_time IS NULL";
constexpr const char *k_sql_group_has_users =
    "SELECT 1 FROM lin_user_group ug JOIN lin_user u ON u.id = ug.user_id "
    "WHERE ug.group_id = ? AND u.delete_time IS NULL LIMIT 1";

Group read_group(const db::Statement &row) {
    return Group{row.integer(0), row.text(1), row.optional_text(2),
                 static_cast<int>(row.integer(3))};
}

std::vector<Group> read_groups(db::Statement &stmt) {
    std::vector<Group> groups;
    while (stmt.next())
        groups.push_back(read_group(stmt));
    return groups;
}

} // namespace

std::optional<Group> GroupStore::find(int64_t id) {
    db::Statement &stmt = db_.statement(k_sql_select_group_by_id).execute({id});
    if (!stmt.next())
        return std::nullopt;
    return read_group(stmt);
}

std::optional<Group> GroupStore::lock(int64_t id) {
    db::Statement &stmt = db_.statement(k_sql_lock_group_by_id).execute({id});
    if (!stmt.next())
        return std::nullopt;
    return read_group(stmt);
}

Membership GroupStore::lock_for_members(const std::vector<int64_t> &group_ids) {
    for (int64_t id : group_ids) {
        std::optional<Group> group = lock(id);
        if (!group)
            return Membership::missing;
        if (group->level == k_level_root)
            return Membership::root_group;
    }
    return Membership::ok;
}

std::vector<Group> GroupStore::all_but_root() {
    return read_groups(db_.statement(k_sql_select_groups_but_root).execute({}));
}

std::optional<Group> GroupStore::by_level(int level) {
    db::Statement &stmt = db_.statement(k_sql_select_group_by_level).execute({level});
    if (!stmt.next())
        return std::nullopt;
    return read_group(stmt);
}

std::vector<Group> GroupStore::of_user(int64_t user_id) {
    return read_groups(db_.statement(k_sql_select_user_groups).execute({user_id}));
}

std::optional<int64_t> GroupStore::insert(const std::string &name,
                                          const std::optional<std::string> &info) {
    try {
        return static_cast<int64_t>(
            db_.statement(k_sql_insert_group).execute({name, info}).insert_id());
    } catch (const db::DbError &e) {
        // The live-name unique key (sql/migrations/0001) is the arbiter, also between two workers.
        if (e.errnum == ER_DUP_ENTRY)
            return std::nullopt;
        throw;
    }
}

void GroupStore::add_user(int64_t user_id, const std::vector<int64_t> &group_ids) {
    for (int64_t group_id : group_ids)
        db_.statement(k_sql_insert_user_group).execute({user_id, group_id});
}


std::vector<Group> GroupStore::page(int64_t page, int64_t count, int64_t &total) {
    total = db_.statement(k_sql_count_groups).execute({}).scalar();
    return read_groups(db_.statement(k_sql_select_group_page).execute({count, page * count}));
}

bool GroupStore::update(int64_t id, const std::string &name,
                        const std::optional<std::string> &info) {
    try {
        db_.statement(k_sql_update_group).execute({name, info, id});
    } catch (const db::DbError &e) {
        if (e.errnum == ER_DUP_ENTRY)
            return false;
        throw;
    }
    return true;
}

void GroupStore::remove(int64_t id) { db_.statement(k_sql_delete_group).execute({id}); }

bool GroupStore::has_users(int64_t id) {
    return db_.statement(k_sql_group_has_users).execute({id}).next();
}

} // namespace cms
