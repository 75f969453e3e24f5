// The --restore command, in the order that keeps a refused or failed restore from changing the
// target: (1) read the whole archive and check every member against the manifest and the
// manifest against manifest.sha256; (2) refuse a newer schema or a target that is not empty
// (without --replace); (3) extract the dump into a scratch directory beside file_store_dir and
// the files into one inside it (store_swap.h), both reached through descriptors only, load the dump into a staging database
// <db_name>_restore, replay the binary log into it (--until), upgrade it through sql/migrations
// and raise every user's credential version; (4) only then swap database (one RENAME TABLE) and
// the store's entries (store_swap.h) into place. Until (4) a failure drops the staging copy and
// leaves the rest; a failure in (4) puts back what it can and keeps, never deletes, the rest.
#include "cli/restore.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <mysqld_error.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <json/json.h>

#include "base/config.h"
#include "base/digest.h"
#include "cli/archive.h"
#include "cli/backup.h"
#include "cli/db_tools.h"
#include "cli/setup_db.h"
#include "cli/store_swap.h"
#include "db/backup_store.h"
#include "db/db.h"
#include "db/file_store.h"
#include "db/schema.h"
#include "db/schema_store.h"

namespace cms {

namespace {

using namespace backup_layout;

constexpr uint64_t k_manifest_max_bytes = 64 << 20;
// As FileStore makes them: nginx's workers run as another user and must read the files.
constexpr mode_t k_dir_mode = 0755;
constexpr mode_t k_file_mode = 0644;

using db_tools::Fd;

[[noreturn]] void refuse(const std::string &archive, const std::string &why) {
    throw std::runtime_error("refusing to restore '" + archive + "': " + why);
}

int open_archive(const std::string &path) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
    return fd;
}

// The manifest of archive once every byte of it is checked; refuses anything else.
Json::Value verify(const std::string &path) {
    Fd fd(open_archive(path));
    archive::TarReader tar(fd.fd);
    std::map<std::string, std::pair<uint64_t, std::string>> seen; // name → size, SHA-256
    std::string manifest_text, manifest_sum;
    try {
        archive::Member member;
        while (tar.next(member)) {
            // A file only under a name of the upload layout: .htaccess or x.php in the store
            // would be served, or run, as the web server maps them.
            bool known = member.name == k_dump || member.name == k_manifest ||
                         member.name == k_manifest_sum ||
                         (member.name.rfind(k_files, 0) == 0 &&
                          upload_layout(member.name.substr(std::strlen(k_files))));
            if (!member.regular || !known || !archive::safe_name(member.name) ||
                seen.count(member.name) != 0)
                refuse(path, "member '" + member.name + "' is not a file the archive may hold");
            if (member.name == k_manifest || member.name == k_manifest_sum) {
                if (member.size > k_manifest_max_bytes)
                    refuse(path, "its " + member.name + " is too large");
                std::string &text = member.name == k_manifest ? manifest_text : manifest_sum;
                text.resize(static_cast<size_t>(member.size));
                size_t got = 0;
                while (got < text.size())
                    got += tar.read(text.data() + got, text.size() - got);
                seen[member.name] = {member.size, digest::sha256_hex(text)};
                continue;
            }
            seen[member.name] = {member.size, tar.drain(-1)};
        }
    } catch (const std::runtime_error &e) {
        if (std::string(e.what()).rfind("refusing", 0) == 0)
            throw;
        refuse(path, e.what());
    }
    if (manifest_sum.empty() || manifest_text.empty())
        refuse(path, "it has no manifest (it is truncated, or not a cms-fcgi backup)");
    std::string manifest_sha = digest::sha256_hex(manifest_text);
    if (manifest_sum.substr(0, 64) != manifest_sha)
        refuse(path, std::string(k_manifest) + " does not match " + k_manifest_sum);
    Json::CharReaderBuilder builder;
    std::unique_ptr<Json::CharReader> reader(builder.newCharReader());
    Json::Value manifest;
    std::string errors;
    if (!reader->parse(manifest_text.data(), manifest_text.data() + manifest_text.size(),
                       &manifest, &errors) ||
        !manifest.isObject() || !manifest["format"].isString() ||
        manifest["format"].asString() != k_format)
        refuse(path, "its manifest is not one this cms-fcgi reads (" + std::string(k_format) + ")");
    const Json::Value &members = manifest["members"];
    if (!members.isObject() || !members.isMember(k_dump))
        refuse(path, "its manifest names no database dump");
    // Every field read later, of its type (jsoncpp throws a logic_error on another), and the
    // binary-log file a plain name: it becomes an argument of mariadb-binlog, where "-..." would
    // be an option (--result-file= writes anywhere).
    const Json::Value &binlog = manifest["binlog"];
    const Json::Value &binlog_file = binlog.isObject() ? binlog["file"] : Json::Value();
    bool binlog_ok = binlog.isNull() ||
                     (binlog_file.isString() && archive::safe_name(binlog_file.asString()) &&
                      binlog_file.asString().find('/') == std::string::npos &&
                      binlog_file.asString()[0] != '-' && binlog["position"].isUInt64());
    if (!manifest["schema_version"].isInt64() || !manifest["tables"].isObject() ||
        !manifest["time"].isString() || !manifest["cms_fcgi_version"].isString() ||
        !manifest["database"].isString() || !binlog_ok)
        refuse(path, "its manifest lacks the schema version, the time, the tables or the "
                     "binary-log position, or gives one of another type");
    for (const std::string &name : members.getMemberNames()) {
        auto it = seen.find(name);
        if (it == seen.end())
            refuse(path, "member '" + name + "' is missing");
        if (!members[name].isObject() || !members[name]["size"].isUInt64() ||
            !members[name]["sha256"].isString())
            refuse(path, "its manifest gives member '" + name + "' no size or SHA-256");
        if (it->second.first != members[name]["size"].asUInt64() ||
            it->second.second != members[name]["sha256"].asString())
            refuse(path, "member '" + name + "' does not match its SHA-256 in the manifest");
    }
    for (const auto &entry : seen)
        if (!members.isMember(entry.first) && entry.first != k_manifest &&
            entry.first != k_manifest_sum)
            refuse(path, "member '" + entry.first + "' is not in the manifest");
    return manifest;
}

// A new file name below the directory open at dir, its directories made (k_dir_mode), no link
// followed. Throws.
int create_below(int dir, const std::string &name) {
    size_t slash = name.rfind('/');
    Fd parent(slash == std::string::npos ? ::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                                         : db_tools::open_dirs_at(dir, name.substr(0, slash),
                                                                  k_dir_mode));
    int fd = parent.fd < 0 ? -1
                           : ::openat(parent.fd, name.substr(slash + 1).c_str(),
                                      O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        throw std::runtime_error("cannot create '" + name + "' in the restored tree: " +
                                 std::strerror(errno));
    return fd;
}

// Writes the archive's dump to dir's db.sql and its files below the directory open at store,
// checking each again against the manifest (the archive may have changed since it was verified).
void extract(const std::string &path, const Json::Value &manifest,
             const db_tools::ScratchDir &dir, int store) {
    Fd fd(open_archive(path));
    archive::TarReader tar(fd.fd);
    const Json::Value &members = manifest["members"];
    const std::string files = k_files;
    archive::Member member;
    Json::ArrayIndex extracted = 0;
    while (tar.next(member)) {
        bool stored = member.name.rfind(files, 0) == 0;
        if (!members.isMember(member.name) || (!stored && member.name != k_dump))
            continue;
        ++extracted;
        const std::string target = stored ? member.name.substr(files.size()) : k_dump;
        Fd out(stored ? create_below(store, target) : dir.create(k_dump));
        if (tar.drain(out.fd) != members[member.name]["sha256"].asString())
            throw std::runtime_error("'" + path + "' changed while it was restored");
        if (stored && fchmod(out.fd, k_file_mode) != 0)
            throw std::runtime_error("cannot set the mode of '" + target + "'");
    }
    if (extracted != members.size())
        throw std::runtime_error("'" + path + "' changed while it was restored");
}

// The local time text + 1 s: mariadb-binlog stops before the first event at --stop-datetime,
// and --until includes its whole second. Refuses a text that is not YYYY-MM-DD HH:MM:SS.
std::time_t parse_until(const std::string &until) {
    std::tm tm{};
    const char *end = strptime(until.c_str(), "%Y-%m-%d %H:%M:%S", &tm);
    if (end == nullptr || *end != '\0')
        throw std::runtime_error("--until '" + until + "' is not YYYY-MM-DD HH:MM:SS");
    tm.tm_isdst = -1;
    return std::mktime(&tm);
}

std::string local_time(std::time_t t) {
    std::tm tm{};
    localtime_r(&t, &tm);
    char out[32];
    std::strftime(out, sizeof out, "%Y-%m-%d %H:%M:%S", &tm);
    return out;
}

bool exists(const std::string &path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0;
}

// Copies the file name below the directory open at from (the file store) to the same name below
// the one open at to. False when it cannot, and then it is not there: an empty or short file would
// be served at the row's URL.
bool copy_file(int from, const std::string &name, int to) {
    Fd in(archive::open_below(from, name));
    if (in.fd < 0)
        return false;
    Fd out(create_below(to, name));
    char buffer[1 << 16];
    for (ssize_t n; (n = ::read(in.fd, buffer, sizeof buffer)) != 0;)
        if (n < 0 || ::write(out.fd, buffer, static_cast<size_t>(n)) != n) {
            ::unlinkat(to, name.c_str(), 0);
            return false;
        }
    return fchmod(out.fd, k_file_mode) == 0;
}

// Drops database name unless done (the restore got past the point where it may go).
struct Staging {
    BackupStore &store;
    std::string name;
    bool done = false;
    ~Staging() {
        if (!done) {
            try {
                store.drop_database(name);
            } catch (const std::exception &) {
            }
        }
    }
};

// The tables of config's database; none when it does not exist yet.
std::vector<std::string> tables_of(const Config &config) {
    try {
        db::Connection target(config);
        return SchemaStore(target).tables();
    } catch (const db::DbError &e) {
        if (e.errnum != ER_BAD_DB_ERROR)
            throw;
        return {};
    }
}

std::string parent_of(const std::string &path) {
    size_t slash = path.find_last_not_of('/') == std::string::npos
                       ? std::string::npos
                       : path.rfind('/', path.find_last_not_of('/'));
    if (slash == std::string::npos)
        return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

} // namespace

void restore_backup(const Config &config, const std::string &archive_path,
                    const RestoreOptions &options, std::FILE *out) {
    Json::Value manifest = verify(archive_path);
    int64_t version = manifest["schema_version"].asInt64();
    if (version > schema::k_version)
        refuse(archive_path, "its schema version " + std::to_string(version) +
                                 " is newer than this cms-fcgi knows (" +
                                 std::to_string(schema::k_version) + "): restore it with the "
                                 "cms-fcgi " + manifest["cms_fcgi_version"].asString() +
                                 " that wrote it, or a newer one");
    std::string stop_datetime;
    if (!options.until.empty()) {
        if (manifest["binlog"].isNull())
            refuse(archive_path, "it was taken without the binary log: --until has nothing to "
                                 "replay");
        std::time_t until = parse_until(options.until);
        std::tm taken{};
        const char *end = strptime(manifest["time"].asCString(), "%Y-%m-%dT%H:%M:%SZ", &taken);
        if (end != nullptr && *end == '\0' && until < timegm(&taken))
            refuse(archive_path, "--until '" + options.until + "' is before the archive was "
                                 "taken (" + manifest["time"].asString() + "): restore an older "
                                 "one");
        stop_datetime = local_time(until + 1);
    }
    std::fprintf(out, "restore: '%s' checked: schema version %lld, taken %s by cms-fcgi %s\n",
                 archive_path.c_str(), static_cast<long long>(version),
                 manifest["time"].asString().c_str(),
                 manifest["cms_fcgi_version"].asString().c_str());

    // Statements on whole databases run from information_schema: with it as the default
    // database, the binary log filter of a later --until (--database) never replays them.
    Config admin = config;
    admin.db_name = "information_schema";
    db::Connection admin_conn(admin);
    BackupStore admin_store(admin_conn);
    std::vector<std::string> target_tables = tables_of(config);
    std::string store_dir = config.file_store_dir;
    while (store_dir.size() > 1 && store_dir.back() == '/')
        store_dir.pop_back();
    // Reached through a descriptor from here on, and through no link another user controls.
    Fd store(exists(store_dir) ? store_swap::open_store(store_dir) : -1);
    std::vector<std::string> store_entries =
        store.fd < 0 ? std::vector<std::string>() : store_swap::entries(store.fd, store_dir);
    if (!options.replace && (!target_tables.empty() || store_swap::holds_data(store_entries)))
        refuse(archive_path, !target_tables.empty()
                                 ? "database '" + config.db_name + "' is not empty (give " +
                                       "--replace to replace it)"
                                 : "file store '" + store_dir + "' is not empty (give " +
                                       "--replace to replace it)");

    // Names of our own, dropped as a restore goes: one that exists already is someone's, or was
    // left by an interrupted restore (DB_replaced, or the replaced/ of a scratch directory in the
    // file store, may then hold the only copy of what it replaced).
    Config staged = config;
    staged.db_name = config.db_name + "_restore";
    std::string aside = config.db_name + "_replaced";
    for (const std::string &name : {staged.db_name, aside})
        if (admin_store.database_exists(name))
            refuse(archive_path, "database '" + name + "' exists (left by an interrupted " +
                                     "restore?): keep what it holds, drop it, and restore again");
    for (const std::string &name : store_entries)
        if (name.rfind(store_swap::k_prefix, 0) == 0)
            refuse(archive_path, "'" + store_dir + "/" + name + "' exists (left by an " +
                                     "interrupted restore?): keep what it holds, remove it, " +
                                     "and restore again");

    std::string parent = parent_of(store_dir);
    db_tools::make_dirs(parent, k_dir_mode);
    // Made here, it goes again if the restore fails (rmdir: only while empty).
    struct MadeDir {
        std::string path;
        bool done = false;
        ~MadeDir() {
            if (!done && !path.empty())
                ::rmdir(path.c_str());
        }
    } made_store{exists(store_dir) ? "" : store_dir};
    if (store.fd < 0) {
        db_tools::make_dirs(store_dir, k_dir_mode);
        store.fd = store_swap::open_store(store_dir);
    }
    db_tools::ScratchDir scratch(parent, ".cms-restore-");
    store_swap::Swap swap(store.fd, store_dir, out);
    const int staged_store = swap.incoming();
    extract(archive_path, manifest, scratch, staged_store);
    db_tools::write_option_file(config, scratch);

    Staging staging{admin_store, staged.db_name};
    admin_store.recreate_database(staged.db_name);
    // --sandbox: the checksums show damage, not tampering; a client command (\! runs a shell)
    // in a rewritten dump must not run as whoever restores. The binary log's replay too.
    db_tools::run({db_tools::Command{
                      {"mariadb", "--batch", "--sandbox", "--database=" + staged.db_name},
                      k_dump,
                      ""}},
                  scratch, "load.err");
    std::fprintf(out, "restore: loaded the dump into '%s'\n", staged.db_name.c_str());
    if (!stop_datetime.empty()) {
        std::string source = manifest["database"].asString();
        const Json::Value &binlog = manifest["binlog"];
        db_tools::run({db_tools::Command{{"mariadb-binlog", "--read-from-remote-server",
                                          "--to-last-log",
                                          "--start-position=" + binlog["position"].asString(),
                                          "--stop-datetime=" + stop_datetime,
                                          "--database=" + source,
                                          "--rewrite-db=" + source + "->" + staged.db_name,
                                          binlog["file"].asString()},
                                         "",
                                         ""},
                       db_tools::Command{{"mariadb", "--batch", "--sandbox",
                                          "--database=" + staged.db_name},
                                         "",
                                         ""}},
                      scratch, "replay.err");
        std::fprintf(out, "restore: replayed the binary log from %s:%s up to %s\n",
                     binlog["file"].asString().c_str(), binlog["position"].asString().c_str(),
                     options.until.c_str());
    }
    std::istringstream no_password;
    // The archive's own declaration comes back with its rows: the file is not applied.
    setup_database(staged, no_password, false, out, false);

    std::vector<std::string> staged_tables;
    std::vector<std::string> row_paths;
    size_t missing = 0, late = 0;
    {
        db::Connection staged_conn(staged);
        staged_tables = SchemaStore(staged_conn).tables();
        for (const dump::FileRow &row : BackupStore(staged_conn).file_rows()) {
            if (!upload_layout(row.path)) {
                ++missing;
                std::fprintf(out, "restore: lin_file row %lld (%s) names '%s', which is not a "
                                  "name of the upload layout: not restored\n",
                             static_cast<long long>(row.id), row.name.c_str(), row.path.c_str());
                continue;
            }
            row_paths.push_back(row.path);
            struct stat st;
            if (fstatat(staged_store, row.path.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0)
                continue;
            // Written after the backup (a replayed row): still in the file store we replace?
            if (options.replace && copy_file(store.fd, row.path, staged_store)) {
                ++late;
                continue;
            }
            ++missing;
            std::fprintf(out, "restore: lin_file row %lld (%s) names '%s', which is neither in "
                              "the archive nor in the file store\n",
                         static_cast<long long>(row.id), row.name.c_str(), row.path.c_str());
        }
    }

    // The swap: the database in one statement, then the store's entries; the database goes back
    // if the files cannot follow. The entries swapped are the restored tree's and those holding
    // a file of the replaced database's rows; the rest of the store (.htaccess) stays.
    target_tables = tables_of(config);
    auto has = [&target_tables](const char *table) {
        return std::find(target_tables.begin(), target_tables.end(), table) != target_tables.end();
    };
    if (has("lin_file")) {
        db::Connection target(config);
        for (const std::string &path : BackupStore(target).file_paths())
            row_paths.push_back(path);
    }
    // Tokens issued before the restore, by the replaced database or by the archive's, are refused
    // after it: a revoked one must not come back with an older credential_version.
    admin_store.raise_credential_versions(staged.db_name, config.db_name, has("lin_user"));
    store_entries = store_swap::entries(store.fd, store_dir);
    std::vector<std::string> swapped = store_swap::replaced_names(
        store_entries, store_swap::entries(staged_store, store_dir), row_paths);
    size_t others = 0;
    for (const std::string &name : store_entries)
        others += name.rfind(store_swap::k_prefix, 0) != 0 &&
                  !std::binary_search(swapped.begin(), swapped.end(), name);
    admin_store.create_database(config.db_name);
    if (!target_tables.empty())
        admin_store.recreate_database(aside);
    // Empty until the swap, and dropped if the swap fails: a DB_replaced left behind refuses the
    // next restore. Once the swap is done it holds the replaced tables and is never dropped here
    // unless they went back into place.
    Staging empty_aside{admin_store, aside, target_tables.empty()};
    admin_store.swap_in(target_tables, config.db_name, aside, staged_tables, staged.db_name);
    empty_aside.done = true;
    if (!swap.apply(swapped)) {
        admin_store.swap_in(staged_tables, config.db_name, staged.db_name, target_tables, aside);
        admin_store.drop_database(aside);
        std::string what = "cannot swap the restored files into '" + store_dir + "': " +
                           swap.error() + "; the database is as it was";
        if (swap.kept().empty())
            throw std::runtime_error(what + ", and so is the file store");
        for (const std::string &line : swap.kept())
            what += "; " + line;
        throw std::runtime_error(what);
    }
    made_store.done = true;
    staging.done = true;
    admin_store.drop_database(staged.db_name);
    if (!target_tables.empty())
        admin_store.drop_database(aside);
    swap.finish();
    std::fprintf(out, "restore: done: database '%s' (%zu tables) and file store '%s' (%u files "
                      "from the archive, %zu from the replaced store, %zu entries swapped, "
                      "%zu left in place); %zu rows name a file not found; every user's "
                      "credential version raised: tokens issued before are refused\n",
                 config.db_name.c_str(), staged_tables.size(), store_dir.c_str(),
                 manifest["members"].size() - 1, late, swapped.size(), others, missing);
}

} // namespace cms
