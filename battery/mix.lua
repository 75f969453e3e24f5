-- wrk script for the soak of battery/run (BATTERY_SOAK_SECONDS): a realistic mix, one request of
-- this list after another on each connection: book GETs, lists and searches, POSTs and PUTs of
-- books, logins with the right and with a wrong password, PNG uploads (each one new bytes, so a
-- new file), a body that is not JSON, an unknown path and a forged token. Prints one line
-- `battery-mix requests=N rate=R errors=N s2xx=N s4xx=N s503=N s5xx=N`, where s5xx counts the 5xx
-- answers other than 503 and errors the requests nginx never answered. Script arguments:
-- milliseconds to wait before each request, the book to read and update. Environment:
-- BATTERY_TOKEN (root's access token), BATTERY_LOGIN (root's login body).
local threads = {}
local next_id = 1

function setup(thread)
    thread:set("id", next_id)
    next_id = next_id + 1
    table.insert(threads, thread)
end

local json = {["Content-Type"] = "application/json"}

function init(args)
    pause = tonumber(args[1] or "0")
    book = args[2]
    token = assert(os.getenv("BATTERY_TOKEN"), "BATTERY_TOKEN is not set")
    login = assert(os.getenv("BATTERY_LOGIN"), "BATTERY_LOGIN is not set")
    auth_json = {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token}
    n, s2xx, s4xx, s503, s5xx = 0, 0, 0, 0, 0
    boundary = "cmssoak" .. id
    auth_multipart = {["Content-Type"] = "multipart/form-data; boundary=" .. boundary,
        ["Authorization"] = "Bearer " .. token}
end

function delay()
    return pause
end

-- A PNG signature and bytes of its own: the app sniffs the type and de-duplicates by MD5.
local function upload()
    local png = "\137PNG\r\n\26\n" .. string.rep("\0", 24) .. string.format("soak-%d-%d", id, n)
    return wrk.format("POST", "/cms/file", auth_multipart, "--" .. boundary ..
        "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"s.png\"\r\n" ..
        "Content-Type: image/png\r\n\r\n" .. png .. "\r\n--" .. boundary .. "--\r\n")
end

local kinds = {
    function() return wrk.format("GET", "/v1/book/" .. book) end,
    function() return wrk.format("GET", "/v1/book?page=0&count=10") end,
    function() return wrk.format("GET", "/v1/book/" .. book) end,
    function() return wrk.format("GET", "/v1/book/search?q=soak") end,
    function()
        return wrk.format("POST", "/v1/book", auth_json, string.format(
            '{"title":"soak-%d-%d","author":"battery","summary":"written by the soak"}', id, n))
    end,
    function() return wrk.format("GET", "/v1/book/" .. book) end,
    function()
        return wrk.format("PUT", "/v1/book/" .. book, auth_json, string.format(
            '{"title":"soak-book","author":"battery","summary":"version %d-%d"}', id, n))
    end,
    function() return wrk.format("GET", "/v1/book?page=1&count=20") end,
    function() return wrk.format("POST", "/cms/user/login", json, login) end,
    function() return wrk.format("GET", "/v1/book/" .. book) end,
    function()
        return wrk.format("POST", "/cms/user/login", json,
            '{"username":"root","password":"wrong_Pass' .. n .. '"}')
    end,
    upload,
    function() return wrk.format("GET", "/v1/book/" .. book) end,
    function() return wrk.format("POST", "/v1/book", auth_json, '{"title":"soak",') end,
    function() return wrk.format("GET", "/v1/nothing/here") end,
    function()
        return wrk.format("GET", "/cms/user/information",
            {["Authorization"] = "Bearer " .. string.sub(token, 1, -5) .. "AAAA"})
    end,
    function() return wrk.format("GET", "/cms/user/information", auth_json) end,
}

function request()
    n = n + 1
    return kinds[(n - 1) % #kinds + 1]()
end

function response(status, headers, body)
    if status >= 200 and status < 300 then
        s2xx = s2xx + 1
    elseif status == 503 then
        s503 = s503 + 1
    elseif status >= 500 then
        s5xx = s5xx + 1
    else
        s4xx = s4xx + 1
    end
end

function done(summary, latency, requests)
    local e = summary.errors
    local t = {0, 0, 0, 0}
    for _, thread in ipairs(threads) do
        t[1] = t[1] + thread:get("s2xx")
        t[2] = t[2] + thread:get("s4xx")
        t[3] = t[3] + thread:get("s503")
        t[4] = t[4] + thread:get("s5xx")
    end
    io.write(string.format("battery-mix requests=%d rate=%.1f errors=%d s2xx=%d s4xx=%d s503=%d s5xx=%d\n",
        summary.requests, summary.requests / (summary.duration / 1e6),
        e.connect + e.read + e.write + e.timeout, t[1], t[2], t[3], t[4]))
end
