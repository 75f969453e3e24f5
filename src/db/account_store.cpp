// Account storage: CREATE DATABASE, CREATE USER, ALTER USER and GRANT. These take no ? for a name
// or a password, so names are checked to be plain identifiers and the password reaches the
// statement only as the hash the server computed from a bound parameter.
#include "db/account_store.h"

#include <stdexcept>
#include <vector>

#include "db/db.h"

namespace cms {

namespace {

constexpr const char *k_sql_password_hash = "SELECT PASSWORD(?)";
// Rights on every database (ALL, SUPER, CREATE USER, ...) or the right to grant: those of an
// administrator, never of the service. GRANTEE reads 'user'@'host'.
constexpr const char *k_sql_global_right =
    "SELECT CONCAT(PRIVILEGE_TYPE, ' ON *.*') FROM information_schema.USER_PRIVILEGES "
    "WHERE GRANTEE = ? AND (PRIVILEGE_TYPE <> 'USAGE' OR IS_GRANTABLE = 'YES') LIMIT 1";

// A right outside the service's database, one grant described: an account that holds one is
// some other application's (a shop's, say), which would lose its password to cms.env. Each takes
// the account ('user'@'host' for information_schema, user and host for mysql.*) and the database
// (by name, and as the escaped pattern grant_pattern writes; a grant of name with its _ as a
// wildcard counts as the database too), compared byte for byte: information_schema compares
// without case, but a schema name is a directory name, so SHOPDB is not shopdb. Any role
// granted counts, whatever it holds.
struct ForeignGrant {
    const char *sql;
    enum { grantee_and_database, user_and_host, user_host_and_database } binds;
};
const ForeignGrant k_foreign_grants[] = {
    {"SELECT CONCAT(PRIVILEGE_TYPE, ' ON `', TABLE_SCHEMA, '`.*') "
     "FROM information_schema.SCHEMA_PRIVILEGES "
     "WHERE GRANTEE = ? AND TABLE_SCHEMA <> ? COLLATE utf8mb4_bin "
     "AND TABLE_SCHEMA <> ? COLLATE utf8mb4_bin LIMIT 1",
     ForeignGrant::grantee_and_database},
    {"SELECT CONCAT(PRIVILEGE_TYPE, ' ON `', TABLE_SCHEMA, '`.`', TABLE_NAME, '`') "
     "FROM information_schema.TABLE_PRIVILEGES "
     "WHERE GRANTEE = ? AND TABLE_SCHEMA <> ? COLLATE utf8mb4_bin "
     "AND TABLE_SCHEMA <> ? COLLATE utf8mb4_bin LIMIT 1",
     ForeignGrant::grantee_and_database},
    {"SELECT CONCAT(PRIVILEGE_TYPE, ' (`', COLUMN_NAME, '`) ON `', TABLE_SCHEMA, '`.`', "
     "TABLE_NAME, '`') FROM information_schema.COLUMN_PRIVILEGES "
     "WHERE GRANTEE = ? AND TABLE_SCHEMA <> ? COLLATE utf8mb4_bin "
     "AND TABLE_SCHEMA <> ? COLLATE utf8mb4_bin LIMIT 1",
     ForeignGrant::grantee_and_database},
    {"SELECT CONCAT('role ''', Role, '''') FROM mysql.roles_mapping "
     "WHERE User = ? AND Host = ? LIMIT 1",
     ForeignGrant::user_and_host},
    {"SELECT CONCAT(UPPER(Proc_priv), ' ON ', Routine_type, ' `', Db, '`.`', Routine_name, '`') "
     "FROM mysql.procs_priv WHERE User = ? AND Host = ? AND Db <> ? AND Db <> ? LIMIT 1",
     ForeignGrant::user_host_and_database},
    {"SELECT CONCAT('PROXY ON ''', Proxied_user, '''@''', Proxied_host, '''') "
     "FROM mysql.proxies_priv WHERE User = ? AND Host = ? LIMIT 1",
     ForeignGrant::user_and_host},
};
// The same user name on another host: MariaDB gives a local login the most specific host, so a
// new user@localhost would take the local logins of user@'%' (or of user@'127.0.0.1'...).
constexpr const char *k_sql_same_name_elsewhere =
    "SELECT CONCAT('''', User, '''@''', Host, '''') FROM mysql.user "
    "WHERE User = ? AND Host <> ? LIMIT 1";

// Letters, digits, _ and $: what needs no quoting in an identifier, and cannot end a quoted one.
void check_name(const char *what, const std::string &name) {
    bool plain = !name.empty() && name.size() <= 64;
    for (char c : name)
        plain = plain && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '_' || c == '$');
    if (!plain)
        throw std::runtime_error(std::string("refusing to create ") + what + " '" + name +
                                 "': use letters, digits, _ and $ only");
}

// "*" and 40 upper-case hex digits (mysql_native_password), as PASSWORD() answers.
bool native_hash(const std::string &hash) {
    if (hash.size() != 41 || hash[0] != '*')
        return false;
    for (size_t i = 1; i < hash.size(); ++i)
        if (!((hash[i] >= '0' && hash[i] <= '9') || (hash[i] >= 'A' && hash[i] <= 'F')))
            return false;
    return true;
}

// name as a GRANT's database pattern that matches name only: there _ (and %) are wildcards, so
// `lin_cms`.* would also grant linXcms. check_name lets no % through.
std::string grant_pattern(const std::string &name) {
    std::string out;
    for (char c : name) {
        if (c == '_')
            out += '\\';
        out += c;
    }
    return out;
}

// The first column of the first row of sql run with params, or "" when there is none.
std::string first_text(db::Connection &db, const char *sql, const std::vector<db::Param> &params) {
    db::Statement &stmt = db.statement(sql).execute(params);
    std::string first;
    if (stmt.next())
        first = stmt.text(0);
    while (stmt.next()) {
    }
    return first;
}

} // namespace

std::string AccountStore::foreign_grant(const std::string &user, const std::string &host,
                                        const std::string &database) {
    std::string account = "'" + user + "'@'" + host + "'";
    std::string pattern = grant_pattern(database);
    for (const ForeignGrant &check : k_foreign_grants) {
        std::vector<db::Param> params;
        switch (check.binds) {
        case ForeignGrant::grantee_and_database:
            params = {account, database, pattern};
            break;
        case ForeignGrant::user_and_host:
            params = {user, host};
            break;
        case ForeignGrant::user_host_and_database:
            params = {user, host, database, pattern};
            break;
        }
        std::string grant = first_text(db_, check.sql, params);
        if (!grant.empty())
            return grant;
    }
    return {};
}

void AccountStore::create_database(const std::string &name) {
    check_name("database", name);
    db_.run_script("CREATE DATABASE IF NOT EXISTS `" + name +
                   "` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci");
}

void AccountStore::set_service_account(const std::string &user, const std::string &host,
                                       const std::string &password, const std::string &database) {
    check_name("account", user);
    check_name("account host", host);
    check_name("database", database);
    std::string account = "'" + user + "'@'" + host + "'";
    // The account's password is about to be one the service's host holds in cms.env: an
    // administrator's account (db_user = root, mysql, the --db-admin itself) would become the
    // service's with all its rights, and lose the unix_socket login it had.
    std::string global = first_text(db_, k_sql_global_right, {account});
    if (!global.empty())
        throw std::runtime_error("refusing to set the password of " + account +
                                 ": it has rights beyond one database (" + global +
                                 ", an administrator's account); give db_user an account of its "
                                 "own");
    // Another application's account: a new password would lock that application out, and hand
    // its data to whoever reads cms.env.
    std::string foreign = foreign_grant(user, host, database);
    if (!foreign.empty())
        throw std::runtime_error("refusing to set the password of " + account + ": it holds " +
                                 foreign + ", beyond database '" + database +
                                 "' (another application's account?); give db_user an account "
                                 "of its own");
    std::string other = first_text(db_, k_sql_same_name_elsewhere, {user, host});
    if (!other.empty())
        throw std::runtime_error("refusing to create " + account + ": the account " + other +
                                 " has that name, and " + account + " would take its logins "
                                 "from " + host + "; give db_user a name of its own");
    std::string hash = first_text(db_, k_sql_password_hash, {password});
    if (!native_hash(hash))
        throw std::runtime_error("the server's PASSWORD() answered no mysql_native_password hash");
    // ALTER as well: an account made before, without a password or with another, gets this one.
    db_.run_script("CREATE USER IF NOT EXISTS " + account + " IDENTIFIED BY PASSWORD '" + hash +
                   "'; ALTER USER " + account + " IDENTIFIED BY PASSWORD '" + hash +
                   "'; GRANT SELECT, INSERT, UPDATE, DELETE ON `" + grant_pattern(database) + "`.* TO " +
                   account);
}

} // namespace cms
