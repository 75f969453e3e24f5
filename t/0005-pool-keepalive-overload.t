#!/bin/sh
test_description='with kept connections and four times as many clients as workers, no request waits for a connection to be freed: none fails'
. "$(dirname "$0")/lib.sh"

command -v wrk >/dev/null 2>&1 || skip_all "wrk is not installed (scripts/install-deps)"
command -v ss >/dev/null || skip_all "ss is not installed (iproute2)"

start_db
start_app workers=2
start_nginx

# A worker pinned by a kept connection leaves nginx's other connections to the pool in the
# listening socket's accept queue, their requests waiting until nginx lets a kept one go or
# fastcgi_read_timeout (15 s in nginx/cms-fcgi.conf) ends them with 504. So the checks look at
# that queue and count failed requests, never a rate or a latency, which the machine's load would
# decide: a served request may take any time up to wrk's timeout, 10 s, below those 15 s.

# load SECONDS: 8 concurrent clients (4 x the pool's 2 request slots) on GET /v1/book/ID for
# SECONDS; the result line in file load.
load () {
	wrk --threads 2 --connections 8 --duration "${1}s" --timeout 10s \
		--script "$TOP/t/wrk-result.lua" "http://127.0.0.1:$HTTP_PORT/v1/book/$(cat book_id)" \
		>wrk.out 2>&1 &&
	grep "^wrk-result " wrk.out >load
}

# none_failed: requests were served, and none failed (an error, a timeout or a status above 399).
none_failed () {
	read -r _ requests _ errors <load &&
	cat wrk.out &&
	test "$requests" -gt 0 &&
	test "$errors" -eq 0
}

# served: how many requests of the load the pool has logged.
served () {
	grep -c " access: method=GET path=/v1/book/" app.log || :
}

# nothing_queued: no connection to the pool waits for a worker to accept it. Under a load on kept
# connections nginx opens no new ones but to replace one it retires, which a free worker accepts
# at once; a pinned pool keeps some queued the whole time.
nothing_queued () {
	test "$(ss -Hxl src "$APP_SOCKET" | awk '{ print $3 }')" -eq 0
}

test_expect_success 'setup: a book to read' '
	db_exec "INSERT INTO book (title, author) VALUES (\"Dune\", \"Herbert\")" &&
	db_exec "SELECT id FROM book" >book_id
'

test_expect_success '20 s of overload on kept connections: no connection waits for a worker, no request fails' '
	n=$(served) &&
	{ load 20 & } &&
	under_way () {
		test "$(served)" -gt "$n"
	} &&
	{
		poll_until 100 under_way &&
		poll_until 100 nothing_queued
	}
	accepted=$?
	wait &&
	test $accepted -eq 0 &&
	none_failed
'

test_expect_success 'the same with a worker killed with SIGKILL once the load is under way' '
	n=$(served) &&
	{ load 20 & } &&
	under_way () {
		test "$(served)" -gt "$n"
	} &&
	poll_until 100 under_way &&
	kill -KILL $(pool_workers | cut -d" " -f1) &&
	wait &&
	none_failed
'

test_done
