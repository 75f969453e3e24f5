#!/bin/sh
test_description='GET /status: each figure of the page read before and after the event that moves it (one worker of two threads, so that every request and every thread is this file'"'"'s)'
. "$(dirname "$0")/lib.sh"

start_db
start_app workers=1 worker_threads=2
start_nginx

# page NAME: GET /status from loopback, its body kept as NAME.json.
page () {
	http GET /status && expect_status 200 && cp body "$1.json"
}

# fig NAME FILTER: the figure FILTER (jq) of page NAME.
fig () {
	jq -r "$2" "$1.json"
}

# hold N BODY: a login whose body stops after 5 bytes until hold-N/go exists, straight to the pool
# (answer in held-N.out); returns once the pool is reading it.
hold () {
	rm -rf "hold-$1" && mkdir "hold-$1" &&
	{ "$TOP/t/fcgi-client.pl" "$APP_SOCKET" request --param REQUEST_METHOD=POST \
		--param PATH_INFO=/cms/user/login --param CONTENT_TYPE=application/json \
		--param REMOTE_ADDR=127.0.0.1 --body login.json --pause-at 5 --pause-dir "hold-$1" \
		>"held-$1.out" & } &&
	poll_until 50 test -e "hold-$1/paused"
}

# release N: lets hold N's body finish and waits for its answer.
release () {
	touch "hold-$1/go" &&
	poll_until 50 grep -q "^Status: " "held-$1.out"
}

test_expect_success 'setup: a book and a login body' '
	db_exec "INSERT INTO book (title, author) VALUES (\"Dune\", \"Herbert\")" &&
	db_exec "SELECT id FROM book" >book_id &&
	printf "{\"username\":\"nobody\",\"password\":\"Wrong_pass1\"}" >login.json
'

test_expect_success 'connections.accepted and the worker'"'"'s requests count every answered request, the page'"'"'s own included' '
	page a &&
	http GET /healthz && http GET /nowhere && http GET "/v1/book/$(cat book_id)" &&
	page b &&
	test "$(fig b .connections.accepted)" -eq $(($(fig a .connections.accepted) + 4)) &&
	test "$(fig b ".workers.list[0].requests")" -eq $(($(fig a ".workers.list[0].requests") + 4))
'

test_expect_success 'alone, the page is the only request in flight: busy 1, idle 1, no request took the last thread' '
	page alone &&
	test "$(fig alone .connections.in_flight)" = 1 &&
	test "$(fig alone .capacity.busy)" = 1 &&
	test "$(fig alone .capacity.idle)" = 1 &&
	test "$(fig alone .capacity.max_busy)" = 1 &&
	test "$(fig alone .capacity.all_busy)" = 0
'

test_expect_success 'beside a held request the page sees busy 2, idle 0; the page took the last thread: all_busy 1, max_busy 2' '
	hold 1 &&
	page busy &&
	release 1 &&
	test "$(fig busy .connections.in_flight)" = 2 &&
	test "$(fig busy .capacity.busy)" = 2 &&
	test "$(fig busy .capacity.idle)" = 0 &&
	page after &&
	test "$(fig after .connections.in_flight)" = 1 &&
	test "$(fig after .capacity.busy)" = 1 &&
	test "$(fig after .capacity.max_busy)" = 2 &&
	test "$(fig after .capacity.all_busy)" = 1
'

test_expect_success 'a route without the database adds no round trip; one with it adds round trips and wait time' '
	page r1 &&
	http GET /healthz && expect_status 200 &&
	page r2 &&
	test "$(fig r2 .database.round_trips)" -eq "$(fig r1 .database.round_trips)" &&
	http GET "/v1/book/$(cat book_id)" && expect_status 200 &&
	page r3 &&
	test "$(fig r3 .database.round_trips)" -gt "$(fig r2 .database.round_trips)" &&
	jq -e --slurpfile before r2.json ".database.wait_seconds > \$before[0].database.wait_seconds" r3.json >/dev/null
'

test_expect_success 'connections queued while both threads are held: listen_queue_max keeps the most the master saw, after they were served' '
	page q0 &&
	test "$(fig q0 .connections.listen_queue)" = 0 &&
	test "$(fig q0 .connections.listen_queue_max)" = 0 &&
	hold 1 && hold 2 &&
	for n in 1 2 3; do
		{ "$TOP/t/fcgi-client.pl" "$APP_SOCKET" request --param REQUEST_METHOD=GET \
			--param PATH_INFO=/healthz --param REMOTE_ADDR=127.0.0.1 >queued-$n.out & } || return 1
	done &&
	poll_until 50 sh -c "ss -xlnH | awk -v p=\"$APP_SOCKET\" \"\\\$5 == p && \\\$3 == 3 { f = 1 } END { exit !f }\"" &&
	master=$(cat pool.pid) &&
	for n in 1 2; do
		mv app.log app.log.$n &&
		kill -HUP "$master" &&
		poll_until 50 test -e app.log || return 1
	done &&
	release 1 && release 2 &&
	for n in 1 2 3; do
		poll_until 50 grep -q "^Status: 200" queued-$n.out || return 1
	done &&
	! grep "error:" app.log.1 app.log.2 &&
	page q1 &&
	test "$(fig q1 .connections.listen_queue)" = 0 &&
	test "$(fig q1 .connections.listen_queue_max)" = 3 &&
	http GET "/status?format=prometheus" &&
	grep -q "^cms_listen_queue_max 3$" body &&
	grep -q "^cms_listen_queue 0$" body
'

test_expect_success 'a worker stopped by TERM: its exit counted as "exit 0", a restart and a start, the counters kept' '
	page w1 &&
	test "$(fig w1 .workers.starts)" = 1 &&
	test "$(fig w1 .workers.restarts)" = 0 &&
	test "$(fig w1 ".workers.deaths | length")" = 0 &&
	victim=$(fig w1 ".workers.list[0].pid") &&
	kill -TERM "$victim" &&
	poll_until 50 sh -c "curl -s http://127.0.0.1:$HTTP_PORT/status >w.json &&
		jq -e \".workers.list[0].pid > 0 and .workers.list[0].pid != $victim\" w.json >/dev/null" &&
	page w2 &&
	test "$(fig w2 .workers.starts)" = 2 &&
	test "$(fig w2 .workers.restarts)" = 1 &&
	test "$(fig w2 ".workers.deaths[\"exit 0\"]")" = 1 &&
	test "$(fig w2 ".workers.deaths | length")" = 1 &&
	test "$(fig w2 .connections.accepted)" -gt "$(fig w1 .connections.accepted)"
'

# Last: the thread that does not serve the next request keeps its dropped connection.
test_expect_success 'a connection the database dropped: the request runs again on a new one, counted as a connect, a reconnect and a lost-connection retry' '
	page k1 &&
	test "$(fig k1 .database.reconnects)" = 0 &&
	test "$(fig k1 .database.retries.lost_connection)" = 0 &&
	svc_sql "$DB_SOCKET" -N -e "SELECT ID FROM information_schema.PROCESSLIST
		WHERE DB = '"'"'$DB_NAME'"'"' AND ID <> CONNECTION_ID()" >ids &&
	test -s ids &&
	while read -r id; do
		svc_sql "$DB_SOCKET" -e "KILL CONNECTION $id" || return 1
	done <ids &&
	http GET "/v1/book/$(cat book_id)" && expect_status 200 &&
	page k2 &&
	test "$(fig k2 .database.retries.lost_connection)" = 1 &&
	test "$(fig k2 .database.reconnects)" = 1 &&
	test "$(fig k2 .database.connects)" -eq $(($(fig k1 .database.connects) + 1)) &&
	test "$(fig k2 .database.connect_failures)" = 0 &&
	test "$(fig k2 .database.retries.deadlock)" = 0
'

test_done
