#!/bin/sh
test_description='kept and silent connections never pin a worker; the pool drops stalled peers'
. "$(dirname "$0")/lib.sh"

start_db
start_app workers=2 fcgi_read_timeout=1 fcgi_idle_timeout=3
start_nginx

# Connections to the pool's socket seen from the pool's side.
pool_connections () {
	ss -Hx state connected src "$APP_SOCKET" 2>/dev/null | wc -l
}

test_expect_success 'nginx keeps its connection to the pool open between requests' '
	for i in 1 2 3; do
		http GET /healthz && expect_status 200 || return 1
	done &&
	test "$(pool_connections)" -ge 1
'

# "At once" is told by order, not by a time a loaded machine may overrun: had the silent
# connections pinned both workers, no request could be answered before the pool closed them
# (fcgi_idle_timeout); so every request must be answered while all sixteen are still open.
test_expect_success 'sixteen silent connections to a 2-worker pool leave requests answered at once' '
	for i in $(seq 16); do
		"$TOP/t/fcgi-client.pl" "$APP_SOCKET" idle 20 "ready.$i" >"idle.$i" &
	done &&
	all_ready () {
		test "$(ls ready.* 2>/dev/null | wc -l)" -eq 16
	} &&
	poll_until 50 all_ready &&
	for i in $(seq 10); do
		curl --silent --output /dev/null --max-time 20 --write-out "%{http_code}\n" \
			"http://127.0.0.1:$HTTP_PORT/v1/book" >status &&
		test "$(cat status)" = 200 || return 1
	done &&
	for i in $(seq 16); do
		test ! -s "idle.$i" || { echo "silent connection $i closed before the requests ended" >&2; return 1; }
	done
'

test_expect_success 'a silent connection is closed after fcgi_idle_timeout (3 s), not before' '
	all_done () {
		for i in $(seq 16); do
			test -s "idle.$i" || return 1
		done
	} &&
	poll_until 150 all_done &&
	for i in $(seq 16); do
		read -r what after secs <"idle.$i" &&
		test "$what $after" = "closed after" &&
		awk -v s="$secs" "BEGIN { exit !(s >= 2.5 && s < 10) }" || return 1
	done
'

test_expect_success 'a peer that stops in the middle of a record is dropped after fcgi_read_timeout (1 s)' '
	"$TOP/t/fcgi-client.pl" "$APP_SOCKET" partial 10 >partial &&
	read -r what after secs <partial &&
	test "$what $after" = "closed after" &&
	awk -v s="$secs" "BEGIN { exit !(s >= 0.5 && s < 3) }"
'

test_expect_success 'a whole request on a direct connection is answered' '
	"$TOP/t/fcgi-client.pl" "$APP_SOCKET" request --param REQUEST_METHOD=GET \
		--param PATH_INFO=/healthz >direct &&
	grep -q "^Status: 200" direct &&
	grep -q "\"status\":\"ok\"" direct
'

test_done
