// cms-fcgi entry: argv → config → message table → database → FastCGI loop (or one CGI request).
// Start-up failures print one line to stderr and exit 1.
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcgiapp.h>
#include <malloc.h>
#include <mysql.h>
#include <openssl/crypto.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli/backup.h"
#include "base/config.h"
#include "db/db.h"
#include "db/db_health.h"
#include "base/env_file.h"
#include "base/errors.h"
#include "cli/fcgi_client.h"
#include "http/pipeline.h"
#include "base/json.h"
#include "auth/jwt.h"
#include "base/log.h"
#include "http/nginx_texts.h"
#include "auth/password.h"
#include "cli/restore.h"
#include "db/permission_store.h"
#include "http/router.h"
#include "db/schema.h"
#include "metrics/scoreboard.h"
#include "cli/setup_db.h"
#include "metrics/status_page.h"
#include "pool/supervisor.h"
#include "api/user_rules.h"
#include "pool/worker.h"

namespace {

constexpr int k_listen_backlog = 1024;

void usage() {
    std::fputs("usage: cms-fcgi [-c FILE] [--env FILE] [--listen HOST:PORT|PATH] [--supervise] [-t]\n"
               "                [--get KEY]\n"
               "       cms-fcgi [-c FILE] [--env FILE] --setup-db [--db-admin USER]\n"
               "                (root's password from stdin, or generated and printed)\n"
               "       cms-fcgi [-c FILE] --nginx-texts\n"
               "       cms-fcgi [-c FILE] [--listen ADDR] status\n"
               "       cms-fcgi --hash-password   (reads the password from stdin)\n"
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
               "  --nginx-texts  print the message file's texts of nginx's own errors as the\n"
               "                 include cms-fcgi-texts.conf of nginx/cms-fcgi.conf, then exit\n"
               "  --backup [DIR] write an archive of the database and the files to DIR (default\n"
               "                 backup_dir), print its path, keep backup_keep archives, then exit\n"
               "  --restore ARCHIVE  check the whole archive, then restore it into the empty\n"
               "                 database and file store (--replace: replace them; --until: then\n"
               "                 replay the binary log up to that second), then exit\n"
               "  status         print a summary of the running pool's GET /status, asked on its\n"
               "                 socket (listen of the config, or --listen), then exit\n",
               stderr);
}

} // namespace

// libmariadb's port for a connect that gives none (ours all give db_port). Only its static
// archive exports it, hence weak: a build against the shared library (sanitizers,
// --enable-static-binary=no) links too, and keeps the look-up that setting it skips.
extern "C" unsigned int mysql_port __attribute__((weak));

namespace {

// mysql_library_init, without what this program never uses: libmariadb's TLS start-up would read
// openssl.cnf and register every legacy cipher, digest and error string by name (the database is
// reached without TLS; the app fetches HMAC and names its digests directly), and without
// mysql_port it would look the "mysql" service up through NSS in /etc/services. A tenth of a CGI
// request's start. Without openssl.cnf the app's own HMAC, SHA-256 and random numbers also run
// without a system-wide OpenSSL policy (FIPS provider, security level): they use OpenSSL's
// defaults. No clean-up at exit either: it frees what the exit frees anyway. False when OpenSSL
// or the client library cannot start.
bool init_client_library() {
    if (OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG | OPENSSL_INIT_NO_ADD_ALL_CIPHERS |
                                OPENSSL_INIT_NO_ADD_ALL_DIGESTS |
                                OPENSSL_INIT_NO_LOAD_CRYPTO_STRINGS | OPENSSL_INIT_NO_ATEXIT,
                            nullptr) != 1)
        return false;
    if (&mysql_port != nullptr)
        mysql_port = 3306;
    return mysql_library_init(0, nullptr, nullptr) == 0;
}

// `cms-fcgi status`: the pool's own status page, asked over its socket, as a few lines.
int print_status(const std::string &address) {
    if (address.empty())
        throw std::runtime_error("status: no socket to ask: give --listen ADDR, or set listen in "
                                 "the config");
    bool tcp = address.find('/') == std::string::npos && address.find(':') != std::string::npos;
    std::string answer = cms::fcgi_request(
        address, {{"GATEWAY_INTERFACE", "CGI/1.1"}, {"SERVER_PROTOCOL", "HTTP/1.1"},
                  {"REQUEST_METHOD", "GET"}, {"PATH_INFO", "/status"}, {"REQUEST_URI", "/status"},
                  {"QUERY_STRING", ""}, {"REMOTE_ADDR", tcp ? "127.0.0.1" : "unix:"}});
    size_t blank = answer.find("\r\n\r\n");
    if (answer.compare(0, 11, "Status: 200") != 0 || blank == std::string::npos)
        throw std::runtime_error("status: the pool at '" + address + "' answered: " +
                                 answer.substr(0, answer.find('\r')));
    Json::Value page;
    std::string body = answer.substr(blank + 4);
    std::unique_ptr<Json::CharReader> reader(Json::CharReaderBuilder().newCharReader());
    if (!reader->parse(body.data(), body.data() + body.size(), &page, nullptr) ||
        !page.isObject() || page["pool"].isNull())
        throw std::runtime_error("status: '" + address + "' answers without a pool");
    std::fputs(cms::status_summary(page).c_str(), stdout);
    return 0;
}

int hash_password() {
    std::string line;
    if (!std::getline(std::cin, line)) {
        std::fputs("cms-fcgi: no password on stdin\n", stderr);
        return 1;
    }
    if (!cms::password_allowed(line)) {
        std::fprintf(stderr,
                     "cms-fcgi: the password breaks the password rule (%s): its user could never "
                     "set it again through the client\n",
                     cms::k_password_rule);
        return 1;
    }
    std::printf("%s\n", cms::password::hash(line).c_str());
    return 0;
}

// libfcgi unlinks whatever is at a socket path before it binds: refuse a path that holds
// anything but a socket nothing listens on (one left by a pool that was killed), so that a
// mistyped listen removes no file and a second pool does not take a running pool's socket.
void check_socket_path(const std::string &path) {
    struct stat file {};
    if (lstat(path.c_str(), &file) != 0)
        return; // nothing there (or nothing we may see: bind will say)
    if (!S_ISSOCK(file.st_mode))
        throw std::runtime_error("cannot listen on '" + path +
                                 "': the path holds a file that is not a socket");
    sockaddr_un address{};
    if (path.size() >= sizeof address.sun_path)
        return; // too long for any socket: FCGX_OpenSocket refuses it
    address.sun_family = AF_UNIX;
    std::memcpy(address.sun_path, path.data(), path.size());
    // Non-blocking: a running pool with a full accept queue answers EAGAIN, not a wait.
    int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (probe < 0)
        throw std::runtime_error("cannot listen on '" + path + "': " + std::strerror(errno));
    int error = connect(probe, reinterpret_cast<sockaddr *>(&address), sizeof address) == 0
                    ? 0
                    : errno;
    close(probe);
    if (error == 0 || error == EAGAIN)
        throw std::runtime_error("cannot listen on '" + path +
                                 "': another process accepts on that socket");
    if (error != ECONNREFUSED && error != ENOENT)
        throw std::runtime_error("cannot listen on '" + path + "': cannot tell whether " +
                                 "another process accepts on it: " + std::strerror(error));
}

// The listening socket: the one a re-executed master already holds, a new one on listen (a unix
// socket only the process's user and group may connect to), or the one inherited on fd 0 from
// spawn-fcgi or a systemd socket unit. -1 when the process is a CGI program. Throws on failure.
int listening_socket(const std::string &listen) {
    if (const char *inherited = std::getenv(cms::k_inherited_socket_env)) {
        char *end = nullptr;
        long fd = std::strtol(inherited, &end, 10);
        if (end == inherited || *end != '\0' || fd < 0 || fd > INT_MAX)
            throw std::runtime_error(std::string(cms::k_inherited_socket_env) +
                                     " is not a descriptor");
        unsetenv(cms::k_inherited_socket_env);
        return static_cast<int>(fd);
    }
    if (listen.empty())
        return FCGX_IsCGI() ? -1 : 0;
    if (listen.find(':') == std::string::npos)
        check_socket_path(listen);
    int fd = FCGX_OpenSocket(listen.c_str(), k_listen_backlog);
    if (fd < 0)
        throw std::runtime_error("cannot listen on '" + listen + "'");
    if (listen.find(':') == std::string::npos && chmod(listen.c_str(), 0660) != 0)
        throw std::runtime_error("cannot set the mode of socket '" + listen + "'");
    cms::log_info("listening on " + listen);
    return fd;
}

// The unix socket file this process (or the master it re-executed from) made from listen, which
// a clean stop removes; path empty for a TCP socket and for one inherited from spawn-fcgi or a
// systemd socket unit, whose file is theirs. Compared with the socket's own address, so that a
// re-exec after listen changed never removes a file the socket is not bound to, and known by its
// inode, so that a file put at the path since (another pool's socket) is not removed either.
struct SocketFile {
    std::string path;
    dev_t device = 0;
    ino_t inode = 0;
};

SocketFile own_socket_file(const std::string &listen, int fd) {
    if (fd < 0 || listen.empty() || listen.find(':') != std::string::npos)
        return {};
    sockaddr_un address{};
    socklen_t length = sizeof address;
    struct stat file {};
    if (getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length) != 0 ||
        address.sun_family != AF_UNIX ||
        std::string(address.sun_path, strnlen(address.sun_path, sizeof address.sun_path)) !=
            listen ||
        lstat(listen.c_str(), &file) != 0 || !S_ISSOCK(file.st_mode))
        return {};
    return {listen, file.st_dev, file.st_ino};
}

// Removes socket when the file at its path is still the one this process found there.
void remove_socket_file(const SocketFile &socket) {
    struct stat file {};
    if (socket.path.empty() || lstat(socket.path.c_str(), &file) != 0 ||
        file.st_dev != socket.device || file.st_ino != socket.inode)
        return;
    if (unlink(socket.path.c_str()) != 0 && errno != ENOENT)
        cms::log_warn("cannot remove socket '" + socket.path + "': " + std::strerror(errno));
}

// What one thread of a worker needs of its own: the database connection (with its statements)
// and the parsers and key that keep state between calls. The config, the message table and the
// pool's health state are shared. A CGI request's connection is one-shot: it serves one request,
// which runs most statements once, so none is worth a round trip of its own to be prepared.
struct ThreadParts {
    cms::db::Connection db;
    cms::Router router;
    cms::jwt::Key jwt_key;
    cms::json::BodyParser json;
    std::optional<cms::Meter> meter; // its slot of the pool's scoreboard
    cms::Service service;

    // board: the pool's, with this thread's slot (worker, thread); nullptr without a pool.
    ThreadParts(const cms::Config &config, const cms::Messages &messages, cms::DbHealth &health,
                const std::vector<cms::Permission> &declared, bool cgi, cms::Scoreboard *board,
                size_t worker, size_t thread)
        : db(config, &health), router(cms::route_table()), jwt_key(config.jwt_secret),
          json(static_cast<int>(config.json_max_depth)),
          service{config, messages, db, jwt_key, json, router, board, nullptr} {
        if (cgi)
            db.one_shot();
        if (board != nullptr) {
            meter.emplace(*board, worker, thread);
            service.meter = &*meter;
        }
        // Checked and registered on every (re)connect: idempotent, and a database that was down
        // at start-up is checked and gets its permissions as soon as it is back.
        db.on_connect([&declared, &config](cms::db::Connection &conn) {
            cms::schema::check_version(conn, config.db_name);
            cms::PermissionStore(conn).register_declared(declared);
        });
        try {
            db.ensure_connected();
        } catch (const cms::db::DbError &e) {
            cms::log_warn(std::string("database not reachable at start-up, answering 503 until "
                                      "it is: ") + e.what());
        }
        // The first connect is no request's: counted here, then each request counts its own.
        if (meter) {
            cms::add(meter->counters().db_connects, db.stats().connects);
            cms::add(meter->counters().db_connect_failures, db.stats().connect_failures);
            db.state_cell(meter->state_cell()); // from now on in requests only
        }
        db.reset_stats();
    }
};

// One worker process (listen_fd >= 0), with worker_threads threads, or the one CGI request (-1):
// the pool's health state, each thread's parts, then the loop.
int run_worker_process(const cms::Config &config, const cms::Messages &messages, int listen_fd,
                       cms::DbHealthShared *shared, cms::Scoreboard *board, size_t slot) {
    // A CGI request too: a stop signal must not cut its body read or its answer short (EINTR).
    // Before FCGX_Init: libfcgi installs its own SIGUSR1 handler, which fails every later read,
    // where the handler is still the default, and a stop sends SIGUSR1 to each worker thread.
    cms::install_worker_signals();
    if (!init_client_library()) {
        std::fputs("cms-fcgi: cannot initialise the MariaDB client library\n", stderr);
        return 1;
    }
    int status = 1;
    {
        cms::DbHealth health(config, shared);
        const std::vector<cms::Permission> declared =
            cms::declared_permissions(cms::route_table());
        size_t threads = listen_fd >= 0 ? static_cast<size_t>(config.worker_threads) : 1;
        std::vector<std::unique_ptr<ThreadParts>> parts;
        std::vector<cms::Service *> services;
        for (size_t i = 0; i < threads; ++i) {
            parts.push_back(std::make_unique<ThreadParts>(config, messages, health, declared,
                                                          listen_fd < 0, board, slot, i));
            services.push_back(&parts.back()->service);
        }
        if (FCGX_Init() != 0) {
            std::fputs("cms-fcgi: cannot initialise libfcgi\n", stderr);
        } else {
            status = listen_fd >= 0 ? cms::run_worker(services, listen_fd)
                                    : cms::run_cgi(*services.front());
        }
        for (auto &part : parts)
            part->db.drop();
    }
    mysql_library_end();
    return status;
}

// The path this program was started from, for the supervisor's re-exec (a binary replaced on
// disk since is what a restart must run).
std::string own_path(const char *argv0) {
    if (std::strchr(argv0, '/') != nullptr) {
        char resolved[PATH_MAX];
        if (realpath(argv0, resolved) != nullptr)
            return resolved;
    }
    char link[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", link, sizeof link - 1);
    if (n <= 0)
        return argv0;
    link[n] = '\0';
    return link;
}

// A database that answers with another schema version stops start-up; one that does not answer
// yet is the workers' business (503 until it does, then the same check at connect).
void check_schema_at_start(const cms::Config &config) {
    if (!init_client_library())
        throw std::runtime_error("cannot initialise the MariaDB client library");
    {
        cms::db::Connection db(config);
        bool reachable = true;
        try {
            db.ensure_connected();
        } catch (const cms::db::DbError &) {
            reachable = false;
        }
        if (reachable)
            cms::schema::check_version(db, config.db_name);
    }
    mysql_library_end();
}

int serve(const cms::Config &config, const cms::Messages &messages, bool supervise, char **argv) {
    int listen_fd = listening_socket(config.listen);
    SocketFile socket_file = own_socket_file(config.listen, listen_fd);
    if (listen_fd >= 0)
        check_schema_at_start(config);
    int status;
    if (!supervise) {
        status = run_worker_process(config, messages, listen_fd, nullptr, nullptr, 0);
    } else {
        if (listen_fd < 0)
            throw std::runtime_error("--supervise needs a listening socket: give --listen, or "
                                     "start it under spawn-fcgi or a systemd socket unit");
        // Made before the first fork: every worker of this master shares them.
        cms::DbHealthShared *shared = cms::db_health_shared_memory();
        std::unique_ptr<cms::Scoreboard> board = cms::Scoreboard::create(config, listen_fd, cms::route_templates(cms::route_table()));
        if (!board)
            cms::log_warn(
                "cannot make the scoreboard's shared memory: /status has no pool figures");
        std::string exe = own_path(argv[0]);
        status = cms::run_supervisor(
            config, listen_fd,
            [&](int fd, size_t slot) {
                return run_worker_process(config, messages, fd, shared, board.get(), slot);
            },
            exe.c_str(), argv, board.get());
    }
    // Stopped (a re-exec never returns here): nothing listens on the file any more.
    remove_socket_file(socket_file);
    return status;
}

// --backup (into dir, backup_dir when empty) or --restore archive; the archive's path on stdout,
// the steps on stderr (and to log_file). Exit 1 on failure, with the reason.
int backup_or_restore(const cms::Config &config, std::string dir, const std::string &archive,
                      const cms::RestoreOptions &options) {
    if (!config.log_file.empty() && !cms::log_open(config.log_file.c_str())) {
        std::fprintf(stderr, "cms-fcgi: cannot open log file '%s'\n", config.log_file.c_str());
        return 1;
    }
    if (!init_client_library())
        throw std::runtime_error("cannot initialise the MariaDB client library");
    try {
        if (archive.empty()) {
            std::string path = cms::make_backup(config, dir.empty() ? config.backup_dir : dir,
                                                stderr);
            std::printf("%s\n", path.c_str());
        } else {
            cms::restore_backup(config, archive, options, stderr);
        }
    } catch (const std::exception &e) {
        // A logic_error too (a jsoncpp type error, std::stoll): caught, it unwinds, so the
        // scratch directory (the dump, the option file with the password) and a partial archive
        // are removed; uncaught, it would end the program with them left behind.
        cms::log_error(std::string(archive.empty() ? "backup failed: " : "restore failed: ") +
                       e.what());
        throw std::runtime_error(e.what());
    }
    mysql_library_end();
    return std::fflush(stdout) == 0 && !std::ferror(stdout) ? 0 : 1;
}

// Fixed malloc thresholds instead of glibc's sliding ones. By default, freeing a block that was
// mapped (above 128 KiB: a large body, a big JSON document) raises the mapping threshold to its
// size and the trim threshold to twice that, so from then on such blocks come from the heap, and
// up to 64 MiB of free heap top stays mapped: a worker's memory kept stepping up after each
// large request. Fixed at 128 KiB, a large block is unmapped when freed and free heap top above
// 128 KiB is returned: battery/README.md shows both over 30-minute soaks.
void fix_malloc_thresholds() {
    constexpr int k_threshold = 128 * 1024;
    mallopt(M_MMAP_THRESHOLD, k_threshold);
    mallopt(M_TRIM_THRESHOLD, k_threshold);
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

} // namespace

int main(int argc, char **argv) {
    fix_malloc_thresholds();
    if (!arguments_are_ours())
        argc = 1;
    std::string config_path;
    std::string listen;
    std::string get_key;
    std::string env_file;
    std::string db_admin;
    bool test_only = false;
    bool supervise = false;
    bool setup_db = false;
    bool nginx_texts = false;
    bool backup = false;
    std::string backup_dir, restore_archive;
    cms::RestoreOptions restore_options;
    bool status = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        bool has_value = i + 1 < argc;
        if (arg == "-c" && has_value) {
            config_path = argv[++i];
        } else if (arg == "--listen" && has_value) {
            listen = argv[++i];
        } else if (arg == "--env" && has_value) {
            env_file = argv[++i];
        } else if (arg == "--db-admin" && has_value) {
            db_admin = argv[++i];
        } else if (arg == "--get" && has_value) {
            get_key = argv[++i];
        } else if (arg == "--supervise") {
            supervise = true;
        } else if (arg == "--setup-db") {
            setup_db = true;
        } else if (arg == "--nginx-texts") {
            nginx_texts = true;
        } else if (arg == "--backup") {
            backup = true;
            if (has_value && argv[i + 1][0] != '-')
                backup_dir = argv[++i];
        } else if (arg == "--restore" && has_value) {
            restore_archive = argv[++i];
        } else if (arg == "--replace") {
            restore_options.replace = true;
        } else if (arg == "--until" && has_value) {
            restore_options.until = argv[++i];
        } else if (arg == "status") {
            status = true;
        } else if (arg == "-t") {
            test_only = true;
        } else if (arg == "--hash-password") {
            return hash_password();
        } else {
            usage();
            return arg == "-h" || arg == "--help" ? 0 : 2;
        }
    }
    if (!db_admin.empty() && !setup_db) {
        usage();
        return 2;
    }
    if (config_path.empty() && std::getenv("CMS_CONFIG") != nullptr)
        config_path = std::getenv("CMS_CONFIG");
    if (config_path.empty())
        config_path = cms::home_config_path();
    try {
        if (!env_file.empty())
            cms::load_env_file(env_file);
        cms::Config config = cms::load_config(config_path);
        if (!get_key.empty()) {
            std::printf("%s\n", cms::config_value(config, get_key).c_str());
            return 0;
        }
        if (nginx_texts) {
            cms::Messages messages = cms::Messages::load(config.message_file);
            std::fputs(cms::nginx_texts(messages, config.message_file).c_str(), stdout);
            return std::fflush(stdout) == 0 && !std::ferror(stdout) ? 0 : 1;
        }
        if (status)
            return print_status(listen.empty() ? config.listen : listen);
        if (setup_db) {
            if (!init_client_library())
                throw std::runtime_error("cannot initialise the MariaDB client library");
            if (db_admin.empty())
                cms::setup_database(config, std::cin, isatty(0) != 0, stdout);
            else
                cms::setup_database_as(db_admin, config, std::cin, isatty(0) != 0, stdout);
            mysql_library_end();
            return 0;
        }
        if (backup || !restore_archive.empty())
            return backup_or_restore(config, backup ? backup_dir : std::string(), restore_archive,
                                     restore_options);
        if (listen.empty())
            listen = config.listen;
        else
            config.listen = listen;
        cms::check_config(config);
        cms::Messages messages = cms::Messages::load(config.message_file);
        if (test_only) {
            std::fprintf(stderr, "cms-fcgi: config '%s' is ok\n", config_path.c_str());
            return 0;
        }
        if (!config.log_file.empty() && !cms::log_open(config.log_file.c_str())) {
            std::fprintf(stderr, "cms-fcgi: cannot open log file '%s'\n", config.log_file.c_str());
            return 1;
        }
        return serve(config, messages, supervise, argv);
    } catch (const std::runtime_error &e) {
        // A user who meant a file to be read learns that none was (suexec clears CMS_CONFIG).
        std::fprintf(stderr, "cms-fcgi: %s%s\n", e.what(),
                     config_path.empty() ? "; no config file was read (-c, $CMS_CONFIG or "
                                           "~/.config/cms-fcgi/cms.conf)"
                                         : "");
        // A CGI client still gets the JSON envelope; the reason stays in the web server's log.
        if (!test_only && get_key.empty() && !setup_db && !nginx_texts && !status &&
            listen.empty() && !supervise && !backup && restore_archive.empty() && FCGX_IsCGI())
            return cms::fail_cgi();
        return 1;
    }
}
