#!/bin/sh
test_description='the permission registry at start: a row the code no longer declares is unmounted, kept, and hidden'
. "$(dirname "$0")/lib.sh"

start_db

# Rows written before the pool starts, as an older version of the service would have left them.
test_expect_success 'setup: before the start, a mounted 旧模块/旧权限 granted to guest, and 删除图书 unmounted as id 100' '
	db_exec "INSERT INTO lin_permission (id, module, name, mount) VALUES (50, \"旧模块\", \"旧权限\", 1), (100, \"图书\", \"删除图书\", 0)" &&
	db_exec "INSERT INTO lin_group_permission (group_id, permission_id) VALUES (2, 50)" &&
	expect_db "SELECT COUNT(*) FROM lin_permission" 2
'

start_app
start_nginx

test_expect_success 'the permission the code no longer declares gets mount=0' '
	expect_db "SELECT mount FROM lin_permission WHERE module = \"旧模块\" AND name = \"旧权限\"" 0
'

test_expect_success 'the undeclared permission row is kept, with its id and its grant' '
	expect_db "SELECT id FROM lin_permission WHERE name = \"旧权限\" AND delete_time IS NULL" 50 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE permission_id = 50" 1
'

test_expect_success 'a declared permission found unmounted is mounted again under its old id' '
	expect_db "SELECT id, mount FROM lin_permission WHERE module = \"图书\" AND name = \"删除图书\"" "100	1"
'

test_expect_success 'lin_permission holds the four declared rows mounted plus the one unmounted' '
	expect_db "SELECT COUNT(*) FROM lin_permission WHERE mount = 1" 4 &&
	expect_db "SELECT COUNT(*) FROM lin_permission WHERE mount = 0" 1 &&
	expect_db "SELECT COUNT(*) FROM lin_permission" 5
'

test_expect_success 'setup: root logs in, creates group editors and registers gina (in guest)' '
	remember root "$ROOT_PASSWORD" &&
	http POST /cms/admin/group "{\"name\":\"editors\"}" &&
	expect_status 201 &&
	db_exec "SELECT id FROM lin_group WHERE name = \"editors\"" >editors &&
	http POST /cms/user/register "{\"username\":\"gina\",\"password\":\"Gina_pass1\",\"confirm_password\":\"Gina_pass1\"}" &&
	expect_status 201
'

test_expect_success 'GET /cms/admin/permission does not list the unmounted permission' '
	as root &&
	http GET /cms/admin/permission &&
	expect_status 200 &&
	expect_json "keys | sort | join(\",\")" "图书,日志"
'

test_expect_success 'GET /cms/admin/group/{id} does not list the unmounted permission granted to the group' '
	as root &&
	http GET /cms/admin/group/2 &&
	expect_status 200 &&
	expect_json ".permissions | length" 0
'

test_expect_success 'dispatch/batch of the unmounted permission answers 404 10303' '
	as root &&
	group=$(cat editors) &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$group,\"permission_ids\":[50]}" &&
	expect_status 404 &&
	expect_json .code 10303 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = $group" 0
'

test_expect_success 'a user of the group holding the unmounted permission is not shown it' '
	expect_db "SELECT group_id FROM lin_user_group JOIN lin_user u ON u.id = user_id WHERE u.username = \"gina\"" 2 &&
	login gina Gina_pass1 &&
	http GET /cms/user/permissions &&
	expect_status 200 &&
	expect_json ".permissions | length" 0
'

test_done
