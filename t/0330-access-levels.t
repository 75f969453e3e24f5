#!/bin/sh
test_description='access levels: anonymous 401, logged in without the permission 403, with it 200, admin 200'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

USER_PASSWORD=User_pass1

# new_group NAME PERMISSION...: root creates group NAME granted the named permissions.
new_group () {
	local name=$1 ids=
	shift
	for p in "$@"; do
		ids=$ids${ids:+,}$(db_exec "SELECT id FROM lin_permission WHERE name = '$p'")
	done
	as root &&
	http POST /cms/admin/group "{\"name\":\"$name\",\"permission_ids\":[$ids]}" &&
	expect_status 201
}

# new_user NAME GROUP: root registers NAME in group GROUP.
new_user () {
	as root &&
	http POST /cms/user/register "{\"username\":\"$1\",\"password\":\"$USER_PASSWORD\",
		\"confirm_password\":\"$USER_PASSWORD\",\"group_ids\":[$(gid "$2")]}" &&
	expect_status 201
}

gid () {
	db_exec "SELECT id FROM lin_group WHERE name = '$1' AND delete_time IS NULL"
}
uid () {
	db_exec "SELECT id FROM lin_user WHERE username = '$1' AND delete_time IS NULL"
}

# expect_refused STATUS CODE METHOD PATH [BODY]: the request is answered STATUS with CODE.
expect_refused () {
	http "$3" "$4" ${5:+"$5"} &&
	expect_status "$1" &&
	expect_json .code "$2" &&
	expect_json .request "$3 $4"
}

# expect_allowed METHOD PATH: the request is answered 200.
expect_allowed () {
	http "$1" "$2" &&
	expect_status 200
}

test_expect_success 'setup: root creates the groups loggers (查询所有日志) and deleters (删除图书)' '
	remember root "$ROOT_PASSWORD" &&
	new_group loggers 查询所有日志 &&
	new_group deleters 删除图书
'

test_expect_success 'setup: users plain (guest), logger (loggers) and deleter (deleters) log in' '
	new_user plain guest &&
	new_user logger loggers &&
	new_user deleter deleters &&
	remember plain "$USER_PASSWORD" &&
	remember logger "$USER_PASSWORD" &&
	remember deleter "$USER_PASSWORD"
'

test_expect_success 'setup: five books' '
	for t in one two three four five; do
		db_exec "INSERT INTO book (title, author, summary) VALUES (\"$t\", \"a\", \"s\")" || return 1
	done
'

test_expect_success 'anonymous requests to login routes get 401 10012' '
	TOKEN= &&
	expect_refused 401 10012 GET /cms/user/information &&
	expect_refused 401 10012 GET /cms/user/permissions &&
	expect_refused 401 10012 PUT /cms/user "{\"nickname\":\"xx\"}" &&
	expect_refused 401 10012 PUT /cms/user/change_password "{}" &&
	expect_refused 401 10012 POST /v1/book "{\"title\":\"t\",\"author\":\"a\",\"summary\":\"s\"}"
'

test_expect_success 'anonymous requests to admin routes get 401 10012' '
	TOKEN= &&
	expect_refused 401 10012 GET /cms/admin/users &&
	expect_refused 401 10012 GET /cms/admin/group &&
	expect_refused 401 10012 POST /cms/admin/group "{\"name\":\"anon\"}" &&
	expect_refused 401 10012 POST /cms/user/register "{}" &&
	expect_refused 401 10012 DELETE /cms/admin/user/2 &&
	expect_refused 401 10012 POST /cms/admin/permission/dispatch "{\"group_id\":2,\"permission_id\":1}"
'

test_expect_success 'anonymous requests to group routes get 401 10012' '
	TOKEN= &&
	expect_refused 401 10012 GET /cms/log &&
	expect_refused 401 10012 GET /cms/log/search &&
	expect_refused 401 10012 GET /cms/log/users &&
	expect_refused 401 10012 DELETE /v1/book/1
'

test_expect_success 'the 401 envelope carries the text 请传入认证头字段' '
	TOKEN= &&
	http GET /cms/admin/users &&
	expect_json .message 请传入认证头字段
'

test_expect_success 'a user without the admin level gets 403 10001 on admin routes' '
	as plain &&
	expect_refused 403 10001 GET /cms/admin/users &&
	expect_refused 403 10001 GET /cms/admin/group &&
	expect_refused 403 10001 GET /cms/admin/group/all &&
	expect_refused 403 10001 GET /cms/admin/permission &&
	expect_refused 403 10001 POST /cms/user/register "{}" &&
	expect_refused 403 10001 PUT /cms/admin/user/$(uid logger)/password "{}"
'

test_expect_success 'the 403 envelope carries the text 权限不足' '
	as plain &&
	http GET /cms/admin/users &&
	expect_json .message 权限不足
'

test_expect_success 'a refused admin write changes nothing' '
	as plain &&
	expect_refused 403 10001 POST /cms/admin/group "{\"name\":\"sneaky\"}" &&
	expect_refused 403 10001 DELETE /cms/admin/user/$(uid logger) &&
	expect_refused 403 10001 PUT /cms/admin/user/$(uid plain) "{\"group_ids\":[$(gid deleters)]}" &&
	expect_db "SELECT COUNT(*) FROM lin_group WHERE name = \"sneaky\"" 0 &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username = \"logger\" AND delete_time IS NULL" 1 &&
	expect_db "SELECT COUNT(*) FROM lin_user_group WHERE user_id = $(uid plain)
		AND group_id = $(gid deleters)" 0
'

test_expect_success 'a permission holder is still refused the admin routes (403 10001)' '
	as logger &&
	expect_refused 403 10001 GET /cms/admin/users &&
	expect_refused 403 10001 POST /cms/admin/permission/dispatch \
		"{\"group_id\":$(gid loggers),\"permission_id\":1}"
'

test_expect_success 'a user without the permission gets 403 10001 on group routes' '
	as plain &&
	expect_refused 403 10001 GET /cms/log &&
	expect_refused 403 10001 GET /cms/log/search &&
	expect_refused 403 10001 GET /cms/log/users &&
	expect_refused 403 10001 DELETE /v1/book/1
'

test_expect_success 'the refused book deletion left the book live' '
	expect_db "SELECT COUNT(*) FROM book WHERE id = 1 AND delete_time IS NULL" 1
'

test_expect_success 'a user without any permission passes the login routes (200)' '
	as plain &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .username plain
'

test_expect_success 'holding 查询所有日志 opens GET /cms/log (200)' '
	as logger &&
	http GET /cms/log &&
	expect_status 200 &&
	expect_json_true "has(\"items\")"
'

test_expect_success 'holding 查询所有日志 opens neither /cms/log/users nor a book deletion' '
	as logger &&
	expect_refused 403 10001 GET /cms/log/users &&
	expect_refused 403 10001 DELETE /v1/book/1
'

test_expect_success 'holding 删除图书 opens DELETE /v1/book/{id} (200 code 14)' '
	as deleter &&
	http DELETE /v1/book/1 &&
	expect_status 200 &&
	expect_json .code 14 &&
	expect_db "SELECT COUNT(*) FROM book WHERE id = 1 AND delete_time IS NOT NULL" 1
'

test_expect_success 'holding 删除图书 does not open GET /cms/log' '
	as deleter &&
	expect_refused 403 10001 GET /cms/log
'

test_expect_success 'the admin passes every group route without any grant (200)' '
	as root &&
	expect_allowed GET /cms/log &&
	expect_allowed GET /cms/log/search &&
	expect_allowed GET /cms/log/users &&
	expect_allowed DELETE /v1/book/2
'

test_expect_success 'the admin passes the admin routes (200)' '
	as root &&
	expect_allowed GET /cms/admin/users &&
	expect_allowed GET /cms/admin/group &&
	expect_allowed GET /cms/admin/group/all &&
	expect_allowed GET /cms/admin/permission
'

test_expect_success 'GET /cms/user/permissions shows admin false and the held permissions by module' '
	as logger &&
	http GET /cms/user/permissions &&
	expect_status 200 &&
	expect_json .admin false &&
	expect_json ".permissions | tojson" "[{\"日志\":[{\"module\":\"日志\",\"permission\":\"查询所有日志\"}]}]"
'

test_expect_success 'GET /cms/user/permissions shows admin true for root' '
	as root &&
	http GET /cms/user/permissions &&
	expect_status 200 &&
	expect_json .admin true
'

test_expect_success 'a permission granted later opens the route for the same token' '
	as root &&
	http POST /cms/admin/permission/dispatch \
		"{\"group_id\":$(gid loggers),\"permission_id\":$(db_exec "SELECT id FROM lin_permission
			WHERE name = \"查询日志记录的用户\"")}" &&
	expect_status 201 &&
	as logger &&
	http GET /cms/log/users &&
	expect_status 200
'

test_expect_success 'a permission removed closes the route again (403 10001)' '
	as root &&
	http POST /cms/admin/permission/remove \
		"{\"group_id\":$(gid deleters),\"permission_ids\":[$(db_exec "SELECT id FROM lin_permission
			WHERE name = \"删除图书\"")]}" &&
	expect_status 200 &&
	as deleter &&
	expect_refused 403 10001 DELETE /v1/book/3 &&
	expect_db "SELECT COUNT(*) FROM book WHERE id = 3 AND delete_time IS NULL" 1
'

test_expect_success 'joining a group with the permission opens the route (regrouped by root)' '
	as root &&
	http PUT /cms/admin/user/$(uid plain) "{\"group_ids\":[$(gid guest),$(gid loggers)]}" &&
	expect_status 200 &&
	as plain &&
	http GET /cms/log &&
	expect_status 200
'

test_expect_success 'leaving that group closes the route again' '
	as root &&
	http PUT /cms/admin/user/$(uid plain) "{\"group_ids\":[$(gid guest)]}" &&
	expect_status 200 &&
	as plain &&
	expect_refused 403 10001 GET /cms/log
'

test_expect_success 'a refresh token is not accepted on a login route (401 10041)' '
	login plain "$USER_PASSWORD" &&
	TOKEN=$REFRESH_TOKEN &&
	expect_refused 401 10041 GET /cms/user/information
'

test_done
