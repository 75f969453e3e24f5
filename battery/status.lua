-- wrk script for the loads of battery/run: counts the answers by status and prints one line
-- `battery-result REQUESTS RATE ERRORS S200 S503 OTHER`, where RATE is requests per second,
-- ERRORS counts connect/read/write errors and timeouts (requests nginx never answered) and
-- OTHER the answers that were neither 200 nor 503. Script argument: milliseconds to wait before
-- each request (default 0), which makes a light load of a known rate.
local threads = {}

function setup(thread)
    table.insert(threads, thread)
end

function init(args)
    pause = tonumber(args[1] or "0")
    s200, s503, other = 0, 0, 0
end

function delay()
    return pause
end

function response(status, headers, body)
    if status == 200 then
        s200 = s200 + 1
    elseif status == 503 then
        s503 = s503 + 1
    else
        other = other + 1
    end
end

function done(summary, latency, requests)
    local e = summary.errors
    local t = {0, 0, 0}
    for _, thread in ipairs(threads) do
        t[1] = t[1] + thread:get("s200")
        t[2] = t[2] + thread:get("s503")
        t[3] = t[3] + thread:get("other")
    end
    io.write(string.format("battery-result %d %.1f %d %d %d %d\n", summary.requests,
        summary.requests / (summary.duration / 1e6), e.connect + e.read + e.write + e.timeout,
        t[1], t[2], t[3]))
end
