// The pool's shared "database down" state and the probe thread that clears it. The probe uses a
// connection of its own; one worker of the pool probes at a time (a lease in the shared state).
#include "db/db_health.h"

#include <chrono>
#include <string>

#include <mysql.h>
#include <sys/mman.h>

#include "base/config.h"
#include "base/log.h"
#include "db/db.h"

namespace cms {

namespace {

// How often a probe tries while the database is down.
constexpr auto k_probe_interval = std::chrono::milliseconds(250);

int64_t now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

DbHealthShared *db_health_shared_memory() {
    void *page = mmap(nullptr, sizeof(DbHealthShared), PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED)
        return nullptr;
    return new (page) DbHealthShared();
}

DbHealth::DbHealth(const Config &config, DbHealthShared *shared)
    : config_(config), shared_(shared != nullptr ? shared : &own_) {}

DbHealth::~DbHealth() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (prober_.joinable())
        prober_.join();
}

bool DbHealth::down() {
    if (shared_->down_since_ms.load(std::memory_order_relaxed) == 0)
        return false;
    // Under the mutex: the threads of a worker share this object, and two that find the database
    // down together must start one probe; the notification cannot fall between the probe's check
    // and its wait either.
    std::lock_guard<std::mutex> lock(mutex_);
    if (!prober_.joinable())
        prober_ = std::thread(&DbHealth::probe_loop, this);
    wake_.notify_one();
    return true;
}

void DbHealth::mark_down() {
    int64_t up = 0;
    if (shared_->down_since_ms.compare_exchange_strong(up, now_ms()))
        log_warn("database unreachable: answering 503 at once until a background probe reaches it");
    down();
}

bool DbHealth::probe_once() const {
    mysql_thread_init();
    db::Connected connected = db::connect_configured(config_);
    bool ok = connected.mysql != nullptr && mysql_ping(connected.mysql) == 0;
    if (connected.mysql != nullptr)
        mysql_close(connected.mysql);
    mysql_thread_end();
    return ok;
}

void DbHealth::probe_loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!stopping_) {
        int64_t since = shared_->down_since_ms.load();
        if (since == 0) {
            wake_.wait(lock);
            continue;
        }
        // The lease outlasts one probe, so a second worker only probes when the first is gone.
        int64_t now = now_ms();
        int64_t lease = shared_->probe_lease_ms.load();
        int64_t until = now + (config_.db_connect_timeout + config_.db_read_timeout + 1) * 1000;
        if (lease < now && shared_->probe_lease_ms.compare_exchange_strong(lease, until)) {
            lock.unlock();
            bool reached = probe_once();
            lock.lock();
            shared_->probe_lease_ms.store(0);
            if (reached && shared_->down_since_ms.compare_exchange_strong(since, 0))
                log_info("database reachable again after " + std::to_string(now_ms() - since) +
                         " ms");
        }
        wake_.wait_for(lock, k_probe_interval);
    }
}

} // namespace cms
