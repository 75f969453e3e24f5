// MariaDB's own programs (mariadb-dump, mariadb, mariadb-binlog) run for a backup or a restore:
// started by posix_spawnp with the account of the config in a 0600 option file, never on the
// command line or in the environment. Also the private scratch directory they work in, and the
// descriptor and directory helpers that backup.cpp and restore.cpp share.
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

// A directory made by mkdtemp (mode 0700) below parent, removed with everything in it when the
// object goes. A claimed one also holds the file k_claim, locked (flock) for as long as the object
// lives, so that remove_stale can tell the directory of a run that was killed from that of a
// running one (the lock goes with the process, however it ends).
class ScratchDir {
  public:
    ScratchDir(const std::string &parent, const std::string &prefix, bool claimed = false);
    ~ScratchDir();
    ScratchDir(const ScratchDir &) = delete;
    ScratchDir &operator=(const ScratchDir &) = delete;
    const std::string &path() const { return path_; }

  private:
    std::string path_;
    int claim_ = -1;
};

constexpr const char *k_claim = "claim";

// Removes each directory prefix* of parent that a claimed ScratchDir made and whose lock no
// process holds (its run was killed), naming it on log. A directory without k_claim (another
// program's, an older cms-fcgi's, or one this instant being made) or not ours is left alone.
void remove_stale(const std::string &parent, const std::string &prefix, std::FILE *log);

// Writes path (mode 0600) as a [client] option file: the config's account and its first
// database server (db_hosts' first entry, else db_host/db_port/db_socket).
void write_option_file(const Config &config, const std::string &path);

// One program to run: argv (argv[0] looked up in PATH; the option file is passed first as
// --defaults-file), its standard input and output (files opened by path; empty: /dev/null).
struct Command {
    std::vector<std::string> argv;
    std::string input;
    std::string output;
};

// Runs commands as one pipeline (each one's output into the next one's input; the first's
// input and the last's output as given), their standard errors into error_file. Throws
// std::runtime_error naming the first that failed and the last lines of error_file.
void run(const std::vector<Command> &pipeline, const std::string &option_file,
         const std::string &error_file);

// Removes path and everything below it (no error when it is not there). False on failure.
bool remove_tree(const std::string &path);

// Makes every missing directory of path with mode (whatever the umask). Throws on failure.
void make_dirs(const std::string &path, mode_t mode = 0700);

} // namespace db_tools
} // namespace cms
