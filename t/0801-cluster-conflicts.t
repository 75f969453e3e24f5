#!/bin/sh
test_description='cluster: concurrent writes to one row from both application hosts end in 2xx (retried certification failures) or 503, never 500; a username race across hosts has one winner'
. "$(dirname "$0")/lib.sh"

[ -n "${TEST_CLUSTER_DIR:-}" ] || skip_all "needs the Galera cluster of make check-cluster"
start_db
start_app workers=4
start_nginx
start_pool_fronts
# A request whose retries all met a conflict logs an error: before its 503, which is allowed.
allow_app_errors

# send N PATH BODY: starts curl PUT or POST (METHOD) of BODY to pool N alone in the background;
# its status goes to $NAME.status.
send () {
	curl --silent --max-time 30 --output /dev/null --write-out '%{http_code}\n' \
		-H "Authorization: Bearer $(kept root)" -H 'Content-Type: application/json' \
		--request "$METHOD" --data-raw "$3" \
		"http://127.0.0.1:$(test_port $(($1 + 1)))$2" >"$NAME.status" 2>&1 &
}

test_expect_success 'setup: root logs in and creates one book' '
	remember root "$ROOT_PASSWORD" &&
	http POST /v1/book "{\"title\":\"Start\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 201 &&
	node_sql 1 "SELECT id FROM book WHERE title = \"Start\"" >id &&
	test -s id
'

test_expect_success '50 concurrent updates of the book over both pools answer 200 or 503, never 500' '
	METHOD=PUT &&
	for i in $(seq 1 50); do
		NAME=update.$i send $((i % 2 + 1)) "/v1/book/$(cat id)" \
			"{\"title\":\"Version $i\",\"author\":\"A\",\"summary\":\"S\"}"
	done &&
	wait &&
	cat update.*.status | sort | uniq -c &&
	test "$(cat update.*.status | grep -cvE "^(200|503)$")" = 0 &&
	test "$(cat update.*.status | grep -c "^200$")" -gt 0
'

test_expect_success 'the book holds one of the submitted versions, the same on all three nodes' '
	t1=$(node_sql 1 "SELECT title FROM book WHERE id = $(cat id)") &&
	echo "final: $t1" &&
	case $t1 in "Version "[0-9]*) ;; *) false ;; esac &&
	n=${t1#Version } &&
	test "$n" -ge 1 && test "$n" -le 50 &&
	test "$(node_sql 2 "SELECT title FROM book WHERE id = $(cat id)")" = "$t1" &&
	test "$(node_sql 3 "SELECT title FROM book WHERE id = $(cat id)")" = "$t1"
'

test_expect_success 'two concurrent registrations of one username on different pools: exactly one 201' '
	METHOD=POST &&
	for r in 1 2 3 4 5; do
		for p in 1 2; do
			NAME=register.$r.$p send $p /cms/user/register \
				"{\"username\":\"racer$r\",\"password\":\"Pass_word1\",\"confirm_password\":\"Pass_word1\"}"
		done &&
		wait &&
		cat register.$r.1.status register.$r.2.status &&
		test "$(cat register.$r.*.status | grep -c "^201$")" = 1 &&
		test "$(cat register.$r.*.status | grep -cE "^(5..|000)$")" = 0 &&
		test "$(node_sql 3 "SELECT COUNT(*) FROM lin_user WHERE username = \"racer$r\"")" = 1 ||
		return 1
	done
'

test_done
