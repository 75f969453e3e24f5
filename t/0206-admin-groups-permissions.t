#!/bin/sh
test_description='issue 2 admin paths: groups, the permission list, batch grants and removals, and what users see of them'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

# perm_id MODULE NAME: the id of a registered permission.
perm_id () {
	db_exec "SELECT id FROM lin_permission WHERE module = \"$1\" AND name = \"$2\""
}

# grants GROUP_ID: the number of lin_group_permission rows of the group.
grants () {
	db_exec "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = $1"
}

# repeat N FILE: the id in FILE N times, comma-separated (for a JSON array).
repeat () {
	for _ in $(seq "$1"); do cat "$2"; done | paste -sd, -
}

test_expect_success 'setup: root logs in; the ids of the four permissions are known' '
	remember root "$ROOT_PASSWORD" &&
	perm_id 日志 查询所有日志 >log_all &&
	perm_id 日志 搜索日志 >log_search &&
	perm_id 日志 查询日志记录的用户 >log_users &&
	perm_id 图书 删除图书 >book_delete &&
	test -s log_all && test -s log_search && test -s log_users && test -s book_delete
'

test_expect_success 'GET /cms/admin/group/all answers 200 with an array holding guest but not root' '
	as root &&
	http GET /cms/admin/group/all &&
	expect_status 200 &&
	expect_json "type" array &&
	expect_json "map(.name) | join(\",\")" guest &&
	expect_json_true "map(select(.id == 1 or .level == \"ROOT\")) | length == 0"
'

test_expect_success 'each item of GET /cms/admin/group/all is {id, name, info, level}' '
	as root &&
	http GET /cms/admin/group/all &&
	expect_json ".[0] | keys | join(\",\")" "id,info,level,name" &&
	expect_json ".[0].level" GUEST
'

test_expect_success 'POST /cms/admin/group answers 201 {"code":15,"message":"新建分组成功",...}' '
	cat >expected.json <<-\EOF &&
	{"code":15,"message":"新建分组成功","request":"POST /cms/admin/group"}
	EOF
	as root &&
	http POST /cms/admin/group "{\"name\":\"editors\",\"info\":\"book editors\"}" &&
	expect_status 201 &&
	expect_body_file expected.json &&
	db_exec "SELECT id FROM lin_group WHERE name = \"editors\" AND delete_time IS NULL" >editors &&
	test -s editors
'

test_expect_success 'the new group is listed by GET /cms/admin/group/all with level USER' '
	as root &&
	http GET /cms/admin/group/all &&
	expect_json "map(select(.name == \"editors\")) | length" 1 &&
	expect_json ".[] | select(.name == \"editors\") | .level" USER &&
	expect_json ".[] | select(.name == \"editors\") | .info" "book editors"
'

test_expect_success 'POST /cms/admin/group with a taken name answers 409 10072' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"editors\"}" &&
	expect_status 409 &&
	expect_json .code 10072 &&
	expect_db "SELECT COUNT(*) FROM lin_group WHERE name = \"editors\"" 1
'

test_expect_success 'GET /cms/admin/group/{id} answers exactly {id, name, info, permissions}' '
	as root &&
	http GET /cms/admin/group/$(cat editors) &&
	expect_status 200 &&
	expect_json "keys | join(\",\")" "id,info,name,permissions" &&
	expect_json .id "$(cat editors)" &&
	expect_json .name editors &&
	expect_json .info "book editors" &&
	expect_json ".permissions | length" 0
'

test_expect_success 'GET /cms/admin/group/{id} of a missing group answers 404 10024' '
	as root &&
	http GET /cms/admin/group/99999 &&
	expect_status 404 &&
	expect_json .code 10024 &&
	expect_json .message "分组不存在" &&
	expect_json .request "GET /cms/admin/group/99999"
'

test_expect_success 'GET /cms/admin/permission answers an object keyed by module: 日志 (3) and 图书 (1)' '
	as root &&
	http GET /cms/admin/permission &&
	expect_status 200 &&
	expect_json "keys | sort | join(\",\")" "图书,日志" &&
	expect_json ".[\"日志\"] | length" 3 &&
	expect_json ".[\"图书\"] | length" 1
'

test_expect_success 'GET /cms/admin/permission items carry the id, name and module of each permission' '
	as root &&
	http GET /cms/admin/permission &&
	expect_json ".[\"日志\"] | map(.name) | sort | join(\",\")" "搜索日志,查询所有日志,查询日志记录的用户" &&
	expect_json ".[\"日志\"] | map(.module) | unique | join(\",\")" 日志 &&
	expect_json ".[\"图书\"][0].name" 删除图书 &&
	expect_json ".[\"图书\"][0].module" 图书 &&
	expect_json ".[\"图书\"][0].id" "$(cat book_delete)"
'

test_expect_success 'POST /cms/admin/permission/dispatch/batch answers 201 with the code 9 envelope' '
	cat >expected.json <<-\EOF &&
	{"code":9,"message":"添加权限成功","request":"POST /cms/admin/permission/dispatch/batch"}
	EOF
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat editors),\"permission_ids\":[$(cat log_all),$(cat log_search),$(cat log_users)]}" &&
	expect_status 201 &&
	expect_body_file expected.json
'

test_expect_success 'the batch grant wrote one lin_group_permission row per permission' '
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = $(cat editors)" 3
'

test_expect_success 'granting the same permissions again answers 201 and adds no duplicate row' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat editors),\"permission_ids\":[$(cat log_all),$(cat log_search),$(cat log_users)]}" &&
	expect_status 201 &&
	expect_json .code 9 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = $(cat editors)" 3
'

test_expect_success 'a grant overlapping the present ones adds only the new permission' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat editors),\"permission_ids\":[$(cat log_all),$(cat book_delete)]}" &&
	expect_status 201 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = $(cat editors)" 4 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = $(cat editors) AND permission_id = $(cat log_all)" 1
'

test_expect_success 'GET /cms/admin/group/{id} lists the granted permissions' '
	as root &&
	http GET /cms/admin/group/$(cat editors) &&
	expect_status 200 &&
	expect_json ".permissions | length" 4 &&
	expect_json ".permissions | map(.name) | sort | join(\",\")" "删除图书,搜索日志,查询所有日志,查询日志记录的用户" &&
	expect_json_true ".permissions | map(select(.name == \"删除图书\")) | .[0].module == \"图书\""
'

test_expect_success 'dispatch/batch to a missing group answers 404 10024 and writes nothing' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":99999,\"permission_ids\":[$(cat log_all)]}" &&
	expect_status 404 &&
	expect_json .code 10024 &&
	expect_json .request "POST /cms/admin/permission/dispatch/batch" &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = 99999" 0
'

test_expect_success 'setup: root creates group readers, holding no permission' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"readers\"}" &&
	expect_status 201 &&
	db_exec "SELECT id FROM lin_group WHERE name = \"readers\"" >readers &&
	test -s readers
'

test_expect_success 'dispatch/batch with an unknown permission id answers 404 10303' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat readers),\"permission_ids\":[99999]}" &&
	expect_status 404 &&
	expect_json .code 10303 &&
	expect_json .message "权限不存在"
'

test_expect_success 'an unknown permission id among known ones grants none of them' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat readers),\"permission_ids\":[$(cat log_all),99999]}" &&
	expect_status 404 &&
	expect_json .code 10303 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = $(cat readers)" 0
'

test_expect_success 'dispatch/batch with an empty permission_ids answers 400 10030 naming it' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat readers),\"permission_ids\":[]}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json_true ".message | has(\"permission_ids\")"
'

test_expect_success 'dispatch/batch without permission_ids answers 400 10030 naming it' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat readers)}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json_true ".message | has(\"permission_ids\")"
'

test_expect_success 'dispatch/batch without group_id answers 400 10030 with 分组id不可为空' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"permission_ids\":[$(cat log_all)]}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.group_id "分组id不可为空"
'

test_expect_success 'dispatch/batch with a permission id of 0 answers 400 10030' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat readers),\"permission_ids\":[0]}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = $(cat readers)" 0
'

test_expect_success 'POST /cms/admin/permission/remove answers 200 with the code 10 envelope' '
	cat >expected.json <<-\EOF &&
	{"code":10,"message":"删除权限成功","request":"POST /cms/admin/permission/remove"}
	EOF
	as root &&
	http POST /cms/admin/permission/remove "{\"group_id\":$(cat editors),\"permission_ids\":[$(cat log_all),$(cat log_search),$(cat book_delete)]}" &&
	expect_status 200 &&
	expect_body_file expected.json
'

test_expect_success 'the removed links are gone and the other one is kept' '
	expect_db "SELECT permission_id FROM lin_group_permission WHERE group_id = $(cat editors)" "$(cat log_users)"
'

test_expect_success 'the permission rows themselves survive a removal (still mounted)' '
	expect_db "SELECT COUNT(*) FROM lin_permission WHERE mount = 1" 4
'

test_expect_success 'permission/remove for a missing group answers 404 10024' '
	as root &&
	http POST /cms/admin/permission/remove "{\"group_id\":99999,\"permission_ids\":[$(cat log_users)]}" &&
	expect_status 404 &&
	expect_json .code 10024
'

test_expect_success 'permission/remove with an empty permission_ids answers 400 10030' '
	as root &&
	http POST /cms/admin/permission/remove "{\"group_id\":$(cat editors),\"permission_ids\":[]}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = $(cat editors)" 1
'

test_expect_success 'setup: root registers alice in editors; alice logs in' '
	as root &&
	http POST /cms/user/register "{\"username\":\"alice\",\"password\":\"Alice_pass1\",\"confirm_password\":\"Alice_pass1\",\"email\":\"alice@example.com\",\"group_ids\":[$(cat editors)]}" &&
	expect_status 201 &&
	remember alice Alice_pass1
'

test_expect_success 'GET /cms/user/permissions shows the user her one permission grouped by module' '
	cat >expected.json <<-\EOF &&
	[{"日志":[{"module":"日志","permission":"查询日志记录的用户"}]}]
	EOF
	as alice &&
	http GET /cms/user/permissions &&
	expect_status 200 &&
	jq .permissions body >permissions.json &&
	jq -S . expected.json >want.json &&
	jq -S . permissions.json >got.json &&
	diff -u want.json got.json
'

test_expect_success 'GET /cms/user/permissions says admin:false for the user, with no username' '
	as alice &&
	http GET /cms/user/permissions &&
	expect_json .admin false &&
	expect_json "keys | join(\",\")" "admin,avatar,email,id,nickname,permissions" &&
	expect_json .email alice@example.com
'

test_expect_success 'GET /cms/user/permissions says admin:true for root' '
	as root &&
	http GET /cms/user/permissions &&
	expect_status 200 &&
	expect_json .admin true &&
	expect_json .id 1
'

test_expect_success 'GET /cms/user/information shows the user her groups with level' '
	as alice &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .username alice &&
	expect_json ".groups | length" 1 &&
	expect_json ".groups[0].id" "$(cat editors)" &&
	expect_json ".groups[0].name" editors &&
	expect_json ".groups[0].level" USER
'

test_expect_success 'GET /cms/user/information shows root in the root group with level ROOT' '
	as root &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json ".groups | map(.name) | join(\",\")" root &&
	expect_json ".groups[0].level" ROOT
'

test_expect_success 'setup: readers also holds the one permission of editors, and alice joins readers' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat readers),\"permission_ids\":[$(cat log_users)]}" &&
	expect_status 201 &&
	http PUT /cms/admin/user/$(db_exec "SELECT id FROM lin_user WHERE username = \"alice\"") "{\"group_ids\":[$(cat editors),$(cat readers)]}" &&
	expect_status 200
'

test_expect_success 'a permission held through two groups is listed once by GET /cms/user/permissions' '
	as alice &&
	http GET /cms/user/permissions &&
	expect_status 200 &&
	expect_json ".permissions | length" 1 &&
	expect_json ".permissions[0] | to_entries[0].value | length" 1
'

test_expect_success 'the same id twice in permission_ids grants it once' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat readers),\"permission_ids\":[$(cat log_all),$(cat log_all)]}" &&
	expect_status 201 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = $(cat readers) AND permission_id = $(cat log_all)" 1
'

test_expect_success 'GET /cms/admin/group/{id} with a path id of 0 or abc answers 400 10030 naming id' '
	as root &&
	http GET /cms/admin/group/0 &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.id "id必须为正整数" &&
	http GET /cms/admin/group/abc &&
	expect_status 400 &&
	expect_json .message.id "id必须为正整数"
'

test_expect_success 'setup: root creates groups capped and repeats, holding no permission' '
	as root &&
	for g in capped repeats; do
		http POST /cms/admin/group "{\"name\":\"$g\"}" &&
		expect_status 201 &&
		db_exec "SELECT id FROM lin_group WHERE name = \"$g\"" >$g &&
		test -s $g || return 1
	done
'

test_expect_success 'dispatch/batch with 101 permission ids answers 400 10030 (最多100项) and grants none' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat capped),\"permission_ids\":[$(repeat 101 log_all)]}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.permission_ids "最多100项" &&
	test "$(grants $(cat capped))" = 0
'

test_expect_success 'dispatch/batch with 100 ids, 98 of them repeats, answers 201 and grants the 2 distinct ones' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat repeats),\"permission_ids\":[$(cat log_search),$(repeat 99 book_delete)]}" &&
	expect_status 201 &&
	expect_json .code 9 &&
	expect_db "SELECT permission_id FROM lin_group_permission WHERE group_id = $(cat repeats)
		ORDER BY permission_id" "$(sort -n log_search book_delete)"
'

test_expect_success 'setup: root creates group tmp, then deletes it' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"tmp\"}" &&
	expect_status 201 &&
	db_exec "SELECT id FROM lin_group WHERE name = \"tmp\"" >tmp_group &&
	http DELETE /cms/admin/group/$(cat tmp_group) &&
	expect_status 200
'

test_expect_success 'a deleted group is gone from GET /cms/admin/group/all' '
	as root &&
	http GET /cms/admin/group/all &&
	expect_status 200 &&
	expect_json "map(select(.name == \"tmp\")) | length" 0
'

test_expect_success 'GET /cms/admin/group/{id} of a deleted group answers 404 10024' '
	as root &&
	http GET /cms/admin/group/$(cat tmp_group) &&
	expect_status 404 &&
	expect_json .code 10024
'

test_expect_success 'dispatch/batch to a deleted group answers 404 10024 and writes nothing' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat tmp_group),\"permission_ids\":[$(cat log_all)]}" &&
	expect_status 404 &&
	expect_json .code 10024 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = $(cat tmp_group)" 0
'

test_done
