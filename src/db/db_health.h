// Whether the database is known to be down, shared by the workers of one pool, and the background
// probe that finds out when it is back. While it is down, requests get their 503 at once instead
// of each paying a connect or read timeout. Holds no connection a request uses.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace cms {

struct Config;

// The state the workers of a pool share (one page of MAP_SHARED memory made before they fork).
struct DbHealthShared {
    std::atomic<int64_t> down_since_ms{0}; // 0 while the database is believed up
    std::atomic<int64_t> probe_lease_ms{0}; // until when some worker's probe owns the probing
};

// A DbHealthShared in memory that children forked after this call share; never freed.
DbHealthShared *db_health_shared_memory();

class DbHealth {
  public:
    // shared: the pool's state, or nullptr for a process of its own (CGI, a lone worker).
    DbHealth(const Config &config, DbHealthShared *shared);
    ~DbHealth();
    DbHealth(const DbHealth &) = delete;
    DbHealth &operator=(const DbHealth &) = delete;

    // True while a recent failure says the database is unreachable and no probe has reached it
    // since; wakes this worker's probe, so a pool whose prober died keeps probing.
    bool down();
    // Records that the database could not be reached and starts probing in the background.
    void mark_down();

  private:
    void probe_loop();
    bool probe_once() const;

    const Config &config_;
    DbHealthShared own_;
    DbHealthShared *shared_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread prober_;
};

} // namespace cms
