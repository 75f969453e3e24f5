-- POST /v1/book as a logged-in user: the JSON body comes from $BENCH_BODY and the access token
-- from $BENCH_TOKEN (set by bench/run, which also sends the same body once with curl to check it).
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "report.lua")

local body = assert(os.getenv("BENCH_BODY"), "BENCH_BODY is not set")
local token = assert(os.getenv("BENCH_TOKEN"), "BENCH_TOKEN is not set")

wrk.method = "POST"
wrk.body = body
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer " .. token
