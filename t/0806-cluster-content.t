#!/bin/sh
test_description='cluster: a declaration applied through node 1 is served by the pool of node 2 after its reload, and a row written through one pool is read through the other'
. "$(dirname "$0")/lib.sh"

[ -n "${TEST_CLUSTER_DIR:-}" ] || skip_all "needs the Galera cluster of make check-cluster"
start_db
start_app
start_nginx
start_pool_fronts
use_served_openapi

test_expect_success 'setup: root logs in; no collection is served yet' '
	via_pool 1 remember root "$ROOT_PASSWORD" &&
	via_pool 2 http GET /v1/article &&
	expect_status 404
'

test_expect_success 'the declaration applied through node 1 reaches node 2: its table and its row' '
	apply_content "$TOP/t/fixtures/content/blog.json" &&
	grep -q "content declaration applied: 2 collection(s)" apply.out &&
	test "$(node_sql 2 "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE()
		AND table_name LIKE \"content\\_%\"")" = 2 &&
	node_sql 3 "SELECT declaration FROM cms_content" | grep -q "\"article\""
'

test_expect_success 'the pool of node 2, reloaded, serves the collections the file of node 1 declared' '
	via_pool 2 reload_app "$POOL2_PID" &&
	via_pool 2 http GET /v1/article &&
	expect_status 200 &&
	expect_json .total 0
'

test_expect_success 'a row written through pool 2 is read through pool 1 after its reload' '
	via_pool 1 reload_app "$POOL_PID" &&
	as root &&
	via_pool 2 http POST /v1/category "{\"title\":\"集群\"}" &&
	expect_status 201 &&
	c=$(jq -r .id body) &&
	via_pool 2 http POST /v1/article "{\"title\":\"Galera\",\"body\":\"b\",\"category\":$c,\"price\":\"3.10\"}" &&
	expect_status 201 &&
	a=$(jq -r .id body) &&
	via_pool 1 http GET "/v1/article/$a" &&
	expect_status 200 &&
	expect_json .price 3.10 &&
	expect_json .category "$c"
'

test_expect_success 'a unique value taken through pool 1 is refused through pool 2 (409)' '
	as root &&
	via_pool 1 http POST /v1/category "{\"title\":\"唯一\"}" &&
	expect_status 201 &&
	via_pool 2 http POST /v1/category "{\"title\":\"唯一\"}" &&
	expect_status 409
'

test_done
