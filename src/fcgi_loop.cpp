// The request loop (FastCGI or CGI), dispatch with authorization, the catch that turns every
// failure into an envelope, CORS headers and the access log.
#include "fcgi_loop.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <fcgiapp.h>
#include <mysqld_error.h>
#include <unistd.h>

#include "auth.h"
#include "config.h"
#include "context.h"
#include "db.h"
#include "errors.h"
#include "log.h"
#include "request.h"
#include "response.h"
#include "router.h"
#include "text.h"

namespace cms {

namespace {

volatile std::sig_atomic_t g_stop = 0;

extern "C" void on_stop_signal(int) {
    g_stop = 1;
    FCGX_ShutdownPending();
}

// At most this much of an unread body is drained after answering, so that nginx never gets a
// broken pipe (and a 502) while it is still sending a body we refused.
constexpr size_t k_max_drain_bytes = 64 * 1024 * 1024;

bool origin_allowed(const Config &config, const std::string &origin) {
    for (const std::string &allowed : config.cors_allowed_origins)
        if (allowed == origin)
            return true;
    return false;
}

void add_cors_headers(const Config &config, const Request &req, Response &res) {
    if (origin_allowed(config, "*")) {
        res.header("Access-Control-Allow-Origin", "*");
    } else if (!req.origin.empty() && origin_allowed(config, req.origin)) {
        res.header("Access-Control-Allow-Origin", req.origin);
        res.header("Vary", "Origin");
    }
}

Response preflight(const Router::Match &match) {
    Response res = Response::empty(204);
    res.header("Allow", match.allow);
    res.header("Access-Control-Allow-Methods", match.allow);
    // A fixed list (what the Lin CMS client sends), never the request's own header echoed back.
    res.header("Access-Control-Allow-Headers", "Authorization, Content-Type, tag");
    res.header("Access-Control-Max-Age", "3600");
    return res;
}

// Match, authorize, then read the body (its cap depends on the route) and run the handler.
Response dispatch(Service &svc, Request &req, Ctx &ctx, const ParamLookup &param,
                  const BodyReader &reader) {
    Router::Match match = svc.router.match(req.method, req.path);
    if (!match.path_known)
        throw ApiError(404, Code::not_found);
    if (req.method == "OPTIONS")
        return preflight(match);
    if (match.route == nullptr)
        throw ApiError(405, Code::method_not_allowed).header("Allow", match.allow);
    req.params = std::move(match.params);
    ctx.route = match.route;
    // Before the body: an anonymous client gets its 401 without making us read 10 MiB.
    authorize(*match.route, req, ctx);
    int64_t cap = body_cap(*match.route, svc.config);
    read_request_body(req, param, reader, static_cast<size_t>(cap));
    return match.route->handler(req, ctx);
}

Response error_response(Service &svc, const Request &req, const ApiError &error) {
    Response res = Response::json(error.status, error_envelope(error, svc.messages, req.line()));
    for (const auto &[name, value] : error.headers)
        res.header(name, value);
    return res;
}

// Lock waits and deadlocks are transient like an unreachable server: 503, try again.
bool is_transient(const db::DbError &e) {
    return e.lost() || e.errnum == ER_LOCK_WAIT_TIMEOUT || e.errnum == ER_LOCK_DEADLOCK;
}

// Dispatches and turns every failure into an envelope. A request that lost the connection
// before writing anything is retried once on a fresh connection (its body is read already).
Response answer(Service &svc, Request &req, const ParamLookup &param, const BodyReader &reader) {
    for (int attempt = 0;; ++attempt) {
        Ctx ctx{svc.config, svc.messages, svc.db, svc.jwt_key, svc.json, nullptr, std::nullopt};
        try {
            svc.db.begin_request();
            return dispatch(svc, req, ctx, param, reader);
        } catch (const ApiError &e) {
            return error_response(svc, req, e);
        } catch (const db::DbError &e) {
            if (e.lost() && attempt == 0 && !svc.db.wrote()) {
                log_warn("database connection lost, retrying once: " + std::string(e.what()));
                continue;
            }
            log_error(std::string(e.what()) + " [" + req.line() + "]");
            if (is_transient(e))
                return error_response(svc, req, ApiError(503, Code::db_unavailable));
            return error_response(svc, req, ApiError(500, Code::internal));
        } catch (const std::exception &e) {
            log_error(std::string("unexpected failure: ") + e.what() + " [" + req.line() + "]");
            return error_response(svc, req, ApiError(500, Code::internal));
        }
    }
}

// Control characters, spaces and non-ASCII in the path are escaped so one request is one line.
std::string log_safe(const std::string &value) {
    return text::percent_escape(
        value, [](unsigned char c) { return c <= 0x20 || c >= 0x7F || c == '%' || c == '"'; });
}

void log_request(const Request &req, const Response &res) {
    auto elapsed = std::chrono::steady_clock::now() - req.started;
    double ms = std::chrono::duration<double, std::milli>(elapsed).count();
    char duration[32];
    std::snprintf(duration, sizeof duration, "%.2f", ms);
    log_access("access: method=" + log_safe(req.method) + " path=" + log_safe(req.path) +
               " status=" + std::to_string(res.status) + " ms=" + duration +
               " pid=" + std::to_string(getpid()) + " remote=" + log_safe(req.remote_addr));
}

Response serve(Service &svc, const ParamLookup &param, const BodyReader &reader) {
    Request req = read_request_head(param);
    Response res = answer(svc, req, param, reader);
    add_cors_headers(svc.config, req, res);
    log_request(req, res);
    return res;
}

} // namespace

void install_stop_handlers() {
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; // no SA_RESTART: accept() must return so the loop sees the flag
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGUSR1, &sa, nullptr);
    sigaction(SIGINT, &sa, nullptr);
}

int run_fastcgi(Service &svc, int listen_fd) {
    FCGX_Request fr;
    if (FCGX_InitRequest(&fr, listen_fd, FCGI_FAIL_ACCEPT_ON_INTR) != 0) {
        log_error("cannot initialise the FastCGI request");
        return 1;
    }
    log_info("ready: accepting FastCGI requests");
    while (!g_stop) {
        if (FCGX_Accept_r(&fr) < 0) {
            if (g_stop || errno == EINTR)
                continue;
            log_error(std::string("cannot accept a FastCGI request: ") + std::strerror(errno));
            return 1;
        }
        ParamLookup param = [&fr](const char *name) { return FCGX_GetParam(name, fr.envp); };
        BodyReader reader = [&fr](char *buf, size_t n) -> size_t {
            int got = FCGX_GetStr(buf, static_cast<int>(n), fr.in);
            return got > 0 ? static_cast<size_t>(got) : 0;
        };
        std::string out = serve(svc, param, reader).serialize();
        FCGX_PutStr(out.data(), static_cast<int>(out.size()), fr.out);
        char sink[16384];
        for (size_t drained = 0; drained < k_max_drain_bytes;) {
            size_t n = reader(sink, sizeof sink);
            if (n == 0)
                break;
            drained += n;
        }
        FCGX_Finish_r(&fr);
    }
    log_info("stopping: signal received");
    return 0;
}

int run_cgi(Service &svc) {
    ParamLookup param = [](const char *name) { return static_cast<const char *>(std::getenv(name)); };
    BodyReader reader = [](char *buf, size_t n) { return std::fread(buf, 1, n, stdin); };
    std::string out = serve(svc, param, reader).serialize();
    std::fwrite(out.data(), 1, out.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : 1;
}

} // namespace cms
