-- wrk script for phase 3 of battery/run: POST /v1/book with a title never sent before
-- (TAG-THREAD-N), and every title answered 201 appended to DIR/acked.THREAD. Run it with as many
-- threads as connections: one connection per thread keeps each response paired with the request
-- that the thread sent last. Script arguments: DIR TAG. The token comes from $BATTERY_TOKEN.
local next_id = 1
local token = os.getenv("BATTERY_TOKEN")

function setup(thread)
    thread:set("id", next_id)
    next_id = next_id + 1
end

function init(args)
    acked = assert(io.open(args[1] .. "/acked." .. id, "w"))
    tag = args[2]
    sent = 0
    headers = {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. token}
end

function request()
    sent = sent + 1
    title = string.format("%s-%d-%d", tag, id, sent)
    return wrk.format("POST", nil, headers, string.format(
        '{"title":"%s","author":"battery","summary":"written while workers are killed"}', title))
end

function response(status, headers, body)
    if status == 201 then
        acked:write(title, "\n")
        acked:flush()
    end
end
