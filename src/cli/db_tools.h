// MariaDB's own programs (mariadb-dump, mariadb, mariadb-binlog) run for a backup or a restore:
// started by posix_spawnp with the account of the config in a 0600 option file, never on the
// command line or in the environment. Also the private scratch directory they work in, used only
// through its descriptor, and the descriptor and directory helpers that backup.cpp and
// restore.cpp share.
#pragma once

#include <sys/types.h>

#include <cstdio>
#include <string>
#include <vector>

namespace cms {

struct Config;

namespace db_tools {

// An open descriptor (or -1), closed on every way out.
struct Fd {
    int fd;
    explicit Fd(int f) : fd(f) {}
    ~Fd();
    Fd(const Fd &) = delete;
    Fd &operator=(const Fd &) = delete;
};

// A directory made by mkdtemp (mode 0700) below parent, held open and used only through its
// descriptor: parent may belong to another user (the service account's backup directory), who
// can rename the directory and put one of its own in its place, but cannot reach into this one.
// Everything in it is removed, through descriptors, when the object goes. A claimed one also
// holds the file k_claim, locked (flock) for as long as the object lives, so that remove_stale
// can tell the directory of a run that was killed from that of a running one.
class ScratchDir {
  public:
    ScratchDir(const std::string &parent, const std::string &prefix, bool claimed = false);
    // The same below the directory open at parent (not owned), parent_path naming it in messages.
    ScratchDir(int parent, const std::string &parent_path, const std::string &prefix);
    ~ScratchDir();
    ScratchDir(const ScratchDir &) = delete;
    ScratchDir &operator=(const ScratchDir &) = delete;
    // The path it was made at, for messages only: never opened again.
    const std::string &path() const { return path_; }
    // Its descriptor, which everything in it is reached through.
    int fd() const { return fd_; }
    // A new file name in it, open for writing (O_EXCL, O_NOFOLLOW, mode 0600). Throws.
    int create(const std::string &name) const;
    // The regular file name in it, open for reading, never through a link. Throws.
    int open(const std::string &name) const;
    // Removes it now (false on failure, errno set); after keep(), the object leaves it be.
    bool remove();
    void keep() { kept_ = true; }

  private:
    void make(const std::string &prefix);
    std::string path_, name_;
    int parent_ = -1, fd_ = -1, claim_ = -1;
    bool kept_ = false;
};

constexpr const char *k_claim = "claim";
constexpr const char *k_option_file = "client.cnf";

// Removes each directory prefix* of parent that a claimed ScratchDir made and whose lock no
// process holds (its run was killed), naming it on log. A directory without k_claim (another
// program's, an older cms-fcgi's, or one this instant being made) or not ours is left alone.
void remove_stale(const std::string &parent, const std::string &prefix, std::FILE *log);

// Writes dir's k_option_file (mode 0600) as a [client] option file: the config's account and its
// first database server (db_hosts' first entry, else db_host/db_port/db_socket).
void write_option_file(const Config &config, const ScratchDir &dir);

// One program to run: argv (argv[0] looked up in PATH; the option file is passed first as
// --defaults-file), its standard input and output (names of files in the scratch directory;
// empty: /dev/null).
struct Command {
    std::vector<std::string> argv;
    std::string input;
    std::string output;
};

// Runs commands as one pipeline (each one's output into the next one's input; the first's input
// and the last's output as given) with dir's option file, handed over as an open descriptor
// (/dev/fd/N), their standard errors into dir's error_name. Throws std::runtime_error naming the
// first that failed and the last lines of error_name.
void run(const std::vector<Command> &pipeline, const ScratchDir &dir,
         const std::string &error_name);

// Removes name of the directory open at dir and everything below it, through descriptors and
// never through a link (no error when it is not there). False on failure.
bool remove_at(int dir, const std::string &name);

// Opens directory name below the directory open at dir, component by component, never through
// a link, making each missing one with mode. -1 (errno set) on failure.
int open_dirs_at(int dir, const std::string &name, mode_t mode);

// Makes every missing directory of path with mode (whatever the umask). Throws on failure.
void make_dirs(const std::string &path, mode_t mode = 0700);

} // namespace db_tools
} // namespace cms
