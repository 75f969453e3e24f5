// A worker process assembled: the pool's health state, and for each thread its database
// connection, router, parsers and slot of the scoreboard, then the worker's loop; or the one CGI
// request. serve() is the pool's entry: the listening socket, then one worker in this process
// or the master that supervises `workers` of them.
#include "pool/serve.h"

#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcgiapp.h>
#include <malloc.h>
#include <unistd.h>

#include "auth/jwt.h"
#include "base/config.h"
#include "base/errors.h"
#include "base/json.h"
#include "base/log.h"
#include "content/catalog.h"
#include "content/content_handlers.h"
#include "db/db.h"
#include "db/db_health.h"
#include "db/permission_store.h"
#include "db/schema.h"
#include "http/pipeline.h"
#include "http/router.h"
#include "metrics/scoreboard.h"
#include "pool/sockets.h"
#include "pool/supervisor.h"
#include "pool/worker.h"

namespace cms {

namespace {

// The routes a thread serves: the fixed table, then the routes of the applied content
// declaration; without one (the database could not be asked yet), placeholders that answer the
// paths of collections with 503 until it can.
std::vector<Route> all_routes(const content::Catalog *catalog) {
    std::vector<Route> routes = route_table();
    if (catalog != nullptr) {
        routes.insert(routes.end(), catalog->routes().begin(), catalog->routes().end());
        return routes;
    }
    for (const char *pattern : {"/v1/{collection}", "/v1/{collection}/{id}",
                                "/v1/{collection}/{id}/restore"})
        for (const char *method : {"GET", "POST", "PUT", "DELETE"})
            routes.push_back(Route{method, pattern, Access::everyone, Permission{},
                                   handle_content_unknown, nullptr, 1024});
    routes.push_back(Route{"GET", "/openapi.json", Access::everyone, Permission{},
                           handle_content_unknown, nullptr, 1024});
    return routes;
}

// What one thread of a worker needs of its own: the database connection (with its statements)
// and the parsers and key that keep state between calls, and the routes. The config, the
// message table, the pool's health state and the pool's content catalog are shared. A CGI
// request's connection is one-shot: it serves one request, which runs most statements once, so
// none is worth a round trip of its own to be prepared.
struct ThreadParts {
    db::Connection db;
    // The applied declaration: the pool's (read by the master at start), else this thread's own,
    // read at its first connect (a CGI request, a pool started while the database was down).
    const content::Catalog *catalog;
    std::unique_ptr<content::Catalog> own_catalog;
    std::vector<Route> routes;
    Router router;
    jwt::Key jwt_key;
    json::BodyParser json;
    std::optional<Meter> meter; // its slot of the pool's scoreboard
    Service service;

    // board: the pool's, with this thread's slot (worker, thread); nullptr without a pool.
    ThreadParts(const Config &config, const Messages &messages, DbHealth &health,
                const content::Catalog *pool_catalog, bool cgi, Scoreboard *board, size_t worker,
                size_t thread)
        : db(config, &health), catalog(pool_catalog), routes(all_routes(catalog)),
          router(routes), jwt_key(config.jwt_secret),
          json(static_cast<int>(config.json_max_depth)),
          service{{config, messages, db, jwt_key, json, board}, router, nullptr} {
        if (cgi)
            db.one_shot();
        if (board != nullptr) {
            meter.emplace(*board, worker, thread);
            service.meter = &*meter;
        }
        // Checked and registered on every (re)connect: idempotent, and a database that was down
        // at start-up is checked and gets its permissions as soon as it is back.
        db.on_connect([this, &config](db::Connection &conn) {
            schema::check_version(conn, config.db_name);
            // The collections' modules, as applied now: read with the catalog when this is the
            // thread's first (a CGI request's one statement), else again (a master's catalog may
            // be older than the declaration).
            std::vector<std::string> modules;
            if (catalog == nullptr && !own_catalog) {
                own_catalog = std::make_unique<content::Catalog>(
                    content::load_applied(conn, content::limits_of(config, route_table())));
                modules = content::labels(own_catalog->declaration());
            } else {
                modules = content::applied_labels(conn);
            }
            // The fixed routes' permissions; the collections' are --setup-db's (content/apply.h).
            PermissionStore(conn).register_declared(declared_permissions(route_table()), modules);
        });
        try {
            db.ensure_connected();
        } catch (const db::DbError &e) {
            log_warn(std::string("database not reachable at start-up, answering 503 until "
                                      "it is: ") + e.what());
        }
        use_own_catalog();
        // A catalog read in a request's connect is served from the next request on.
        service.before_request = [this] { use_own_catalog(); };
        // The first connect is no request's: counted here, then each request counts its own.
        if (meter) {
            add(meter->counters().db_connects, db.stats().connects);
            add(meter->counters().db_connect_failures, db.stats().connect_failures);
            db.state_cell(meter->state_cell()); // from now on in requests only
        }
        db.reset_stats();
    }

    // Serves own_catalog's routes once it was read; only between requests (a Route of the old
    // table may be in use during one).
    void use_own_catalog() {
        if (catalog != nullptr || !own_catalog)
            return;
        catalog = own_catalog.get();
        routes = all_routes(catalog);
        router = Router(routes);
    }
};

// One worker process (listen_fd >= 0), with worker_threads threads, or the one CGI request (-1):
// the pool's health state, each thread's parts, then the loop.
int run_worker_process(const Config &config, const Messages &messages, int listen_fd,
                       const content::Catalog *catalog, DbHealthShared *shared, Scoreboard *board,
                       size_t slot) {
    // A CGI request too: a stop signal must not cut its body read or its answer short (EINTR).
    // Before FCGX_Init: libfcgi installs its own SIGUSR1 handler, which fails every later read,
    // where the handler is still the default, and a stop sends SIGUSR1 to each worker thread.
    install_worker_signals();
    db::ClientLibrary library;
    if (!library.ok()) {
        std::fputs("cms-fcgi: cannot initialise the MariaDB client library\n", stderr);
        return 1;
    }
    int status = 1;
    {
        DbHealth health(config, shared);
        size_t threads = listen_fd >= 0 ? static_cast<size_t>(config.worker_threads) : 1;
        std::vector<std::unique_ptr<ThreadParts>> parts;
        std::vector<Service *> services;
        for (size_t i = 0; i < threads; ++i) {
            parts.push_back(std::make_unique<ThreadParts>(config, messages, health, catalog,
                                                          listen_fd < 0, board, slot, i));
            services.push_back(&parts.back()->service);
        }
        if (FCGX_Init() != 0) {
            std::fputs("cms-fcgi: cannot initialise libfcgi\n", stderr);
        } else {
            status = listen_fd >= 0 ? run_worker(services, listen_fd)
                                    : run_cgi(*services.front());
        }
        for (auto &part : parts)
            part->db.drop();
    }
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

// A database that answers with another schema version, or with a content declaration this
// binary cannot serve, stops start-up; one that does not answer yet is the workers' business
// (503 until it does, then the same checks at connect). The applied declaration, read once for
// every worker; nullptr when the database did not answer.
std::unique_ptr<content::Catalog> check_database_at_start(const Config &config) {
    db::ClientLibrary library;
    library.require();
    db::Connection db(config);
    try {
        db.ensure_connected();
    } catch (const db::DbError &) {
        return nullptr;
    }
    schema::check_version(db, config.db_name);
    auto catalog = std::make_unique<content::Catalog>(
        content::load_applied(db, content::limits_of(config, route_table())));
    // What reading and checking it took goes back to the system before the workers are forked
    // (they would each count it, shared or not).
    malloc_trim(0);
    return catalog;
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

int serve(const Config &config, const Messages &messages, bool supervise, char **argv) {
    fix_malloc_thresholds();
    ListenSocket socket = listening_socket(config.listen);
    int listen_fd = socket.fd;
    SocketFile socket_file = own_socket_file(socket.listen, listen_fd);
    std::unique_ptr<content::Catalog> catalog;
    if (listen_fd >= 0)
        catalog = check_database_at_start(config);
    int status;
    if (!supervise) {
        status = run_worker_process(config, messages, listen_fd, catalog.get(), nullptr, nullptr,
                                    0);
    } else {
        if (listen_fd < 0)
            throw std::runtime_error("--supervise needs a listening socket: give --listen, or "
                                     "start it under spawn-fcgi or a systemd socket unit");
        // Made before the first fork: every worker of this master shares them.
        DbHealthShared *shared = db_health_shared_memory();
        std::unique_ptr<Scoreboard> board = Scoreboard::create(
            config, listen_fd, route_templates(all_routes(catalog.get())), &listen_queue);
        if (!board)
            log_warn(
                "cannot make the scoreboard's shared memory: /status has no pool figures");
        std::string exe = own_path(argv[0]);
        status = run_supervisor(
            config, socket,
            [&](int fd, size_t slot) {
                return run_worker_process(config, messages, fd, catalog.get(), shared,
                                          board.get(), slot);
            },
            exe.c_str(), argv, board.get());
    }
    // Stopped (a re-exec never returns here): nothing listens on the file any more.
    remove_socket_file(socket_file);
    return status;
}

} // namespace cms
