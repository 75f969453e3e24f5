// The pool's status page: a snapshot of the scoreboard as JSON, as Prometheus text or as
// OpenMetrics text, and the short summary of `cms-fcgi status`. Reads only; never HTTP.
#pragma once

#include <string>

#include <json/json.h>

namespace cms {

class Scoreboard;

// The page as JSON; full adds one entry per worker thread.
Json::Value status_json(const Scoreboard &board, bool full);

// The metrics in Prometheus' text format (0.0.4), or in OpenMetrics 1.0 (# EOF, info type).
std::string status_metrics(const Scoreboard &board, bool openmetrics);

// A few lines for a person, from the JSON page (as `cms-fcgi status` prints it).
std::string status_summary(const Json::Value &page);

} // namespace cms
