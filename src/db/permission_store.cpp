// Permission storage: the SQL of lin_permission and lin_group_permission.
#include "db/permission_store.h"

#include <algorithm>
#include <cstring>

#include "base/log.h"
#include "db/db.h"

namespace cms {

namespace {

// Waits at most 1 s, well below db_read_timeout: registering takes milliseconds, and a worker that
// cannot get the lock registers anyway (each statement is idempotent).
constexpr const char *k_sql_lock_registry = "SELECT GET_LOCK('cms_permission_registry', 1)";
constexpr const char *k_sql_unlock_registry = "SELECT RELEASE_LOCK('cms_permission_registry')";
constexpr const char *k_sql_insert_permission =
    "INSERT INTO lin_permission (name, module, mount) VALUES (?, ?, 1) "
    "ON DUPLICATE KEY UPDATE mount = 1";
constexpr const char *k_sql_select_all_permissions =
    "SELECT id, name, module, mount FROM lin_permission WHERE delete_time IS NULL";
constexpr const char *k_sql_unmount_permission = "UPDATE lin_permission SET mount = 0 WHERE id = ?";
constexpr const char *k_sql_select_mounted =
    "SELECT id, name, module, mount FROM lin_permission "
    "WHERE delete_time IS NULL AND mount = 1 ORDER BY module, id";
constexpr const char *k_sql_select_mounted_by_id =
    "SELECT id FROM lin_permission WHERE id = ? AND delete_time IS NULL AND mount = 1";
constexpr const char *k_sql_select_group_permissions =
    "SELECT p.id, p.name, p.module, p.mount FROM lin_permission p "
    "JOIN lin_group_permission gp ON gp.permission_id = p.id "
    "WHERE gp.group_id = ? AND p.delete_time IS NULL AND p.mount = 1 ORDER BY p.module, p.id";
constexpr const char *k_sql_select_user_permissions =
    "SELECT DISTINCT p.id, p.name, p.module, p.mount FROM lin_permission p "
    "JOIN lin_group_permission gp ON gp.permission_id = p.id "
    "JOIN lin_group g ON g.id = gp.group_id "
    "JOIN lin_user_group ug ON ug.group_id = g.id "
    "WHERE ug.user_id = ? AND g.delete_time IS NULL AND p.delete_time IS NULL AND p.mount = 1 "
    "ORDER BY p.module, p.id";
constexpr const char *k_sql_user_has_permission =
    "SELECT 1 FROM lin_permission p "
    "JOIN lin_group_permission gp ON gp.permission_id = p.id "
    "JOIN lin_group g ON g.id = gp.group_id "
    "JOIN lin_user_group ug ON ug.group_id = g.id "
    "WHERE ug.user_id = ? AND p.module = ? AND p.name = ? "
    "AND g.delete_time IS NULL AND p.delete_time IS NULL AND p.mount = 1 LIMIT 1";
constexpr const char *k_sql_grant_permission =
    "INSERT INTO lin_group_permission (group_id, permission_id) VALUES (?, ?) "
    "ON DUPLICATE KEY UPDATE group_id = group_id";
constexpr const char *k_sql_revoke_permission =
    "DELETE FROM lin_group_permission WHERE group_id = ? AND permission_id = ?";

std::vector<PermissionRow> read_permissions(db::Statement &stmt) {
    std::vector<PermissionRow> rows;
    while (stmt.next())
        rows.push_back({stmt.integer(0), stmt.text(1), stmt.text(2), stmt.integer(3) != 0});
    return rows;
}

bool declares(const std::vector<Permission> &declared, const PermissionRow &row) {
    return std::any_of(declared.begin(), declared.end(), [&](const Permission &p) {
        return row.module == p.module && row.name == p.name;
    });
}

// Whether the row's module is one of modules.
bool of(const std::vector<std::string> &modules, const PermissionRow &row) {
    return std::find(modules.begin(), modules.end(), row.module) != modules.end();
}

// Whether the live rows say what declared says: each declared permission mounted, no other one
// of the modules that mine says are the caller's.
template <typename Mine>
bool registry_matches(const std::vector<PermissionRow> &rows,
                      const std::vector<Permission> &declared, Mine mine) {
    for (const Permission &p : declared) {
        bool mounted = std::any_of(rows.begin(), rows.end(), [&](const PermissionRow &row) {
            return row.mount && row.module == p.module && row.name == p.name;
        });
        if (!mounted)
            return false;
    }
    return std::none_of(rows.begin(), rows.end(), [&](const PermissionRow &row) {
        return row.mount && mine(row) && !declares(declared, row);
    });
}

// Holds the registry's named lock for its lifetime; released on every way out.
class RegistryLock {
  public:
    explicit RegistryLock(db::Connection &db) : db_(db) {
        db::Statement &lock = db_.statement(k_sql_lock_registry).execute({});
        if (!lock.next() || lock.integer(0) != 1)
            log_warn("permission registry lock not taken; registering anyway");
    }
    ~RegistryLock() {
        // A connection that is gone took its named locks with it; reconnecting here would
        // register again from inside this destructor.
        if (!db_.connected())
            return;
        try {
            db_.statement(k_sql_unlock_registry).execute({}).next();
        } catch (const db::DbError &) {
            // Lost just now: the server released the lock with the connection.
        }
    }
    RegistryLock(const RegistryLock &) = delete;
    RegistryLock &operator=(const RegistryLock &) = delete;

  private:
    db::Connection &db_;
};

} // namespace

template <typename Mine>
void PermissionStore::register_where(const std::vector<Permission> &declared, Mine mine) {
    // Usually nothing changed since the last connect: one read, and no lock and no write (a CGI
    // request connects every time).
    if (registry_matches(read_permissions(db_.statement(k_sql_select_all_permissions).execute({})),
                         declared, mine))
        return;
    RegistryLock lock(db_);
    for (const Permission &p : declared)
        db_.statement(k_sql_insert_permission).execute({p.name, p.module});
    for (const PermissionRow &row : read_permissions(
             db_.statement(k_sql_select_all_permissions).execute({}))) {
        if (row.mount && mine(row) && !declares(declared, row))
            db_.statement(k_sql_unmount_permission).execute({row.id});
    }
}

void PermissionStore::register_declared(const std::vector<Permission> &declared,
                                        const std::vector<std::string> &elsewhere) {
    register_where(declared, [&](const PermissionRow &row) { return !of(elsewhere, row); });
}

void PermissionStore::register_modules(const std::vector<Permission> &declared,
                                       const std::vector<std::string> &only) {
    register_where(declared, [&](const PermissionRow &row) { return of(only, row); });
}

std::vector<PermissionRow> PermissionStore::mounted() {
    return read_permissions(db_.statement(k_sql_select_mounted).execute({}));
}

std::vector<int64_t> PermissionStore::existing(const std::vector<int64_t> &ids) {
    std::vector<int64_t> found;
    for (int64_t id : ids)
        if (db_.statement(k_sql_select_mounted_by_id).execute({id}).next())
            found.push_back(id);
    return found;
}

std::vector<PermissionRow> PermissionStore::of_group(int64_t group_id) {
    return read_permissions(db_.statement(k_sql_select_group_permissions).execute({group_id}));
}

std::vector<PermissionRow> PermissionStore::of_user(int64_t user_id) {
    return read_permissions(db_.statement(k_sql_select_user_permissions).execute({user_id}));
}

bool PermissionStore::user_has(int64_t user_id, const char *module, const char *name) {
    return db_.statement(k_sql_user_has_permission).execute({user_id, module, name}).next();
}

void PermissionStore::grant(int64_t group_id, const std::vector<int64_t> &ids) {
    for (int64_t id : ids)
        db_.statement(k_sql_grant_permission).execute({group_id, id});
}

void PermissionStore::revoke(int64_t group_id, const std::vector<int64_t> &ids) {
    for (int64_t id : ids)
        db_.statement(k_sql_revoke_permission).execute({group_id, id});
}

} // namespace cms
