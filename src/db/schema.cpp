// Schema versions: recognising a database, planning its migrations, the service's version check.
#include "db/schema.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <stdexcept>

#include "db/db.h"
#include "db/schema_store.h"

#ifndef CMS_SCHEMA_VERSION
#error "CMS_SCHEMA_VERSION: the number of the last file of sql/migrations/ (the Makefile gives it)"
#endif

namespace cms::schema {

const int64_t k_version = CMS_SCHEMA_VERSION;

namespace {

// The tables of version 1, the first release, which recorded no version: a database holding
// exactly these is that release's.
const char *const k_released_tables[] = {
    "book",    "cms_login_failure", "lin_file", "lin_group",      "lin_group_permission",
    "lin_log", "lin_permission",    "lin_user", "lin_user_group", "lin_user_identity",
};

// Tables of later versions. A database holding any other table is not ours to change.
const char *const k_later_tables[] = {"cms_schema_version", "cms_idempotency",
                                      "cms_captcha_spent", "cms_login_gate", "cms_content"};

// The tables of declared collections (content/declaration.h) begin with this.
constexpr const char *k_content_prefix = "content_";

bool ours(const std::string &table) {
    auto is = [&](const char *name) { return table == name; };
    if (table.rfind(k_content_prefix, 0) == 0)
        return true;
    return std::any_of(std::begin(k_released_tables), std::end(k_released_tables), is) ||
           std::any_of(std::begin(k_later_tables), std::end(k_later_tables), is);
}

std::string joined(const std::vector<std::string> &names) {
    std::string out;
    for (const std::string &name : names)
        out += (out.empty() ? "" : ", ") + name;
    return out;
}

// The version of a migration file name NNNN-*.sql, or 0 when it is not one.
int64_t file_version(const std::string &name) {
    constexpr size_t digits = 4;
    if (name.size() <= digits + 5 || name[digits] != '-' ||
        name.compare(name.size() - 4, 4, ".sql") != 0)
        return 0;
    int64_t version = 0;
    for (size_t i = 0; i < digits; ++i) {
        if (!std::isdigit(static_cast<unsigned char>(name[i])))
            return 0;
        version = version * 10 + (name[i] - '0');
    }
    return version;
}

} // namespace

const std::vector<std::string> &cache_tables() {
    static const std::vector<std::string> tables = {"cms_login_failure", "cms_captcha_spent",
                                                    "cms_idempotency", "cms_login_gate"};
    return tables;
}

State recognise(const std::vector<std::string> &tables, std::optional<int64_t> recorded) {
    State state;
    if (tables.empty()) {
        state.kind = State::Kind::empty;
        return state;
    }
    std::vector<std::string> foreign;
    std::copy_if(tables.begin(), tables.end(), std::back_inserter(foreign),
                 [](const std::string &t) { return !ours(t); });
    std::sort(foreign.begin(), foreign.end());
    if (!foreign.empty()) {
        state.reason = "tables that are not cms-fcgi's: " + joined(foreign);
        return state;
    }
    bool versioned = std::find(tables.begin(), tables.end(), "cms_schema_version") != tables.end();
    if (versioned) {
        if (!recorded) {
            state.reason = "cms_schema_version has no row";
            return state;
        }
        state.kind = State::Kind::known;
        state.version = *recorded;
        return state;
    }
    std::vector<std::string> missing;
    for (const char *name : k_released_tables)
        if (std::find(tables.begin(), tables.end(), name) == tables.end())
            missing.push_back(name);
    if (!missing.empty()) {
        state.reason =
            "no cms_schema_version, and not every table of version 1 (no " + joined(missing) + ")";
        return state;
    }
    state.kind = State::Kind::known;
    state.version = 1;
    return state;
}

std::vector<Migration> plan(const std::vector<std::string> &files, int64_t from, int64_t to) {
    std::map<int64_t, std::string> by_version;
    for (const std::string &name : files) {
        int64_t version = file_version(name);
        if (version == 0)
            continue;
        if (!by_version.emplace(version, name).second)
            throw std::runtime_error("two migrations to version " + std::to_string(version) + ": " +
                                     by_version[version] + " and " + name);
        if (version > to)
            throw std::runtime_error("migration " + name + " is for a newer cms-fcgi (this one " +
                                     "knows version " + std::to_string(to) + ")");
    }
    std::vector<Migration> steps;
    for (int64_t version = from + 1; version <= to; ++version) {
        auto it = by_version.find(version);
        if (it == by_version.end())
            throw std::runtime_error("no migration to version " + std::to_string(version));
        steps.push_back({version, it->second});
    }
    return steps;
}

void check_version(db::Connection &conn, const std::string &db_name) {
    // A database of the first release has no version table.
    int64_t version = SchemaStore(conn).recorded_version().value_or(1);
    if (version == k_version)
        return;
    std::string both = "database '" + db_name + "' has schema version " + std::to_string(version) +
                       ", this cms-fcgi needs version " + std::to_string(k_version);
    if (version < k_version)
        throw db::WrongSchema(both + ": upgrade it with `cms-fcgi -c FILE --setup-db`");
    throw db::WrongSchema(both + ": a newer cms-fcgi upgraded it; run that one (--setup-db "
                                 "never downgrades)");
}

} // namespace cms::schema
