// Uploaded files: the lin_file rows and the files below file_store_dir that they describe. Stored
// names are random: nothing of a client's file name ever reaches the disk. Nothing here knows HTTP.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cms {

namespace db {
class Connection;
}

// A live lin_file row: its id and its path below file_store_dir ("yyyy/mm/dd/<name>").
struct StoredFile {
    int64_t id = 0;
    std::string path;
};

// Saves the files of one request. The files it wrote are removed again when it is destroyed
// before keep(), so a request whose transaction fails leaves nothing on disk.
class FileStore {
  public:
    FileStore(db::Connection &db, std::string dir) : db_(db), dir_(std::move(dir)) {}
    ~FileStore();
    FileStore(const FileStore &) = delete;
    FileStore &operator=(const FileStore &) = delete;

    // The live row of the same content (by MD5), else a new file dir/yyyy/mm/dd/<32 random hex>
    // <extension> and its row. extension (".png") must be checked already. Call in a transaction.
    StoredFile save(const std::string &content, const std::string &extension);
    // The files written so far stay; call after the commit.
    void keep() { written_.clear(); }

  private:
    std::optional<StoredFile> find(const char *sql, const std::string &md5);
    StoredFile insert(const std::string &path, const std::string &name,
                      const std::string &extension, int64_t size, const std::string &md5);
    void write(const std::string &path, const std::string &content);
    void remove(const std::string &path) noexcept;

    db::Connection &db_;
    std::string dir_;
    std::vector<std::string> written_;        // paths below dir_ to remove unless kept
    std::map<std::string, StoredFile> saved_; // MD5 → row, for the same content twice in a request
};

} // namespace cms
