-- wrk script for the warm-up of battery/run: POST /cms/user/login with the JSON body in
-- $BATTERY_LOGIN, so that every worker has hashed passwords before memory is first sampled.
wrk.method = "POST"
wrk.body = assert(os.getenv("BATTERY_LOGIN"), "BATTERY_LOGIN is not set")
wrk.headers["Content-Type"] = "application/json"
