// The scoreboard's memory, the master's records of worker starts and deaths and the label tables;
// the listen queue is read by the function the pool hands over. Nothing here is formatted for a
// client (status_page.cpp does that).
#include "metrics/scoreboard.h"

#include <chrono>
#include <cstring>
#include <ctime>
#include <new>

#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/config.h"

namespace cms {

namespace {

int64_t wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

void raise_to(std::atomic<int64_t> &max, int64_t value) {
    int64_t seen = max.load(std::memory_order_relaxed);
    while (value > seen && !max.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
    }
}

size_t worker_size(size_t threads) {
    size_t size = offsetof(WorkerSlot, threads) + threads * sizeof(ThreadSlot);
    return (size + 63) / 64 * 64; // slots of two workers never share a cache line
}

} // namespace

const char *thread_state_name(ThreadState state) {
    switch (state) {
    case ThreadState::idle:
        return "idle";
    case ThreadState::reading:
        return "reading";
    case ThreadState::handler:
        return "handler";
    case ThreadState::database:
        return "database";
    case ThreadState::writing:
        return "writing";
    }
    return "idle";
}

const char *unavailable_name(Unavailable cause) {
    switch (cause) {
    case Unavailable::unreachable:
        return "unreachable";
    case Unavailable::read_timeout:
        return "read_timeout";
    case Unavailable::not_ready:
        return "not_ready";
    case Unavailable::lock_wait:
        return "lock_wait";
    case Unavailable::count:
        break;
    }
    return "unreachable";
}

std::unique_ptr<Scoreboard> Scoreboard::create(const Config &config, int listen_fd,
                                               std::vector<std::string> templates,
                                               QueueReader queue) {
    size_t workers = static_cast<size_t>(config.workers);
    size_t threads = static_cast<size_t>(config.worker_threads);
    size_t head = (sizeof(PoolSlots) + 63) / 64 * 64;
    size_t size = head + workers * worker_size(threads);
    void *block = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED)
        return nullptr;
    std::unique_ptr<Scoreboard> board(new Scoreboard());
    board->templates_ = std::move(templates);
    board->queue_ = queue;
    board->pool_ = new (block) PoolSlots();
    board->workers_ = static_cast<char *>(block) + head;
    PoolSlots &pool = *board->pool_;
    pool.started_ms = wall_ms();
    pool.workers = static_cast<int32_t>(workers);
    pool.threads = static_cast<int32_t>(threads);
    pool.listen_fd = listen_fd;
    pool.worker_size = worker_size(threads);
    for (size_t i = 0; i < workers; ++i) {
        new (board->workers_ + i * pool.worker_size) WorkerSlot();
        for (size_t t = 0; t < threads; ++t)
            new (&board->thread(i, t)) ThreadSlot();
    }
    return board;
}

WorkerSlot &Scoreboard::worker(size_t index) const {
    return *reinterpret_cast<WorkerSlot *>(workers_ + index * pool_->worker_size);
}

ThreadSlot &Scoreboard::thread(size_t worker_index, size_t thread_index) const {
    char *slot = workers_ + worker_index * pool_->worker_size + offsetof(WorkerSlot, threads);
    return reinterpret_cast<ThreadSlot *>(slot)[thread_index];
}

void Scoreboard::started(size_t index, int pid, bool restart) {
    WorkerSlot &slot = worker(index);
    slot.started_ms.store(wall_ms(), std::memory_order_relaxed);
    slot.pid.store(pid, std::memory_order_relaxed);
    add(pool_->worker_starts);
    if (restart)
        add(pool_->restarts);
}

void Scoreboard::died(size_t index, int status) {
    WorkerSlot &slot = worker(index);
    slot.pid.store(0, std::memory_order_relaxed);
    // The dead worker's threads are idle now, and the requests they held no longer busy.
    for (size_t t = 0; t < static_cast<size_t>(pool_->threads); ++t) {
        ThreadSlot &thread_slot = thread(index, t);
        if (thread_slot.busy.exchange(0) != 0)
            pool_->busy.fetch_sub(1, std::memory_order_relaxed);
        thread_slot.state.store(static_cast<uint8_t>(ThreadState::idle));
    }
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        add(pool_->deaths_signal[sig > 0 && sig < 65 ? sig : 0]);
    } else {
        add(pool_->deaths_exit[WEXITSTATUS(status) & 0xff]);
    }
}

void Scoreboard::sample_listen_queue() {
    int64_t now = 0, limit = 0;
    if (listen_queue(now, limit))
        raise_to(pool_->listen_queue_max, now);
}

bool Scoreboard::listen_queue(int64_t &now, int64_t &limit) const {
    return queue_ != nullptr && queue_(pool_->listen_fd, now, limit);
}

uint8_t method_index(std::string_view method) {
    for (size_t i = 0; i + 1 < k_method_count; ++i)
        if (method == k_methods[i])
            return static_cast<uint8_t>(i);
    return static_cast<uint8_t>(k_method_count - 1);
}

size_t status_index(int status) {
    for (size_t i = 0; i + 1 < k_status_count; ++i)
        if (k_statuses[i] == status)
            return i;
    return k_status_count - 1;
}

int64_t monotonic_us() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

// The thread's CPU time is read from /proc when the page asks for it, never per request: a
// CLOCK_THREAD_CPUTIME_ID read is a system call (2 µs on the machine of bench/README), and two
// per request would cost more than all the rest of the scoreboard.
void Meter::attach() {
    slot_.tid.store(static_cast<int32_t>(syscall(SYS_gettid)), std::memory_order_relaxed);
}

void Meter::begin() {
    slot_.started_us.store(monotonic_us(), std::memory_order_relaxed);
    slot_.state.store(static_cast<uint8_t>(ThreadState::reading), std::memory_order_relaxed);
    int64_t busy = pool_.busy.fetch_add(1, std::memory_order_relaxed) + 1;
    slot_.busy.store(1, std::memory_order_relaxed);
    raise_to(pool_.busy_max, busy);
    if (busy >= static_cast<int64_t>(pool_.workers) * pool_.threads)
        add(pool_.all_busy);
}

void Meter::count(uint16_t route, uint8_t method, int status, int64_t total_us) {
    size_t r = route < k_max_templates ? route : k_max_templates - 1;
    add(counters_.requests[r][method % k_method_count][status_index(status)]);
    double seconds = static_cast<double>(total_us) / 1e6;
    // One bucket per request (the first whose bound it is within); the page sums them up.
    for (size_t b = 0; b < k_bucket_count; ++b)
        if (seconds <= k_buckets[b]) {
            add(counters_.latency_buckets[r][b]);
            break;
        }
    add(counters_.latency_count[r]);
    add(counters_.latency_sum_us[r], static_cast<uint64_t>(total_us));
    if (status == 413)
        add(counters_.body_too_large);
    slot_.status.store(static_cast<uint16_t>(status), std::memory_order_relaxed);
    slot_.last_us.store(total_us, std::memory_order_relaxed);
}

void Meter::done(bool served) {
    if (served)
        add(slot_.requests);
    if (slot_.busy.exchange(0, std::memory_order_relaxed) != 0)
        pool_.busy.fetch_sub(1, std::memory_order_relaxed);
    slot_.started_us.store(0, std::memory_order_relaxed);
    slot_.state.store(static_cast<uint8_t>(ThreadState::idle), std::memory_order_relaxed);
}

} // namespace cms
