// cms-fcgi's entry: the command line read into Options, then the one command it names, as git.c
// picks a builtin from its commands[] table. Each row says what the command needs before it
// runs: the configuration, the configuration checked, the message table, the log file, the
// MariaDB client library. Start-up failures print one line to stderr and exit 1.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include <fcgiapp.h>

#include "base/config.h"
#include "base/env_file.h"
#include "base/errors.h"
#include "base/log.h"
#include "cli/commands.h"
#include "cli/restore.h"
#include "cli/version.h"
#include "db/db.h"
#include "http/nginx_texts.h"
#include "http/pipeline.h"
#include "pool/serve.h"

namespace {

// sysexits.h's EX_CONFIG: the schema of the database is not this release's (cms-fcgi(8)).
constexpr int k_exit_wrong_schema = 78;

void usage() {
    std::fputs("usage: cms-fcgi [-c FILE] [--env FILE] [--listen HOST:PORT|PATH] [--supervise] [-t]\n"
               "                [--get KEY]\n"
               "       cms-fcgi [-c FILE] [--env FILE] --setup-db [--db-admin USER]\n"
               "                (root's password from stdin, or generated and printed)\n"
               "       cms-fcgi [-c FILE] --nginx-texts\n"
               "       cms-fcgi [-c FILE] --check-content FILE\n"
               "       cms-fcgi [-c FILE] [--listen ADDR] status\n"
               "       cms-fcgi --hash-password   (reads the password from stdin)\n"
               "       cms-fcgi --version [--verbose]\n"
               "       cms-fcgi [-c FILE] --backup [DIR]\n"
               "       cms-fcgi [-c FILE] --restore ARCHIVE [--replace] [--until 'YYYY-MM-DD HH:MM:SS']\n"
               "  -c FILE        config file (default: $CMS_CONFIG, else ~/.config/cms-fcgi/cms.conf\n"
               "                 when it exists, else defaults + CMS_* env)\n"
               "  --env FILE     KEY=VALUE lines (cms.env) put in the environment first\n"
               "  --listen ADDR  accept FastCGI on ADDR instead of the inherited socket (fd 0)\n"
               "  --supervise    run `workers` worker processes and keep them running (the pool)\n"
               "  -t             check the config and the message file, then exit\n"
               "  --get KEY      print the effective value of a config key, then exit\n"
               "  --setup-db     create the schema in an empty database or upgrade it, then exit\n"
               "  --db-admin USER  with --setup-db: as MariaDB's USER over the local socket\n"
               "                 (unix_socket authentication), first create db_name and the\n"
               "                 account db_user@localhost with db_password (never empty)\n"
               "  --check-content FILE  check a content declaration (doc/content.md), then,\n"
               "                 with a config file, print the plan of applying it to the\n"
               "                 database (nothing is changed), then exit\n"
               "  --nginx-texts  print the message file's texts of nginx's own errors as the\n"
               "                 include cms-fcgi-texts.conf of nginx/cms-fcgi.conf, then exit\n"
               "  --backup [DIR] write an archive of the database and the files to DIR (default\n"
               "                 backup_dir), print its path, keep backup_keep archives, then exit\n"
               "  --restore ARCHIVE  check the whole archive, then restore it into the empty\n"
               "                 database and file store (--replace: replace them; --until: then\n"
               "                 replay the binary log up to that second), then exit\n"
               "  --version      print the version, then exit (--verbose: and the compiler, the build\n"
               "                 and the version of each library linked in)\n"
               "  status         print a summary of the running pool's GET /status, asked on its\n"
               "                 socket (listen of the config, or --listen), then exit\n",
               stderr);
}

// What the command line said, and what the row's needs loaded for its command.
struct Options {
    std::string config_path, listen, env_file, db_admin, get_key, backup_dir, archive, until,
        content_path;
    bool replace = false;
    char **argv = nullptr;
    cms::Config config;
    std::optional<cms::Messages> messages;
};

enum Need : unsigned {
    k_now = 1,       // runs as soon as it is read: no configuration, the rest of argv unread
    k_config = 2,    // --env, then the configuration (-c, $CMS_CONFIG, ~/.config/...)
    k_checked = 4,   // --listen applied, then check_config
    k_messages = 8,  // the message table of message_file
    k_log = 16,      // log_file opened
    k_database = 32, // the MariaDB client library, for the command's whole run
    k_cgi = 64,      // a failed start of a CGI request still answers the JSON envelope
};

int version(Options &o) {
    bool verbose = false;
    for (char **arg = o.argv + 1; *arg != nullptr; ++arg)
        verbose = verbose || std::strcmp(*arg, "--verbose") == 0;
    std::fputs(cms::version_text(verbose).c_str(), stdout);
    return std::fflush(stdout) == 0 && !std::ferror(stdout) ? 0 : 1;
}
int help(Options &) {
    usage();
    return 0;
}
int hash_password(Options &) { return cms::cmd_hash_password(); }
int get(Options &o) {
    std::printf("%s\n", cms::config_value(o.config, o.get_key).c_str());
    return 0;
}
int nginx_texts(Options &o) {
    std::fputs(cms::nginx_texts(*o.messages, o.config.message_file).c_str(), stdout);
    return std::fflush(stdout) == 0 && !std::ferror(stdout) ? 0 : 1;
}
int status(Options &o) { return cms::cmd_status(o.listen.empty() ? o.config.listen : o.listen); }
int setup_db(Options &o) { return cms::cmd_setup_db(o.config, o.db_admin); }
int check_content(Options &o) {
    return cms::cmd_check_content(o.config, o.content_path, !o.config_path.empty());
}
int restore(Options &o) {
    return cms::cmd_backup_or_restore(o.config, "", o.archive, {o.replace, o.until});
}
int backup(Options &o) { return cms::cmd_backup_or_restore(o.config, o.backup_dir, "", {}); }
int check(Options &o) {
    std::fprintf(stderr, "cms-fcgi: config '%s' is ok\n", o.config_path.c_str());
    return 0;
}
int supervise(Options &o) { return cms::serve(o.config, *o.messages, true, o.argv); }
int serve(Options &o) { return cms::serve(o.config, *o.messages, false, o.argv); }

// The commands, in the order of precedence when the command line names several. name is the
// argument that selects the command; value, when set, the member that the next argument fills
// (for --backup only when it does not start with '-'). The last row, with no name, serves:
// FastCGI on --listen, listen or the inherited socket, or, started by a web server as a CGI
// program, the one request of the environment.
struct Command {
    const char *name;
    int (*run)(Options &);
    unsigned needs;
    std::string Options::*value = nullptr;
};

const Command k_commands[] = {
    {"--version", version, k_now},
    {"-h", help, k_now},
    {"--help", help, k_now},
    {"--hash-password", hash_password, k_now},
    {"--get", get, k_config, &Options::get_key},
    {"--nginx-texts", nginx_texts, k_config | k_messages},
    {"status", status, k_config},
    {"--setup-db", setup_db, k_config | k_database},
    {"--check-content", check_content, k_config | k_database, &Options::content_path},
    {"--restore", restore, k_config | k_log | k_database, &Options::archive},
    {"--backup", backup, k_config | k_log | k_database, &Options::backup_dir},
    {"-t", check, k_config | k_checked | k_messages},
    {"--supervise", supervise, k_config | k_checked | k_messages | k_log},
    {nullptr, serve, k_config | k_checked | k_messages | k_log | k_cgi},
};

// The options that only carry a value for the command.
const std::pair<const char *, std::string Options::*> k_values[] = {
    {"-c", &Options::config_path}, {"--listen", &Options::listen}, {"--env", &Options::env_file},
    {"--db-admin", &Options::db_admin}, {"--until", &Options::until},
};

int bad_usage() {
    usage();
    return 2;
}

// Whether the command line may be read. A web server runs a CGI program whose query string holds
// no '=' with the query's words as its arguments (RFC 3875 4.4; Apache's mod_cgi and mod_cgid do,
// suexec too), so `GET /cms.cgi?--backup` would be `cms-fcgi --backup`: php-cgi's CVE-2012-1823.
// Such a request is served with no argument read, as php-cgi does since; the configuration then
// comes from $CMS_CONFIG or ~/.config/cms-fcgi/cms.conf.
bool arguments_are_ours() {
    const char *gateway = std::getenv("GATEWAY_INTERFACE");
    const char *query = std::getenv("QUERY_STRING");
    return gateway == nullptr || query == nullptr || *query == '\0' ||
           std::strchr(query, '=') != nullptr;
}

// Loads what the command needs, in order, then runs it.
int run(const Command &cmd, Options &o) {
    if ((cmd.needs & k_config) && !o.env_file.empty())
        cms::load_env_file(o.env_file);
    if (cmd.needs & k_config)
        o.config = cms::load_config(o.config_path);
    if (cmd.needs & k_checked) {
        if (o.listen.empty())
            o.listen = o.config.listen;
        else
            o.config.listen = o.listen;
        cms::check_config(o.config);
    }
    if (cmd.needs & k_messages)
        o.messages = cms::Messages::load(o.config.message_file);
    if ((cmd.needs & k_log) && !o.config.log_file.empty()) {
        std::string why = cms::log_open(o.config.log_file.c_str());
        if (!why.empty()) {
            std::fprintf(stderr, "cms-fcgi: cannot open log file '%s': %s\n",
                         o.config.log_file.c_str(), why.c_str());
            return 1;
        }
    }
    std::optional<cms::db::ClientLibrary> library;
    if (cmd.needs & k_database)
        library.emplace().require();
    return cmd.run(o);
}

} // namespace

int main(int argc, char **argv) {
    if (!arguments_are_ours())
        argc = 1;
    Options o;
    o.argv = argv;
    const Command *chosen = &k_commands[std::size(k_commands) - 1];
    bool setup_named = false; // --db-admin goes with --setup-db, whatever runs
    bool verbose = false;     // --verbose goes with --version, which returned when it came
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        bool has_value = i + 1 < argc;
        const Command *cmd = nullptr;
        for (const Command &c : k_commands)
            if (c.name != nullptr && arg == c.name)
                cmd = &c;
        if (cmd != nullptr && (cmd->needs & k_now))
            return cmd->run(o);
        std::string Options::*value = cmd != nullptr ? cmd->value : nullptr;
        for (const auto &[name, member] : k_values)
            value = arg == name ? member : value;
        if (cmd == nullptr && value == nullptr && arg != "--replace" && arg != "--verbose")
            return bad_usage();
        if (value == &Options::backup_dir) {
            if (has_value && argv[i + 1][0] != '-')
                o.backup_dir = argv[++i];
        } else if (value != nullptr) {
            if (!has_value)
                return bad_usage();
            o.*value = argv[++i];
        }
        o.replace = o.replace || arg == "--replace";
        setup_named = setup_named || arg == "--setup-db";
        verbose = verbose || arg == "--verbose";
        // An empty value names no command: `--restore ""` is no restore (and never a backup).
        bool named = cmd != nullptr && (cmd->value == nullptr || !(o.*cmd->value).empty() ||
                                        cmd->value == &Options::backup_dir);
        chosen = named && cmd < chosen ? cmd : chosen;
    }
    if ((!o.db_admin.empty() && !setup_named) || verbose)
        return bad_usage();
    if (o.config_path.empty() && std::getenv("CMS_CONFIG") != nullptr)
        o.config_path = std::getenv("CMS_CONFIG");
    if (o.config_path.empty())
        o.config_path = cms::home_config_path();
    try {
        return run(*chosen, o);
    } catch (const std::runtime_error &e) {
        // A user who meant a file to be read learns that none was (suexec clears CMS_CONFIG).
        std::fprintf(stderr, "cms-fcgi: %s%s\n", e.what(),
                     o.config_path.empty() ? "; no config file was read (-c, $CMS_CONFIG or "
                                             "~/.config/cms-fcgi/cms.conf)"
                                           : "");
        // A CGI client still gets the JSON envelope; the reason stays in the web server's log.
        if ((chosen->needs & k_cgi) && o.listen.empty() && FCGX_IsCGI())
            return cms::fail_cgi();
        // A schema of another version waits for the administrator: the units do not restart on it.
        if (dynamic_cast<const cms::db::WrongSchema *>(&e) != nullptr)
            return k_exit_wrong_schema;
        return 1;
    }
}
