// The swap of a file store's contents for a restored tree, entry by entry inside the store: no
// rename crosses a filesystem, none replaces what is there, and none is left unchecked.
#include "cli/store_swap.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <stdexcept>

#include "cli/db_tools.h"

namespace cms {
namespace store_swap {

namespace {

bool scratch_name(const std::string &name) {
    return name.compare(0, std::strlen(k_prefix), k_prefix) == 0;
}

bool present(const std::string &path) {
    struct stat st;
    return lstat(path.c_str(), &st) == 0;
}

// rename(2) that never replaces an entry: one that appeared at to (an upload landing mid-swap)
// makes it fail with EEXIST. A filesystem without RENAME_NOREPLACE gets a look first.
bool move_entry(const std::string &from, const std::string &to) {
    if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0)
        return true;
    if (errno != EINVAL && errno != ENOSYS)
        return false;
    if (present(to)) {
        errno = EEXIST;
        return false;
    }
    return ::rename(from.c_str(), to.c_str()) == 0;
}

std::string quote(const std::string &path) { return "'" + path + "'"; }

} // namespace

std::vector<std::string> replaced_names(const std::vector<std::string> &present_names,
                                        const std::vector<std::string> &restored,
                                        const std::vector<std::string> &row_paths) {
    std::set<std::string> in_store(present_names.begin(), present_names.end());
    std::set<std::string> names(restored.begin(), restored.end());
    for (const std::string &path : row_paths) {
        std::string first = path.substr(0, path.find('/'));
        if (in_store.count(first) != 0)
            names.insert(first);
    }
    std::vector<std::string> out;
    for (const std::string &name : names)
        if (!name.empty() && name != "." && name != ".." && !scratch_name(name))
            out.push_back(name);
    return out;
}

bool holds_data(const std::vector<std::string> &present_names) {
    // lost+found: what mkfs leaves at the top of a fresh ext4 store on a disk of its own.
    return std::any_of(present_names.begin(), present_names.end(), [](const std::string &name) {
        return (name.empty() || name[0] != '.') && name != "lost+found";
    });
}

std::vector<std::string> entries(const std::string &path) {
    DIR *dir = opendir(path.c_str());
    if (dir == nullptr) {
        if (errno == ENOENT)
            return {};
        throw std::runtime_error("cannot read the directory '" + path + "': " +
                                 std::strerror(errno));
    }
    std::vector<std::string> names;
    while (const dirent *entry = readdir(dir))
        if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
            names.emplace_back(entry->d_name);
    closedir(dir);
    return names;
}

Swap::Swap(const std::string &store, std::FILE *out) : store_(store), out_(out) {
    std::string pattern = store + "/" + k_prefix + "XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (mkdtemp(buffer.data()) == nullptr)
        throw std::runtime_error("cannot make a directory in '" + store + "': " +
                                 std::strerror(errno));
    path_ = buffer.data();
    incoming_ = path_ + "/incoming";
    replaced_ = path_ + "/replaced";
    for (const std::string &dir : {incoming_, replaced_})
        if (mkdir(dir.c_str(), 0700) != 0) {
            std::string why = std::strerror(errno);
            db_tools::remove_tree(path_);
            throw std::runtime_error("cannot make the directory '" + dir + "': " + why);
        }
}

Swap::~Swap() {
    switch (state_) {
    case State::staging:
        // Nothing of the store is in replaced/: rmdir, not a removal of the tree, says so.
        if (!db_tools::remove_tree(incoming_) || ::rmdir(replaced_.c_str()) != 0 ||
            ::rmdir(path_.c_str()) != 0)
            std::fprintf(out_, "restore: cannot remove '%s' (%s): remove it by hand\n",
                         path_.c_str(), std::strerror(errno));
        break;
    case State::swapped:
        std::fprintf(out_, "restore: the replaced entries of the file store are kept in '%s'\n",
                     replaced_.c_str());
        break;
    case State::kept:
    case State::finished:
        break;
    }
}

bool Swap::apply(const std::vector<std::string> &names) {
    struct Step {
        std::string from, to;
        bool restored; // incoming/NAME moved in (else store/NAME moved out)
    };
    std::vector<Step> done;
    for (const std::string &name : names) {
        std::string live = store_ + "/" + name;
        std::string steps[2][2] = {{live, replaced_ + "/" + name}, {incoming_ + "/" + name, live}};
        for (int i = 0; i < 2 && error_.empty(); ++i) {
            const std::string &from = steps[i][0], &to = steps[i][1];
            if (!present(from))
                continue;
            if (move_entry(from, to))
                done.push_back(Step{from, to, i == 1});
            else
                error_ = "cannot move " + quote(from) + " to " + quote(to) + ": " +
                         std::strerror(errno);
        }
        if (!error_.empty())
            break;
    }
    if (error_.empty()) {
        state_ = State::swapped;
        return true;
    }
    std::fprintf(out_, "restore: %s; putting the file store back\n", error_.c_str());
    for (auto step = done.rbegin(); step != done.rend(); ++step) {
        if (move_entry(step->to, step->from))
            continue;
        std::string why = std::strerror(errno);
        std::string line =
            step->restored
                ? "the restored " + quote(step->to) + " stays in the file store (cannot move it "
                                                      "back to " + quote(step->from) + ": " +
                      why + ")"
                : "cannot put back " + quote(step->from) + ": it is kept at " + quote(step->to) +
                      " (" + why + ")";
        std::fprintf(out_, "restore: %s\n", line.c_str());
        kept_.push_back(line);
        state_ = State::kept;
    }
    if (state_ == State::kept)
        std::fprintf(out_, "restore: '%s' is kept: move what it holds back by hand\n",
                     path_.c_str());
    return false;
}

void Swap::finish() {
    if (state_ != State::swapped)
        return;
    state_ = State::finished;
    if (!db_tools::remove_tree(path_))
        std::fprintf(out_, "restore: cannot remove '%s', which holds the replaced files (%s): "
                           "remove it by hand\n",
                     path_.c_str(), std::strerror(errno));
}

} // namespace store_swap
} // namespace cms
