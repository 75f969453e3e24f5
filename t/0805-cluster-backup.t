#!/bin/sh
test_description='cluster: cms-fcgi --backup from node 2 while nodes 1 and 3 take writes, then --restore into a fresh cluster (node 1 bootstrapped and restored, nodes 2 and 3 joining it by SST): every book acknowledged before the backup began is on every node, and the row counts are the manifest'"'"'s'
. "$(dirname "$0")/lib.sh"

[ -n "${TEST_CLUSTER_DIR:-}" ] || skip_all "needs the Galera cluster of make check-cluster"
command -v mariadb-dump >/dev/null 2>&1 || skip_all "mariadb-dump is not installed (scripts/install-deps)"

start_db
start_app
start_nginx

# The fresh cluster: the 12 ports after those of the cluster of make check-cluster, its nodes in
# $FRESH (below /tmp when the trash dir is too deep for their sockets).
FRESH_BASE=$((${TEST_CLUSTER_BASE:?needs TEST_CLUSTER_BASE of scripts/check-cluster} + 12))
FRESH=$TRASH/fresh
if ! svc_check_socket_path "$FRESH/node1/db.sock" 2>/dev/null; then
	[ -n "$SOCK_DIR" ] || SOCK_DIR=$(mktemp -d /tmp/cms-t.XXXXXX) || bail_out "mktemp failed"
	FRESH=$SOCK_DIR/fresh
fi
test_atexit 'svc_galera_stop "$FRESH"; touch "$TRASH/stop"'

# writer N: INSERTs books on node N until $TRASH/stop exists; each title acknowledged by the
# node (its COMMIT returned) goes to acked.log afterwards.
writer () {
	local i=0
	while [ ! -e "$TRASH/stop" ]; do
		i=$((i + 1))
		svc_sql "$TEST_CLUSTER_DIR/node$1/db.sock" "$DB_NAME" -e "INSERT INTO book (title, author, summary, image)
			VALUES ('node$1-$i', 'a', 's', 'i')" 2>/dev/null &&
			echo "node$1-$i" >>"$TRASH/acked.log"
	done
}

# fresh_sql N SQL: the rows of SQL on node N of the fresh cluster, once it has applied every write.
fresh_sql () {
	svc_sql "$FRESH/node$1/db.sock" -N -B "$DB_NAME" -e "SET SESSION wsrep_sync_wait = 1; $2"
}

fresh_synced () {
	local n
	for n in 1 2 3; do
		[ "$(svc_galera_status "$FRESH/node$n/db.sock" wsrep_cluster_size)" = 3 ] &&
			[ "$(svc_galera_status "$FRESH/node$n/db.sock" wsrep_local_state_comment)" = Synced ] ||
			return 1
	done
}

acked_more_than () {
	test "$(wc -l <"$TRASH/acked.log")" -gt "$1"
}

test_expect_success 'setup: a file uploaded through the pools' '
	login root "$ROOT_PASSWORD" &&
	png "on the cluster" >kept.png &&
	http POST /cms/file "" -F file=@kept.png &&
	expect_status 200
'

test_expect_success 'a backup from node 2 runs to the end while nodes 1 and 3 take writes' '
	sed "s|^db_hosts = .*|db_hosts = $TEST_CLUSTER_DIR/node2/db.sock|" cms.conf >node2.conf &&
	: >acked.log &&
	{ writer 1 & echo $! >writer1.pid; } &&
	{ writer 3 & echo $! >writer3.pid; } &&
	poll_until 100 acked_more_than 4 &&
	cp acked.log acked-before &&
	"$APP_BIN" -c node2.conf --backup "$TRASH/backups" >archive.path 2>backup.err &&
	lines=$(wc -l <acked.log) &&
	poll_until 100 acked_more_than "$((lines + 4))" &&
	touch stop &&
	svc_wait_gone "$(cat writer1.pid)" 100 &&
	svc_wait_gone "$(cat writer3.pid)" 100 &&
	grep -q "^node1-" acked-before && grep -q "^node3-" acked-before &&
	test -s "$(cat archive.path)"
'

test_expect_success 'setup: a fresh cluster, node 1 alone, bootstrapped' '
	svc_db_init "$FRESH/node1/data" "$FRESH/node1/install.log" &&
	svc_galera_node_start "$FRESH" "$FRESH_BASE" 1 --wsrep-new-cluster >/dev/null &&
	svc_sql "$FRESH/node1/db.sock" -e "CREATE DATABASE \`$DB_NAME\`"
'

test_expect_success 'the archive restores into node 1 of the fresh cluster' '
	sed -e "s|^db_hosts = .*|db_hosts = $FRESH/node1/db.sock|" \
		-e "s|^file_store_dir = .*|file_store_dir = $TRASH/fresh-assets|" \
		-e "s|^log_file = .*|log_file = $TRASH/restore.log|" cms.conf >fresh.conf &&
	echo "sql_dir = $TOP/sql" >>fresh.conf &&
	"$APP_BIN" -c fresh.conf --restore "$(cat archive.path)" >restore.out 2>&1 &&
	grep -q "restore: done" restore.out
'

test_expect_success 'nodes 2 and 3 join the fresh cluster by SST' '
	svc_galera_node_start "$FRESH" "$FRESH_BASE" 2 >/dev/null &&
	svc_galera_node_start "$FRESH" "$FRESH_BASE" 3 >/dev/null &&
	poll_until 1200 fresh_synced
'

test_expect_success 'every book acknowledged before the backup began is on every node of the fresh cluster' '
	sort acked-before >before &&
	for n in 1 2 3; do
		fresh_sql $n "SELECT title FROM book WHERE title LIKE \"node%\"" | sort >on-node$n &&
		test -z "$(comm -23 before on-node$n)" || { echo "node $n lacks books" >&2; exit 1; }
	done
'

test_expect_success 'the row counts on node 3 of the fresh cluster are the manifest'"'"'s, the file is there' '
	tar -xOf "$(cat archive.path)" manifest.json | jq -r ".tables | to_entries[] | \"\(.key) \(.value)\"" >counts &&
	test -s counts &&
	while read -r table n; do
		test "$(fresh_sql 3 "SELECT COUNT(*) FROM \`$table\`")" = "$n" || {
			echo "$table: manifest $n, node 3 $(fresh_sql 3 "SELECT COUNT(*) FROM \`$table\`")" >&2
			exit 1
		}
	done <counts &&
	cmp kept.png "fresh-assets/$(fresh_sql 3 "SELECT path FROM lin_file")"
'

test_done
