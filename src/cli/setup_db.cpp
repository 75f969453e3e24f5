// The --setup-db command: reads sql_dir, talks to the database through SchemaStore and
// UserStore, and leaves every decision about versions to schema.cpp.
#include "cli/setup_db.h"

#include <dirent.h>
#include <unistd.h>
#include <openssl/rand.h>

#include <algorithm>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "api/user_rules.h"
#include "auth/password.h"
#include "base/config.h"
#include "content/apply.h"
#include "content/catalog.h"
#include "http/router.h"
#include "db/account_store.h"
#include "db/db.h"
#include "db/schema.h"
#include "db/schema_store.h"
#include "db/user_store.h"

namespace cms {

namespace {

constexpr int64_t k_root_user_id = 1;
constexpr size_t k_generated_password_length = 16;
// The service's account is made for connections from this host, the only ones --db-admin makes.
constexpr const char *k_account_host = "localhost";

std::string read_file(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw std::runtime_error("cannot read '" + path + "' (is sql_dir right?)");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> directory_names(const std::string &path) {
    DIR *dir = opendir(path.c_str());
    if (dir == nullptr)
        throw std::runtime_error("cannot read directory '" + path + "' (is sql_dir right?)");
    std::vector<std::string> names;
    while (const dirent *entry = readdir(dir))
        names.push_back(entry->d_name);
    closedir(dir);
    std::sort(names.begin(), names.end());
    return names;
}

// Letters and digits, without the ones easily misread (0 O 1 l I).
std::string generated_password() {
    static const char k_alphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    unsigned char bytes[k_generated_password_length];
    if (RAND_bytes(bytes, sizeof bytes) != 1)
        throw std::runtime_error("RAND_bytes failed for a password");
    std::string password;
    for (unsigned char b : bytes)
        password += k_alphabet[b % (sizeof k_alphabet - 1)];
    return password;
}

// The migrations of sql_dir that take a database from version from to schema::k_version.
std::vector<schema::Migration> migrations(const Config &config, int64_t from) {
    return schema::plan(directory_names(config.sql_dir + "/migrations"), from, schema::k_version);
}

// Runs steps in order, one line to out for each.
void apply(const Config &config, db::Connection &conn, const std::vector<schema::Migration> &steps,
           std::FILE *out) {
    for (const schema::Migration &step : steps) {
        std::string path = config.sql_dir + "/migrations/" + step.file;
        conn.run_script(read_file(path));
        // Recorded after each file: a later failure leaves the database at a known version.
        // Version 1 records none (it has no table for it): it is known by its tables.
        if (step.version > 1)
            SchemaStore(conn).record_version(step.version);
        std::fprintf(out, "ran %s: now at version %lld\n", path.c_str(),
                     static_cast<long long>(step.version));
    }
}

void create(const Config &config, db::Connection &conn, std::istream &in, bool in_is_terminal,
            std::FILE *out) {
    std::fprintf(out, "database '%s' is empty: creating schema version %lld\n",
                 config.db_name.c_str(), static_cast<long long>(schema::k_version));
    // Read before anything is written: a password that cannot be read leaves the database empty.
    std::string password;
    if (!in_is_terminal)
        std::getline(in, password);
    bool generated = password.empty();
    if (generated)
        password = generated_password();
    else if (!password_allowed(password))
        throw std::runtime_error(std::string("root's password breaks the password rule (") +
                                 k_password_rule + "): root could never set it again through "
                                 "the client");
    std::string hash = password::hash(password);
    // The migrations are the schema: a fresh database is built by the same files, in the same
    // order, as an upgraded one, so the two cannot differ.
    apply(config, conn, migrations(config, 0), out);
    std::string seed = config.sql_dir + "/seed.sql";
    conn.run_script(read_file(seed));
    std::fprintf(out, "ran %s\n", seed.c_str());
    // The migrations of another release would make a database the service refuses at once.
    std::optional<int64_t> created = SchemaStore(conn).recorded_version();
    if (created != schema::k_version)
        throw std::runtime_error(config.sql_dir + "/migrations created schema version " +
                                 std::to_string(created.value_or(0)) + ", this cms-fcgi needs " +
                                 std::to_string(schema::k_version) +
                                 ": install the sql/ of this release");
    db::Transaction tx(conn);
    if (!UserStore(conn).set_password(k_root_user_id, hash))
        throw std::runtime_error("the seed has no live root user (id 1)");
    tx.commit();
    if (generated)
        std::fprintf(out, "set root's password to a generated one: %s\n", password.c_str());
    else
        std::fprintf(out, "set root's password from standard input\n");
}

void upgrade(const Config &config, db::Connection &conn, int64_t from, std::FILE *out) {
    std::vector<schema::Migration> steps = migrations(config, from);
    if (steps.empty()) {
        std::fprintf(out, "database '%s' is at schema version %lld: nothing to do\n",
                     config.db_name.c_str(), static_cast<long long>(from));
        return;
    }
    std::fprintf(out, "database '%s' is at schema version %lld: upgrading to %lld\n",
                 config.db_name.c_str(), static_cast<long long>(from),
                 static_cast<long long>(schema::k_version));
    apply(config, conn, steps, out);
}

// An administrator reaches the database over the local unix socket only.
bool on_this_host(const Config &config) {
    return config.db_hosts.empty() && (!config.db_socket.empty() || config.db_host == "localhost");
}

} // namespace

void setup_database_as(const std::string &admin, const Config &config, std::istream &in,
                       bool in_is_terminal, std::FILE *out) {
    if (config.db_password.empty())
        throw std::runtime_error("db_password is empty: refusing to create the account '" +
                                 config.db_user + "' without a password (set CMS_DB_PASSWORD in "
                                 "cms.env and give it with --env)");
    if (!on_this_host(config))
        throw std::runtime_error("--db-admin creates the database on this host only (db_socket, "
                                 "or db_host localhost): create the database and the account on "
                                 "the database's host, then run --setup-db without it");
    Config as_admin = config;
    as_admin.db_user = admin;
    as_admin.db_password.clear();
    as_admin.db_name.clear();
    {
        db::Connection conn(as_admin);
        AccountStore accounts(conn);
        // The account first: a refused one leaves no database behind. A grant needs none.
        accounts.set_service_account(config.db_user, k_account_host, config.db_password,
                                     config.db_name);
        accounts.create_database(config.db_name);
    }
    std::fprintf(out, "database '%s' and account '%s'@'%s' (password from db_password) are "
                      "there\n",
                 config.db_name.c_str(), config.db_user.c_str(), k_account_host);
    as_admin.db_name = config.db_name;
    setup_database(as_admin, in, in_is_terminal, out, true);
}

void setup_database(const Config &config, std::istream &in, bool in_is_terminal, std::FILE *out,
                    bool apply_content) {
    db::Connection conn(config);
    // The declaration is checked before anything is written: a broken one leaves an empty
    // database empty.
    content::Limits limits = content::limits_of(config, route_table());
    std::optional<content::Declaration> declared;
    if (apply_content && access(config.content_file.c_str(), F_OK) == 0)
        declared = content::check_file(config.content_file, limits);
    else if (apply_content)
        std::fprintf(stderr, "cms-fcgi: no content declaration at '%s' (content_file): the "
                             "applied one, if any, is kept\n",
                     config.content_file.c_str());
    SchemaStore store(conn);
    schema::State state = schema::recognise(store.tables(), store.recorded_version());
    switch (state.kind) {
    case schema::State::Kind::empty:
        create(config, conn, in, in_is_terminal, out);
        if (declared)
            content::apply(conn, *declared, limits, false, out);
        return;
    case schema::State::Kind::unknown:
        throw std::runtime_error("refusing to change database '" + config.db_name +
                                 "': " + state.reason +
                                 " (a Lin CMS backend's database is converted by sql/migrate "
                                 "first: see its README.md)");
    case schema::State::Kind::known:
        break;
    }
    if (state.version > schema::k_version)
        throw std::runtime_error("refusing to change database '" + config.db_name +
                                 "': its schema version " + std::to_string(state.version) +
                                 " is newer than this cms-fcgi knows (" +
                                 std::to_string(schema::k_version) + ")");
    upgrade(config, conn, state.version, out);
    if (declared)
        content::apply(conn, *declared, limits, false, out);
}

} // namespace cms
