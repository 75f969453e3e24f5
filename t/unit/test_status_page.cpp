// Unit tests for src/metrics/scoreboard.cpp and src/metrics/status_page.cpp: the bounded label tables, a
// request counted into a slot and read back as JSON and as Prometheus and OpenMetrics text
// (cumulative buckets, _total names, # EOF), and a dead worker's slot given back.
#include "base/config.h"
#include "http/router.h"
#include "metrics/scoreboard.h"
#include "metrics/status_page.h"

#include <cppunit/extensions/HelperMacros.h>

#include <csignal>
#include <cstring>
#include <fstream>
#include <memory>
#include <set>
#include <sstream>
#include <string>

#include <sys/wait.h>

using cms::Config;
using cms::Meter;
using cms::Scoreboard;
using cms::WorkerCounterRow;

namespace {

const cms::Route *route_of(const std::string &method, const std::string &pattern) {
    for (const cms::Route &route : cms::route_table())
        if (method == route.method && pattern == route.pattern)
            return &route;
    return nullptr;
}

bool has_line(const std::string &text, const std::string &line) {
    return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

std::string file_text(const std::string &path) {
    std::ifstream file(path);
    CPPUNIT_ASSERT_MESSAGE("cannot open " + path, file.good());
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// text without what changes from build to build: the cms_build_info sample's labels.
std::string without_build(const std::string &text) {
    std::istringstream in(text);
    std::string out, line;
    while (std::getline(in, line))
        out += (line.rfind("cms_build_info{", 0) == 0 ? "cms_build_info{...} 1" : line) + "\n";
    return out;
}

// The member of page at a CMS_WORKER_COUNTERS json path, as the row names it.
const Json::Value &at(const Json::Value &page, const std::string &path) {
    const Json::Value *value = &page;
    std::istringstream names(path);
    for (std::string name; std::getline(names, name, '.');)
        value = &(*value)[name];
    return *value;
}

// The status waitpid gives for a process killed by sig (no core dumped): the signal's number.
int killed_by(int sig) {
    return sig;
}

} // namespace

class StatusPageTest : public CppUnit::TestFixture {
    CPPUNIT_TEST_SUITE(StatusPageTest);
    CPPUNIT_TEST(routes_of_one_path_share_a_template_and_none_is_unmatched);
    CPPUNIT_TEST(statuses_and_methods_outside_the_tables_are_other);
    CPPUNIT_TEST(a_counted_request_is_in_the_json_page);
    CPPUNIT_TEST(prometheus_text_has_cumulative_buckets_and_total_counters);
    CPPUNIT_TEST(openmetrics_names_families_without_total_and_ends_with_eof);
    CPPUNIT_TEST(a_dead_worker_frees_its_busy_threads_and_is_counted_by_signal);
    CPPUNIT_TEST(known_counts_give_the_golden_pages);
    CPPUNIT_TEST(every_worker_counter_is_in_every_format);
    CPPUNIT_TEST(worker_counter_rows_are_named_once_and_grouped);
    CPPUNIT_TEST_SUITE_END();

  public:
    void setUp() override {
        config_.workers = 2;
        config_.worker_threads = 2;
        board_ = Scoreboard::create(config_, -1, cms::route_templates(cms::route_table()), nullptr);
        CPPUNIT_ASSERT(board_ != nullptr);
    }

    void routes_of_one_path_share_a_template_and_none_is_unmatched() {
        uint16_t get = router_.template_index(route_of("GET", "/v1/book/{id}"));
        uint16_t put = router_.template_index(route_of("PUT", "/v1/book/{id}"));
        CPPUNIT_ASSERT_EQUAL(get, put);
        CPPUNIT_ASSERT_EQUAL(std::string("/v1/book/{id}"), board_->templates()[get]);
        CPPUNIT_ASSERT_EQUAL(std::string("unmatched"),
                             board_->templates()[router_.template_index(nullptr)]);
        cms::Route stranger{"GET", "/v1/book/{id}", cms::Access::everyone, {}, nullptr};
        CPPUNIT_ASSERT_EQUAL(router_.template_index(nullptr), router_.template_index(&stranger));
        CPPUNIT_ASSERT(board_->templates().size() <= cms::k_max_templates);
    }

    void statuses_and_methods_outside_the_tables_are_other() {
        CPPUNIT_ASSERT_EQUAL(0, cms::k_statuses[cms::status_index(418)]);
        CPPUNIT_ASSERT_EQUAL(404, cms::k_statuses[cms::status_index(404)]);
        CPPUNIT_ASSERT_EQUAL(std::string("other"),
                             std::string(cms::k_methods[cms::method_index("BREW")]));
        CPPUNIT_ASSERT_EQUAL(std::string("PUT"),
                             std::string(cms::k_methods[cms::method_index("PUT")]));
    }

    void a_counted_request_is_in_the_json_page() {
        board_->started(0, 4242, false);
        count_one(0, 1, 3000);
        Json::Value page = cms::status_json(*board_, true);
        CPPUNIT_ASSERT_EQUAL(4, page["capacity"]["threads"].asInt());
        CPPUNIT_ASSERT_EQUAL(1u, page["connections"]["accepted"].asUInt());
        CPPUNIT_ASSERT_EQUAL(std::string("/v1/book/{id}"), page["requests"][0]["route"].asString());
        CPPUNIT_ASSERT_EQUAL(std::string("200"), page["requests"][0]["status"].asString());
        CPPUNIT_ASSERT_EQUAL(0u, page["latency"][0]["buckets"]["0.001"].asUInt());
        CPPUNIT_ASSERT_EQUAL(1u, page["latency"][0]["buckets"]["0.005"].asUInt());
        CPPUNIT_ASSERT_EQUAL(1u, page["latency"][0]["buckets"]["10"].asUInt());
        CPPUNIT_ASSERT_EQUAL(4u, page["threads"].size());
        CPPUNIT_ASSERT_EQUAL(1u, page["threads"][1]["requests"].asUInt());
        CPPUNIT_ASSERT_EQUAL(std::string("idle"), page["threads"][1]["state"].asString());
    }

    void prometheus_text_has_cumulative_buckets_and_total_counters() {
        count_one(1, 0, 3000);
        count_one(1, 0, 20000);
        std::string text = cms::status_metrics(*board_, false);
        const std::string route = "route=\"/v1/book/{id}\"";
        CPPUNIT_ASSERT(has_line(text, "# TYPE cms_requests_total counter"));
        CPPUNIT_ASSERT(
            has_line(text, "cms_requests_total{" + route + ",method=\"GET\",status=\"200\"} 2"));
        CPPUNIT_ASSERT(
            has_line(text, "cms_request_duration_seconds_bucket{" + route + ",le=\"0.001\"} 0"));
        CPPUNIT_ASSERT(
            has_line(text, "cms_request_duration_seconds_bucket{" + route + ",le=\"0.005\"} 1"));
        CPPUNIT_ASSERT(
            has_line(text, "cms_request_duration_seconds_bucket{" + route + ",le=\"0.025\"} 2"));
        CPPUNIT_ASSERT(
            has_line(text, "cms_request_duration_seconds_bucket{" + route + ",le=\"+Inf\"} 2"));
        CPPUNIT_ASSERT(has_line(text, "cms_request_duration_seconds_count{" + route + "} 2"));
        CPPUNIT_ASSERT(has_line(text, "cms_request_duration_seconds_sum{" + route + "} 0.023"));
        CPPUNIT_ASSERT(has_line(text, "# TYPE cms_build_info gauge"));
        CPPUNIT_ASSERT(text.find("# EOF") == std::string::npos);
    }

    void openmetrics_names_families_without_total_and_ends_with_eof() {
        std::string text = cms::status_metrics(*board_, true);
        CPPUNIT_ASSERT(has_line(text, "# TYPE cms_requests counter"));
        CPPUNIT_ASSERT(has_line(text, "# TYPE cms_build info"));
        CPPUNIT_ASSERT(text.size() >= 6 && text.compare(text.size() - 6, 6, "# EOF\n") == 0);
    }

    void a_dead_worker_frees_its_busy_threads_and_is_counted_by_signal() {
        board_->started(0, 4242, false);
        Meter meter(*board_, 0, 1);
        meter.begin();
        CPPUNIT_ASSERT_EQUAL(int64_t{1}, board_->pool().busy.load());
        board_->died(0, killed_by(SIGKILL));
        board_->started(0, 4243, true);
        CPPUNIT_ASSERT_EQUAL(int64_t{0}, board_->pool().busy.load());
        Json::Value page = cms::status_json(*board_, false);
        CPPUNIT_ASSERT_EQUAL(1u, page["workers"]["deaths"]["SIGKILL"].asUInt());
        CPPUNIT_ASSERT_EQUAL(1u, page["workers"]["restarts"].asUInt());
        CPPUNIT_ASSERT_EQUAL(4243, page["workers"]["list"][0]["pid"].asInt());
    }

    // Every counter at a known count, in two worker slots, through the four formats. The golden
    // files in t/unit/golden/ were written by the code from before the worker counters became one
    // table (CMS_WORKER_COUNTERS): they hold its names, nesting, HELP, TYPE and order.
    void known_counts_give_the_golden_pages() {
        set_known_counts();
        Json::Value page = cms::status_json(*board_, false);
        std::string summary = cms::status_summary(page);
        summary.erase(0, summary.find('\n') + 1); // "pool: cms-fcgi <version>, up <s> s"
        page["pool"].removeMember("uptime_seconds");
        page["pool"].removeMember("version");
        page["pool"].removeMember("build");
        CPPUNIT_ASSERT_EQUAL(file_text("t/unit/golden/status.json"), page.toStyledString());
        CPPUNIT_ASSERT_EQUAL(file_text("t/unit/golden/status.prom"),
                             without_build(cms::status_metrics(*board_, false)));
        CPPUNIT_ASSERT_EQUAL(file_text("t/unit/golden/status.openmetrics"),
                             without_build(cms::status_metrics(*board_, true)));
        CPPUNIT_ASSERT_EQUAL(file_text("t/unit/golden/status.summary"), summary);
    }

    // Each CMS_WORKER_COUNTERS line alone at a count of its own: its JSON member, its sample in
    // both texts and, if it names one, its summary line show that count.
    void every_worker_counter_is_in_every_format() {
        for (size_t i = 0; i < cms::k_worker_counter_count; ++i) {
            const WorkerCounterRow &row = cms::k_worker_counters[i];
            setUp();
            uint64_t n = 1000003 * (i + 1);
            cms::add(board_->worker(1).counters.*row.field, n);
            Json::Value page = cms::status_json(*board_, false);
            std::string where = std::string(row.name) + " at " + row.json;
            bool us = row.unit == cms::CounterUnit::us;
            if (us)
                CPPUNIT_ASSERT_DOUBLES_EQUAL_MESSAGE(where, static_cast<double>(n) / 1e6,
                                                     at(page, row.json).asDouble(), 1e-9);
            else
                CPPUNIT_ASSERT_EQUAL_MESSAGE(where, Json::UInt64(n), at(page, row.json).asUInt64());
            char value[32];
            std::snprintf(value, sizeof value, "%.6g", static_cast<double>(n) / 1e6);
            std::string sample = std::string(row.family) + "_total" +
                                 (*row.cause ? std::string("{cause=\"") + row.cause + "\"}" : "") +
                                 " " + (us ? std::string(value) : std::to_string(n));
            CPPUNIT_ASSERT_MESSAGE(sample, has_line(cms::status_metrics(*board_, false), sample));
            CPPUNIT_ASSERT_MESSAGE(sample, has_line(cms::status_metrics(*board_, true), sample));
            if (*row.line == '\0')
                continue;
            std::ostringstream number;
            if (us)
                number << static_cast<double>(n) / 1e6;
            else
                number << n;
            std::string summary = cms::status_summary(page);
            size_t line = summary.find("\n" + std::string(row.line) + ":");
            CPPUNIT_ASSERT_MESSAGE(where + ": no summary line " + row.line,
                                   line != std::string::npos);
            std::string text = summary.substr(line + 1, summary.find('\n', line + 1) - line - 1);
            std::string item = number.str() + (*row.words ? std::string(" ") + row.words : "");
            CPPUNIT_ASSERT_MESSAGE(text + " lacks " + item, text.find(item) != std::string::npos);
        }
    }

    // Names and JSON members once each; a family's lines adjacent, the family's HELP on its first
    // line only; a summary line's counters one after the other among those the summary shows.
    void worker_counter_rows_are_named_once_and_grouped() {
        std::set<std::string> names, members, families, lines;
        const WorkerCounterRow *before = nullptr;
        const char *last_line = "";
        for (const WorkerCounterRow &row : cms::k_worker_counters) {
            CPPUNIT_ASSERT_MESSAGE(row.name, names.insert(row.name).second);
            CPPUNIT_ASSERT_MESSAGE(row.json, members.insert(row.json).second);
            CPPUNIT_ASSERT_MESSAGE(row.family, std::strncmp(row.family, "cms_", 4) == 0);
            bool same_family = before != nullptr && std::strcmp(before->family, row.family) == 0;
            CPPUNIT_ASSERT_MESSAGE(row.family, same_family || families.insert(row.family).second);
            CPPUNIT_ASSERT_MESSAGE(row.name, same_family == (*row.help == '\0'));
            CPPUNIT_ASSERT_MESSAGE(row.name, !same_family || (*row.cause && *before->cause));
            // Among the rows shown in the summary, those of one line follow each other.
            if (*row.line != '\0') {
                bool same_line = std::strcmp(last_line, row.line) == 0;
                CPPUNIT_ASSERT_MESSAGE(row.line, same_line || lines.insert(row.line).second);
                last_line = row.line;
            }
            before = &row;
        }
    }

  private:
    // Distinct counts in every counter the pages show, the worker counters split over two slots
    // (so that the pages must add them up); no worker has a pid (no /proc reads), no clock shows.
    void set_known_counts() {
        cms::PoolSlots &pool = board_->pool();
        pool.started_ms = 0;
        pool.busy_max.store(3);
        cms::add(pool.all_busy, 2);
        pool.listen_queue_max.store(5);
        cms::add(pool.worker_starts, 4);
        cms::add(pool.restarts, 2);
        cms::add(pool.deaths_exit[1], 1);
        cms::add(pool.deaths_signal[SIGKILL], 1);
        count_one(0, 0, 3000);
        count_one(1, 1, 20000);
        for (size_t w = 0; w < 2; ++w) {
            cms::WorkerCounters &c = board_->worker(w).counters;
            uint64_t k = w == 0 ? 1 : 100; // slot 1 adds 100 times what slot 0 adds
            cms::add(c.db_round_trips, 11 * k);
            cms::add(c.db_wait_us, 1234567 * k);
            cms::add(c.db_connects, 12 * k);
            cms::add(c.db_connect_failures, 13 * k);
            cms::add(c.db_reconnects, 14 * k);
            cms::add(c.db_deadlock_retries, 15 * k);
            cms::add(c.db_lost_retries, 16 * k);
            for (size_t u = 0; u < static_cast<size_t>(cms::Unavailable::count); ++u)
                cms::add(c.unavailable[u], (21 + u) * k);
            cms::add(c.throttle_refusals, 31 * k);
            cms::add(c.idempotency_replays, 32 * k);
            cms::add(c.idempotency_conflicts, 33 * k);
            cms::add(c.body_too_large, 34 * k);
            cms::add(c.slow_requests, 35 * k);
        }
    }

    // One GET /v1/book/{id} answered 200 after us microseconds by thread (worker, thread).
    void count_one(size_t worker, size_t thread, int64_t us) {
        Meter meter(*board_, worker, thread);
        meter.begin();
        meter.count(router_.template_index(route_of("GET", "/v1/book/{id}")),
                    cms::method_index("GET"), 200, us);
        meter.done(true);
    }

    Config config_;
    cms::Router router_{cms::route_table()};
    std::unique_ptr<Scoreboard> board_;
};

CPPUNIT_TEST_SUITE_REGISTRATION(StatusPageTest);
