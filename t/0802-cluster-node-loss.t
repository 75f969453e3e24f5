#!/bin/sh
test_description='cluster: a node killed with -9 under a write load through both pools: every acknowledged book survives on all nodes, other answers are 503s only while workers reconnect, the node rejoins and catches up'
. "$(dirname "$0")/lib.sh"

[ -n "${TEST_CLUSTER_DIR:-}" ] || skip_all "needs the Galera cluster of make check-cluster"
start_db
start_app
start_nginx
# Workers whose node died log their lost connections as errors.
allow_app_errors

# load N: creates books "load N-I" for I = 1, 2, ... through the shared upstream until the file
# stop exists (at most 3000), one "STATUS TITLE" line per request in load.N.
load () {
	local i=1 code
	while [ ! -e stop ] && [ "$i" -le 3000 ]; do
		code=$(curl --silent --max-time 20 --output /dev/null --write-out '%{http_code}' \
			-H "Authorization: Bearer $(kept root)" -H 'Content-Type: application/json' \
			--data-raw "{\"title\":\"load $1-$i\",\"author\":\"A\",\"summary\":\"S\"}" \
			"http://127.0.0.1:$HTTP_PORT/v1/book")
		echo "$code load $1-$i" >>"load.$1"
		i=$((i + 1))
	done
}

# created_since N: how many 201s the load files hold beyond their first N lines in all.
created () {
	cat load.1 load.2 2>/dev/null | grep -c "^201 "
}

# more_created N: at least N books created since mark was written.
more_created () {
	[ "$(created)" -ge $(($(cat mark) + $1)) ]
}

test_expect_success 'setup: root logs in; a write load through both pools starts' '
	remember root "$ROOT_PASSWORD"
'
(cd "$TRASH" && load 1 </dev/null >/dev/null 2>&1) &
echo $! >"$TRASH/load1.job"
(cd "$TRASH" && load 2 </dev/null >/dev/null 2>&1) &
echo $! >"$TRASH/load2.job"
test_atexit "touch '$TRASH/stop'"

test_expect_success 'books are being created' '
	echo 0 >mark &&
	poll_until 300 more_created 20
'

test_expect_success 'kill -9 of node 2 (pool 2 connects there first)' '
	created >mark &&
	kill -9 "$(cat "$TEST_CLUSTER_DIR/node2/db.pid")"
'

test_expect_success 'the load goes on: 40 more books are created after the kill' '
	poll_until 600 more_created 40
'

test_expect_success 'the node restarts and rejoins as a Synced member of a cluster of three' '
	svc_galera_start "$TEST_CLUSTER_DIR" "$TEST_CLUSTER_BASE" 2>&1 &&
	test "$(svc_galera_status "$TEST_CLUSTER_DIR/node2/db.sock" wsrep_cluster_size)" = 3 &&
	test "$(svc_galera_status "$TEST_CLUSTER_DIR/node2/db.sock" wsrep_local_state_comment)" = Synced
'

test_expect_success 'the load goes on after the return: 20 more books' '
	created >mark &&
	poll_until 600 more_created 20
'

test_expect_success 'the load stops' '
	touch stop &&
	svc_wait_gone "$(cat load1.job)" 300 &&
	svc_wait_gone "$(cat load2.job)" 300
'

test_expect_success 'every answer was a 201 or a 503: no 500, no 502 from nginx, no timeout' '
	cat load.1 load.2 | cut -d" " -f1 | sort | uniq -c &&
	test "$(cat load.1 load.2 | grep -cvE "^(201|503) ")" = 0
'

test_expect_success 'the workers of each pool reconnected: 503s came only around the kill' '
	for f in load.1 load.2; do
		first=$(grep -n "^503 " $f | head -n 1 | cut -d: -f1) &&
		last=$(grep -n "^503 " $f | tail -n 1 | cut -d: -f1) &&
		echo "$f: 503s between requests ${first:-none} and ${last:-none} of $(wc -l <$f)" || return 1
	done &&
	sed -n "s/.*connected to database .* at \(.*\)/\1/p" app.log | sort | uniq -c
'

test_expect_success 'every book acknowledged with 201 is on each of the three nodes' '
	grep "^201 " load.1 load.2 -h | cut -d" " -f2- | sort >acknowledged &&
	for n in 1 2 3; do
		node_sql $n "SELECT title FROM book WHERE title LIKE \"load %\"" | sort >on.$n &&
		comm -23 acknowledged on.$n >missing.$n &&
		if [ -s missing.$n ]; then
			echo "missing on node $n:" && head missing.$n && return 1
		fi
	done
'

test_expect_success 'the restarted node holds the same books as node 1' '
	test "$(node_sql 2 "SELECT COUNT(*) FROM book")" = "$(node_sql 1 "SELECT COUNT(*) FROM book")"
'

test_done
