// `cms-fcgi --restore`: checks a whole archive of --backup, then puts its database and files in
// place of config's (empty, or replaced when asked), upgrades an older schema, and with until
// replays the binary log up to that second. A refused or failed restore changes nothing, but
// for what a failed file swap cannot put back: that is kept and named (store_swap.h).
#pragma once

#include <cstdio>
#include <string>

namespace cms {

struct Config;

struct RestoreOptions {
    bool replace = false; // a database or file store that is not empty is replaced, not refused
    std::string until;    // "YYYY-MM-DD HH:MM:SS" (local time): replay the binary log to then
};

// Restores archive into config's database and file_store_dir, printing each step and every
// lin_file row whose file it cannot find (by id, name and path) to out. Raises every user's
// credential version. Throws std::runtime_error (db::DbError included) when it refuses or fails.
void restore_backup(const Config &config, const std::string &archive,
                    const RestoreOptions &options, std::FILE *out);

} // namespace cms
