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

// The label sets, all bounded: route templates (the route table's patterns and "unmatched"),
// methods, statuses, and the histogram's upper bounds in seconds.
constexpr size_t k_max_templates = 64;
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
    Counter db_round_trips;
    Counter db_wait_us;
    Counter db_connects;
    Counter db_connect_failures;
    Counter db_reconnects;
    Counter db_deadlock_retries; // a deadlock or a Galera certification failure: ran again
    Counter db_lost_retries;     // a stale connection: ran again on a new one
    Counter unavailable[static_cast<size_t>(Unavailable::count)];
    Counter throttle_refusals;
    Counter idempotency_replays;
    Counter idempotency_conflicts;
    Counter body_too_large;
    Counter slow_requests;
};

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
