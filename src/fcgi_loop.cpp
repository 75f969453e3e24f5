// One request (FastCGI or CGI): dispatch with authorization and, for routes that write, the
// transaction with its behaviour-log row and Idempotency-Key; the catch that turns every failure
// into an envelope, the retries of transient database failures, CORS headers and the access log.
#include "fcgi_loop.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>

#include <mysqld_error.h>

#include "auth.h"
#include "behaviour_log.h"
#include "config.h"
#include "context.h"
#include "db.h"
#include "errors.h"
#include "idempotency.h"
#include "log.h"
#include "request.h"
#include "response.h"
#include "router.h"
#include "text.h"

namespace cms {

namespace {

// At most this much of an unread body is drained after answering, so that the web server never
// gets a broken pipe (and a 502) while it is still sending a body we refused.
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
    res.header("Access-Control-Allow-Headers", "Authorization, Content-Type, Idempotency-Key, tag");
    res.header("Access-Control-Max-Age", "3600");
    return res;
}

// Whether a route may write: it runs in a transaction that dispatch commits.
bool writes(const Route &route) {
    std::string_view method = route.method;
    return method != "GET" && method != "HEAD";
}

// Runs the handler of a route that writes in one transaction with what every such request
// shares: the answer to a repeated Idempotency-Key, the behaviour-log row after a success, the
// key's answer, and the commit. An ApiError thrown by the handler rolls it all back; a response
// it returns commits, errors included (a failed password check is counted), and only a 2xx one
// is logged.
Response run_in_transaction(const Route &route, Request &req, Ctx &ctx) {
    std::optional<IdempotencyKey> key = idempotency_key(req, ctx);
    db::Transaction tx(ctx.db);
    if (key)
        if (std::optional<Response> first = replay_or_reserve(*key, req, ctx))
            return *first;
    Response res = route.handler(req, ctx);
    if (res.status >= 200 && res.status < 300)
        record_behaviour(req, ctx, res.status);
    if (key)
        remember_answer(*key, ctx, res);
    tx.commit();
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
    if (writes(*match.route))
        return run_in_transaction(*match.route, req, ctx);
    return match.route->handler(req, ctx);
}

Response error_response(Service &svc, const Request &req, const ApiError &error) {
    Response res = Response::json(error.status, error_envelope(error, svc.messages, req.line()));
    for (const auto &[name, value] : error.headers)
        res.header(name, value);
    return res;
}

// Lock waits and deadlocks are transient like an unreachable server: 503, try again. So is a
// schema of another version: the service is unavailable until the operator upgrades it.
bool is_transient(const db::DbError &e) {
    return e.lost() || e.errnum == ER_LOCK_WAIT_TIMEOUT || e.errnum == ER_LOCK_DEADLOCK ||
           dynamic_cast<const db::WrongSchema *>(&e) != nullptr;
}

// A deadlock (or a Galera certification failure, reported the same way) rolled the transaction
// back whole: running the request again is safe, and usually succeeds at once.
constexpr int k_deadlock_retries = 3;

// Waits a few random milliseconds, so that two requests that deadlocked do not meet again.
void deadlock_pause(int attempt) {
    thread_local std::minstd_rand random(std::random_device{}());
    int most = 5 << attempt;
    std::this_thread::sleep_for(std::chrono::milliseconds(1 + random() % most));
}

// Control characters, spaces and non-ASCII are escaped so one request is one log line.
std::string log_safe(const std::string &value) {
    return text::percent_escape(
        value, [](unsigned char c) { return c <= 0x20 || c >= 0x7F || c == '%' || c == '"'; });
}

// " [METHOD path]", what an error log line says of its request.
std::string log_tag(const Request &req) {
    return " [" + log_safe(req.method) + " " + log_safe(req.path) + "]";
}

// Dispatches and turns every failure into an envelope. The body is read once, so a request can
// run again: once on a fresh connection when a stale one was lost before anything was written,
// and a few times after a deadlock that left nothing committed.
Response answer(Service &svc, Request &req, const ParamLookup &param, const BodyReader &reader) {
    int deadlocks = 0;
    for (int attempt = 0;; ++attempt) {
        Ctx ctx{svc.config, svc.messages, svc.db, svc.jwt_key, svc.json, nullptr, std::nullopt};
        auto started = std::chrono::steady_clock::now();
        try {
            svc.db.begin_request();
            return dispatch(svc, req, ctx, param, reader);
        } catch (const ApiError &e) {
            return error_response(svc, req, e);
        } catch (const db::DbError &e) {
            std::string where = log_tag(req);
            if (e.lost() && attempt == 0 && !svc.db.wrote() && !svc.db.known_down() &&
                db::stale_failure(std::chrono::steady_clock::now() - started)) {
                log_warn("database connection lost, retrying once: " + std::string(e.what()) +
                         where);
                continue;
            }
            if (e.errnum == ER_LOCK_DEADLOCK && deadlocks < k_deadlock_retries &&
                !svc.db.committed()) {
                log_warn("deadlock, running the request again: " + std::string(e.what()) + where);
                deadlock_pause(deadlocks++);
                continue;
            }
            // One server: it is down for the whole pool until the probe reaches it. Several
            // (db_hosts): only this connection went; the next request connects down the list,
            // and the pool is marked down only when no server answers (ensure_connected).
            if (e.lost() && svc.config.db_hosts.size() <= 1)
                svc.db.mark_down();
            log_error(std::string(e.what()) + where);
            if (is_transient(e))
                return error_response(svc, req, ApiError(503, Code::db_unavailable));
            return error_response(svc, req, ApiError(500, Code::internal));
        } catch (const std::exception &e) {
            log_error(std::string("unexpected failure: ") + e.what() + log_tag(req));
            return error_response(svc, req, ApiError(500, Code::internal));
        }
    }
}

void log_request(const Request &req, const Response &res) {
    auto elapsed = std::chrono::steady_clock::now() - req.started;
    double ms = std::chrono::duration<double, std::milli>(elapsed).count();
    char duration[32];
    std::snprintf(duration, sizeof duration, "%.2f", ms);
    log_access("access: method=" + log_safe(req.method) + " path=" + log_safe(req.path) +
               " status=" + std::to_string(res.status) + " ms=" + duration +
               " pid=" + std::to_string(log_pid()) + " remote=" + log_safe(req.remote_addr));
}

// Reads and discards what is left of a body we refused or did not need, up to k_max_drain_bytes.
void drain(const BodyReader &reader) {
    char sink[16384];
    for (size_t drained = 0; drained < k_max_drain_bytes;) {
        size_t n = reader(sink, sizeof sink);
        if (n == 0)
            break;
        drained += n;
    }
}

Response serve(Service &svc, const ParamLookup &param, const BodyReader &reader) {
    Request req = read_request_head(param);
    Response res = answer(svc, req, param, reader);
    add_cors_headers(svc.config, req, res);
    log_request(req, res);
    return res;
}

// Writes a CGI response, then reads what is left of the body: Apache resets the client's
// connection when a CGI program exits with its body unread. Returns the exit status.
int answer_cgi(const Response &res, const BodyReader &reader) {
    std::string out = res.serialize();
    std::fwrite(out.data(), 1, out.size(), stdout);
    int status = std::fflush(stdout) == 0 ? 0 : 1;
    drain(reader);
    return status;
}

size_t read_stdin(char *buf, size_t n) { return std::fread(buf, 1, n, stdin); }

const char *cgi_param(const char *name) { return std::getenv(name); }

} // namespace

void serve_fastcgi(Service &svc, FCGX_Request &fr) {
    ParamLookup param = [&fr](const char *name) { return FCGX_GetParam(name, fr.envp); };
    BodyReader reader = [&fr](char *buf, size_t n) -> size_t {
        int got = FCGX_GetStr(buf, static_cast<int>(n), fr.in);
        return got > 0 ? static_cast<size_t>(got) : 0;
    };
    std::string out = serve(svc, param, reader).serialize();
    FCGX_PutStr(out.data(), static_cast<int>(out.size()), fr.out);
    drain(reader);
}

int run_cgi(Service &svc) {
    return answer_cgi(serve(svc, cgi_param, read_stdin), read_stdin);
}

int fail_cgi() {
    Request req = read_request_head(cgi_param);
    Messages built_in;
    answer_cgi(Response::json(500, error_envelope(ApiError(500, Code::internal), built_in,
                                                  req.line())),
               read_stdin);
    return 1;
}

} // namespace cms
