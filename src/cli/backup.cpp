// The --backup command. The archive's members, in order:
//   db.sql           mariadb-dump --single-transaction of db_name: one consistent snapshot, taken
//                    without locking writers (MariaDB gives the snapshot's binary-log position
//                    without FLUSH TABLES WITH READ LOCK);
//   files/<path>     the file of each lin_file row of that dump, its SHA-256 taken as it is copied
//                    and compared with the row's;
//   manifest.json    versions, time, binary-log position, rows per table, SHA-256 of each member,
//                    the rows whose file was missing or did not match the row's SHA-256;
//   manifest.sha256  the SHA-256 of manifest.json, so that no byte of the archive goes unchecked.
// It is written in the backup's scratch directory (below dir, used only through its descriptor:
// dir may be the service account's) and renamed to its final name once complete; a scratch
// directory left by a killed backup is removed by the next one.
#include "cli/backup.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <set>
#include <stdexcept>
#include <vector>

#include <json/json.h>

#include "base/config.h"
#include "base/json.h"
#include "cli/archive.h"
#include "cli/db_tools.h"
#include "db/backup_store.h"
#include "db/db.h"
#include "db/dump_scan.h"
#include "db/file_store.h"
#include "db/schema.h"
#include "db/schema_store.h"

#ifndef CMS_VERSION
#define CMS_VERSION "unknown"
#endif

namespace cms {

namespace {

using namespace backup_layout;

std::string utc_time(std::time_t t, const char *format) {
    std::tm tm{};
    gmtime_r(&t, &tm);
    char out[64];
    std::strftime(out, sizeof out, format, &tm);
    return out;
}

using db_tools::Fd;

void sync_dir(const std::string &dir) {
    Fd fd(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.fd < 0 || fsync(fd.fd) != 0)
        throw std::runtime_error("cannot sync directory '" + dir + "': " + std::strerror(errno));
}

// The dump of config's database into scratch's k_dump, with the binary-log position when the log
// is on.
void run_dump(const Config &config, bool binlog, const db_tools::ScratchDir &scratch) {
    std::vector<std::string> argv = {"mariadb-dump", "--single-transaction", "--quick",
                                     "--complete-insert", "--hex-blob", "--skip-add-locks"};
    if (binlog) {
        argv.push_back("--master-data=2");
        argv.push_back("--gtid");
    }
    // A cache's rows may hold secrets (a stored answer) and are worth nothing restored.
    for (const std::string &table : schema::cache_tables())
        argv.push_back("--ignore-table-data=" + config.db_name + "." + table);
    // "--": no database name is read as an option (config.cpp refuses "-..." as well).
    argv.push_back("--");
    argv.push_back(config.db_name);
    db_tools::run({db_tools::Command{argv, "", k_dump}}, scratch, "dump.err");
}

Json::Value row_entry(const dump::FileRow &row) {
    Json::Value entry;
    entry["id"] = Json::Int64(row.id);
    entry["name"] = row.name;
    entry["path"] = row.path;
    return entry;
}

// Adds the file of row to the archive, and to mismatched when it does not hold what the row's
// SHA-256 says; false (with a warning) when it is not on disk or not of the upload layout.
bool add_stored_file(archive::TarWriter &tar, const Config &config, const dump::FileRow &row,
                     Json::Value &members, Json::Value &mismatched, std::FILE *log) {
    // A restore refuses any other name in files/: archived, it would make the archive useless.
    if (!upload_layout(row.path)) {
        std::fprintf(log, "backup: lin_file row %lld (%s) names '%s', which is not a name of the "
                          "upload layout: not archived\n",
                     static_cast<long long>(row.id), row.name.c_str(), row.path.c_str());
        return false;
    }
    Fd fd(archive::open_below(config.file_store_dir, row.path));
    struct stat st;
    if (fd.fd < 0 || fstat(fd.fd, &st) != 0) {
        std::fprintf(log, "backup: lin_file row %lld (%s) names '%s', which is not in the file "
                          "store: not archived\n",
                     static_cast<long long>(row.id), row.name.c_str(), row.path.c_str());
        return false;
    }
    std::string member = k_files + row.path;
    std::string sha = tar.add_file(member, fd.fd, static_cast<uint64_t>(st.st_size), st.st_mtime);
    if (row.sha256 && *row.sha256 != sha) {
        std::fprintf(log, "backup: '%s' (lin_file row %lld) does not hold what its row's "
                          "sha256 says: archived as it is\n",
                     row.path.c_str(), static_cast<long long>(row.id));
        mismatched.append(row_entry(row));
    }
    members[member]["size"] = Json::UInt64(st.st_size);
    members[member]["sha256"] = sha;
    return true;
}

// Removes what retention() says of the regular files of dir, and warns of those dated after the
// archive just written.
void apply_retention(const std::string &dir, const Config &config, const std::string &written,
                     std::FILE *log) {
    if (config.backup_keep <= 0)
        return;
    DIR *d = opendir(dir.c_str());
    if (d == nullptr)
        return;
    std::vector<std::string> names;
    while (const dirent *entry = readdir(d)) {
        struct stat st;
        if (fstatat(dirfd(d), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
            names.emplace_back(entry->d_name);
    }
    closedir(d);
    Retention plan = retention(names, written, config.db_name, config.backup_keep);
    for (const std::string &name : plan.future)
        std::fprintf(log, "backup: '%s/%s' is dated after the archive just written (is the clock "
                          "right?): not counted, not removed\n",
                     dir.c_str(), name.c_str());
    for (const std::string &name : plan.remove) {
        std::string path = dir + "/" + name;
        if (::unlink(path.c_str()) == 0)
            std::fprintf(log, "backup: removed '%s' (backup_keep = %lld)\n", path.c_str(),
                         static_cast<long long>(config.backup_keep));
        else
            std::fprintf(log, "backup: cannot remove '%s': %s\n", path.c_str(),
                         std::strerror(errno));
    }
}

} // namespace

const char *program_version() {
    return CMS_VERSION;
}

namespace {

// db_name with each byte but [A-Za-z0-9_.-] as %XX: any database name makes one file name, and no
// two make the same.
std::string name_tag(const std::string &db_name) {
    static const char hex[] = "0123456789ABCDEF";
    std::string tag;
    for (unsigned char c : db_name) {
        if (std::isalnum(c) || c == '_' || c == '.' || c == '-') {
            tag += static_cast<char>(c);
        } else {
            tag += '%';
            tag += hex[c >> 4];
            tag += hex[c & 15];
        }
    }
    return tag;
}

constexpr size_t k_time_size = 15; // YYYYmmdd-HHMMSS

} // namespace

std::string archive_name(const std::string &db_name, std::time_t t) {
    return k_name_prefix + name_tag(db_name) + "-" + utc_time(t, "%Y%m%d-%H%M%S") + k_name_suffix;
}

std::string archive_time(const std::string &name, const std::string &db_name) {
    const std::string head = k_name_prefix + name_tag(db_name) + "-", tail = k_name_suffix;
    if (name.size() != head.size() + k_time_size + tail.size() || name.rfind(head, 0) != 0 ||
        name.compare(head.size() + k_time_size, std::string::npos, tail) != 0)
        return "";
    std::string time = name.substr(head.size(), k_time_size);
    for (size_t i = 0; i < time.size(); ++i)
        if (i == 8 ? time[i] != '-' : !std::isdigit(static_cast<unsigned char>(time[i])))
            return "";
    return time;
}

Retention retention(const std::vector<std::string> &names, const std::string &written,
                    const std::string &db_name, int64_t keep) {
    Retention plan;
    const std::string written_time = archive_time(written, db_name);
    if (keep <= 0 || written_time.empty())
        return plan;
    std::vector<std::pair<std::string, std::string>> older; // time, name
    for (const std::string &name : names) {
        std::string time = archive_time(name, db_name);
        if (time.empty() || name == written)
            continue;
        if (time > written_time)
            plan.future.push_back(name);
        else
            older.emplace_back(time, name);
    }
    std::sort(older.rbegin(), older.rend());
    for (size_t i = static_cast<size_t>(keep) - 1; i < older.size(); ++i)
        plan.remove.push_back(older[i].second);
    return plan;
}

std::string make_backup(const Config &config, const std::string &dir, std::FILE *log) {
    db_tools::make_dirs(dir);
    std::time_t started = std::time(nullptr);
    std::string name = archive_name(config.db_name, started);
    std::string final_path = dir + "/" + name;
    if (::access(final_path.c_str(), F_OK) == 0)
        throw std::runtime_error("'" + final_path + "' exists already: one backup a second");

    int64_t schema_version = 0;
    bool binlog = false;
    // On a Galera node these reads wait (db_sync_wait) until the node has applied every write
    // the cluster committed before them, so the dump that follows holds all of those.
    {
        db::Connection conn(config);
        SchemaStore schema_store(conn);
        schema::State state =
            schema::recognise(schema_store.tables(), schema_store.recorded_version());
        if (state.kind != schema::State::Kind::known)
            throw std::runtime_error("database '" + config.db_name + "' is not a cms-fcgi "
                                     "database: " + (state.reason.empty() ? "it is empty"
                                                                          : state.reason));
        schema_version = state.version;
        binlog = BackupStore(conn).binlog_on();
    }

    db_tools::remove_stale(dir, k_scratch_prefix, log);
    db_tools::ScratchDir scratch(dir, k_scratch_prefix, true);
    db_tools::write_option_file(config, scratch);
    run_dump(config, binlog, scratch);
    const std::string dump_path = scratch.path() + "/" + k_dump;
    dump::Summary summary;
    {
        // Through the descriptor: the path may name another file by now.
        Fd fd(scratch.open(k_dump));
        std::ifstream in("/dev/fd/" + std::to_string(fd.fd), std::ios::binary);
        summary = dump::scan(in);
    }
    if (summary.rows.empty())
        throw std::runtime_error("the dump of '" + config.db_name + "' holds no table");

    // In the scratch directory: whatever ends this run, nothing partial stays under dir.
    const std::string partial_name = name + ".partial", partial = scratch.path() + "/" + partial_name;
    Fd out(scratch.create(partial_name));
    archive::TarWriter tar(out.fd);
    Json::Value members(Json::objectValue);
    {
        Fd in(scratch.open(k_dump));
        struct stat st;
        if (fstat(in.fd, &st) != 0)
            throw std::runtime_error("cannot read the dump '" + dump_path + "'");
        members[k_dump]["size"] = Json::UInt64(st.st_size);
        members[k_dump]["sha256"] =
            tar.add_file(k_dump, in.fd, static_cast<uint64_t>(st.st_size), started);
    }
    Json::Value missing(Json::arrayValue), mismatched(Json::arrayValue);
    std::set<std::string> archived;
    for (const dump::FileRow &row : summary.files) {
        if (archived.count(row.path) != 0)
            continue;
        if (add_stored_file(tar, config, row, members, mismatched, log))
            archived.insert(row.path);
        else
            missing.append(row_entry(row));
    }

    Json::Value manifest;
    manifest["format"] = k_format;
    manifest["cms_fcgi_version"] = program_version();
    manifest["schema_version"] = Json::Int64(schema_version);
    manifest["time"] = utc_time(started, "%Y-%m-%dT%H:%M:%SZ");
    manifest["database"] = config.db_name;
    if (summary.binlog) {
        manifest["binlog"]["file"] = summary.binlog->file;
        manifest["binlog"]["position"] = Json::UInt64(summary.binlog->position);
        manifest["binlog"]["gtid"] = summary.binlog->gtid;
    } else {
        manifest["binlog"] = Json::nullValue;
    }
    for (const auto &[table, rows] : summary.rows)
        manifest["tables"][table] = Json::Int64(rows);
    manifest["members"] = members;
    manifest["missing_files"] = missing;
    manifest["mismatched_files"] = mismatched;
    std::string manifest_text = json::write(manifest) + "\n";
    std::string manifest_sha = tar.add_bytes(k_manifest, manifest_text, started);
    tar.add_bytes(k_manifest_sum, manifest_sha + "  " + k_manifest + "\n", started);
    tar.finish();
    if (fsync(out.fd) != 0)
        throw std::runtime_error("cannot sync '" + partial + "': " + std::strerror(errno));
    // Never over an archive of the same second that another backup finished meanwhile (a file
    // system or kernel without RENAME_NOREPLACE gets the plain rename).
    if (renameat2(scratch.fd(), partial_name.c_str(), AT_FDCWD, final_path.c_str(),
                  RENAME_NOREPLACE) != 0 &&
        ((errno != EINVAL && errno != ENOSYS) ||
         ::renameat(scratch.fd(), partial_name.c_str(), AT_FDCWD, final_path.c_str()) != 0))
        throw std::runtime_error("cannot rename '" + partial + "' to '" + final_path +
                                 "': " + std::strerror(errno));
    sync_dir(dir);
    std::fprintf(log, "backup: wrote '%s': schema version %lld, %zu files%s\n", final_path.c_str(),
                 static_cast<long long>(schema_version), archived.size(),
                 summary.binlog ? (", binary log at " + summary.binlog->file + ":" +
                                   std::to_string(summary.binlog->position))
                                      .c_str()
                                : ", no binary log");
    apply_retention(dir, config, name, log);
    return final_path;
}

} // namespace cms
