// cms-fcgi entry: argv → config → message table → database → FastCGI loop (or one CGI request).
// Start-up failures print one line to stderr and exit 1.
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcgiapp.h>
#include <malloc.h>
#include <mysql.h>
#include <openssl/crypto.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "db.h"
#include "db_health.h"
#include "errors.h"
#include "fcgi_loop.h"
#include "json.h"
#include "jwt.h"
#include "log.h"
#include "nginx_texts.h"
#include "password.h"
#include "permission_store.h"
#include "router.h"
#include "schema.h"
#include "setup_db.h"
#include "supervisor.h"
#include "user_rules.h"
#include "worker.h"

namespace {

constexpr int k_listen_backlog = 1024;

void usage() {
    std::fputs("usage: cms-fcgi [-c FILE] [--listen HOST:PORT|PATH] [--supervise] [-t] [--get KEY]\n"
               "       cms-fcgi [-c FILE] --setup-db   (root's password from stdin)\n"
               "       cms-fcgi [-c FILE] --nginx-texts\n"
               "       cms-fcgi --hash-password   (reads the password from stdin)\n"
               "  -c FILE        config file (default: $CMS_CONFIG, else defaults + CMS_* env)\n"
               "  --listen ADDR  accept FastCGI on ADDR instead of the inherited socket (fd 0)\n"
               "  --supervise    run `workers` worker processes and keep them running (the pool)\n"
               "  -t             check the config and the message file, then exit\n"
               "  --get KEY      print the effective value of a config key, then exit\n"
               "  --setup-db     create the schema in an empty database or upgrade it, then exit\n"
               "  --nginx-texts  print the message file's texts of nginx's own errors as the\n"
               "                 include cms-fcgi-texts.conf of nginx/cms-fcgi.conf, then exit\n",
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
    int fd = FCGX_OpenSocket(listen.c_str(), k_listen_backlog);
    if (fd < 0)
        throw std::runtime_error("cannot listen on '" + listen + "'");
    if (listen.find(':') == std::string::npos && chmod(listen.c_str(), 0660) != 0)
        throw std::runtime_error("cannot set the mode of socket '" + listen + "'");
    cms::log_info("listening on " + listen);
    return fd;
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
    cms::Service service;

    ThreadParts(const cms::Config &config, const cms::Messages &messages, cms::DbHealth &health,
                const std::vector<cms::Permission> &declared, bool cgi)
        : db(config, &health), router(cms::route_table()), jwt_key(config.jwt_secret),
          json(static_cast<int>(config.json_max_depth)),
          service{config, messages, db, jwt_key, json, router} {
        if (cgi)
            db.one_shot();
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
    }
};

// One worker process (listen_fd >= 0), with worker_threads threads, or the one CGI request (-1):
// the pool's health state, each thread's parts, then the loop.
int run_worker_process(const cms::Config &config, const cms::Messages &messages, int listen_fd,
                       cms::DbHealthShared *shared) {
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
            parts.push_back(
                std::make_unique<ThreadParts>(config, messages, health, declared, listen_fd < 0));
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
    if (listen_fd >= 0)
        check_schema_at_start(config);
    if (!supervise)
        return run_worker_process(config, messages, listen_fd, nullptr);
    if (listen_fd < 0)
        throw std::runtime_error("--supervise needs a listening socket: give --listen, or start "
                                 "it under spawn-fcgi or a systemd socket unit");
    // Made before the first fork: every worker of this master shares it.
    cms::DbHealthShared *shared = cms::db_health_shared_memory();
    std::string exe = own_path(argv[0]);
    return cms::run_supervisor(
        config, listen_fd,
        [&](int fd) { return run_worker_process(config, messages, fd, shared); }, exe.c_str(),
        argv);
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

} // namespace

int main(int argc, char **argv) {
    fix_malloc_thresholds();
    std::string config_path;
    std::string listen;
    std::string get_key;
    bool test_only = false;
    bool supervise = false;
    bool setup_db = false;
    bool nginx_texts = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        bool has_value = i + 1 < argc;
        if (arg == "-c" && has_value) {
            config_path = argv[++i];
        } else if (arg == "--listen" && has_value) {
            listen = argv[++i];
        } else if (arg == "--get" && has_value) {
            get_key = argv[++i];
        } else if (arg == "--supervise") {
            supervise = true;
        } else if (arg == "--setup-db") {
            setup_db = true;
        } else if (arg == "--nginx-texts") {
            nginx_texts = true;
        } else if (arg == "-t") {
            test_only = true;
        } else if (arg == "--hash-password") {
            return hash_password();
        } else {
            usage();
            return arg == "-h" || arg == "--help" ? 0 : 2;
        }
    }
    if (config_path.empty() && std::getenv("CMS_CONFIG") != nullptr)
        config_path = std::getenv("CMS_CONFIG");
    try {
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
        if (setup_db) {
            if (!init_client_library())
                throw std::runtime_error("cannot initialise the MariaDB client library");
            cms::setup_database(config, std::cin, isatty(0) != 0, stdout);
            mysql_library_end();
            return 0;
        }
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
        std::fprintf(stderr, "cms-fcgi: %s\n", e.what());
        // A CGI client still gets the JSON envelope; the reason stays in the web server's log.
        if (!test_only && get_key.empty() && !setup_db && !nginx_texts && listen.empty() &&
            !supervise && FCGX_IsCGI())
            return cms::fail_cgi();
        return 1;
    }
}
