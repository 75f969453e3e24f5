#!/bin/sh
test_description='admin group routes and permission grants: pages, names, root/guest/has-users rules'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

USER_PASSWORD=User_pass1

# gid NAME: id of the live group NAME. pid NAME: id of the permission NAME.
gid () {
	db_exec "SELECT id FROM lin_group WHERE name = '$1' AND delete_time IS NULL"
}
pid () {
	db_exec "SELECT id FROM lin_permission WHERE name = '$1'"
}

# grants GROUP: the permission names granted to group GROUP, by id, comma-separated.
grants () {
	db_exec "SELECT GROUP_CONCAT(p.name ORDER BY p.id) FROM lin_group_permission gp
		JOIN lin_permission p ON p.id = gp.permission_id WHERE gp.group_id = $(gid "$1")"
}

test_expect_success 'setup: root logs in' '
	remember root "$ROOT_PASSWORD"
'

test_expect_success 'POST /cms/admin/group answers 201 with the code 15 envelope' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"editors\",\"info\":\"they write\"}" &&
	expect_status 201 &&
	expect_json .code 15 &&
	expect_json .message 新建分组成功 &&
	expect_json .request "POST /cms/admin/group"
'

test_expect_success 'the new group is stored with level 3 and its info' '
	expect_db "SELECT name, info, level FROM lin_group WHERE id = $(gid editors)" "editors	they write	3"
'

test_expect_success 'a group created with permission_ids is granted them' '
	as root &&
	http POST /cms/admin/group \
		"{\"name\":\"readers\",\"permission_ids\":[$(pid 查询所有日志),$(pid 搜索日志)]}" &&
	expect_status 201 &&
	test "$(grants readers)" = 查询所有日志,搜索日志
'

test_expect_success 'creating a group with an unknown permission id is a 404 and creates nothing' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"ghosts\",\"permission_ids\":[999]}" &&
	expect_status 404 &&
	expect_json .code 10303 &&
	expect_json .message 权限不存在 &&
	expect_db "SELECT COUNT(*) FROM lin_group WHERE name = \"ghosts\"" 0
'

test_expect_success 'creating a group whose name a live group has is refused with 409 10072' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"editors\"}" &&
	expect_status 409 &&
	expect_json .code 10072 &&
	expect_json .message 分组名已被使用，请重新填入新的分组名 &&
	expect_db "SELECT COUNT(*) FROM lin_group WHERE name = \"editors\"" 1
'

test_expect_success 'a group body without name is a 400 on field name' '
	as root &&
	http POST /cms/admin/group "{\"info\":\"x\"}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json_true ".message | has(\"name\")"
'

test_expect_success 'a group name of 61 characters is a 400 on field name' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"$(printf "%061d" 0)\"}" &&
	expect_status 400 &&
	expect_json_true ".message | has(\"name\")"
'

test_expect_success 'a group info of 256 characters is a 400 on field info' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"longinfo\",\"info\":\"$(printf "%0256d" 0)\"}" &&
	expect_status 400 &&
	expect_json_true ".message | has(\"info\")"
'

test_expect_success 'setup: root creates the groups spare and doomed' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"spare\",\"info\":\"old info\"}" &&
	expect_status 201 &&
	http POST /cms/admin/group "{\"name\":\"doomed\"}" &&
	expect_status 201
'

test_expect_success 'GET /cms/admin/group pages every live group, root included, by id' '
	as root &&
	http GET /cms/admin/group &&
	expect_status 200 &&
	expect_json "[.items[].name] | join(\",\")" root,guest,editors,readers,spare,doomed &&
	expect_json .total 6 &&
	expect_json .page 0 &&
	expect_json .count 10
'

test_expect_success 'a group item has exactly id, name, info and level' '
	as root &&
	http GET /cms/admin/group &&
	expect_json "[.items[] | keys | join(\",\")] | unique | join(\";\")" id,info,level,name
'

test_expect_success 'group levels read ROOT, GUEST and USER' '
	as root &&
	http GET /cms/admin/group &&
	expect_json "[.items[0,1,2].level] | join(\",\")" ROOT,GUEST,USER
'

test_expect_success 'page 1 of count 4 holds the last two groups and the real total' '
	as root &&
	http GET "/cms/admin/group?page=1&count=4" &&
	expect_status 200 &&
	expect_json "[.items[].name] | join(\",\")" spare,doomed &&
	expect_json .total 6
'

test_expect_success 'a group page past the end has items [] and the real total' '
	as root &&
	http GET "/cms/admin/group?page=9" &&
	expect_status 200 &&
	expect_json ".items | length" 0 &&
	expect_json .total 6
'

test_expect_success 'group count=0 is a 400 on field count' '
	as root &&
	http GET "/cms/admin/group?count=0" &&
	expect_status 400 &&
	expect_json_true ".message | has(\"count\")"
'

test_expect_success 'group count=31 is a 400 on field count' '
	as root &&
	http GET "/cms/admin/group?count=31" &&
	expect_status 400 &&
	expect_json_true ".message | has(\"count\")"
'

test_expect_success 'GET /cms/admin/group/all is an array of the groups but root' '
	as root &&
	http GET /cms/admin/group/all &&
	expect_status 200 &&
	expect_json "[.[].name] | join(\",\")" guest,editors,readers,spare,doomed
'

test_expect_success 'GET /cms/admin/group/{id} shows the group and its permissions' '
	as root &&
	http GET /cms/admin/group/$(gid readers) &&
	expect_status 200 &&
	expect_json "keys | join(\",\")" id,info,name,permissions &&
	expect_json "[.permissions[].name] | join(\",\")" 查询所有日志,搜索日志
'

test_expect_success 'GET /cms/admin/group/{id} of a missing group is a 404 with code 10024' '
	as root &&
	http GET /cms/admin/group/999 &&
	expect_status 404 &&
	expect_json .code 10024 &&
	expect_json .message 分组不存在
'

test_expect_success 'PUT /cms/admin/group/{id} answers 200 with the code 7 envelope' '
	as root &&
	id=$(gid spare) &&
	http PUT /cms/admin/group/$id "{\"name\":\"backup\",\"info\":\"new info\"}" &&
	expect_status 200 &&
	expect_json .code 7 &&
	expect_json .message 更新分组成功 &&
	expect_json .request "PUT /cms/admin/group/$id"
'

test_expect_success 'the group is renamed and its info replaced' '
	expect_db "SELECT name, info FROM lin_group WHERE name IN (\"spare\", \"backup\")" "backup	new info"
'

test_expect_success 'keeping its own name while changing the info is fine (200)' '
	as root &&
	http PUT /cms/admin/group/$(gid backup) "{\"name\":\"backup\",\"info\":\"newer info\"}" &&
	expect_status 200 &&
	expect_db "SELECT info FROM lin_group WHERE name = \"backup\"" "newer info"
'

test_expect_success 'an update without info leaves the info unchanged' '
	as root &&
	http PUT /cms/admin/group/$(gid backup) "{\"name\":\"backup\"}" &&
	expect_status 200 &&
	expect_db "SELECT info FROM lin_group WHERE name = \"backup\"" "newer info"
'

test_expect_success 'renaming to the name of another live group is refused with 409 10072' '
	as root &&
	http PUT /cms/admin/group/$(gid backup) "{\"name\":\"editors\",\"info\":\"stolen\"}" &&
	expect_status 409 &&
	expect_json .code 10072
'

test_expect_success 'the refused rename left both groups as they were' '
	expect_db "SELECT COUNT(*) FROM lin_group WHERE name = \"editors\"" 1 &&
	expect_db "SELECT info FROM lin_group WHERE name = \"backup\"" "newer info"
'

test_expect_success 'updating a missing group is a 404 with code 10024' '
	as root &&
	http PUT /cms/admin/group/999 "{\"name\":\"nobody\"}" &&
	expect_status 404 &&
	expect_json .code 10024
'

test_expect_success 'deleting the root group is refused with 403 10074' '
	as root &&
	http DELETE /cms/admin/group/1 &&
	expect_status 403 &&
	expect_json .code 10074 &&
	expect_json .message root分组不可删除
'

test_expect_success 'deleting the guest group is refused with 403 10075' '
	as root &&
	http DELETE /cms/admin/group/2 &&
	expect_status 403 &&
	expect_json .code 10075 &&
	expect_json .message guest分组不可删除
'

test_expect_success 'root and guest groups are still live after the refusals' '
	expect_db "SELECT COUNT(*) FROM lin_group WHERE id IN (1, 2) AND delete_time IS NULL" 2
'

test_expect_success 'setup: root registers carl in editors' '
	as root &&
	http POST /cms/user/register "{\"username\":\"carl\",\"password\":\"$USER_PASSWORD\",
		\"confirm_password\":\"$USER_PASSWORD\",\"group_ids\":[$(gid editors)]}" &&
	expect_status 201
'

test_expect_success 'deleting a group that has users is refused with 409 10027' '
	as root &&
	http DELETE /cms/admin/group/$(gid editors) &&
	expect_status 409 &&
	expect_json .code 10027 &&
	expect_json .message 分组下存在用户，不可删除当前分组 &&
	expect_db "SELECT COUNT(*) FROM lin_group WHERE name = \"editors\" AND delete_time IS NULL" 1
'

test_expect_success 'deleting a missing group is a 404 with code 10024' '
	as root &&
	http DELETE /cms/admin/group/999 &&
	expect_status 404 &&
	expect_json .code 10024
'

test_expect_success 'setup: the id of doomed is noted' '
	gid doomed >doomed.id &&
	test -s doomed.id
'

test_expect_success 'DELETE /cms/admin/group/{id} answers 200 with the code 8 envelope' '
	as root &&
	http DELETE /cms/admin/group/$(cat doomed.id) &&
	expect_status 200 &&
	expect_json .code 8 &&
	expect_json .message 删除分组成功 &&
	expect_json .request "DELETE /cms/admin/group/$(cat doomed.id)"
'

test_expect_success 'the deleted group row is kept with delete_time set' '
	expect_db "SELECT name, delete_time IS NOT NULL FROM lin_group WHERE id = $(cat doomed.id)" "doomed	1"
'

test_expect_success 'the deleted group is a 404 for GET /cms/admin/group/{id}' '
	as root &&
	http GET /cms/admin/group/$(cat doomed.id) &&
	expect_status 404 &&
	expect_json .code 10024
'

test_expect_success 'the deleted group is left out of the group page' '
	as root &&
	http GET /cms/admin/group &&
	expect_json .total 5 &&
	expect_json "[.items[].name | select(. == \"doomed\")] | length" 0
'

test_expect_success 'deleting the deleted group again is a 404 with code 10024' '
	as root &&
	http DELETE /cms/admin/group/$(cat doomed.id) &&
	expect_status 404 &&
	expect_json .code 10024
'

test_expect_success 'renaming a group to the name of a deleted group is fine' '
	as root &&
	http PUT /cms/admin/group/$(gid backup) "{\"name\":\"doomed\"}" &&
	expect_status 200 &&
	http PUT /cms/admin/group/$(gid doomed) "{\"name\":\"backup\"}" &&
	expect_status 200
'

test_expect_success 'the name of a deleted group can be created again (201)' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"doomed\"}" &&
	expect_status 201 &&
	expect_db "SELECT COUNT(*), COUNT(delete_time) FROM lin_group WHERE name = \"doomed\"" "2	1"
'

test_expect_success 'GET /cms/admin/permission lists the registered permissions by module' '
	as root &&
	http GET /cms/admin/permission &&
	expect_status 200 &&
	expect_json "keys | join(\",\")" 图书,日志 &&
	expect_json "[.[\"日志\"][].name] | sort | join(\",\")" 搜索日志,查询所有日志,查询日志记录的用户 &&
	expect_json "[.[\"图书\"][].name] | join(\",\")" 删除图书
'

test_expect_success 'POST /cms/admin/permission/dispatch answers 201 with the code 9 envelope' '
	as root &&
	http POST /cms/admin/permission/dispatch \
		"{\"group_id\":$(gid editors),\"permission_id\":$(pid 删除图书)}" &&
	expect_status 201 &&
	expect_json .code 9 &&
	expect_json .message 添加权限成功 &&
	expect_json .request "POST /cms/admin/permission/dispatch"
'

test_expect_success 'the dispatched permission is linked to the group' '
	test "$(grants editors)" = 删除图书
'

test_expect_success 'dispatching a permission already granted still answers 201' '
	as root &&
	http POST /cms/admin/permission/dispatch \
		"{\"group_id\":$(gid editors),\"permission_id\":$(pid 删除图书)}" &&
	expect_status 201 &&
	expect_json .code 9
'

test_expect_success 'the repeated dispatch left one link, not two' '
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = $(gid editors)" 1
'

test_expect_success 'dispatching an unknown permission is a 404 and links nothing' '
	as root &&
	http POST /cms/admin/permission/dispatch "{\"group_id\":$(gid editors),\"permission_id\":999}" &&
	expect_status 404 &&
	expect_json .code 10303 &&
	expect_json .message 权限不存在 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE permission_id = 999" 0
'

test_expect_success 'dispatching to a missing group is a 404 with code 10024' '
	as root &&
	http POST /cms/admin/permission/dispatch "{\"group_id\":999,\"permission_id\":$(pid 删除图书)}" &&
	expect_status 404 &&
	expect_json .code 10024 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = 999" 0
'

test_expect_success 'dispatching to a deleted group is a 404 with code 10024' '
	as root &&
	http POST /cms/admin/permission/dispatch \
		"{\"group_id\":$(cat doomed.id),\"permission_id\":$(pid 删除图书)}" &&
	expect_status 404 &&
	expect_json .code 10024
'

test_expect_success 'a dispatch without permission_id is a 400 on field permission_id' '
	as root &&
	http POST /cms/admin/permission/dispatch "{\"group_id\":$(gid editors)}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json_true ".message | has(\"permission_id\")"
'

test_expect_success 'dispatch/batch grants the new ids and skips the granted one (201 code 9)' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch \
		"{\"group_id\":$(gid editors),\"permission_ids\":[$(pid 删除图书),$(pid 搜索日志)]}" &&
	expect_status 201 &&
	expect_json .code 9 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = $(gid editors)" 2
'

test_expect_success 'dispatch/batch with an unknown id grants none of the list' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch \
		"{\"group_id\":$(gid editors),\"permission_ids\":[$(pid 查询日志记录的用户),999]}" &&
	expect_status 404 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = $(gid editors)
		AND permission_id = $(pid 查询日志记录的用户)" 0
'

test_expect_success 'permission/remove answers 200 code 10 and removes the links' '
	as root &&
	http POST /cms/admin/permission/remove \
		"{\"group_id\":$(gid editors),\"permission_ids\":[$(pid 搜索日志)]}" &&
	expect_status 200 &&
	expect_json .code 10 &&
	expect_json .message 删除权限成功 &&
	test "$(grants editors)" = 删除图书
'

test_done
