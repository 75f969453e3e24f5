// The status page's formats. Counters are summed over the worker slots at the time of the read;
// names follow Prometheus' conventions (cms_ prefix, _total counters, _seconds, base units, an
// _info metric, route templates as labels, never paths).
#include "metrics/status_page.h"

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <memory>
#include <sstream>

#include <unistd.h>

#include "metrics/scoreboard.h"

#ifndef CMS_VERSION
#define CMS_VERSION "unknown"
#endif

namespace cms {

namespace {

uint64_t get(const Counter &c) {
    return c.load(std::memory_order_relaxed);
}

// Every worker slot's counters added up.
struct Totals {
    uint64_t requests[k_max_templates][k_method_count][k_status_count] = {};
    uint64_t buckets[k_max_templates][k_bucket_count] = {};
    uint64_t count[k_max_templates] = {};
    uint64_t sum_us[k_max_templates] = {};
    uint64_t unavailable[static_cast<size_t>(Unavailable::count)] = {};
    uint64_t counters[k_worker_counter_count] = {}; // by k_worker_counters row
    uint64_t accepted = 0;
    int64_t listen_now = -1, listen_limit = -1;
};

void sum(const Scoreboard &board, Totals &t) {
    const PoolSlots &pool = board.pool();
    for (int32_t w = 0; w < pool.workers; ++w) {
        const WorkerCounters &c = board.worker(static_cast<size_t>(w)).counters;
        for (size_t r = 0; r < k_max_templates; ++r) {
            for (size_t m = 0; m < k_method_count; ++m)
                for (size_t s = 0; s < k_status_count; ++s) {
                    uint64_t n = get(c.requests[r][m][s]);
                    t.requests[r][m][s] += n;
                    t.accepted += n;
                }
            for (size_t b = 0; b < k_bucket_count; ++b)
                t.buckets[r][b] += get(c.latency_buckets[r][b]);
            t.count[r] += get(c.latency_count[r]);
            t.sum_us[r] += get(c.latency_sum_us[r]);
        }
        for (size_t u = 0; u < static_cast<size_t>(Unavailable::count); ++u)
            t.unavailable[u] += get(c.unavailable[u]);
        for (size_t i = 0; i < k_worker_counter_count; ++i)
            t.counters[i] += get(c.*k_worker_counters[i].field);
    }
    if (!board.listen_queue(t.listen_now, t.listen_limit))
        t.listen_now = t.listen_limit = -1;
}

// Threads in a request now, from their slots (exact even after a worker died mid-request).
int64_t busy_now(const Scoreboard &board) {
    const PoolSlots &pool = board.pool();
    int64_t busy = 0;
    for (int32_t w = 0; w < pool.workers; ++w) {
        if (board.worker(static_cast<size_t>(w)).pid.load() == 0)
            continue;
        for (int32_t t = 0; t < pool.threads; ++t)
            busy += board.thread(static_cast<size_t>(w), static_cast<size_t>(t)).busy.load() != 0;
    }
    return busy;
}

// A thread's CPU time (user and system) since it started, from /proc; -1 when unknown.
double thread_cpu_seconds(int pid, int tid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid) + "/stat");
    std::string line;
    if (tid <= 0 || !std::getline(stat, line))
        return -1;
    // After the command's closing parenthesis: fields 3 onwards; utime and stime are 14 and 15.
    std::istringstream rest(line.substr(line.rfind(')') + 2));
    std::string field;
    long long utime = 0, stime = 0;
    for (int n = 3; n <= 15 && rest >> field; ++n) {
        if (n == 14)
            utime = std::strtoll(field.c_str(), nullptr, 10);
        if (n == 15)
            stime = std::strtoll(field.c_str(), nullptr, 10);
    }
    return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

int64_t rss_bytes(int pid) {
    std::ifstream statm("/proc/" + std::to_string(pid) + "/statm");
    long long size = 0, resident = 0;
    if (!(statm >> size >> resident))
        return -1;
    return resident * sysconf(_SC_PAGESIZE);
}

int64_t wall_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string death_cause(bool signal, int n) {
    if (!signal)
        return "exit " + std::to_string(n);
    const char *name = sigabbrev_np(n);
    return name != nullptr ? std::string("SIG") + name : "signal " + std::to_string(n);
}

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

// Prometheus text, one family at a time.
class Writer {
  public:
    explicit Writer(bool openmetrics) : openmetrics_(openmetrics) {}
    // type: counter, gauge, histogram or info; name without _total (OpenMetrics' family name).
    void family(const std::string &name, const char *type, const char *help) {
        std::string shown = name;
        const char *shown_type = type;
        if (!openmetrics_ && std::strcmp(type, "counter") == 0)
            shown += "_total";
        if (!openmetrics_ && std::strcmp(type, "info") == 0) {
            shown += "_info";
            shown_type = "gauge";
        }
        out_ << "# HELP " << shown << ' ' << help << '\n'
             << "# TYPE " << shown << ' ' << shown_type << '\n';
    }
    void sample(const std::string &name, const std::string &labels, const std::string &value) {
        out_ << name;
        if (!labels.empty())
            out_ << '{' << labels << '}';
        out_ << ' ' << value << '\n';
    }
    void sample(const std::string &name, const std::string &labels, uint64_t value) {
        sample(name, labels, std::to_string(value));
    }
    std::string done() {
        if (openmetrics_)
            out_ << "# EOF\n";
        return out_.str();
    }

  private:
    bool openmetrics_;
    std::ostringstream out_;
};

std::string label(const char *name, const std::string &value) {
    std::string out = std::string(name) + "=\"";
    for (char c : value) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out + '"';
}

// The member of page at path, the names on the way joined by '.' ("database.retries.deadlock"):
// made when missing in a page being written, a null value when missing in a page being read.
template <typename Page> Page &member(Page &page, const std::string &path) {
    Page *at = &page;
    for (size_t from = 0, dot; from <= path.size(); from = dot + 1) {
        dot = std::min(path.find('.', from), path.size());
        at = &(*at)[path.substr(from, dot - from)];
    }
    return *at;
}

bool in_database(const WorkerCounterRow &row) {
    return std::strncmp(row.json, "database.", 9) == 0;
}

// The families of the worker counters of the database (database), or of the others.
void write_counters(Writer &out, const Totals &totals, bool database) {
    const char *family = "";
    for (size_t i = 0; i < k_worker_counter_count; ++i) {
        const WorkerCounterRow &row = k_worker_counters[i];
        if (in_database(row) != database)
            continue;
        if (std::strcmp(row.family, family) != 0)
            out.family(row.family, "counter", row.help);
        family = row.family;
        std::string name = std::string(row.family) + "_total";
        std::string labels = *row.cause != '\0' ? label("cause", row.cause) : "";
        if (row.unit == CounterUnit::us)
            out.sample(name, labels, number(static_cast<double>(totals.counters[i]) / 1e6));
        else
            out.sample(name, labels, totals.counters[i]);
    }
}

} // namespace

Json::Value status_json(const Scoreboard &board, bool full) {
    const PoolSlots &pool = board.pool();
    auto summed = std::make_unique<Totals>(); // ~70 KiB: not for a thread's stack
    Totals &totals = *summed;
    sum(board, totals);
    const std::vector<std::string> &templates = board.templates();
    Json::Value page(Json::objectValue);

    Json::Value &p = page["pool"];
    p["start_time"] = static_cast<Json::Int64>(pool.started_ms / 1000);
    p["uptime_seconds"] = static_cast<Json::Int64>((wall_ms() - pool.started_ms) / 1000);
    p["version"] = CMS_VERSION;
    p["build"]["compiler"] = __VERSION__;

    Json::Value &c = page["connections"];
    c["accepted"] = static_cast<Json::UInt64>(totals.accepted);
    int64_t busy = busy_now(board);
    c["in_flight"] = static_cast<Json::Int64>(busy);
    c["listen_queue"] = static_cast<Json::Int64>(totals.listen_now);
    c["listen_queue_max"] =
        static_cast<Json::Int64>(std::max(pool.listen_queue_max.load(), totals.listen_now));
    c["listen_queue_len"] = static_cast<Json::Int64>(totals.listen_limit);

    Json::Value &k = page["capacity"];
    int64_t slots = static_cast<int64_t>(pool.workers) * pool.threads;
    k["workers"] = pool.workers;
    k["threads_per_worker"] = pool.threads;
    k["threads"] = static_cast<Json::Int64>(slots);
    k["busy"] = static_cast<Json::Int64>(busy);
    k["idle"] = static_cast<Json::Int64>(slots - busy);
    k["max_busy"] = static_cast<Json::Int64>(pool.busy_max.load());
    k["all_busy"] = static_cast<Json::UInt64>(get(pool.all_busy));

    Json::Value &w = page["workers"];
    w["starts"] = static_cast<Json::UInt64>(get(pool.worker_starts));
    w["restarts"] = static_cast<Json::UInt64>(get(pool.restarts));
    Json::Value &deaths = w["deaths"] = Json::Value(Json::objectValue);
    for (int n = 0; n < 256; ++n)
        if (uint64_t d = get(pool.deaths_exit[n]))
            deaths[death_cause(false, n)] = static_cast<Json::UInt64>(d);
    for (int n = 0; n < 65; ++n)
        if (uint64_t d = get(pool.deaths_signal[n]))
            deaths[death_cause(true, n)] = static_cast<Json::UInt64>(d);
    Json::Value &list = w["list"] = Json::Value(Json::arrayValue);
    for (int32_t i = 0; i < pool.workers; ++i) {
        const WorkerSlot &slot = board.worker(static_cast<size_t>(i));
        Json::Value one(Json::objectValue);
        int pid = slot.pid.load();
        one["slot"] = i;
        one["pid"] = pid;
        one["start_time"] = static_cast<Json::Int64>(slot.started_ms.load() / 1000);
        one["rss_bytes"] = static_cast<Json::Int64>(pid > 0 ? rss_bytes(pid) : -1);
        uint64_t served = 0;
        for (int32_t th = 0; th < pool.threads; ++th)
            served += get(board.thread(static_cast<size_t>(i), static_cast<size_t>(th)).requests);
        one["requests"] = static_cast<Json::UInt64>(served);
        list.append(one);
    }

    Json::Value &requests = page["requests"] = Json::Value(Json::arrayValue);
    Json::Value &latency = page["latency"] = Json::Value(Json::arrayValue);
    for (size_t r = 0; r < templates.size(); ++r) {
        for (size_t m = 0; m < k_method_count; ++m)
            for (size_t s = 0; s < k_status_count; ++s)
                if (uint64_t n = totals.requests[r][m][s]) {
                    Json::Value one(Json::objectValue);
                    one["route"] = templates[r];
                    one["method"] = k_methods[m];
                    one["status"] = k_statuses[s] != 0 ? std::to_string(k_statuses[s]) : "other";
                    one["count"] = static_cast<Json::UInt64>(n);
                    requests.append(one);
                }
        if (totals.count[r] == 0)
            continue;
        Json::Value one(Json::objectValue);
        one["route"] = templates[r];
        one["count"] = static_cast<Json::UInt64>(totals.count[r]);
        one["sum_seconds"] = static_cast<double>(totals.sum_us[r]) / 1e6;
        Json::Value &buckets = one["buckets"];
        uint64_t cumulative = 0;
        for (size_t b = 0; b < k_bucket_count; ++b) {
            cumulative += totals.buckets[r][b];
            buckets[number(k_buckets[b])] = static_cast<Json::UInt64>(cumulative);
        }
        buckets["+Inf"] = static_cast<Json::UInt64>(totals.count[r]);
        latency.append(one);
    }

    for (size_t i = 0; i < k_worker_counter_count; ++i) {
        const WorkerCounterRow &row = k_worker_counters[i];
        if (row.unit == CounterUnit::us)
            member(page, row.json) = static_cast<double>(totals.counters[i]) / 1e6;
        else
            member(page, row.json) = static_cast<Json::UInt64>(totals.counters[i]);
    }
    for (size_t u = 0; u < static_cast<size_t>(Unavailable::count); ++u)
        page["database"]["unavailable"][unavailable_name(static_cast<Unavailable>(u))] =
            static_cast<Json::UInt64>(totals.unavailable[u]);

    if (!full)
        return page;
    Json::Value &threads = page["threads"] = Json::Value(Json::arrayValue);
    int64_t now_us = monotonic_us();
    for (int32_t i = 0; i < pool.workers; ++i) {
        int pid = board.worker(static_cast<size_t>(i)).pid.load();
        for (int32_t th = 0; th < pool.threads; ++th) {
            const ThreadSlot &s = board.thread(static_cast<size_t>(i), static_cast<size_t>(th));
            Json::Value one(Json::objectValue);
            one["worker"] = i;
            one["thread"] = th;
            one["pid"] = pid;
            bool in_request = s.busy.load() != 0 && pid > 0;
            one["state"] =
                pid > 0 ? thread_state_name(static_cast<ThreadState>(s.state.load())) : "starting";
            one["requests"] = static_cast<Json::UInt64>(get(s.requests));
            uint16_t r = s.route.load();
            one["route"] = r < templates.size() ? templates[r] : "unmatched";
            one["method"] = k_methods[s.method.load() % k_method_count];
            int64_t started = s.started_us.load();
            if (in_request && started > 0) {
                one["duration_seconds"] = static_cast<double>(now_us - started) / 1e6;
            } else {
                one["status"] = s.status.load();
                one["duration_seconds"] = static_cast<double>(s.last_us.load()) / 1e6;
            }
            // The thread's whole CPU time, and per request: reading it per request would cost
            // more than the scoreboard (see Meter::attach).
            double cpu = pid > 0 ? thread_cpu_seconds(pid, s.tid.load()) : -1;
            one["cpu_seconds"] = cpu;
            uint64_t served = get(s.requests);
            if (cpu >= 0 && served > 0)
                one["cpu_seconds_per_request"] = cpu / static_cast<double>(served);
            threads.append(one);
        }
    }
    return page;
}

std::string status_metrics(const Scoreboard &board, bool openmetrics) {
    const PoolSlots &pool = board.pool();
    auto summed = std::make_unique<Totals>();
    Totals &totals = *summed;
    sum(board, totals);
    const std::vector<std::string> &templates = board.templates();
    Writer out(openmetrics);

    out.family("cms_build", "info", "Version and build of cms-fcgi.");
    out.sample("cms_build_info",
               label("version", CMS_VERSION) + "," + label("compiler", __VERSION__), "1");
    out.family("cms_pool_start_time_seconds", "gauge",
               "When the pool's master started, in Unix time.");
    out.sample("cms_pool_start_time_seconds", "", std::to_string(pool.started_ms / 1000));

    out.family("cms_requests", "counter",
               "Requests answered, by route template, method and status.");
    for (size_t r = 0; r < templates.size(); ++r)
        for (size_t m = 0; m < k_method_count; ++m)
            for (size_t s = 0; s < k_status_count; ++s)
                if (uint64_t n = totals.requests[r][m][s])
                    out.sample(
                        "cms_requests_total",
                        label("route", templates[r]) + "," + label("method", k_methods[m]) + "," +
                            label("status",
                                  k_statuses[s] != 0 ? std::to_string(k_statuses[s]) : "other"),
                        n);
    out.family("cms_request_duration_seconds", "histogram",
               "Time from the request's parameters to its answer, by route template.");
    for (size_t r = 0; r < templates.size(); ++r) {
        if (totals.count[r] == 0)
            continue;
        std::string route = label("route", templates[r]);
        uint64_t cumulative = 0;
        for (size_t b = 0; b < k_bucket_count; ++b) {
            cumulative += totals.buckets[r][b];
            out.sample("cms_request_duration_seconds_bucket",
                       route + "," + label("le", number(k_buckets[b])), cumulative);
        }
        out.sample("cms_request_duration_seconds_bucket", route + "," + label("le", "+Inf"),
                   totals.count[r]);
        out.sample("cms_request_duration_seconds_count", route, totals.count[r]);
        out.sample("cms_request_duration_seconds_sum", route,
                   number(static_cast<double>(totals.sum_us[r]) / 1e6));
    }

    int64_t busy = busy_now(board);
    int64_t slots = static_cast<int64_t>(pool.workers) * pool.threads;
    out.family("cms_workers", "gauge", "Worker processes the pool keeps running.");
    out.sample("cms_workers", "", std::to_string(pool.workers));
    out.family("cms_threads", "gauge",
               "Request threads of the pool (workers times worker_threads).");
    out.sample("cms_threads", "", std::to_string(slots));
    out.family("cms_threads_busy", "gauge", "Threads in a request now (the requests in flight).");
    out.sample("cms_threads_busy", "", std::to_string(busy));
    out.family("cms_threads_busy_max", "gauge",
               "Most threads busy at once since the pool started.");
    out.sample("cms_threads_busy_max", "", std::to_string(pool.busy_max.load()));
    out.family(
        "cms_threads_all_busy", "counter",
        "Requests that took the last idle thread of the pool (php-fpm's max children reached).");
    out.sample("cms_threads_all_busy_total", "", get(pool.all_busy));
    if (totals.listen_now >= 0) {
        out.family("cms_listen_queue", "gauge",
                   "Connections waiting in the listening socket's queue.");
        out.sample("cms_listen_queue", "", std::to_string(totals.listen_now));
        out.family("cms_listen_queue_max", "gauge",
                   "Longest listen queue seen since the pool started.");
        out.sample("cms_listen_queue_max", "",
                   std::to_string(std::max(pool.listen_queue_max.load(), totals.listen_now)));
        out.family("cms_listen_queue_length", "gauge",
                   "The listening socket's queue limit (backlog).");
        out.sample("cms_listen_queue_length", "", std::to_string(totals.listen_limit));
    }
    out.family("cms_worker_starts", "counter", "Worker processes started, first starts included.");
    out.sample("cms_worker_starts_total", "", get(pool.worker_starts));
    out.family("cms_worker_restarts", "counter", "Worker processes started again after one died.");
    out.sample("cms_worker_restarts_total", "", get(pool.restarts));
    out.family("cms_worker_deaths", "counter",
               "Worker processes that ended, by exit status or signal.");
    for (int n = 0; n < 256; ++n)
        if (uint64_t d = get(pool.deaths_exit[n]))
            out.sample("cms_worker_deaths_total", label("cause", death_cause(false, n)), d);
    for (int n = 0; n < 65; ++n)
        if (uint64_t d = get(pool.deaths_signal[n]))
            out.sample("cms_worker_deaths_total", label("cause", death_cause(true, n)), d);
    out.family("cms_worker_resident_memory_bytes", "gauge",
               "Resident memory of each worker process.");
    for (int32_t i = 0; i < pool.workers; ++i) {
        int pid = board.worker(static_cast<size_t>(i)).pid.load();
        if (pid > 0)
            out.sample("cms_worker_resident_memory_bytes", label("slot", std::to_string(i)),
                       std::to_string(rss_bytes(pid)));
    }

    // The worker counters: the database's, its 503s by cause, then the others.
    write_counters(out, totals, true);
    out.family("cms_db_unavailable", "counter",
               "Requests answered 503 because of the database, by cause.");
    for (size_t u = 0; u < static_cast<size_t>(Unavailable::count); ++u)
        out.sample("cms_db_unavailable_total",
                   label("cause", unavailable_name(static_cast<Unavailable>(u))),
                   totals.unavailable[u]);
    write_counters(out, totals, false);
    return out.done();
}

std::string status_summary(const Json::Value &page) {
    std::ostringstream out;
    const Json::Value &k = page["capacity"];
    const Json::Value &c = page["connections"];
    out << "pool:              cms-fcgi " << page["pool"]["version"].asString() << ", up "
        << page["pool"]["uptime_seconds"].asInt64() << " s\n"
        << "workers:           " << k["workers"].asInt() << " x " << k["threads_per_worker"].asInt()
        << " threads; busy " << k["busy"].asInt64() << ", idle " << k["idle"].asInt64()
        << ", max busy " << k["max_busy"].asInt64() << ", all busy " << k["all_busy"].asUInt64()
        << " times\n"
        << "requests:          " << c["accepted"].asUInt64() << " answered, "
        << c["in_flight"].asInt64() << " in flight\n"
        << "listen queue:      " << c["listen_queue"].asInt64() << " now, "
        << c["listen_queue_max"].asInt64() << " max, " << c["listen_queue_len"].asInt64()
        << " limit\n"
        << "worker restarts:   " << page["workers"]["restarts"].asUInt64();
    for (const std::string &cause : page["workers"]["deaths"].getMemberNames())
        out << ", " << cause << ": " << page["workers"]["deaths"][cause].asUInt64();
    out << "\n";
    // The worker counters that name a summary line, after the line's name (19 columns wide).
    const char *line = "";
    for (const WorkerCounterRow &row : k_worker_counters) {
        if (*row.line == '\0')
            continue;
        if (std::strcmp(row.line, line) == 0)
            out << ", ";
        else
            out << (*line != '\0' ? "\n" : "") << std::left << std::setw(19)
                << std::string(row.line) + ":";
        line = row.line;
        const Json::Value &value = member(page, row.json);
        if (row.unit == CounterUnit::us)
            out << value.asDouble();
        else
            out << value.asUInt64();
        if (*row.words != '\0')
            out << ' ' << row.words;
    }
    if (*line != '\0')
        out << "\n";
    return out.str();
}

} // namespace cms
