// The pool's scoreboard: one block of shared memory that the master makes before it forks, with a
// slot per worker process and within it one per thread. A thread writes only its own slot, with
// relaxed atomics (no lock on the request path); the master writes the pool's part (starts,
// deaths, the listen queue); /status reads it all. A slot outlives its worker: the next worker
// of the slot counts on, so the counters live as long as the pool.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace cms {

struct Config;

// What a worker thread is doing, as ?full shows it.
enum class ThreadState : uint8_t { idle, reading, handler, database, writing };
const char *thread_state_name(ThreadState state);

// The label sets, all bounded: route templates (the route table's patterns, four a declared
// collection's, and "unmatched", which the patterns past the cap count under), methods, statuses,
// and the histogram's upper bounds in seconds. The slots are shared memory that is resident only
// where a label was counted.
constexpr size_t k_max_templates = 256;
constexpr const char *k_methods[] = {"GET",    "HEAD",    "POST",  "PUT",
                                     "DELETE", "OPTIONS", "PATCH", "other"};
constexpr size_t k_method_count = sizeof k_methods / sizeof k_methods[0];
constexpr int k_statuses[] = {200, 201, 204, 400, 401, 403, 404, 405,
                              409, 413, 415, 422, 429, 500, 503, 0};
constexpr size_t k_status_count = sizeof k_statuses / sizeof k_statuses[0]; // 0: any other
constexpr double k_buckets[] = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                0.25,  0.5,    1,     2.5,  5,     10};
constexpr size_t k_bucket_count = sizeof k_buckets / sizeof k_buckets[0]; // +Inf is the count

// Why a request got 503 (database_503_total's cause label).
enum class Unavailable : uint8_t { unreachable, read_timeout, not_ready, lock_wait, count };
const char *unavailable_name(Unavailable cause);

using Counter = std::atomic<uint64_t>;

// The counters of a worker slot that are one number each, one X line per counter. The line makes
// the WorkerCounters member, its sum over the slots, its JSON member, its Prometheus/OpenMetrics
// family and, when it names one, its place in the summary of `cms-fcgi status` (status_page.cpp);
// the request path counts it with add(counters.<field>, n), mostly in http/pipeline.cpp's count().
//   field     the WorkerCounters member
//   unit      count, or us: microseconds, shown as seconds
//   json      its member in the JSON page, the names on the way joined by '.'
//   family    its Prometheus family, a counter (the samples are <family>_total)
//   cause     the sample's cause label, "" for none; the lines of one family are adjacent, and the
//             family's HELP is its first line's
//   help      the family's HELP
//   line      the summary line it shows on, "" for none (the lines of one summary line adjacent)
//   words     what follows the number on that line
#define CMS_WORKER_COUNTERS(X)                                                                     \
    X(db_round_trips, count, "database.round_trips", "cms_db_round_trips", "",                     \
      "Round trips to the database (statements, prepares, transaction control, connects).",        \
      "database", "round trips")                                                                   \
    X(db_wait_us, us, "database.wait_seconds", "cms_db_wait_seconds", "",                          \
      "Time request threads spent waiting on the database.", "database", "s waiting")              \
    X(db_connects, count, "database.connects", "cms_db_connects", "",                              \
      "Connections to the database opened by request threads.", "", "")                            \
    X(db_connect_failures, count, "database.connect_failures", "cms_db_connect_failures", "",      \
      "Connects to the database that failed.", "database", "connect failures")                     \
    X(db_reconnects, count, "database.reconnects", "cms_db_reconnects", "",                        \
      "Connects of a thread that had been connected before.", "", "")                              \
    /* a deadlock or a Galera certification failure: ran again */                                  \
    X(db_deadlock_retries, count, "database.retries.deadlock", "cms_db_retries", "deadlock",       \
      "Requests run again: after a deadlock or a Galera certification failure, or a stale "        \
      "connection.",                                                                               \
      "", "")                                                                                      \
    /* a stale connection: ran again on a new one */                                               \
    X(db_lost_retries, count, "database.retries.lost_connection", "cms_db_retries",                \
      "lost_connection", "", "", "")                                                               \
    X(throttle_refusals, count, "login_throttle.refusals", "cms_login_throttle_refusals", "",      \
      "Logins refused by the login throttle (429).", "", "")                                       \
    X(idempotency_replays, count, "idempotency.replays", "cms_idempotency_replays", "",            \
      "Requests answered with the stored answer of their Idempotency-Key.", "", "")                \
    X(idempotency_conflicts, count, "idempotency.conflicts", "cms_idempotency_conflicts", "",      \
      "Idempotency-Keys refused: reused for another request, or still in progress.", "", "")       \
    X(body_too_large, count, "body_too_large", "cms_body_too_large", "",                           \
      "Requests refused with 413.", "", "")                                                        \
    X(slow_requests, count, "slow_requests", "cms_slow_requests", "",                              \
      "Requests that took slow_request_ms or more.", "slow requests", "")

enum class CounterUnit : uint8_t { count, us };

// One worker thread; written by that thread only (and reset by the master when its worker died).
struct ThreadSlot {
    std::atomic<uint8_t> state{0};  // ThreadState
    std::atomic<uint8_t> busy{0};   // counted in PoolSlots::busy
    std::atomic<uint16_t> route{0}; // template of the current or last request
    std::atomic<uint8_t> method{0};
    std::atomic<uint16_t> status{0}; // of the last request
    Counter requests{0};
    std::atomic<int64_t> started_us{0}; // monotonic start of the current request
    std::atomic<int64_t> last_us{0};    // duration of the last request
    std::atomic<int32_t> tid{0};        // the thread's id, for its CPU time in /proc
};

// Counters of a worker slot; its threads add to them (relaxed fetch_add, no lock).
struct WorkerCounters {
    Counter requests[k_max_templates][k_method_count][k_status_count];
    Counter latency_buckets[k_max_templates][k_bucket_count]; // not cumulative
    Counter latency_count[k_max_templates];
    Counter latency_sum_us[k_max_templates];
    Counter unavailable[static_cast<size_t>(Unavailable::count)]; // 503s by cause
#define CMS_COUNTER_MEMBER(field, ...) Counter field;
    CMS_WORKER_COUNTERS(CMS_COUNTER_MEMBER)
#undef CMS_COUNTER_MEMBER
};

// A CMS_WORKER_COUNTERS line as data, for the status page and the tests.
struct WorkerCounterRow {
    Counter WorkerCounters::*field;
    const char *name; // the field's
    CounterUnit unit;
    const char *json;
    const char *family;
    const char *cause;
    const char *help;
    const char *line;
    const char *words;
};
#define CMS_COUNTER_ROW(field, unit, json, family, cause, help, line, words)                       \
    {&WorkerCounters::field, #field, CounterUnit::unit, json, family, cause, help, line, words},
inline constexpr WorkerCounterRow k_worker_counters[] = {CMS_WORKER_COUNTERS(CMS_COUNTER_ROW)};
#undef CMS_COUNTER_ROW
constexpr size_t k_worker_counter_count = sizeof k_worker_counters / sizeof k_worker_counters[0];

// Every Counter of WorkerCounters is an array above or a CMS_WORKER_COUNTERS line: one added by
// hand beside them would be counted and never shown.
static_assert(sizeof(WorkerCounters) ==
                  sizeof(Counter) *
                      (k_max_templates * k_method_count * k_status_count +
                       k_max_templates * k_bucket_count + 2 * k_max_templates +
                       static_cast<size_t>(Unavailable::count) + k_worker_counter_count),
              "a WorkerCounters member outside CMS_WORKER_COUNTERS");

struct WorkerSlot {
    std::atomic<int32_t> pid{0};        // 0: no worker in the slot now
    std::atomic<int64_t> started_ms{0}; // wall clock of the current worker's start
    WorkerCounters counters;
    ThreadSlot threads[1]; // worker_threads of them (the block is sized for it)
};

// The pool's part, written by the master, and the busy gauge shared by all threads.
struct PoolSlots {
    int64_t started_ms = 0; // wall clock
    int32_t workers = 0;
    int32_t threads = 0;
    int32_t listen_fd = -1;
    size_t worker_size = 0; // bytes of one WorkerSlot with its threads
    std::atomic<int64_t> busy{0};
    std::atomic<int64_t> busy_max{0};
    Counter all_busy{0}; // requests that took the last free thread (php-fpm's max children reached)
    std::atomic<int64_t> listen_queue_max{0};
    Counter worker_starts{0};
    Counter restarts{0};
    Counter deaths_exit[256];
    Counter deaths_signal[65];
};

class Scoreboard {
  public:
    // Shared memory for config.workers slots of config.worker_threads threads, made before the
    // first fork; the mapping is never unmapped, the handle is the caller's. nullptr when mmap
    // fails (the pool runs without it).
    // templates are the route labels, the last one "unmatched" (route_templates of the router);
    // queue reads the listening socket's queue now and its limit (the pool's listen_queue).
    using QueueReader = bool (*)(int fd, int64_t &now, int64_t &limit);
    static std::unique_ptr<Scoreboard> create(const Config &config, int listen_fd,
                                              std::vector<std::string> templates,
                                              QueueReader queue);

    PoolSlots &pool() { return *pool_; }
    const PoolSlots &pool() const { return *pool_; }
    WorkerSlot &worker(size_t index) const;
    ThreadSlot &thread(size_t worker, size_t thread) const;

    // The master's records: a worker started in a slot; the worker of a slot died with status.
    void started(size_t index, int pid, bool restart);
    void died(size_t index, int status);
    // Reads the listen queue and raises its maximum; the master calls it about once a second.
    void sample_listen_queue();
    // The listen queue now and its limit; false when the kernel does not tell.
    bool listen_queue(int64_t &now, int64_t &limit) const;

    // The route labels, by template index.
    const std::vector<std::string> &templates() const { return templates_; }

  private:
    PoolSlots *pool_ = nullptr;
    std::vector<std::string> templates_;
    QueueReader queue_ = nullptr;
    char *workers_ = nullptr;
};

uint8_t method_index(std::string_view method);
size_t status_index(int status);

// The monotonic clock in microseconds.
int64_t monotonic_us();

// One thread's handle on its slot, as the request path uses it; a CGI request has none.
class Meter {
  public:
    Meter(Scoreboard &board, size_t worker, size_t thread)
        : pool_(board.pool()), counters_(board.worker(worker).counters),
          slot_(board.thread(worker, thread)) {}
    // Called by the thread that serves with this slot, before its first request.
    void attach();
    // The thread took a connection with a request: it is busy until done().
    void begin();
    void state(ThreadState s) {
        slot_.state.store(static_cast<uint8_t>(s), std::memory_order_relaxed);
    }
    std::atomic<uint8_t> *state_cell() { return &slot_.state; }
    void route(uint16_t route, uint8_t method) {
        slot_.route.store(route, std::memory_order_relaxed);
        slot_.method.store(method, std::memory_order_relaxed);
    }
    // The request answered status after total_us.
    void count(uint16_t route, uint8_t method, int status, int64_t total_us);
    WorkerCounters &counters() { return counters_; }
    // The thread is idle again; served: it answered a request (not only a closed connection).
    void done(bool served);

  private:
    PoolSlots &pool_;
    WorkerCounters &counters_;
    ThreadSlot &slot_;
};

inline void add(Counter &c, uint64_t n = 1) {
    c.fetch_add(n, std::memory_order_relaxed);
}

} // namespace cms
