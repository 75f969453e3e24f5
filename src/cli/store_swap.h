// The file store's half of a restore: the restored tree is unpacked into a hidden scratch
// directory inside the store (so on the store's own filesystem, be the store a mount point or
// reached through a symlink), then the top-level entries that hold lin_file files are swapped one
// by one, each rename checked and never replacing anything. The store directory itself is never
// moved; what is not a lin_file file (.htaccess) stays; what a failed swap cannot put back is
// kept where it is, never deleted, and its path printed. The store belongs to the service
// account: everything in it is reached through descriptors, and only names of the upload layout.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace cms {

namespace db_tools {
class ScratchDir;
}

namespace store_swap {

// The name prefix of the scratch directory inside the store.
constexpr const char *k_prefix = ".cms-restore-";

// The top-level names a restore swaps: the year directories (the first component of a name of
// the upload layout, db/file_store.h) that restored (the restored tree's entries) holds, and
// those of row_paths (the lin_file paths of the replaced database and of the restored one) of the
// upload layout that present (the store's entries) holds. Sorted, each once: never another name
// (a row's path of 'important.conf', .htaccess, a scratch directory).
std::vector<std::string> replaced_names(const std::vector<std::string> &present,
                                        const std::vector<std::string> &restored,
                                        const std::vector<std::string> &row_paths);

// Whether a store holding present holds data a restore without --replace must refuse to touch:
// an entry that is not hidden (a name starting with '.', such as .htaccess, is not data), nor
// lost+found.
bool holds_data(const std::vector<std::string> &present);

// The names in the directory open at dir, "." and ".." aside. Throws std::runtime_error naming
// path when it cannot be read.
std::vector<std::string> entries(int dir, const std::string &path);

// Opens the file store directory path. A symbolic link on the way to it is followed only when
// the link and the directory holding it belong to root or to whoever runs this, and nobody else
// may write that directory (or it is sticky); otherwise refused: the service account could point
// its store at a directory of root's. Throws std::runtime_error saying which link.
int open_store(const std::string &path);

// The scratch directory store/.cms-restore-XXXXXX (0700) with incoming/ (the restored tree) and
// replaced/ (what apply moves out of the store), all reached through descriptors from store.
// Steps and failures are printed to out.
class Swap {
  public:
    // Makes the scratch directory in the store open at store (not owned), store_path naming it
    // in messages. Throws std::runtime_error.
    Swap(int store, const std::string &store_path, std::FILE *out);
    // Removes the scratch directory unless it may hold something of the replaced store: after a
    // failed apply that could not put everything back, or after an apply without finish.
    ~Swap();
    Swap(const Swap &) = delete;
    Swap &operator=(const Swap &) = delete;

    // incoming/, open.
    int incoming() const { return incoming_; }

    // For each of names: store/NAME into replaced/, then incoming/NAME into store/. True when all
    // is done. On the first failure every step done is undone, newest first; each thing that
    // cannot be put back is printed with where it is kept (and listed in kept()), error() says
    // what failed, and it returns false.
    bool apply(const std::vector<std::string> &names);
    const std::string &error() const { return error_; }
    const std::vector<std::string> &kept() const { return kept_; }

    // Once the whole restore is done: removes the replaced entries with the scratch directory.
    void finish();

  private:
    enum class State { staging, swapped, kept, finished };
    int store_;
    std::string store_path_;
    std::unique_ptr<db_tools::ScratchDir> dir_;
    int incoming_ = -1, replaced_ = -1;
    std::FILE *out_;
    State state_ = State::staging;
    std::string error_;
    std::vector<std::string> kept_;
};

} // namespace store_swap
} // namespace cms
