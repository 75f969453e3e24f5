// One request (FastCGI or CGI): dispatch with authorization and, for routes that write, the
// transaction with its behaviour-log row and Idempotency-Key; the catch that turns every failure
// into an envelope, the retries of transient database failures, CORS headers and the access log.
//
// The steps, outermost first, each in one function:
//   serve_fastcgi, run_cgi  the request's streams: its parameters and body in, the bytes out
//   measured                the request id, the access and slow-request logs, the scoreboard
//   answer_or_envelope      the one catch: every failure an envelope; a lost connection or a
//                           deadlock runs the request again, on a fresh Ctx
//   dispatch                route match, 404/405/preflight, authorize, the body read and capped
//   run_in_transaction      the handler, for a route that writes inside a transaction with its
//                           behaviour-log row and Idempotency-Key answer
#include "http/pipeline.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>

#include <mysqld_error.h>

#include "base/config.h"
#include "base/errors.h"
#include "base/log.h"
#include "base/text.h"
#include "db/db.h"
#include "http/authorize.h"
#include "http/behaviour_log.h"
#include "http/context.h"
#include "http/idempotency.h"
#include "http/request.h"
#include "http/response.h"
#include "http/router.h"
#include "metrics/scoreboard.h"

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

// What the pool's figures and the slow-request log need of a request besides its response.
struct Outcome {
    const Route *route = nullptr;           // the route matched, if any
    std::optional<Unavailable> unavailable; // why a 503 was answered
    bool replayed = false;                  // the stored answer of an Idempotency-Key
    bool conflict = false;                  // an Idempotency-Key reused or still in progress
    bool throttled = false;                 // refused by the login throttle
    int deadlock_retries = 0;
    int lost_retries = 0;
};

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
Response run_in_transaction(const Route &route, Request &req, Ctx &ctx, Outcome &out) {
    std::optional<IdempotencyKey> key = idempotency_key(req, ctx);
    db::Transaction tx(ctx.db);
    if (key)
        if (std::optional<Response> first = replay_or_reserve(*key, req, ctx)) {
            out.replayed = true;
            return *first;
        }
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
                  const BodyReader &reader, Outcome &out) {
    Router::Match match = svc.router.match(req.method, req.path);
    // A preflight counts under its path's template (the route of any method of the path).
    if (match.path_known && match.route == nullptr && req.method == "OPTIONS")
        for (const char *method : {"GET", "POST", "PUT", "DELETE"})
            if (out.route == nullptr)
                out.route = svc.router.match(method, req.path).route;
    if (!match.path_known)
        throw ApiError(404, Code::not_found);
    if (req.method == "OPTIONS")
        return preflight(match);
    if (match.route == nullptr)
        throw ApiError(405, Code::method_not_allowed).header("Allow", match.allow);
    req.params = std::move(match.params);
    ctx.route = out.route = match.route;
    if (svc.meter != nullptr)
        svc.meter->route(svc.router.template_index(match.route), method_index(req.method));
    // Before the body: an anonymous client gets its 401 without making us read 10 MiB.
    authorize(*match.route, req, ctx);
    int64_t cap = body_cap(*match.route, svc.config);
    if (svc.meter != nullptr)
        svc.meter->state(ThreadState::reading);
    read_request_body(req, param, reader, static_cast<size_t>(cap));
    if (svc.meter != nullptr)
        svc.meter->state(ThreadState::handler);
    if (writes(*match.route))
        return run_in_transaction(*match.route, req, ctx, out);
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

// Why a transient failure answers 503: a schema of another version is not ready; a lock wait or
// a deadlock retried too often is a lock; a connection lost quickly is a server unreachable, one
// lost slowly a read timeout.
Unavailable unavailable_cause(const db::DbError &e, std::chrono::steady_clock::duration took) {
    if (dynamic_cast<const db::WrongSchema *>(&e) != nullptr)
        return Unavailable::not_ready;
    if (!e.lost())
        return Unavailable::lock_wait;
    return db::stale_failure(took) ? Unavailable::unreachable : Unavailable::read_timeout;
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
Response answer_or_envelope(Service &svc, Request &req, const ParamLookup &param,
                            const BodyReader &reader, Outcome &out) {
    int deadlocks = 0;
    for (int attempt = 0;; ++attempt) {
        Ctx ctx{svc, nullptr, std::nullopt};
        auto started = std::chrono::steady_clock::now();
        try {
            svc.db.begin_request();
            return dispatch(svc, req, ctx, param, reader, out);
        } catch (const ApiError &e) {
            if (e.status == 503 && e.code == Code::db_unavailable)
                out.unavailable = Unavailable::not_ready;
            out.throttled = e.code == Code::too_many_requests;
            out.conflict =
                e.code == Code::idempotency_key_busy || e.code == Code::idempotency_key_reused;
            return error_response(svc, req, e);
        } catch (const db::DbError &e) {
            std::string where = log_tag(req);
            if (e.lost() && attempt == 0 && !svc.db.wrote() && !svc.db.known_down() &&
                db::stale_failure(std::chrono::steady_clock::now() - started)) {
                log_warn("database connection lost, retrying once: " + std::string(e.what()) +
                         where);
                ++out.lost_retries;
                continue;
            }
            if (e.errnum == ER_LOCK_DEADLOCK && deadlocks < k_deadlock_retries &&
                !svc.db.committed()) {
                log_warn("deadlock, running the request again: " + std::string(e.what()) + where);
                deadlock_pause(deadlocks++);
                ++out.deadlock_retries;
                continue;
            }
            // One server: it is down for the whole pool until the probe reaches it. Several
            // (db_hosts): only this connection went; the next request connects down the list,
            // and the pool is marked down only when no server answers (ensure_connected).
            if (e.lost() && svc.config.db_hosts.size() <= 1)
                svc.db.mark_down();
            log_error(std::string(e.what()) + where);
            if (is_transient(e)) {
                out.unavailable = unavailable_cause(e, std::chrono::steady_clock::now() - started);
                return error_response(svc, req, ApiError(503, Code::db_unavailable));
            }
            return error_response(svc, req, ApiError(500, Code::internal));
        } catch (const std::exception &e) {
            log_error(std::string("unexpected failure: ") + e.what() + log_tag(req));
            return error_response(svc, req, ApiError(500, Code::internal));
        }
    }
}

void log_request(const Request &req, const Response &res, double ms) {
    char duration[32];
    std::snprintf(duration, sizeof duration, "%.2f", ms);
    log_access("access: method=" + log_safe(req.method) + " path=" + log_safe(req.path) +
               " status=" + std::to_string(res.status) + " ms=" + duration +
               " pid=" + std::to_string(log_pid()) + " remote=" + log_safe(req.remote_addr));
}

// SQL text on one log line: its line breaks and runs of spaces as one space, quotes escaped.
std::string sql_line(const char *sql) {
    std::string out;
    for (const char *p = sql; *p != '\0'; ++p) {
        char c = *p;
        if (c == '\n' || c == '\t' || c == '\r' || c == ' ') {
            if (!out.empty() && out.back() != ' ')
                out += ' ';
        } else if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else {
            out += c;
        }
    }
    if (!out.empty() && out.back() == ' ')
        out.pop_back();
    return out;
}

// The slow-request line: what the request was (never its query string, body or credentials),
// where its time went, and its slowest round trip's SQL text, which holds ? for every value.
void log_slow(const Request &req, const Response &res, const Outcome &out, double ms,
              const db::RequestStats &db) {
    char figures[160];
    std::snprintf(figures, sizeof figures,
                  " status=%d ms=%.1f db_ms=%.1f statements=%u round_trips=%u slowest_ms=%.1f",
                  res.status, ms, static_cast<double>(db.wait_us) / 1000, db.statements,
                  db.round_trips, static_cast<double>(db.slowest_us) / 1000);
    log_warn("slow request: method=" + log_safe(req.method) +
             " route=" + (out.route != nullptr ? std::string(out.route->pattern) : "unmatched") +
             figures + " slowest_sql=\"" +
             (db.slowest_sql != nullptr ? sql_line(db.slowest_sql) : std::string()) + "\"");
}

// Adds the request to this thread's slot of the scoreboard.
void count(Meter &meter, const Router &router, const Request &req, const Response &res,
           const Outcome &out, int64_t total_us, bool slow, const db::RequestStats &db) {
    uint16_t route = router.template_index(out.route);
    uint8_t method = method_index(req.method);
    meter.route(route, method);
    meter.count(route, method, res.status, total_us);
    WorkerCounters &c = meter.counters();
    add(c.db_round_trips, db.round_trips);
    add(c.db_wait_us, static_cast<uint64_t>(db.wait_us));
    if (db.connects != 0)
        add(c.db_connects, db.connects);
    if (db.reconnects != 0)
        add(c.db_reconnects, db.reconnects);
    if (db.connect_failures != 0)
        add(c.db_connect_failures, db.connect_failures);
    if (out.deadlock_retries != 0)
        add(c.db_deadlock_retries, static_cast<uint64_t>(out.deadlock_retries));
    if (out.lost_retries != 0)
        add(c.db_lost_retries, static_cast<uint64_t>(out.lost_retries));
    if (out.unavailable && res.status == 503)
        add(c.unavailable[static_cast<size_t>(*out.unavailable)]);
    if (out.replayed)
        add(c.idempotency_replays);
    if (out.conflict)
        add(c.idempotency_conflicts);
    if (out.throttled)
        add(c.throttle_refusals);
    if (slow)
        add(c.slow_requests);
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

// Answers the request and accounts for it: the request id, the logs and the scoreboard.
Response measured(Service &svc, const ParamLookup &param, const BodyReader &reader) {
    Request req = read_request_head(param);
    log_request_id(&req.request_id);
    svc.db.reset_stats();
    Outcome out;
    if (svc.meter != nullptr)
        svc.meter->state(ThreadState::handler);
    Response res = answer_or_envelope(svc, req, param, reader, out);
    add_cors_headers(svc.config, req, res);
    res.header("X-Request-Id", req.request_id);
    auto elapsed = std::chrono::steady_clock::now() - req.started;
    int64_t total_us = std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count();
    double ms = static_cast<double>(total_us) / 1000;
    log_request(req, res, ms);
    bool slow =
        svc.config.slow_request_ms > 0 && ms >= static_cast<double>(svc.config.slow_request_ms);
    if (slow)
        log_slow(req, res, out, ms, svc.db.stats());
    log_request_id(nullptr);
    if (svc.meter != nullptr) {
        count(*svc.meter, svc.router, req, res, out, total_us, slow, svc.db.stats());
        svc.meter->state(ThreadState::writing);
    }
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
    std::string out = measured(svc, param, reader).serialize();
    FCGX_PutStr(out.data(), static_cast<int>(out.size()), fr.out);
    drain(reader);
}

int run_cgi(Service &svc) {
    return answer_cgi(measured(svc, cgi_param, read_stdin), read_stdin);
}

int fail_cgi() {
    Request req = read_request_head(cgi_param);
    Messages built_in;
    Response res =
        Response::json(500, error_envelope(ApiError(500, Code::internal), built_in, req.line()));
    res.header("X-Request-Id", req.request_id);
    answer_cgi(res, read_stdin);
    return 1;
}

} // namespace cms
