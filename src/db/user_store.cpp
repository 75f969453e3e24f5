// User storage: the SQL of lin_user and lin_user_identity.
#include "db/user_store.h"

#include <mysqld_error.h>

#include "db/db.h"
#include "db/group_store.h"

namespace cms {

namespace {

constexpr const char *k_sql_select_principal =
    "SELECT u.id, u.username, u.nickname, u.avatar, u.email, u.credential_version, "
    "EXISTS (SELECT 1 FROM lin_user_group ug JOIN lin_group g ON g.id = ug.group_id "
    "WHERE ug.user_id = u.id AND g.level = 1 AND g.delete_time IS NULL) "
    "FROM lin_user u WHERE u.id = ? AND u.delete_time IS NULL";
constexpr const char *k_sql_select_login =
    "SELECT u.id, i.id, i.credential, u.credential_version FROM lin_user u "
    "JOIN lin_user_identity i ON i.user_id = u.id "
    "WHERE u.username = ? AND u.delete_time IS NULL AND i.delete_time IS NULL "
    "AND i.identity_type = 'USERNAME_PASSWORD' ORDER BY i.id LIMIT 1";
constexpr const char *k_sql_lock_credential_version =
    "SELECT credential_version FROM lin_user WHERE id = ? AND delete_time IS NULL FOR UPDATE";
constexpr const char *k_sql_update_identity_credential =
    "UPDATE lin_user_identity SET credential = ? WHERE id = ? AND credential = ?";
constexpr const char *k_sql_update_user_credentials =
    "UPDATE lin_user_identity SET credential = ? "
    "WHERE user_id = ? AND identity_type = 'USERNAME_PASSWORD' AND delete_time IS NULL";
constexpr const char *k_sql_bump_credential_version =
    "UPDATE lin_user SET credential_version = credential_version + 1 "
    "WHERE id = ? AND delete_time IS NULL";
constexpr const char *k_sql_select_username =
    "SELECT 1 FROM lin_user WHERE username = ? AND delete_time IS NULL";
constexpr const char *k_sql_select_email =
    "SELECT 1 FROM lin_user WHERE email = ? AND delete_time IS NULL";
constexpr const char *k_sql_insert_user = "INSERT INTO lin_user (username, email) VALUES (?, ?)";
constexpr const char *k_sql_insert_identity =
    "INSERT INTO lin_user_identity (user_id, identity_type, identifier, credential) "
    "VALUES (?, 'USERNAME_PASSWORD', ?, ?)";

constexpr const char *k_sql_count_users =
    "SELECT COUNT(*) FROM lin_user u WHERE u.delete_time IS NULL "
    "AND NOT EXISTS (SELECT 1 FROM lin_user_group r JOIN lin_group g ON g.id = r.group_id "
    "WHERE r.user_id = u.id AND g.level = 1 AND g.delete_time IS NULL) "
    "AND (? IS NULL OR EXISTS (SELECT 1 FROM lin_user_group m WHERE m.user_id = u.id "
    "AND m.group_id = ?))";
constexpr const char *k_sql_select_user_page =
    "SELECT u.id, u.username, u.nickname, u.avatar, u.email FROM lin_user u "
    "WHERE u.delete_time IS NULL "
    "AND NOT EXISTS (SELECT 1 FROM lin_user_group r JOIN lin_group g ON g.id = r.group_id "
    "WHERE r.user_id = u.id AND g.level = 1 AND g.delete_time IS NULL) "
    "AND (? IS NULL OR EXISTS (SELECT 1 FROM lin_user_group m WHERE m.user_id = u.id "
    "AND m.group_id = ?)) ORDER BY u.id LIMIT ? OFFSET ?";
constexpr const char *k_sql_update_profile =
    "UPDATE lin_user SET username = COALESCE(?, username), nickname = COALESCE(?, nickname), "
    "avatar = COALESCE(?, avatar), email = COALESCE(?, email) "
    "WHERE id = ? AND delete_time IS NULL";
constexpr const char *k_sql_update_identifier =
    "UPDATE lin_user_identity SET identifier = ? "
    "WHERE user_id = ? AND identity_type = 'USERNAME_PASSWORD' AND delete_time IS NULL";
constexpr const char *k_sql_select_username_of_other =
    "SELECT 1 FROM lin_user WHERE username = ? AND id <> ? AND delete_time IS NULL";
constexpr const char *k_sql_select_email_of_other =
    "SELECT 1 FROM lin_user WHERE email = ? AND id <> ? AND delete_time IS NULL";
constexpr const char *k_sql_delete_user =
    "UPDATE lin_user SET delete_time = CURRENT_TIMESTAMP(3), "
    "credential_version = credential_version + 1 WHERE id = ? AND delete_time IS NULL";
constexpr const char *k_sql_delete_identities =
    "UPDATE lin_user_identity SET delete_time = CURRENT_TIMESTAMP(3) "
    "WHERE user_id = ? AND delete_time IS NULL";
constexpr const char *k_sql_delete_user_groups = "DELETE FROM lin_user_group WHERE user_id = ?";

// Which live unique key a duplicate entry hit: the server names it in the error ("for key
// 'email_live'"). A re-read would not tell: the transaction still sees its first snapshot.
UserWrite duplicate_of(const db::DbError &e) {
    return std::string(e.what()).find("'email_live'") != std::string::npos
               ? UserWrite::email_taken
               : UserWrite::username_taken;
}

} // namespace

std::optional<Principal> UserStore::find_principal(int64_t id) {
    db::Statement &row = db_.statement(k_sql_select_principal).execute({id});
    if (!row.next())
        return std::nullopt;
    return Principal{row.integer(0),       row.text(1),    row.optional_text(2),
                     row.optional_text(3), row.optional_text(4), row.integer(5),
                     row.integer(6) != 0};
}

std::optional<LoginIdentity> UserStore::find_login(const std::string &username) {
    db::Statement &row = db_.statement(k_sql_select_login).execute({username});
    if (!row.next())
        return std::nullopt;
    return LoginIdentity{row.integer(0), row.integer(1), row.text(2), row.integer(3)};
}

std::optional<int64_t> UserStore::lock_credential_version(int64_t user_id) {
    db::Statement &row = db_.statement(k_sql_lock_credential_version).execute({user_id});
    if (!row.next())
        return std::nullopt;
    return row.integer(0);
}

void UserStore::rehash(int64_t identity_id, const std::string &old_credential,
                       const std::string &credential) {
    db_.statement(k_sql_update_identity_credential)
        .execute({credential, identity_id, old_credential});
}

bool UserStore::set_password(int64_t user_id, const std::string &credential) {
    if (db_.statement(k_sql_bump_credential_version).execute({user_id}).affected_rows() != 1)
        return false;
    db_.statement(k_sql_update_user_credentials).execute({credential, user_id});
    return true;
}

bool UserStore::username_taken(const std::string &username) {
    return db_.statement(k_sql_select_username).execute({username}).next();
}

bool UserStore::email_taken(const std::string &email) {
    return db_.statement(k_sql_select_email).execute({email}).next();
}

UserWrite UserStore::insert(const NewUser &user, int64_t &id) {
    try {
        id = static_cast<int64_t>(
            db_.statement(k_sql_insert_user).execute({user.username, user.email}).insert_id());
    } catch (const db::DbError &e) {
        if (e.errnum == ER_DUP_ENTRY)
            return duplicate_of(e);
        throw;
    }
    db_.statement(k_sql_insert_identity).execute({id, user.username, user.credential});
    return UserWrite::ok;
}

std::vector<UserRow> UserStore::page(std::optional<int64_t> group_id, int64_t page, int64_t count,
                                     int64_t &total) {
    db::Param group = group_id ? db::Param(*group_id) : db::Param(nullptr);
    total = db_.statement(k_sql_count_users).execute({group, group}).scalar();
    db::Statement &rows =
        db_.statement(k_sql_select_user_page).execute({group, group, count, page * count});
    std::vector<UserRow> users;
    while (rows.next())
        users.push_back({rows.integer(0), rows.text(1), rows.optional_text(2),
                         rows.optional_text(3), rows.optional_text(4)});
    return users;
}

UserWrite UserStore::update_profile(int64_t user_id, const ProfileChange &c) {
    if (c.username &&
        db_.statement(k_sql_select_username_of_other).execute({*c.username, user_id}).next())
        return UserWrite::username_taken;
    if (c.email && db_.statement(k_sql_select_email_of_other).execute({*c.email, user_id}).next())
        return UserWrite::email_taken;
    try {
        db_.statement(k_sql_update_profile)
            .execute({c.username, c.nickname, c.avatar, c.email, user_id});
    } catch (const db::DbError &e) {
        // Another worker took the name or email between the check and the update.
        if (e.errnum == ER_DUP_ENTRY)
            return duplicate_of(e);
        throw;
    }
    if (c.username)
        db_.statement(k_sql_update_identifier).execute({*c.username, user_id});
    return UserWrite::ok;
}

bool UserStore::remove(int64_t user_id) {
    if (db_.statement(k_sql_delete_user).execute({user_id}).affected_rows() != 1)
        return false;
    db_.statement(k_sql_delete_identities).execute({user_id});
    db_.statement(k_sql_delete_user_groups).execute({user_id});
    return true;
}

void UserStore::set_groups(int64_t user_id, const std::vector<int64_t> &group_ids) {
    db_.statement(k_sql_delete_user_groups).execute({user_id});
    GroupStore(db_).add_user(user_id, group_ids);
}

} // namespace cms
