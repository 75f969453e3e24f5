-- GET /v1/book/{id} over the seeded ids: `wrk -s bench/get.lua URL -- FIRST_ID LAST_ID [PREFIX]`
-- (PREFIX: /v1/book/, or a collection's). Each thread walks the whole range from its own
-- starting point, so threads ask for different rows.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "report.lua")

local thread_count = 0

function setup(thread)
    thread:set("thread_index", thread_count)
    thread_count = thread_count + 1
end

local first, last, id, prefix

function init(args)
    first, last = tonumber(args[1]), tonumber(args[2])
    prefix = args[3] or "/v1/book/"
    assert(first and last and first <= last, "usage: wrk -s get.lua URL -- FIRST_ID LAST_ID")
    id = first + ((thread_index or 0) * 499) % (last - first + 1)
end

function request()
    local path = prefix .. id
    id = id < last and id + 1 or first
    return wrk.format("GET", path)
end
