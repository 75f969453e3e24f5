-- POST /cms/user/captcha with no body, as lin-cms-vue sends it: from an address with failures
-- (bench/run records them first), so each answer is a new code, PNG and sealed tag.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "report.lua")

wrk.method = "POST"
