// The swap of a file store's contents for a restored tree, entry by entry inside the store: no
// rename crosses a filesystem, none replaces what is there, none is left unchecked, and each is
// made from a directory descriptor, never by a path the store's owner could change under it.
#include "cli/store_swap.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <deque>
#include <set>
#include <stdexcept>

#include "cli/db_tools.h"
#include "db/file_store.h"

namespace cms {
namespace store_swap {

namespace {

using db_tools::Fd;

bool present(int dir, const std::string &name) {
    struct stat st;
    return fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0;
}

// renameat(2) that never replaces an entry: one that appeared at to (an upload landing mid-swap)
// makes it fail with EEXIST. A filesystem without RENAME_NOREPLACE gets a look first.
bool move_entry(int from_dir, int to_dir, const std::string &name) {
    if (::renameat2(from_dir, name.c_str(), to_dir, name.c_str(), RENAME_NOREPLACE) == 0)
        return true;
    if (errno != EINVAL && errno != ENOSYS)
        return false;
    if (present(to_dir, name)) {
        errno = EEXIST;
        return false;
    }
    return ::renameat(from_dir, name.c_str(), to_dir, name.c_str()) == 0;
}

std::string quote(const std::string &path) { return "'" + path + "'"; }

// A year directory of the upload layout: four digits.
bool year_name(const std::string &name) {
    return name.size() == 4 && std::all_of(name.begin(), name.end(), [](char c) {
               return std::isdigit(static_cast<unsigned char>(c)) != 0;
           });
}

bool trusted(uid_t uid) { return uid == 0 || uid == geteuid(); }

} // namespace

std::vector<std::string> replaced_names(const std::vector<std::string> &present_names,
                                        const std::vector<std::string> &restored,
                                        const std::vector<std::string> &row_paths) {
    std::set<std::string> in_store(present_names.begin(), present_names.end());
    std::set<std::string> names;
    for (const std::string &name : restored)
        if (year_name(name))
            names.insert(name);
    for (const std::string &path : row_paths) {
        std::string first = path.substr(0, path.find('/'));
        if (upload_layout(path) && in_store.count(first) != 0)
            names.insert(first);
    }
    return std::vector<std::string>(names.begin(), names.end());
}

bool holds_data(const std::vector<std::string> &present_names) {
    // lost+found: what mkfs leaves at the top of a fresh ext4 store on a disk of its own.
    return std::any_of(present_names.begin(), present_names.end(), [](const std::string &name) {
        return (name.empty() || name[0] != '.') && name != "lost+found";
    });
}

std::vector<std::string> entries(int dir_fd, const std::string &path) {
    int copy = ::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dir = copy < 0 ? nullptr : fdopendir(copy);
    if (dir == nullptr) {
        std::string why = std::strerror(errno);
        if (copy >= 0)
            ::close(copy);
        throw std::runtime_error("cannot read the directory '" + path + "': " + why);
    }
    std::vector<std::string> names;
    while (const dirent *entry = readdir(dir))
        if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
            names.emplace_back(entry->d_name);
    closedir(dir);
    return names;
}

int open_store(const std::string &path) {
    std::deque<std::string> parts;
    auto push_front = [&parts](const std::string &text) {
        std::deque<std::string> more;
        for (size_t begin = 0; begin <= text.size();) {
            size_t end = std::min(text.find('/', begin), text.size());
            if (end > begin)
                more.push_back(text.substr(begin, end - begin));
            begin = end + 1;
        }
        parts.insert(parts.begin(), more.begin(), more.end());
    };
    push_front(path);
    Fd dir(::open(path.rfind('/', 0) == 0 ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    std::string walked = path.rfind('/', 0) == 0 ? "" : ".";
    for (int links = 0; dir.fd >= 0 && !parts.empty();) {
        std::string part = parts.front();
        parts.pop_front();
        struct stat link, holder;
        if (part != "." && fstatat(dir.fd, part.c_str(), &link, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISLNK(link.st_mode)) {
            // Nobody but root and us may have made the link or may change it: its directory is
            // ours or root's, and writable by no one else (unless sticky, as /tmp).
            if (fstat(dir.fd, &holder) != 0 || !trusted(link.st_uid) || !trusted(holder.st_uid) ||
                ((holder.st_mode & 022) != 0 && (holder.st_mode & S_ISVTX) == 0))
                throw std::runtime_error("refusing the file store '" + path + "': '" + walked +
                                         "/" + part + "' is a symbolic link that another user " +
                                         "could have made or could change");
            char target[4096];
            ssize_t n = ::readlinkat(dir.fd, part.c_str(), target, sizeof target);
            if (n <= 0 || static_cast<size_t>(n) >= sizeof target || ++links > 40)
                throw std::runtime_error("cannot follow '" + walked + "/" + part + "'");
            std::string text(target, static_cast<size_t>(n));
            if (text[0] == '/') {
                ::close(dir.fd);
                dir.fd = ::open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                walked = "";
            }
            push_front(text);
            continue;
        }
        int next = ::openat(dir.fd, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (next < 0)
            throw std::runtime_error("cannot open the file store '" + path + "' at '" + walked +
                                     "/" + part + "': " + std::strerror(errno));
        ::close(dir.fd);
        dir.fd = next;
        walked += "/" + part;
    }
    if (dir.fd < 0)
        throw std::runtime_error("cannot open the file store '" + path + "': " +
                                 std::strerror(errno));
    int fd = dir.fd;
    dir.fd = -1;
    return fd;
}

Swap::Swap(int store, const std::string &store_path, std::FILE *out)
    : store_(store), store_path_(store_path), out_(out) {
    dir_ = std::make_unique<db_tools::ScratchDir>(store, store_path, k_prefix);
    for (int *fd : {&incoming_, &replaced_}) {
        const char *name = fd == &incoming_ ? "incoming" : "replaced";
        if (::mkdirat(dir_->fd(), name, 0700) != 0 ||
            (*fd = ::openat(dir_->fd(), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) <
                0)
            throw std::runtime_error("cannot make the directory '" + dir_->path() + "/" + name +
                                     "': " + std::strerror(errno));
    }
}

Swap::~Swap() {
    switch (state_) {
    case State::staging:
        // Nothing of the store is in replaced/: rmdir, not a removal of the tree, says so.
        if (::unlinkat(dir_->fd(), "replaced", AT_REMOVEDIR) != 0 || !dir_->remove()) {
            std::fprintf(out_, "restore: cannot remove '%s' (%s): remove it by hand\n",
                         dir_->path().c_str(), std::strerror(errno));
            dir_->keep();
        }
        break;
    case State::swapped:
        std::fprintf(out_, "restore: the replaced entries of the file store are kept in '%s'\n",
                     (dir_->path() + "/replaced").c_str());
        dir_->keep();
        break;
    case State::kept:
        dir_->keep();
        break;
    case State::finished:
        break;
    }
    for (int fd : {incoming_, replaced_})
        if (fd >= 0)
            ::close(fd);
}

bool Swap::apply(const std::vector<std::string> &names) {
    struct Step {
        int from, to;
        std::string name;
        bool restored; // incoming/NAME moved in (else store/NAME moved out)
    };
    std::vector<Step> done;
    const std::string scratch = dir_->path();
    auto where = [&](int fd, const std::string &name) {
        return quote((fd == store_ ? store_path_
                                   : scratch + (fd == incoming_ ? "/incoming" : "/replaced")) +
                     "/" + name);
    };
    for (const std::string &name : names) {
        int steps[2][2] = {{store_, replaced_}, {incoming_, store_}};
        for (int i = 0; i < 2 && error_.empty(); ++i) {
            int from = steps[i][0], to = steps[i][1];
            if (!present(from, name))
                continue;
            if (move_entry(from, to, name))
                done.push_back(Step{from, to, name, i == 1});
            else
                error_ = "cannot move " + where(from, name) + " to " + where(to, name) + ": " +
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
        if (move_entry(step->to, step->from, step->name))
            continue;
        std::string why = std::strerror(errno);
        std::string from = where(step->from, step->name), to = where(step->to, step->name);
        std::string line = step->restored
                               ? "the restored " + to + " stays in the file store (cannot move " +
                                     "it back to " + from + ": " + why + ")"
                               : "cannot put back " + from + ": it is kept at " + to + " (" +
                                     why + ")";
        std::fprintf(out_, "restore: %s\n", line.c_str());
        kept_.push_back(line);
        state_ = State::kept;
    }
    if (state_ == State::kept)
        std::fprintf(out_, "restore: '%s' is kept: move what it holds back by hand\n",
                     scratch.c_str());
    return false;
}

void Swap::finish() {
    if (state_ != State::swapped)
        return;
    state_ = State::finished;
    if (!dir_->remove())
        std::fprintf(out_, "restore: cannot remove '%s', which holds the replaced files (%s): "
                           "remove it by hand\n",
                     dir_->path().c_str(), std::strerror(errno));
}

} // namespace store_swap
} // namespace cms
