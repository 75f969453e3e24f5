// Account storage: the SQL that creates the service's database and its MariaDB account, run by
// `--setup-db --db-admin` over an administrator's connection. Nothing here reads the config.
#pragma once

#include <string>

namespace cms {

namespace db {
class Connection;
}

class AccountStore {
  public:
    explicit AccountStore(db::Connection &db) : db_(db) {}

    // Creates database name (utf8mb4) unless it exists. Throws for a name that is not a plain
    // identifier (letters, digits, _ and $).
    void create_database(const std::string &name);
    // Creates the account user@host, or gives an existing one, password (the server hashes it),
    // then grants it what the service needs on database: SELECT, INSERT, UPDATE, DELETE.
    // Throws, changing nothing, for an existing account with rights beyond database (global
    // ones, or on another database, table, column or routine, a role, a proxy grant), and for a
    // user of that name on another host, whose logins from host the new account would take.
    void set_service_account(const std::string &user, const std::string &host,
                             const std::string &password, const std::string &database);
    // One grant that user@host holds outside database, described as a GRANT names it (the
    // right, then its object) or as "role 'name'", or "" when it holds none. Throws when the
    // grant tables cannot be read.
    std::string foreign_grant(const std::string &user, const std::string &host,
                              const std::string &database);

  private:
    db::Connection &db_;
};

} // namespace cms
