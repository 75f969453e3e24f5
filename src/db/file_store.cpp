// File storage: the SQL of lin_file, content digests, random names below the date directories, and
// writes that appear whole (a temporary name in the same directory, then rename), and the layout
// those names make.
#include "db/file_store.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include <fcntl.h>
#include <mysqld_error.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/digest.h"
#include "base/log.h"
#include "base/text.h"
#include "db/db.h"

namespace cms {

namespace {

constexpr const char *k_sql_select_live_by_sha256 =
    "SELECT id, path FROM lin_file WHERE sha256 = ? AND delete_time IS NULL";
// Rows stored before version 3 have no sha256: only their MD5 can say they hold the content.
constexpr const char *k_sql_select_live_legacy_by_md5 =
    "SELECT id, path FROM lin_file WHERE md5 = ? AND sha256 IS NULL AND delete_time IS NULL "
    "ORDER BY id LIMIT 1";
// The read by SHA-256, locking: it sees the newest committed row, not this transaction's
// snapshot, so it finds the row of a concurrent upload that won the sha256_live key after our
// snapshot was taken. Never used before the insert: its gap lock would deadlock two uploads of
// new content.
constexpr const char *k_sql_select_live_by_sha256_locked =
    "SELECT id, path FROM lin_file WHERE sha256 = ? AND delete_time IS NULL LOCK IN SHARE MODE";
constexpr const char *k_sql_insert_file =
    "INSERT INTO lin_file (path, type, name, extension, size, md5, sha256) "
    "VALUES (?, 'LOCAL', ?, ?, ?, ?, ?)";

// nginx workers run as another user than the pool and must read what we store, whatever the
// pool's umask (fchmod and chmod ignore it): uploads are public at /assets/ anyway. Who may reach
// them is decided by the mode of file_store_dir and its parents (0750 and the group cms-fcgi
// under the systemd units).
constexpr mode_t k_dir_mode = 0755;
constexpr mode_t k_file_mode = 0644;

// 32 hex digits from the CSPRNG: unguessable, and never derived from the client.
std::string random_name() {
    unsigned char bytes[16];
    if (RAND_bytes(bytes, sizeof bytes) != 1)
        throw std::runtime_error("RAND_bytes failed for a file name");
    return text::hex(bytes, sizeof bytes);
}

// "yyyy/mm/dd" of today, in the server's time zone (as Lin CMS does).
std::string date_dir() {
    std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char text[16];
    std::strftime(text, sizeof text, "%Y/%m/%d", &local);
    return text;
}

[[noreturn]] void fail_io(const char *what, const std::string &path, int error_number) {
    std::string message = std::string(what) + " '" + path + "': " + std::strerror(error_number);
    if (error_number == ENOSPC || error_number == EDQUOT)
        throw StoreFull(message);
    throw std::runtime_error(message);
}

// Creates dir and its missing parents; the ones created get k_dir_mode.
void make_dirs(const std::string &dir) {
    for (size_t i = 1; i <= dir.size(); ++i) {
        if (i < dir.size() && dir[i] != '/')
            continue;
        std::string prefix = dir.substr(0, i);
        if (mkdir(prefix.c_str(), k_dir_mode) == 0) {
            if (chmod(prefix.c_str(), k_dir_mode) != 0)
                fail_io("cannot set the mode of", prefix, errno);
        } else if (errno != EEXIST) {
            fail_io("cannot create directory", prefix, errno);
        }
    }
}

bool write_all(int fd, const std::string &content) {
    for (size_t done = 0; done < content.size();) {
        ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n == 0)
            errno = EIO;
        if (n <= 0)
            return false;
        done += static_cast<size_t>(n);
    }
    return true;
}

void unlink_quietly(const std::string &path) noexcept {
    if (unlink(path.c_str()) != 0 && errno != ENOENT)
        log_warn("cannot remove '" + path + "': " + std::strerror(errno));
}

} // namespace

bool upload_layout(const std::string &path) {
    static const char *const extensions[] = {".png", ".jpg", ".jpeg", ".gif"};
    auto digits = [&path](size_t at, size_t count) {
        for (size_t i = at; i < at + count; ++i)
            if (i >= path.size() || !std::isdigit(static_cast<unsigned char>(path[i])))
                return false;
        return true;
    };
    if (path.size() < 11 || !digits(0, 4) || path[4] != '/' || !digits(5, 2) || path[7] != '/' ||
        !digits(8, 2) || path[10] != '/')
        return false;
    std::string file = path.substr(11);
    size_t dot = file.find('.');
    if (dot == 0 || dot == std::string::npos || file.size() > 255)
        return false;
    for (size_t i = 0; i < dot; ++i)
        if (!std::isalnum(static_cast<unsigned char>(file[i])) && file[i] != '-' && file[i] != '_')
            return false;
    std::string extension = text::lower(file.substr(dot));
    return std::any_of(std::begin(extensions), std::end(extensions),
                       [&extension](const char *known) { return extension == known; });
}

StoredFile FileStore::save(const std::string &content, const std::string &extension) {
    std::string sha256 = digest::sha256_hex(content);
    if (auto it = saved_.find(sha256); it != saved_.end())
        return it->second;
    std::string md5 = digest::md5_hex(content);
    std::optional<StoredFile> file = find(k_sql_select_live_by_sha256, sha256);
    if (!file)
        file = find(k_sql_select_live_legacy_by_md5, md5);
    if (!file) {
        std::string name = random_name() + extension;
        std::string path = date_dir() + "/" + name;
        write(path, content);
        file = insert(path, name, extension, static_cast<int64_t>(content.size()), sha256, md5);
    }
    saved_.emplace(sha256, *file);
    return *file;
}

std::optional<StoredFile> FileStore::find(const char *sql, const std::string &digest) {
    db::Statement &stmt = db_.statement(sql).execute({digest});
    if (!stmt.next())
        return std::nullopt;
    return StoredFile{stmt.integer(0), stmt.text(1)};
}

StoredFile FileStore::insert(const std::string &path, const std::string &name,
                             const std::string &extension, int64_t size, const std::string &sha256,
                             const std::string &md5) {
    try {
        uint64_t id = db_.statement(k_sql_insert_file)
                          .execute({path, name, extension, size, md5, sha256})
                          .insert_id();
        return StoredFile{static_cast<int64_t>(id), path};
    } catch (const db::DbError &e) {
        // A concurrent upload of the same content got in first: the sha256_live key
        // (sql/migrations/0003) is the arbiter, its row is the answer and our copy is not needed.
        if (e.errnum != ER_DUP_ENTRY)
            throw;
    }
    unlink_quietly(dir_ + "/" + path);
    std::optional<StoredFile> winner = find(k_sql_select_live_by_sha256_locked, sha256);
    if (!winner)
        throw std::runtime_error("lin_file sha256 '" + sha256 +
                                 "' is a duplicate but has no live row");
    return *winner;
}

void FileStore::write(const std::string &path, const std::string &content) {
    std::string full = dir_ + "/" + path;
    std::string dir = full.substr(0, full.rfind('/'));
    std::string temp = dir + "/." + full.substr(dir.size() + 1) + ".tmp";
    make_dirs(dir);
    int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, k_file_mode);
    if (fd < 0)
        fail_io("cannot create", temp, errno);
    // Synced before its row commits, so that no row outlives a crash that lost its file.
    bool ok = fchmod(fd, k_file_mode) == 0 && write_all(fd, content) && fsync(fd) == 0;
    int error_number = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        error_number = errno;
    }
    if (ok && rename(temp.c_str(), full.c_str()) != 0) {
        ok = false;
        error_number = errno;
    }
    if (!ok) {
        unlink(temp.c_str());
        fail_io("cannot write", full, error_number);
    }
    db_.on_rollback([full] { unlink_quietly(full); });
}

} // namespace cms
