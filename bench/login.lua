-- POST /cms/user/login with root's correct password: the JSON body comes from $BENCH_LOGIN_BODY
-- (set by bench/run). The login throttle counts failures only, so every login succeeds.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "report.lua")

wrk.method = "POST"
wrk.body = assert(os.getenv("BENCH_LOGIN_BODY"), "BENCH_LOGIN_BODY is not set")
wrk.headers["Content-Type"] = "application/json"
