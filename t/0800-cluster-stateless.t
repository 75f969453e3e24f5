#!/bin/sh
test_description='cluster: either application host serves any request: tokens, revocation, throttling and a new book cross from pool 1 to pool 2 at once'
. "$(dirname "$0")/lib.sh"

[ -n "${TEST_CLUSTER_DIR:-}" ] || skip_all "needs the Galera cluster of make check-cluster"
start_db
start_app login_max_failures=3 login_address_max_failures=50 login_username_max_failures=50 \
	login_failure_window=60
start_nginx
start_pool_fronts

test_expect_success 'setup: root logs in through pool 1 and registers alice there' '
	via_pool 1 remember root "$ROOT_PASSWORD" &&
	via_pool 1 http POST /cms/user/register \
		"{\"username\":\"alice\",\"password\":\"Alice_pass1\",\"confirm_password\":\"Alice_pass1\"}" &&
	expect_status 201
'

test_expect_success 'the pools are two application hosts on different nodes' '
	test "$(sed -n "s/^db_hosts = \([^,]*\),.*/\1/p" cms.conf)" = "$TEST_CLUSTER_DIR/node1/db.sock" &&
	test "$(sed -n "s/^db_hosts = \([^,]*\),.*/\1/p" cms2.conf)" = "$TEST_CLUSTER_DIR/node2/db.sock"
'

test_expect_success 'a token issued through pool 1 is accepted by pool 2' '
	as root &&
	via_pool 2 http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .username root
'

test_expect_success 'a user registered through pool 1 logs in through pool 2' '
	via_pool 2 remember alice Alice_pass1
'

test_expect_success 'a book created through pool 1 is readable through pool 2 at once' '
	as root &&
	for i in 1 2 3 4 5; do
		via_pool 1 http POST /v1/book "{\"title\":\"Fresh $i\",\"author\":\"A\",\"summary\":\"S\"}" &&
		expect_status 201 &&
		id=$(node_sql 1 "SELECT id FROM book WHERE title = \"Fresh $i\"") &&
		via_pool 2 http GET "/v1/book/$id" &&
		expect_status 200 &&
		expect_json .title "Fresh $i" || return 1
	done
'

test_expect_success 'a book updated through pool 2 reads back updated through pool 1 at once' '
	as root &&
	id=$(node_sql 1 "SELECT id FROM book WHERE title = \"Fresh 1\"") &&
	via_pool 2 http PUT "/v1/book/$id" "{\"title\":\"Changed\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 200 &&
	via_pool 1 http GET "/v1/book/$id" &&
	expect_json .title Changed
'

test_expect_success 'a password change through pool 2 revokes the older token on pool 1 at once' '
	as alice &&
	via_pool 2 http PUT /cms/user/change_password \
		"{\"old_password\":\"Alice_pass1\",\"new_password\":\"Alice_pass2\",\"confirm_password\":\"Alice_pass2\"}" &&
	expect_status 200 &&
	via_pool 1 http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'login failures through both pools add up: the fourth attempt is refused with 429' '
	TOKEN= &&
	for p in 1 2 1; do
		via_pool $p http POST /cms/user/login "{\"username\":\"alice\",\"password\":\"Wrong_pass9\"}" &&
		expect_status 401 || return 1
	done &&
	via_pool 2 http POST /cms/user/login "{\"username\":\"alice\",\"password\":\"Alice_pass2\"}" &&
	expect_status 429 &&
	expect_json .code 10140
'

test_expect_success 'consecutive requests through the shared upstream alternate between the pools' '
	n=$(wc -l <app.log) &&
	for i in 1 2 3 4 5 6; do
		http GET /healthz && expect_status 200 || return 1
	done &&
	tail -n +$((n + 1)) app.log | sed -n "s/.*access: .*path=\/healthz .*pid=\([0-9]*\).*/\1/p" >pids &&
	test "$(wc -l <pids)" = 6 &&
	p1=$(svc_children "$POOL_PID" | tr "\n" " ") &&
	p2=$(svc_children "$POOL2_PID" | tr "\n" " ") &&
	in1=0 && in2=0 &&
	for pid in $(cat pids); do
		case " $p1 " in *" $pid "*) in1=$((in1 + 1)) ;; esac
		case " $p2 " in *" $pid "*) in2=$((in2 + 1)) ;; esac
	done &&
	echo "pool 1: $in1, pool 2: $in2" &&
	test "$in1" = 3 && test "$in2" = 3
'

test_done
