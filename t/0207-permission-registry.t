#!/bin/sh
test_description='the permission registry: the four declared rows once each, mounted, kept across worker respawns and pool restarts'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

# registry: module, name and mount of every lin_permission row, sorted, one a line.
registry () {
	db_exec "SELECT module, name, mount FROM lin_permission" | LC_ALL=C sort
}

healthy () {
	http GET /healthz && expect_status 200
}

test_expect_success 'setup: the expected registry, and root logs in' '
	printf "%s\t%s\t1\n" 图书 删除图书 日志 查询所有日志 日志 搜索日志 日志 查询日志记录的用户 |
		LC_ALL=C sort >expected_registry &&
	remember root "$ROOT_PASSWORD"
'

test_expect_success 'with the pool (2 workers) started, lin_permission holds exactly the four declared rows' '
	registry >registry &&
	diff -u expected_registry registry
'

test_expect_success 'every row of lin_permission is mounted and live' '
	expect_db "SELECT COUNT(*) FROM lin_permission WHERE mount = 1 AND delete_time IS NULL" 4
'

test_expect_success 'setup: the ids of the rows are kept; 删除图书 is granted to guest' '
	db_exec "SELECT id, module, name FROM lin_permission ORDER BY id" >ids_before &&
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":2,\"permission_ids\":[$(db_exec "SELECT id FROM lin_permission WHERE name = \"删除图书\"")]}" &&
	expect_status 201
'

test_expect_success 'setup: 搜索日志 is unmounted by hand while the pool runs' '
	db_exec "UPDATE lin_permission SET mount = 0 WHERE name = \"搜索日志\"" &&
	expect_db "SELECT mount FROM lin_permission WHERE name = \"搜索日志\"" 0
'

test_expect_success 'a worker killed with SIGKILL is replaced, and the new one mounts 搜索日志 again' '
	victim=$(pool_workers | cut -d" " -f1) &&
	test -n "$victim" &&
	kill -KILL "$victim" &&
	remounted () {
		test "$(db_exec "SELECT mount FROM lin_permission WHERE name = \"搜索日志\"")" = 1
	} &&
	poll_until 50 remounted &&
	poll_until 50 healthy
'

test_expect_success 'after the respawn there are still exactly the four rows, with the same ids' '
	registry >registry &&
	diff -u expected_registry registry &&
	db_exec "SELECT id, module, name FROM lin_permission ORDER BY id" >ids_after &&
	diff -u ids_before ids_after
'

test_expect_success 'setup: 删除图书 is unmounted by hand while the pool is stopped' '
	svc_pool_stop "$TRASH/pool.pid" &&
	db_exec "UPDATE lin_permission SET mount = 0 WHERE name = \"删除图书\"" &&
	expect_db "SELECT mount FROM lin_permission WHERE name = \"删除图书\"" 0
'

start_app

test_expect_success 'the restarted pool answers GET /healthz within 10 s' '
	poll_until 100 healthy
'

test_expect_success 'after the restart there are still exactly the four rows, all mounted again' '
	registry >registry &&
	diff -u expected_registry registry
'

test_expect_success 'the restart kept the id of every permission' '
	db_exec "SELECT id, module, name FROM lin_permission ORDER BY id" >ids_after &&
	diff -u ids_before ids_after
'

test_expect_success 'the restart kept the grant of 删除图书 to guest' '
	login root "$ROOT_PASSWORD" &&
	http GET /cms/admin/group/2 &&
	expect_status 200 &&
	expect_json ".permissions | map(.name) | join(\",\")" 删除图书
'

test_done
