// Uploaded files: the lin_file rows and the files below file_store_dir that they describe. Stored
// names are random: nothing of a client's file name ever reaches the disk. Nothing here knows HTTP.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cms {

namespace db {
class Connection;
}

// Thrown by FileStore::save when the file system of file_store_dir has no room left (ENOSPC, or
// EDQUOT for the service's user): a condition of the host, not of the request, that passes once
// space is freed. Whatever was written of the file is gone again when it is thrown.
class StoreFull : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A live lin_file row: its id and its path below file_store_dir ("yyyy/mm/dd/<name>").
struct StoredFile {
    int64_t id = 0;
    std::string path;
};

// Whether path is a name of the upload layout, as FileStore::save makes them and a Lin CMS backend
// made them: YYYY/MM/DD/NAME.EXT, NAME of letters, digits, '-' and '_', EXT that of a type an
// upload may have (.png, .jpg, .jpeg, .gif; any case). A restore writes nothing else into the
// store, nor moves anything else of it: not .htaccess, not x.php.
bool upload_layout(const std::string &path);

// Saves the files of one request. A file it writes is removed again if the transaction of its
// row rolls back (db::Connection::on_rollback), so a failed request leaves nothing on disk.
class FileStore {
  public:
    FileStore(db::Connection &db, std::string dir) : db_(db), dir_(std::move(dir)) {}

    // The live row of the same content, else a new file dir/yyyy/mm/dd/<32 random hex><extension>
    // and its row. Same content: the same SHA-256, or, for a row stored before sha256 was
    // recorded (NULL), the same MD5. extension (".png") must be checked already. Call in a
    // transaction.
    StoredFile save(const std::string &content, const std::string &extension);

  private:
    std::optional<StoredFile> find(const char *sql, const std::string &digest);
    StoredFile insert(const std::string &path, const std::string &name,
                      const std::string &extension, int64_t size, const std::string &sha256,
                      const std::string &md5);
    void write(const std::string &path, const std::string &content);

    db::Connection &db_;
    std::string dir_;
    std::map<std::string, StoredFile> saved_; // SHA-256 → row, for the same content twice
};

} // namespace cms
