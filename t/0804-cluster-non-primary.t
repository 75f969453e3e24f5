#!/bin/sh
test_description='cluster: a node cut off from the others (non-primary, "WSREP has not yet prepared node") counts as down: pool 1 fails over from it, and it rejoins when the network returns'
. "$(dirname "$0")/lib.sh"

[ -n "${TEST_CLUSTER_DIR:-}" ] || skip_all "needs the Galera cluster of make check-cluster"
start_db
start_app workers=1
start_nginx
start_pool_fronts
# The worker logs the refused query of the cut-off node.
allow_app_errors

node1_state () {
	svc_galera_status "$TEST_CLUSTER_DIR/node1/db.sock" wsrep_cluster_status
}

node1_synced () {
	[ "$(node1_state)" = Primary ] &&
	[ "$(svc_galera_status "$TEST_CLUSTER_DIR/node1/db.sock" wsrep_cluster_size)" = 3 ] &&
	[ "$(svc_galera_status "$TEST_CLUSTER_DIR/node1/db.sock" wsrep_local_state_comment)" = Synced ]
}

test_expect_success 'setup: root logs in; pool 1 reads a book through node 1' '
	remember root "$ROOT_PASSWORD" &&
	node_sql 1 "INSERT INTO book (title, author) VALUES (\"Dune\", \"Herbert\")" &&
	node_sql 1 "SELECT id FROM book WHERE title = \"Dune\"" >id &&
	via_pool 1 http GET /v1/book/$(cat id) &&
	expect_status 200
'

test_atexit "svc_sql '$TEST_CLUSTER_DIR/node1/db.sock' -e \"SET GLOBAL wsrep_provider_options = 'gmcast.isolate=0'\""
test_expect_success 'node 1 is cut off from the others and becomes non-primary' '
	svc_sql "$TEST_CLUSTER_DIR/node1/db.sock" -e "SET GLOBAL wsrep_provider_options = \"gmcast.isolate=1\"" &&
	poll_until 300 eval "[ \"\$(node1_state)\" = non-Primary ]"
'

test_expect_success 'pool 1, whose first node is node 1, still answers 200: its worker moved to node 2' '
	as root &&
	poll_until 100 eval "via_pool 1 http GET /v1/book/$(cat id) && expect_status 200" &&
	via_pool 1 http POST /v1/book "{\"title\":\"While cut off\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 201 &&
	worker=$(pool_workers) &&
	grep "^[^ ]* \[$worker\] info: connected to database" app.log &&
	grep -q "^[^ ]* \[$worker\] info: connected to database .* at $TEST_CLUSTER_DIR/node2/db.sock" app.log
'

test_expect_success 'node 1 rejoins when its network returns, with the book written meanwhile' '
	svc_sql "$TEST_CLUSTER_DIR/node1/db.sock" -e "SET GLOBAL wsrep_provider_options = \"gmcast.isolate=0\"" &&
	poll_until 600 node1_synced &&
	test "$(node_sql 1 "SELECT COUNT(*) FROM book WHERE title = \"While cut off\"")" = 1
'

test_done
