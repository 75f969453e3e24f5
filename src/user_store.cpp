// User storage: the SQL of lin_user and lin_user_identity.
#include "user_store.h"

#include <mysqld_error.h>

#include "db.h"

namespace cms {

namespace {

constexpr const char *k_sql_select_principal =
    "SELECT u.id, u.username, u.nickname, u.avatar, u.email, u.credential_version, "
    "EXISTS (SELECT 1 FROM lin_user_group ug JOIN lin_group g ON g.id = ug.group_id "
    "WHERE ug.user_id = u.id AND g.level = 1 AND g.delete_time IS NULL) "
    "FROM lin_user u WHERE u.id = ? AND u.delete_time IS NULL";
constexpr const char *k_sql_select_login =
    "SELECT u.id, i.id, i.credential FROM lin_user u "
    "JOIN lin_user_identity i ON i.user_id = u.id "
    "WHERE u.username = ? AND u.delete_time IS NULL AND i.delete_time IS NULL "
    "AND i.identity_type = 'USERNAME_PASSWORD' ORDER BY i.id LIMIT 1";
constexpr const char *k_sql_update_identity_credential =
    "UPDATE lin_user_identity SET credential = ? WHERE id = ?";
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
    return LoginIdentity{row.integer(0), row.integer(1), row.text(2)};
}

void UserStore::rehash(int64_t identity_id, const std::string &credential) {
    db_.statement(k_sql_update_identity_credential).execute({credential, identity_id});
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

std::optional<int64_t> UserStore::insert(const NewUser &user) {
    int64_t id;
    try {
        id = static_cast<int64_t>(
            db_.statement(k_sql_insert_user).execute({user.username, user.email}).insert_id());
    } catch (const db::DbError &e) {
        if (e.errnum == ER_DUP_ENTRY)
            return std::nullopt;
        throw;
    }
    db_.statement(k_sql_insert_identity).execute({id, user.username, user.credential});
    return id;
}

} // namespace cms
