// posix_spawnp of MariaDB's client programs, their option file, and the scratch directories of
// backup and restore, used through descriptors only (openat, O_NOFOLLOW, O_EXCL).
#include "cli/db_tools.h"

#include <dirent.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include "base/config.h"
#include "base/log.h"

extern char **environ;

namespace cms::db_tools {

namespace {

// An option file value in double quotes, with \ and " escaped, and a line break written as the
// escape the option file reader turns back into one: a raw one (CMS_DB_PASSWORD can hold one)
// would end the line, and what follows it would be read as an option of its own.
std::string quoted(const std::string &value) {
    std::string out = "\"";
    for (char c : value) {
        if (c == '\n' || c == '\r') {
            out += c == '\n' ? "\\n" : "\\r";
            continue;
        }
        if (c == '\\' || c == '"')
            out += '\\';
        out += c;
    }
    return out + "\"";
}

// The last non-empty line of the file open at fd, for an error message.
std::string tail(int fd) {
    std::string text;
    char buffer[4096];
    for (ssize_t n; (n = ::pread(fd, buffer, sizeof buffer, static_cast<off_t>(text.size()))) > 0;)
        text.append(buffer, static_cast<size_t>(n));
    std::istringstream in(text);
    std::string line, last;
    while (std::getline(in, line))
        if (!line.empty())
            last = line;
    return last;
}

// /dev/null for an empty name, else name in dir.
int open_in(const ScratchDir &dir, const std::string &name, bool output) {
    if (!name.empty())
        return output ? dir.create(name) : dir.open(name);
    int fd = ::open("/dev/null", (output ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
    if (fd < 0)
        throw std::runtime_error(std::string("cannot open /dev/null: ") + std::strerror(errno));
    return fd;
}

// Removes everything in the directory open at fd.
bool empty_dir(int fd) {
    int copy = ::openat(fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dir = copy < 0 ? nullptr : fdopendir(copy);
    if (dir == nullptr) {
        if (copy >= 0)
            ::close(copy);
        return false;
    }
    std::vector<std::string> names;
    while (const dirent *entry = readdir(dir))
        if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
            names.emplace_back(entry->d_name);
    closedir(dir);
    bool ok = true;
    for (const std::string &name : names)
        ok = remove_at(fd, name) && ok;
    return ok;
}

bool same_file(const struct stat &a, const struct stat &b) {
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// Removes the directory name of parent, emptied through sub (open on it), unless name is no
// longer that directory (its owner moved it and put another there).
bool remove_dir_at(int parent, const std::string &name, int sub) {
    struct stat held, now;
    if (!empty_dir(sub) || fstat(sub, &held) != 0)
        return false;
    if (fstatat(parent, name.c_str(), &now, AT_SYMLINK_NOFOLLOW) != 0 || !same_file(held, now)) {
        errno = ESTALE;
        return false;
    }
    return ::unlinkat(parent, name.c_str(), AT_REMOVEDIR) == 0;
}

// The environment the tools get: ours without CMS_* (CMS_DB_PASSWORD and CMS_JWT_SECRET, for one,
// arrive that way from cms.env), which would sit in each tool's /proc/PID/environ for no use,
// and without MYSQL_PWD, which must not stand in for the option file's account.
std::vector<char *> tool_environment() {
    std::vector<char *> env;
    for (char **e = environ; *e != nullptr; ++e)
        if (std::strncmp(*e, "CMS_", 4) != 0 && std::strncmp(*e, "MYSQL_PWD=", 10) != 0)
            env.push_back(*e);
    env.push_back(nullptr);
    return env;
}

} // namespace

Fd::~Fd() {
    if (fd >= 0)
        ::close(fd);
}

ScratchDir::ScratchDir(const std::string &parent, const std::string &prefix, bool claimed) {
    parent_ = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (parent_ < 0)
        throw std::runtime_error("cannot open the directory '" + parent + "': " +
                                 std::strerror(errno));
    path_ = parent;
    make(prefix);
    if (!claimed)
        return;
    // Locked under another name, then renamed: remove_stale never sees k_claim unlocked while
    // this run lives. O_CLOEXEC: a tool that outlives a killed run must not hold the lock. Where
    // flock does not work, the directory stays unclaimed, as an older cms-fcgi left it.
    std::string unready = std::string(k_claim) + ".new";
    claim_ = ::openat(fd_, unready.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                      0600);
    if (claim_ >= 0 && (flock(claim_, LOCK_EX | LOCK_NB) != 0 ||
                        ::renameat(fd_, unready.c_str(), fd_, k_claim) != 0)) {
        ::close(claim_);
        claim_ = -1;
        ::unlinkat(fd_, unready.c_str(), 0);
    }
}

ScratchDir::ScratchDir(int parent, const std::string &parent_path, const std::string &prefix) {
    parent_ = ::fcntl(parent, F_DUPFD_CLOEXEC, 0);
    if (parent_ < 0)
        throw std::runtime_error(std::string("cannot hold a directory: ") + std::strerror(errno));
    path_ = parent_path;
    make(prefix);
}

// mkdtemp's work through parent_: a path would be looked up again in a directory whose owner can
// rename it meanwhile. Ours only if it is still the empty 0700 directory of this user just made.
void ScratchDir::make(const std::string &prefix) {
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
        unsigned char bytes[6];
        if (getrandom(bytes, sizeof bytes, 0) != static_cast<ssize_t>(sizeof bytes))
            break;
        std::string name = prefix;
        for (unsigned char byte : bytes)
            name += letters[byte % (sizeof letters - 1)];
        if (::mkdirat(parent_, name.c_str(), 0700) != 0) {
            if (errno == EEXIST)
                continue;
            break;
        }
        name_ = name;
        fd_ = ::openat(parent_, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        if (fd_ < 0 || fstat(fd_, &st) != 0 || st.st_uid != geteuid() ||
            (st.st_mode & 077) != 0 || st.st_nlink != 2) {
            if (fd_ >= 0)
                ::close(fd_);
            ::close(parent_);
            throw std::runtime_error("'" + path_ + "/" + name + "' was replaced as it was made");
        }
    }
    if (fd_ < 0) {
        int error = errno;
        ::close(parent_);
        throw std::runtime_error("cannot make a directory in '" + path_ + "': " +
                                 std::strerror(error));
    }
    path_ += "/" + name_;
}

ScratchDir::~ScratchDir() {
    if (!kept_ && !remove())
        log_warn("cannot remove '" + path_ + "': " + std::strerror(errno));
    if (claim_ >= 0)
        ::close(claim_);
    ::close(fd_);
    ::close(parent_);
}

bool ScratchDir::remove() {
    if (kept_)
        return true;
    kept_ = true;
    return remove_dir_at(parent_, name_, fd_);
}

int ScratchDir::create(const std::string &name) const {
    int fd = ::openat(fd_, name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                      0600);
    if (fd < 0)
        throw std::runtime_error("cannot create '" + path_ + "/" + name + "': " +
                                 std::strerror(errno));
    return fd;
}

int ScratchDir::open(const std::string &name) const {
    int fd = ::openat(fd_, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))) {
        ::close(fd);
        fd = -1;
        errno = EINVAL;
    }
    if (fd < 0)
        throw std::runtime_error("cannot open '" + path_ + "/" + name + "': " +
                                 std::strerror(errno));
    int flags = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
}

void remove_stale(const std::string &parent, const std::string &prefix, std::FILE *log) {
    Fd top(::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    int copy = top.fd < 0 ? -1 : ::openat(top.fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dir = copy < 0 ? nullptr : fdopendir(copy);
    if (dir == nullptr) {
        if (copy >= 0)
            ::close(copy);
        return;
    }
    std::vector<std::string> names;
    while (const dirent *entry = readdir(dir))
        if (std::strncmp(entry->d_name, prefix.c_str(), prefix.size()) == 0)
            names.emplace_back(entry->d_name);
    closedir(dir);
    for (const std::string &name : names) {
        std::string path = parent + "/" + name;
        Fd sub(::openat(top.fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
        struct stat st, locked;
        if (sub.fd < 0 || fstat(sub.fd, &st) != 0 || st.st_uid != geteuid())
            continue;
        Fd fd(::openat(sub.fd, k_claim, O_RDWR | O_NOFOLLOW | O_CLOEXEC));
        // Still the same file once locked: another run may have removed the directory meanwhile.
        if (fd.fd < 0 || flock(fd.fd, LOCK_EX | LOCK_NB) != 0 || fstat(fd.fd, &locked) != 0 ||
            fstatat(sub.fd, k_claim, &st, AT_SYMLINK_NOFOLLOW) != 0 || !same_file(st, locked))
            continue;
        if (remove_dir_at(top.fd, name, sub.fd))
            std::fprintf(log, "removed '%s', left by a run that was killed\n", path.c_str());
        else
            std::fprintf(log, "cannot remove '%s', left by a run that was killed: %s\n",
                         path.c_str(), std::strerror(errno));
    }
}

void write_option_file(const Config &config, const ScratchDir &dir) {
    DbAddress address = db_addresses(config).front();
    std::ostringstream text;
    text << "[client]\nuser = " << quoted(config.db_user) << "\n";
    if (!config.db_password.empty())
        text << "password = " << quoted(config.db_password) << "\n";
    if (!address.socket.empty())
        text << "socket = " << quoted(address.socket) << "\n";
    else if (address.host == "localhost")
        // As the service connects: localhost is the client library's default socket, not TCP (a
        // MariaDB with skip-networking, Debian's account user@localhost).
        text << "host = localhost\n";
    else
        text << "host = " << quoted(address.host) << "\nport = " << address.port
             << "\nprotocol = TCP\n";
    // Not in [client]: mariadb-binlog refuses the option.
    text << "[mysql]\ndefault-character-set = utf8mb4\n[mysqldump]\ndefault-character-set = "
            "utf8mb4\n";
    int fd = dir.create(k_option_file);
    std::string data = text.str();
    bool ok = ::write(fd, data.data(), data.size()) == static_cast<ssize_t>(data.size());
    if (::close(fd) != 0 || !ok)
        throw std::runtime_error("cannot write '" + dir.path() + "/" + k_option_file + "'");
}

void run(const std::vector<Command> &pipeline, const ScratchDir &dir,
         const std::string &error_name) {
    std::vector<char *> env = tool_environment();
    // Not close-on-exec: each tool reads it as /dev/fd/N, whatever has become of the path.
    Fd options(dir.open(k_option_file));
    Fd inherited(fcntl(options.fd, F_DUPFD, 3));
    if (inherited.fd < 0)
        throw std::runtime_error(std::string("cannot pass the option file: ") +
                                 std::strerror(errno));
    const std::string option_file = "/dev/fd/" + std::to_string(inherited.fd);
    Fd err(dir.create(error_name));
    std::vector<pid_t> pids;
    int in = -1;
    std::string failure;
    for (size_t i = 0; i < pipeline.size() && failure.empty(); ++i) {
        const Command &cmd = pipeline[i];
        if (in < 0)
            in = open_in(dir, cmd.input, false);
        int out, next_in = -1;
        if (i + 1 < pipeline.size()) {
            int fds[2];
            if (pipe2(fds, O_CLOEXEC) != 0)
                throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
            out = fds[1];
            next_in = fds[0];
        } else {
            out = open_in(dir, cmd.output, true);
        }
        std::vector<std::string> args = cmd.argv;
        args.insert(args.begin() + 1, "--defaults-file=" + option_file);
        std::vector<char *> argv;
        for (std::string &arg : args)
            argv.push_back(arg.data());
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, in, 0);
        posix_spawn_file_actions_adddup2(&actions, out, 1);
        posix_spawn_file_actions_adddup2(&actions, err.fd, 2);
        pid_t pid;
        int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), env.data());
        posix_spawn_file_actions_destroy(&actions);
        ::close(in);
        ::close(out);
        in = next_in;
        if (rc != 0)
            failure = "cannot start " + cmd.argv[0] + ": " + std::strerror(rc);
        else
            pids.push_back(pid);
    }
    if (in >= 0)
        ::close(in);
    for (size_t i = 0; i < pids.size(); ++i) {
        int status = 0;
        while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR) {
        }
        if (failure.empty() && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
            failure = pipeline[i].argv[0] + " failed (" +
                      (WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                         : "signal " + std::to_string(WTERMSIG(status))) +
                      "): " + tail(Fd(dir.open(error_name)).fd);
    }
    if (!failure.empty())
        throw std::runtime_error(failure);
}

bool remove_at(int dir, const std::string &name) {
    if (::unlinkat(dir, name.c_str(), 0) == 0 || errno == ENOENT)
        return true;
    if (errno != EISDIR && errno != EPERM)
        return false;
    Fd sub(::openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    return sub.fd >= 0 && remove_dir_at(dir, name, sub.fd);
}

int open_dirs_at(int dir, const std::string &name, mode_t mode) {
    int fd = ::openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    for (size_t begin = 0; fd >= 0 && begin < name.size();) {
        size_t end = name.find('/', begin);
        std::string part = name.substr(begin, end == std::string::npos ? end : end - begin);
        begin = end == std::string::npos ? name.size() : end + 1;
        if (part.empty() || part == ".")
            continue;
        if (::mkdirat(fd, part.c_str(), mode) == 0) {
            // Whatever the umask: nginx's workers read the store's directories.
            Fd made(::openat(fd, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
            if (made.fd >= 0)
                fchmod(made.fd, mode);
        } else if (errno != EEXIST) {
            ::close(fd);
            return -1;
        }
        int next = ::openat(fd, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        ::close(fd);
        fd = next;
    }
    return fd;
}

void make_dirs(const std::string &path, mode_t mode) {
    for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
        std::string part = path.substr(0, slash);
        if (part.empty() || part == ".") {
        } else if (mkdir(part.c_str(), mode) == 0) {
            if (chmod(part.c_str(), mode) != 0)
                throw std::runtime_error("cannot set the mode of directory '" + part + "': " +
                                         std::strerror(errno));
        } else if (errno != EEXIST) {
            throw std::runtime_error("cannot make directory '" + part + "': " +
                                     std::strerror(errno));
        }
        if (slash == std::string::npos)
            return;
    }
}

} // namespace cms::db_tools
