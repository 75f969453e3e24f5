#!/bin/sh
test_description='with kept connections and four times as many clients as workers, no request waits'
. "$(dirname "$0")/lib.sh"

command -v wrk >/dev/null 2>&1 || skip_all "wrk is not installed (scripts/install-deps)"

start_db
start_app workers=2
start_nginx

# load SECONDS: 8 concurrent clients (4 x the pool's 2 request slots) on GET /v1/book/ID for
# SECONDS; the result line in file load.
load () {
	wrk --threads 2 --connections 8 --duration "${1}s" --timeout 5s \
		--script "$TOP/t/wrk-result.lua" "http://127.0.0.1:$HTTP_PORT/v1/book/$(cat book_id)" \
		>wrk.out 2>&1 &&
	grep "^wrk-result " wrk.out >load
}

# no_request_waited: some requests were served, none failed, none took 1 s or more.
no_request_waited () {
	read -r _ requests max_ms errors <load &&
	cat wrk.out &&
	test "$requests" -gt 1000 &&
	test "$errors" -eq 0 &&
	awk -v m="$max_ms" "BEGIN { exit !(m < 1000) }"
}

test_expect_success 'setup: a book to read' '
	db_exec "INSERT INTO book (title, author) VALUES (\"Dune\", \"Herbert\")" &&
	db_exec "SELECT id FROM book" >book_id
'

test_expect_success '20 s of overload on kept connections: no request fails or waits 1 s' '
	load 20 &&
	no_request_waited
'

test_expect_success 'the same with a worker killed with SIGKILL after 5 s' '
	{ load 20 & } &&
	sleep 5 &&
	kill -KILL $(pool_workers | cut -d" " -f1) &&
	wait &&
	no_request_waited
'

test_done
