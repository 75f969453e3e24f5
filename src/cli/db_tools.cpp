// posix_spawnp of MariaDB's client programs, their option file, and the scratch directories of
// backup and restore.
#include "cli/db_tools.h"

#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
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

// The last lines of path, for an error message.
std::string tail(const std::string &path) {
    std::ifstream in(path);
    std::string line, last;
    while (std::getline(in, line))
        if (!line.empty())
            last = line;
    return last;
}

int open_or_throw(const std::string &path, int flags) {
    int fd = ::open(path.empty() ? "/dev/null" : path.c_str(), flags | O_CLOEXEC, 0600);
    if (fd < 0)
        throw std::runtime_error("cannot open '" + path + "': " + std::strerror(errno));
    return fd;
}

int remove_entry(const char *path, const struct stat *, int, struct FTW *) {
    return ::remove(path);
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
    std::string pattern = parent + "/" + prefix + "XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (mkdtemp(buffer.data()) == nullptr)
        throw std::runtime_error("cannot make a directory in '" + parent + "': " +
                                 std::strerror(errno));
    path_ = buffer.data();
    if (!claimed)
        return;
    // Locked under another name, then renamed: remove_stale never sees k_claim unlocked while
    // this run lives. O_CLOEXEC: a tool that outlives a killed run must not hold the lock. Where
    // flock does not work, the directory stays unclaimed, as an older cms-fcgi left it.
    std::string unready = path_ + "/" + k_claim + ".new";
    claim_ = ::open(unready.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (claim_ >= 0 && (flock(claim_, LOCK_EX | LOCK_NB) != 0 ||
                        ::rename(unready.c_str(), (path_ + "/" + k_claim).c_str()) != 0)) {
        ::close(claim_);
        claim_ = -1;
        ::unlink(unready.c_str());
    }
}

ScratchDir::~ScratchDir() {
    if (!remove_tree(path_))
        log_warn("cannot remove '" + path_ + "'");
    if (claim_ >= 0)
        ::close(claim_);
}

void remove_stale(const std::string &parent, const std::string &prefix, std::FILE *log) {
    DIR *dir = opendir(parent.c_str());
    if (dir == nullptr)
        return;
    std::vector<std::string> names;
    while (const dirent *entry = readdir(dir))
        if (std::strncmp(entry->d_name, prefix.c_str(), prefix.size()) == 0)
            names.emplace_back(entry->d_name);
    closedir(dir);
    for (const std::string &name : names) {
        std::string path = parent + "/" + name, claim = path + "/" + k_claim;
        struct stat st, locked;
        if (lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != geteuid())
            continue;
        Fd fd(::open(claim.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC));
        // Still the same file once locked: another run may have removed the directory meanwhile.
        if (fd.fd < 0 || flock(fd.fd, LOCK_EX | LOCK_NB) != 0 || fstat(fd.fd, &locked) != 0 ||
            lstat(claim.c_str(), &st) != 0 || st.st_ino != locked.st_ino ||
            st.st_dev != locked.st_dev)
            continue;
        if (remove_tree(path))
            std::fprintf(log, "removed '%s', left by a run that was killed\n", path.c_str());
        else
            std::fprintf(log, "cannot remove '%s', left by a run that was killed: %s\n",
                         path.c_str(), std::strerror(errno));
    }
}

void write_option_file(const Config &config, const std::string &path) {
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
    int fd = open_or_throw(path, O_WRONLY | O_CREAT | O_EXCL);
    std::string data = text.str();
    bool ok = ::write(fd, data.data(), data.size()) == static_cast<ssize_t>(data.size());
    if (::close(fd) != 0 || !ok)
        throw std::runtime_error("cannot write '" + path + "'");
}

void run(const std::vector<Command> &pipeline, const std::string &option_file,
         const std::string &error_file) {
    std::vector<char *> env = tool_environment();
    int err = open_or_throw(error_file, O_WRONLY | O_CREAT | O_APPEND);
    std::vector<pid_t> pids;
    int in = -1;
    std::string failure;
    for (size_t i = 0; i < pipeline.size() && failure.empty(); ++i) {
        const Command &cmd = pipeline[i];
        if (in < 0)
            in = open_or_throw(cmd.input, O_RDONLY);
        int out, next_in = -1;
        if (i + 1 < pipeline.size()) {
            int fds[2];
            if (pipe2(fds, O_CLOEXEC) != 0)
                throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
            out = fds[1];
            next_in = fds[0];
        } else {
            out = open_or_throw(cmd.output, O_WRONLY | O_CREAT | O_TRUNC);
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
        posix_spawn_file_actions_adddup2(&actions, err, 2);
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
    ::close(err);
    for (size_t i = 0; i < pids.size(); ++i) {
        int status = 0;
        while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR) {
        }
        if (failure.empty() && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
            failure = pipeline[i].argv[0] + " failed (" +
                      (WIFEXITED(status) ? "exit " + std::to_string(WEXITSTATUS(status))
                                         : "signal " + std::to_string(WTERMSIG(status))) +
                      "): " + tail(error_file);
    }
    if (!failure.empty())
        throw std::runtime_error(failure);
}

bool remove_tree(const std::string &path) {
    struct stat st;
    if (lstat(path.c_str(), &st) != 0)
        return errno == ENOENT;
    return nftw(path.c_str(), remove_entry, 16, FTW_DEPTH | FTW_PHYS) == 0;
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
