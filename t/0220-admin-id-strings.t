#!/bin/sh
test_description='ids in JSON bodies written as decimal strings are accepted, as the Lin CMS backends accept them; other types stay a 400'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

# gid NAME: id of the live group NAME. pid NAME: id of the permission NAME.
gid () {
	db_exec "SELECT id FROM lin_group WHERE name = '$1' AND delete_time IS NULL"
}
pid () {
	db_exec "SELECT id FROM lin_permission WHERE name = '$1'"
}

# grants GROUP: the permission names granted to group GROUP, by id, comma-separated.
grants () {
	db_exec "SELECT COALESCE(GROUP_CONCAT(p.name ORDER BY p.id), '') FROM lin_group_permission gp
		JOIN lin_permission p ON p.id = gp.permission_id WHERE gp.group_id = $(gid "$1")"
}

# groups_of USER: the group names of user USER, by id, comma-separated.
groups_of () {
	db_exec "SELECT GROUP_CONCAT(g.name ORDER BY g.id) FROM lin_user_group ug
		JOIN lin_group g ON g.id = ug.group_id JOIN lin_user u ON u.id = ug.user_id
		WHERE u.username = '$1'"
}

test_expect_success 'setup: root logs in and creates the group editors' '
	remember root "$ROOT_PASSWORD" &&
	as root &&
	http POST /cms/admin/group "{\"name\":\"editors\"}" &&
	expect_status 201
'

test_expect_success 'a group created with permission_ids as strings is granted them' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"readers\",\"permission_ids\":[\"$(pid 查询所有日志)\"]}" &&
	expect_status 201 &&
	test "$(grants readers)" = 查询所有日志
'

test_expect_success 'dispatch/batch takes "group_id":"<id>" and "permission_ids":["<id>"]' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch \
		"{\"group_id\":\"$(gid editors)\",\"permission_ids\":[\"$(pid 查询所有日志)\",\"$(pid 搜索日志)\"]}" &&
	expect_status 201 &&
	expect_json .code 9 &&
	test "$(grants editors)" = 查询所有日志,搜索日志
'

test_expect_success 'dispatch takes "group_id" and "permission_id" as strings' '
	as root &&
	http POST /cms/admin/permission/dispatch \
		"{\"group_id\":\"$(gid editors)\",\"permission_id\":\"$(pid 删除图书)\"}" &&
	expect_status 201 &&
	test "$(grants editors)" = "$(db_exec "SELECT GROUP_CONCAT(name ORDER BY id) FROM lin_permission
		WHERE name IN (\"查询所有日志\", \"搜索日志\", \"删除图书\")")"
'

test_expect_success 'permission/remove takes the ids as strings' '
	as root &&
	http POST /cms/admin/permission/remove \
		"{\"group_id\":\"$(gid editors)\",\"permission_ids\":[\"$(pid 搜索日志)\",\"$(pid 删除图书)\"]}" &&
	expect_status 200 &&
	test "$(grants editors)" = 查询所有日志
'

test_expect_success 'registration takes group_ids as strings' '
	as root &&
	http POST /cms/user/register "{\"username\":\"alice\",\"password\":\"Alice_pass1\",\"confirm_password\":\"Alice_pass1\",\"group_ids\":[\"$(gid editors)\"]}" &&
	expect_status 201 &&
	test "$(groups_of alice)" = editors
'

test_expect_success 'an admin regroups a user with group_ids as strings' '
	as root &&
	http PUT /cms/admin/user/$(db_exec "SELECT id FROM lin_user WHERE username = \"alice\"") \
		"{\"group_ids\":[\"$(gid editors)\",\"$(gid readers)\"]}" &&
	expect_status 200 &&
	test "$(groups_of alice)" = editors,readers
'

for bad in '"5a"' '" 5"' '"5 "' '"-5"' '"+5"' '""' '"0"' '"0x5"' '"5.0"' '5.0' 'true' '[5]' '{}' \
	'"4294967296"' '"00000000005"'; do
	test_expect_success "a group_id of $bad is a 400 10030 on group_id" '
		as root &&
		http POST /cms/admin/permission/dispatch \
			"{\"group_id\":$bad,\"permission_id\":$(pid 删除图书)}" &&
		expect_status 400 &&
		expect_json .code 10030 &&
		expect_json .message.group_id 分组id必须为正整数
	'
done

test_expect_success 'a permission_ids item that is not digits is a 400 10030 on permission_ids' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch \
		"{\"group_id\":$(gid editors),\"permission_ids\":[\"$(pid 搜索日志)x\"]}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.permission_ids 权限id必须正整数 &&
	test "$(grants editors)" = 查询所有日志
'

test_done
