-- wrk's done() for the tests: one line `wrk-result REQUESTS MAX_MS ERRORS`, where ERRORS counts
-- connect/read/write errors, timeouts and answers with a status above 399.
function done(summary, latency, requests)
    local e = summary.errors
    io.write(string.format("wrk-result %d %.1f %d\n", summary.requests, latency.max / 1000,
        e.connect + e.read + e.write + e.timeout + e.status))
end
