#!/bin/sh
test_description='the pool rides out a database restart: 503 while it is down, 200 after, no respawn'
. "$(dirname "$0")/lib.sh"

start_db --private
# One worker: the stale-connection retry below must happen on a worker known to hold a connection.
start_app workers=1
start_nginx
# The app logs the failed database calls while the server is down.
allow_app_errors

# app_connections: the connections to the database other than the asking one (the workers').
app_connections () {
	db_exec "SELECT COUNT(*) FROM information_schema.PROCESSLIST
		WHERE DB = DATABASE() AND ID <> CONNECTION_ID()"
}

test_expect_success 'setup: a book exists and is served while the database is up' '
	db_exec "INSERT INTO book (title, author) VALUES (\"Dune\", \"Herbert\")" &&
	db_exec "SELECT id FROM book WHERE title = \"Dune\"" >book_id &&
	http GET /v1/book/$(cat book_id) &&
	expect_status 200 &&
	expect_json .title Dune &&
	pool_workers >workers_before &&
	test -s workers_before
'

test_expect_success 'GET /readyz answers 200 while the database is up' '
	http GET /readyz &&
	expect_status 200
'

stop_db

test_expect_success 'GET /readyz answers 503 while the database is down' '
	http GET /readyz &&
	expect_status 503
'

test_expect_success 'GET /v1/book/ID answers 503 with code 10302 while the database is down' '
	http GET /v1/book/$(cat book_id) &&
	expect_status 503 &&
	expect_header Content-Type "^application/json" &&
	expect_json .code 10302
'

test_expect_success 'GET /healthz still answers 200 while the database is down' '
	http GET /healthz &&
	expect_status 200
'

test_expect_success 'the status page counts the 503s by cause: unreachable, and not ready for /readyz' '
	http GET /status &&
	expect_status 200 &&
	expect_json_true ".database.unavailable.unreachable >= 1 and .database.unavailable.not_ready >= 1"
'

test_expect_success 'the pool and all its workers are still the same processes' '
	svc_alive "$POOL_PID" &&
	test "$(pool_workers)" = "$(cat workers_before)"
'

restart_db

test_expect_success 'GET /readyz answers 200 again within 10 s of the restart' '
	ready () {
		http GET /readyz && expect_status 200
	} &&
	poll_until 100 ready
'

test_expect_success 'the book is served again without restarting the pool' '
	http GET /v1/book/$(cat book_id) &&
	expect_status 200 &&
	expect_json .title Dune &&
	test "$(pool_workers)" = "$(cat workers_before)"
'

test_expect_success 'setup: within 10 s, the worker holds a database connection' '
	connected () {
		http GET /readyz &&
		test "$(app_connections)" -ge 1
	} &&
	poll_until 100 connected
'

stop_db
restart_db

test_expect_success 'the first GET /readyz after a second restart answers 200 (a stale connection is retried)' '
	http GET /readyz &&
	expect_status 200
'

test_done
