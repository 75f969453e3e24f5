#!/bin/sh
test_description='the pool answers through the shipped nginx config and survives a killed worker'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

test_expect_success 'GET /healthz answers 200 {"status":"ok"} as JSON' '
	http GET /healthz &&
	expect_status 200 &&
	expect_header Content-Type "^application/json" &&
	expect_json .status ok
'

test_expect_success 'an unknown path answers 404 with code 10020' '
	http GET /no/such/path &&
	expect_status 404 &&
	expect_header Content-Type "^application/json" &&
	expect_json .code 10020
'

test_expect_success 'a worker killed with SIGKILL is replaced by multiwatch' '
	svc_alive "$POOL_PID" &&
	before=$(pool_workers) &&
	test $(echo $before | wc -w) -eq 2 &&
	victim=${before%% *} &&
	replaced () {
		now=$(pool_workers) &&
		test $(echo $now | wc -w) -eq 2 &&
		! echo " $now " | grep -q " $victim "
	} &&
	kill -KILL $victim &&
	poll_until 50 replaced
'

test_expect_success 'the pool still answers every request after the respawn' '
	for i in 1 2 3 4 5 6 7 8 9 10; do
		http GET /healthz && expect_status 200 || return 1
	done
'

test_done
