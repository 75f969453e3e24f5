#!/bin/sh
test_description='the pool comes back by itself from any crash rate, with each death logged'
. "$(dirname "$0")/lib.sh"

start_db
start_app workers=2
start_nginx
# Records that make libfcgi abort are logged as errors on purpose.
allow_app_errors

# A request through nginx that must answer 200 within 2 s: nginx waits for the pool's backlog, so
# a pool with no live worker shows up as a timeout here.
answers_within_2s () {
	curl --silent --output /dev/null --max-time 2 --write-out '%{http_code}\n' \
		"http://127.0.0.1:$HTTP_PORT/healthz" >status &&
	test "$(cat status)" = 200
}

test_expect_success 'a FastCGI record announcing 1 GiB of params kills a worker, logged with its signal' '
	before=$(pool_workers) &&
	"$TOP/t/fcgi-client.pl" "$APP_SOCKET" huge-params &&
	died () {
		grep -q "worker [0-9]* killed by signal 6 (Aborted)" app.log
	} &&
	poll_until 50 died &&
	answers_within_2s
'

test_expect_success 'twenty such records in a row leave the pool answering within 2 s' '
	for i in $(seq 20); do
		"$TOP/t/fcgi-client.pl" "$APP_SOCKET" huge-params || return 1
	done &&
	answers_within_2s &&
	test "$(grep -c "killed by signal 6 (Aborted)" app.log)" -ge 10
'

test_expect_success 'workers killed at 5 per second for 10 s: the pool answers within 2 s after' '
	for i in $(seq 50); do
		victim=$(pool_workers | cut -d" " -f1) &&
		{ [ -z "$victim" ] || kill -KILL $victim 2>/dev/null || :; } &&
		sleep 0.2
	done &&
	answers_within_2s &&
	test "$(grep -c "killed by signal 9 (Killed)" app.log)" -ge 20
'

test_expect_success 'the master restarts with a back-off and never gives up: both workers run again' '
	both () {
		test $(pool_workers | wc -w) -eq 2
	} &&
	poll_until 30 both &&
	svc_alive "$POOL_PID" &&
	grep -q "starting another in 1.0 s" app.log
'

test_expect_success 'every request after the crash loop is answered' '
	for i in $(seq 20); do
		http GET /healthz && expect_status 200 || return 1
	done
'

test_done
