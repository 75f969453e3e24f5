#!/bin/sh
test_description='GET /status: the pool'"'"'s figures from the scoreboard the master shares with its workers, as JSON and as metrics, only for loopback; X-Request-Id on every answer'
. "$(dirname "$0")/lib.sh"

command -v promtool >/dev/null 2>&1 || skip_all "promtool is not installed (package prometheus, scripts/install-deps)"

start_db
start_app workers=2 worker_threads=2 login_max_failures=2
start_nginx

# count ROUTE METHOD STATUS: the request counter of the last JSON page for that label set (0 when
# it has none).
count () {
	jq -r --arg r "$1" --arg m "$2" --arg s "$3" \
		'[.requests[] | select(.route == $r and .method == $m and .status == $s) | .count] | add // 0' \
		"$TRASH/body"
}

test_expect_success 'setup: a book' '
	db_exec "INSERT INTO book (title, author) VALUES (\"Dune\", \"Herbert\")" &&
	db_exec "SELECT id FROM book" >book_id
'

test_expect_success 'GET /status from loopback answers JSON with the pool, its capacity and workers' '
	http GET /status &&
	expect_status 200 &&
	expect_header Content-Type "^application/json" &&
	expect_json .capacity.workers 2 &&
	expect_json .capacity.threads_per_worker 2 &&
	expect_json .capacity.threads 4 &&
	expect_json_true ".pool.uptime_seconds >= 0 and (.pool.version | length) > 0" &&
	expect_json "[.workers.list[].pid | select(. > 0)] | length" 2 &&
	expect_json "[.workers.list[].rss_bytes | select(. > 0)] | length" 2 &&
	expect_json_true ".connections.listen_queue >= 0 and .connections.listen_queue_len > 0"
'

test_expect_success 'every answer carries X-Request-Id, nginx'"'"'s request id' '
	http GET "/v1/book/$(cat book_id)" &&
	expect_status 200 &&
	expect_header X-Request-Id "^[0-9a-f]{32}$" &&
	http GET /nowhere &&
	expect_status 404 &&
	expect_header X-Request-Id "^[0-9a-f]{32}$"
'

test_expect_success 'nginx'"'"'s own error answers carry X-Request-Id too' '
	head -c 3000000 /dev/zero >huge.body &&
	http POST /cms/user/login @huge.body &&
	expect_status 413 &&
	expect_header X-Request-Id "^[0-9a-f]{32}$"
'

test_expect_success 'the access line carries the request id the answer had' '
	http GET "/v1/book/$(cat book_id)" &&
	id=$(tr -d "\r" <headers | sed -n "s/^X-Request-Id: //Ip") &&
	test -n "$id" &&
	poll_until 20 grep -q "access: method=GET .* request_id=$id\$" app.log
'

test_expect_success 'a request id from the web server is kept; a malformed one is replaced' '
	"$TOP/t/fcgi-client.pl" "$APP_SOCKET" request --param REQUEST_METHOD=GET \
		--param PATH_INFO=/healthz --param REMOTE_ADDR=127.0.0.1 \
		--param REQUEST_ID=0123456789abcdef0123456789abcdef >kept.out &&
	grep -q "^X-Request-Id: 0123456789abcdef0123456789abcdef" kept.out &&
	"$TOP/t/fcgi-client.pl" "$APP_SOCKET" request --param REQUEST_METHOD=GET \
		--param PATH_INFO=/healthz --param REMOTE_ADDR=127.0.0.1 \
		--param "REQUEST_ID=a b\"c" >replaced.out &&
	grep -q "^X-Request-Id: [0-9a-f]\{32\}" replaced.out
'

test_expect_success 'the request counter of a route template counts exactly the requests sent' '
	http GET /status &&
	before=$(count "/v1/book/{id}" GET 200) &&
	for i in 1 2 3 4 5 6 7; do
		http GET "/v1/book/$(cat book_id)" && expect_status 200 || return 1
	done &&
	http GET /v1/book/999999 && expect_status 404 &&
	http GET /status &&
	test "$(count "/v1/book/{id}" GET 200)" -eq $((before + 7)) &&
	test "$(count "/v1/book/{id}" GET 404)" -ge 1 &&
	expect_json_true "[.latency[] | select(.route == \"/v1/book/{id}\")][0].buckets[\"+Inf\"] >= 8"
'

test_expect_success 'a path no route has counts as "unmatched", never under its own path' '
	http GET /no/such/path/12345 &&
	http GET /status &&
	test "$(count unmatched GET 404)" -ge 1 &&
	! grep -q "no/such/path" body
'

test_expect_success 'a preflight counts under its path'"'"'s template, as OPTIONS' '
	http OPTIONS /cms/user/login "" -H "Origin: http://client.example" \
		-H "Access-Control-Request-Method: POST" &&
	expect_status 204 &&
	http GET /status &&
	test "$(count /cms/user/login OPTIONS 204)" -eq 1
'

test_expect_success '?format=prometheus passes promtool check metrics, with route templates as labels' '
	http GET "/status?format=prometheus" &&
	expect_status 200 &&
	expect_header Content-Type "^text/plain; version=0.0.4" &&
	promtool check metrics <body >promtool.out 2>&1 &&
	grep -q "^cms_requests_total{route=\"/v1/book/{id}\",method=\"GET\",status=\"200\"} [0-9]" body &&
	grep -q "^cms_request_duration_seconds_bucket{route=\"/v1/book/{id}\",le=\"+Inf\"} [0-9]" body &&
	grep -q "^cms_build_info{version=" body &&
	! grep -q "^cms_requests_total{route=\"/v1/book/[0-9]" body
'

test_expect_success '?format=openmetrics and an Accept of OpenMetrics answer OpenMetrics text ending in # EOF' '
	http GET "/status?format=openmetrics" &&
	expect_header Content-Type "^application/openmetrics-text; version=1.0.0" &&
	test "$(tail -n 1 body)" = "# EOF" &&
	grep -q "^# TYPE cms_requests counter" body &&
	grep -q "^# TYPE cms_build info" body &&
	http GET /status "" -H "Accept: application/openmetrics-text; version=1.0.0" &&
	expect_header Content-Type "^application/openmetrics-text" &&
	test "$(tail -n 1 body)" = "# EOF"
'

test_expect_success '?full has one entry per worker thread: pid, state, requests, last route' '
	http GET "/status?full" &&
	expect_json ".threads | length" 4 &&
	expect_json_true "[.threads[] | select(.pid > 0)] | length == 4" &&
	expect_json_true "[.threads[] | select(.state == \"handler\" and .route == \"/status\" and .duration_seconds >= 0)] | length == 1" &&
	expect_json_true "[.threads[] | select(.state == \"idle\")] | length == 3" &&
	expect_json_true "[.threads[].requests] | add >= 10" &&
	expect_json_true "[.threads[] | .cpu_seconds] | all(. >= 0)" &&
	expect_json_true "[.threads[] | select(.requests > 0) | .cpu_seconds_per_request] | all(. >= 0)"
'

test_expect_success 'a client address outside status_allow, unix: among them by default, gets the usual JSON 404' '
	"$TOP/t/fcgi-client.pl" "$APP_SOCKET" request --param REQUEST_METHOD=GET \
		--param PATH_INFO=/status --param REMOTE_ADDR=192.0.2.7 >far.out &&
	grep -q "^Status: 404" far.out &&
	grep -q "\"code\":10020" far.out &&
	"$TOP/t/fcgi-client.pl" "$APP_SOCKET" request --param REQUEST_METHOD=GET \
		--param PATH_INFO=/status --param REMOTE_ADDR=unix: >unix.out &&
	grep -q "^Status: 404" unix.out
'

test_expect_success 'the throttle'"'"'s refusals, Idempotency-Key replays and conflicts, and 413s are counted' '
	remember root "$ROOT_PASSWORD" &&
	as root &&
	book="{\"title\":\"Emma\",\"author\":\"Austen\",\"summary\":\"S\"}" &&
	http POST /v1/book "$book" -H "Idempotency-Key: status-1" && expect_status 201 &&
	http POST /v1/book "$book" -H "Idempotency-Key: status-1" && expect_status 201 &&
	http POST /v1/book "{\"title\":\"Other\",\"author\":\"A\",\"summary\":\"S\"}" \
		-H "Idempotency-Key: status-1" && expect_status 422 &&
	TOKEN= &&
	for i in 1 2 3; do
		http POST /cms/user/login "{\"username\":\"nobody\",\"password\":\"Wrong_pass1\"}" || return 1
	done &&
	expect_status 429 &&
	printf "{\"username\":\"%05000d\"}" 0 >big.json &&
	http POST /cms/user/login @big.json && expect_status 413 &&
	http GET /status &&
	expect_json .idempotency.replays 1 &&
	expect_json .idempotency.conflicts 1 &&
	expect_json .login_throttle.refusals 1 &&
	expect_json .body_too_large 1 &&
	test "$(count /cms/user/login POST 429)" -eq 1 &&
	test "$(count /v1/book POST 201)" -eq 2
'

test_expect_success 'cms-fcgi status prints a summary of the running pool, asked on its socket' '
	"$APP_BIN" -c cms.conf --listen "$APP_SOCKET" status >summary.txt &&
	grep -q "^workers: *2 x 2 threads; busy 1, idle 3" summary.txt &&
	grep -q "^requests: *[1-9][0-9]* answered" summary.txt &&
	grep -q "^listen queue: *0 now" summary.txt &&
	! "$APP_BIN" -c cms.conf --listen "$TRASH/no.sock" status >none.txt 2>none.err &&
	grep -q "cannot connect" none.err
'

test_expect_success 'a killed worker: its death counted by signal, its slot taken by the next, the counters kept' '
	http GET /status &&
	before=$(count "/v1/book/{id}" GET 200) &&
	victim=$(jq -r ".workers.list[0].pid" body) &&
	kill -KILL "$victim" &&
	poll_until 50 sh -c "curl -s http://127.0.0.1:$HTTP_PORT/status >st.json &&
		jq -e \".workers.list[0].pid > 0 and .workers.list[0].pid != $victim\" st.json >/dev/null" &&
	http GET /status &&
	expect_json ".workers.deaths.SIGKILL" 1 &&
	expect_json .workers.restarts 1 &&
	expect_json .capacity.busy 1 &&
	test "$(count "/v1/book/{id}" GET 200)" -eq "$before"
'

test_expect_success 'an nginx over two pools (make cluster'"'"'s) serves each pool'"'"'s own page at /status/poolN' '
	port=$(test_port 2) &&
	svc_nginx_conf "$TRASH/nginx-pools" "$port" "$APP_SOCKET $APP_SOCKET" "$TOP" "$TRASH/assets" &&
	pid=$(svc_nginx_start "$TRASH/nginx-pools") &&
	svc_wait_http_200 "http://127.0.0.1:$port/healthz" 100 "$pid" &&
	for n in 1 2; do
		curl -s -o pool$n.json -w "%{http_code}" "http://127.0.0.1:$port/status/pool$n" >pool$n.status &&
		test "$(cat pool$n.status)" = 200 &&
		jq -e ".capacity.workers == 2" pool$n.json >/dev/null || return 1
	done &&
	curl -s -o pool3.json -w "%{http_code}" "http://127.0.0.1:$port/status/pool3" >pool3.status &&
	test "$(cat pool3.status)" = 404 &&
	svc_nginx_stop "$TRASH/nginx-pools"
'

test_expect_success 'run as CGI, GET /status answers a JSON envelope saying there is no pool' '
	env -i PATH="$PATH" GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 REMOTE_ADDR=127.0.0.1 \
		REQUEST_METHOD=GET PATH_INFO=/status timeout 10 "$APP_BIN" -c cms.conf >cgi.out 2>cgi.err &&
	grep -q "^Status: 200" cgi.out &&
	grep -q "^X-Request-Id: [0-9a-f]\{32\}" cgi.out &&
	awk "f { print } !f && /^\r?\$/ { f = 1 }" cgi.out >cgi.body &&
	jq -e ".code == 10393 and .pool == null and (.message | length) > 0" cgi.body >/dev/null
'

test_done
