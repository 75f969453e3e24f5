#!/bin/sh
test_description='behaviour log rows (lin_log): one per successful change, none for failures, escaped'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

USER_PASSWORD=User_pass1
NEW_PASSWORD=New_pass2

gid () {
	db_exec "SELECT id FROM lin_group WHERE name = '$1' AND delete_time IS NULL"
}
uid () {
	db_exec "SELECT id FROM lin_user WHERE username = '$1' AND delete_time IS NULL"
}

# last_log: the newest lin_log row as message|user_id|username|status_code|method|path|permission.
last_log () {
	db_exec "SELECT CONCAT_WS('|', message, user_id, username, status_code, method, path, permission)
		FROM lin_log ORDER BY id DESC LIMIT 1"
}

# expect_last_log ROW: last_log equals ROW.
expect_last_log () {
	local got
	got=$(last_log) && [ "$got" = "$1" ] && return 0
	echo "expected the newest lin_log row '$1', got '$got'" >&2
	return 1
}

log_count () {
	db_exec "SELECT COUNT(*) FROM lin_log"
}

# register NAME: root registers NAME with password $USER_PASSWORD (group guest).
register () {
	as root &&
	http POST /cms/user/register "$(jq -nc --arg u "$1" --arg p "$USER_PASSWORD" \
		'{username: $u, password: $p, confirm_password: $p}')" &&
	expect_status 201
}

test_expect_success 'a fresh database has no log rows' '
	expect_db "SELECT COUNT(*) FROM lin_log" 0
'

test_expect_success 'a login writes a row: message, user, status 200, method, path, no permission' '
	remember root "$ROOT_PASSWORD" &&
	expect_last_log "root登录成功获取了令牌|1|root|200|POST|/cms/user/login|"
'

test_expect_success 'the login row is the only row the login wrote' '
	expect_db "SELECT COUNT(*) FROM lin_log" 1
'

test_expect_success 'a failed login writes no row' '
	n=$(log_count) &&
	http POST /cms/user/login "{\"username\":\"root\",\"password\":\"Wrong_pass9\"}" &&
	expect_status 401 &&
	test "$(log_count)" = "$n"
'

test_expect_success 'reads write no row' '
	n=$(log_count) &&
	as root &&
	http GET /cms/admin/users &&
	expect_status 200 &&
	http GET /cms/user/information &&
	expect_status 200 &&
	http GET /cms/log &&
	expect_status 200 &&
	test "$(log_count)" = "$n"
'

test_expect_success 'a registration writes a row with status 201 by the admin' '
	register ann &&
	expect_last_log "管理员新建了一个用户|1|root|201|POST|/cms/user/register|"
'

test_expect_success 'a registration refused with 409 writes no row' '
	n=$(log_count) &&
	as root &&
	http POST /cms/user/register "{\"username\":\"ann\",\"password\":\"$USER_PASSWORD\",
		\"confirm_password\":\"$USER_PASSWORD\"}" &&
	expect_status 409 &&
	test "$(log_count)" = "$n"
'

test_expect_success 'setup: ann logs in' '
	remember ann "$USER_PASSWORD" &&
	uid ann >ann.id
'

test_expect_success 'a profile update writes a row for the user' '
	as ann &&
	http PUT /cms/user "{\"nickname\":\"Annie\"}" &&
	expect_status 200 &&
	expect_last_log "ann更新了自己的信息|$(cat ann.id)|ann|200|PUT|/cms/user|"
'

test_expect_success 'a profile update refused with 409 writes no row' '
	n=$(log_count) &&
	as ann &&
	http PUT /cms/user "{\"username\":\"root\"}" &&
	expect_status 409 &&
	test "$(log_count)" = "$n"
'

test_expect_success 'a password change writes a row for the user' '
	as ann &&
	http PUT /cms/user/change_password "{\"old_password\":\"$USER_PASSWORD\",
		\"new_password\":\"$NEW_PASSWORD\",\"confirm_password\":\"$NEW_PASSWORD\"}" &&
	expect_status 200 &&
	expect_last_log "ann修改了自己的密码|$(cat ann.id)|ann|200|PUT|/cms/user/change_password|"
'

test_expect_success 'a password change with a wrong old password writes no row' '
	login ann "$NEW_PASSWORD" &&
	n=$(log_count) &&
	http PUT /cms/user/change_password "{\"old_password\":\"Wrong_pass9\",
		\"new_password\":\"$USER_PASSWORD\",\"confirm_password\":\"$USER_PASSWORD\"}" &&
	expect_status 400 &&
	test "$(log_count)" = "$n"
'

test_expect_success 'a group creation writes a row with status 201' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"editors\"}" &&
	expect_status 201 &&
	expect_last_log "管理员新建了一个分组|1|root|201|POST|/cms/admin/group|"
'

test_expect_success 'a group creation refused with 409 writes no row' '
	n=$(log_count) &&
	as root &&
	http POST /cms/admin/group "{\"name\":\"editors\"}" &&
	expect_status 409 &&
	test "$(log_count)" = "$n"
'

test_expect_success 'a group update writes a row with the path of the group' '
	as root &&
	id=$(gid editors) &&
	http PUT /cms/admin/group/$id "{\"name\":\"writers\"}" &&
	expect_status 200 &&
	expect_last_log "管理员更新了一个分组|1|root|200|PUT|/cms/admin/group/$id|"
'

test_expect_success 'a group update refused with 409 writes no row' '
	n=$(log_count) &&
	as root &&
	http PUT /cms/admin/group/$(gid writers) "{\"name\":\"guest\"}" &&
	expect_status 409 &&
	test "$(log_count)" = "$n"
'

test_expect_success 'a permission dispatch writes a row with status 201' '
	as root &&
	http POST /cms/admin/permission/dispatch "{\"group_id\":$(gid writers),
		\"permission_id\":$(db_exec "SELECT id FROM lin_permission WHERE name = \"删除图书\"")}" &&
	expect_status 201 &&
	expect_last_log "管理员为分组分配了权限|1|root|201|POST|/cms/admin/permission/dispatch|"
'

test_expect_success 'a batch dispatch writes a row with status 201' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(gid writers),
		\"permission_ids\":[$(db_exec "SELECT id FROM lin_permission WHERE name = \"搜索日志\"")]}" &&
	expect_status 201 &&
	expect_last_log "管理员为分组分配了权限|1|root|201|POST|/cms/admin/permission/dispatch/batch|"
'

test_expect_success 'a permission removal writes a row with status 200' '
	as root &&
	http POST /cms/admin/permission/remove "{\"group_id\":$(gid writers),
		\"permission_ids\":[$(db_exec "SELECT id FROM lin_permission WHERE name = \"搜索日志\"")]}" &&
	expect_status 200 &&
	expect_last_log "管理员删除了分组的权限|1|root|200|POST|/cms/admin/permission/remove|"
'

test_expect_success 'a dispatch refused with 404 writes no row' '
	n=$(log_count) &&
	as root &&
	http POST /cms/admin/permission/dispatch "{\"group_id\":$(gid writers),\"permission_id\":999}" &&
	expect_status 404 &&
	test "$(log_count)" = "$n"
'

test_expect_success 'a regrouping writes a row with the path of the user' '
	as root &&
	http PUT /cms/admin/user/$(cat ann.id) "{\"group_ids\":[$(gid writers)]}" &&
	expect_status 200 &&
	expect_last_log "管理员修改了一个用户的分组|1|root|200|PUT|/cms/admin/user/$(cat ann.id)|"
'

test_expect_success 'a regrouping refused with 403 writes no row' '
	n=$(log_count) &&
	as root &&
	http PUT /cms/admin/user/$(cat ann.id) "{\"group_ids\":[999]}" &&
	expect_status 403 &&
	test "$(log_count)" = "$n"
'

test_expect_success 'setup: a book to delete' '
	db_exec "INSERT INTO book (title, author, summary) VALUES (\"t\", \"a\", \"s\")" &&
	db_exec "SELECT MAX(id) FROM book" >book.id
'

test_expect_success 'a book deletion writes a row carrying the permission 删除图书' '
	login ann "$NEW_PASSWORD" &&
	http DELETE /v1/book/$(cat book.id) &&
	expect_status 200 &&
	expect_last_log "ann删除了一本图书|$(cat ann.id)|ann|200|DELETE|/v1/book/$(cat book.id)|删除图书"
'

test_expect_success 'a book deletion of a missing book writes no row' '
	n=$(log_count) &&
	as root &&
	http DELETE /v1/book/$(cat book.id) &&
	expect_status 404 &&
	test "$(log_count)" = "$n"
'

test_expect_success 'an admin password reset writes a row' '
	as root &&
	http PUT /cms/admin/user/$(cat ann.id)/password \
		"{\"new_password\":\"$USER_PASSWORD\",\"confirm_password\":\"$USER_PASSWORD\"}" &&
	expect_status 200 &&
	expect_last_log "管理员重置了一个用户的密码|1|root|200|PUT|/cms/admin/user/$(cat ann.id)/password|"
'

test_expect_success 'a user deletion writes a row' '
	as root &&
	http DELETE /cms/admin/user/$(cat ann.id) &&
	expect_status 200 &&
	expect_last_log "管理员删除了一个用户|1|root|200|DELETE|/cms/admin/user/$(cat ann.id)|"
'

test_expect_success 'a user deletion refused with 403 (root) writes no row' '
	n=$(log_count) &&
	as root &&
	http DELETE /cms/admin/user/1 &&
	expect_status 403 &&
	test "$(log_count)" = "$n"
'

test_expect_success 'a group deletion writes a row' '
	as root &&
	id=$(gid writers) &&
	http DELETE /cms/admin/group/$id &&
	expect_status 200 &&
	expect_last_log "管理员删除了一个分组|1|root|200|DELETE|/cms/admin/group/$id|"
'

test_expect_success 'a group deletion refused with 403 (guest) writes no row' '
	n=$(log_count) &&
	as root &&
	http DELETE /cms/admin/group/2 &&
	expect_status 403 &&
	test "$(log_count)" = "$n"
'

test_expect_success 'a refused request without a token writes no row' '
	n=$(log_count) &&
	TOKEN= &&
	http DELETE /cms/admin/group/2 &&
	expect_status 401 &&
	test "$(log_count)" = "$n"
'

test_expect_success 'setup: root registers a user named <script>' '
	register "<script>"
'

test_expect_success 'the <script> user logging in leaves an HTML-escaped message' '
	login "<script>" "$USER_PASSWORD" &&
	expect_db "SELECT message FROM lin_log ORDER BY id DESC LIMIT 1" "&lt;script&gt;登录成功获取了令牌"
'

test_expect_success 'the username column keeps the name as it is' '
	expect_db "SELECT username FROM lin_log ORDER BY id DESC LIMIT 1" "<script>"
'

test_expect_success 'quotes and ampersands in a username are escaped in the message' '
	register "a&\"b'\''c" &&
	login "a&\"b'\''c" "$USER_PASSWORD" &&
	expect_db "SELECT message FROM lin_log ORDER BY id DESC LIMIT 1" "a&amp;&quot;b&#39;c登录成功获取了令牌"
'

test_expect_success 'GET /cms/log hands the escaped message out unchanged' '
	as root &&
	http GET "/cms/log?count=1" &&
	expect_json ".items[0].message" "a&amp;&quot;b&#39;c登录成功获取了令牌"
'

test_done
