-- wrk's done() for every bench scenario: one line `bench-result RPS P50_MS P99_MS ERRORS REQUESTS`
-- that bench/run reads (wrk's own --latency output stays beside it for a human). ERRORS counts
-- connect/read/write errors, timeouts and answers with a status above 399.
function done(summary, latency, requests)
    local e = summary.errors
    local errors = e.connect + e.read + e.write + e.timeout + e.status
    io.write(string.format("bench-result %.1f %.3f %.3f %d %d\n",
        summary.requests / (summary.duration / 1e6),
        latency:percentile(50) / 1000, latency:percentile(99) / 1000, errors, summary.requests))
end
