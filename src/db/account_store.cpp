// Account storage: CREATE DATABASE, CREATE USER, ALTER USER and GRANT. These take no ? for a name
// or a password, so names are checked to be plain identifiers and the password reaches the
// statement only as the hash the server computed from a bound parameter.
#include "db/account_store.h"

#include <stdexcept>

#include "db/db.h"

namespace cms {

namespace {

constexpr const char *k_sql_password_hash = "SELECT PASSWORD(?)";
// Rights on every database (ALL, SUPER, CREATE USER, ...) or the right to grant: those of an
// administrator, never of the service. GRANTEE reads 'user'@'host'.
constexpr const char *k_sql_count_global_rights =
    "SELECT COUNT(*) FROM information_schema.USER_PRIVILEGES "
    "WHERE GRANTEE = ? AND (PRIVILEGE_TYPE <> 'USAGE' OR IS_GRANTABLE = 'YES')";

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

} // namespace

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
    if (db_.statement(k_sql_count_global_rights).execute({account}).scalar() != 0)
        throw std::runtime_error("refusing to set the password of " + account +
                                 ": it has rights beyond one database (an administrator's "
                                 "account); give db_user an account of its own");
    db::Statement &stmt = db_.statement(k_sql_password_hash).execute({password});
    std::string hash;
    if (stmt.next())
        hash = stmt.text(0);
    while (stmt.next()) {
    }
    if (!native_hash(hash))
        throw std::runtime_error("the server's PASSWORD() answered no mysql_native_password hash");
    // ALTER as well: an account made before, without a password or with another, gets this one.
    db_.run_script("CREATE USER IF NOT EXISTS " + account + " IDENTIFIED BY PASSWORD '" + hash +
                   "'; ALTER USER " + account + " IDENTIFIED BY PASSWORD '" + hash +
                   "'; GRANT SELECT, INSERT, UPDATE, DELETE ON `" + grant_pattern(database) + "`.* TO " +
                   account);
}

} // namespace cms
