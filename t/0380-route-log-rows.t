#!/bin/sh
test_description='every route of src/api/routes.cpp with a behaviour-log template: a success writes exactly one row with the rendered text, a failure writes none (dispatch writes the row, not the handler)'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

PASS=Walk_pass1
NEW_PASS=Walk_pass2

# The routes of the table with a template, one "METHOD /pattern<TAB>template" line each.
templated_routes () {
	perl -0777 -ne 'while (/\{"([A-Z]+)",\s*"([^"]+)",\s*A::\w+,\s*\w+,\s*handle_\w+,\s*"([^"]*)"/g) {
		print "$1 $2\t$3\n" }' "$TOP/src/api/routes.cpp"
}

log_count () {
	db_exec "SELECT COUNT(*) FROM lin_log"
}

gid () {
	db_exec "SELECT id FROM lin_group WHERE name = '$1' AND delete_time IS NULL"
}

uid () {
	db_exec "SELECT id FROM lin_user WHERE username = '$1' AND delete_time IS NULL"
}

perm () {
	db_exec "SELECT id FROM lin_permission WHERE name = '$1'"
}

# new_user NAME: root registers NAME with password $PASS.
new_user () {
	as root &&
	http POST /cms/user/register "{\"username\":\"$1\",\"password\":\"$PASS\",\"confirm_password\":\"$PASS\"}" &&
	expect_status 201
}

# The examples: succeed ROUTE makes one request of the route that succeeds and writes the user it
# logs for to ./who; fail ROUTE makes one that is refused. Each example prepares what it needs.
succeed () {
	case $1 in
	"DELETE /v1/book/{id}")
		db_exec "INSERT INTO book (title) VALUES (\"walk\")" &&
		as root && echo root >who &&
		http DELETE "/v1/book/$(db_exec "SELECT MAX(id) FROM book")" ;;
	"POST /cms/user/login")
		echo root >who &&
		TOKEN= && http POST /cms/user/login "{\"username\":\"root\",\"password\":\"$ROOT_PASSWORD\"}" ;;
	"POST /cms/user/register")
		new_user "reg$$" && echo root >who ;;
	"PUT /cms/user")
		as walker && echo walker >who &&
		http PUT /cms/user "{\"nickname\":\"Walker\"}" ;;
	"PUT /cms/user/change_password")
		as walker && echo walker >who &&
		http PUT /cms/user/change_password "{\"old_password\":\"$PASS\",\"new_password\":\"$NEW_PASS\",\"confirm_password\":\"$NEW_PASS\"}" ;;
	"PUT /cms/admin/user/{id}")
		as root && echo root >who &&
		http PUT "/cms/admin/user/$(uid walker)" "{\"group_ids\":[$(gid walkers)]}" ;;
	"PUT /cms/admin/user/{id}/password")
		as root && echo root >who &&
		http PUT "/cms/admin/user/$(uid walker)/password" "{\"new_password\":\"$PASS\",\"confirm_password\":\"$PASS\"}" ;;
	"DELETE /cms/admin/user/{id}")
		db_exec "INSERT INTO lin_user (username) VALUES (\"del$$\")" &&
		as root && echo root >who &&
		http DELETE "/cms/admin/user/$(uid "del$$")" ;;
	"POST /cms/admin/group")
		as root && echo root >who &&
		http POST /cms/admin/group "{\"name\":\"g$$\"}" ;;
	"PUT /cms/admin/group/{id}")
		as root && echo root >who &&
		http PUT "/cms/admin/group/$(gid walkers)" "{\"name\":\"walkers\",\"info\":\"walked\"}" ;;
	"DELETE /cms/admin/group/{id}")
		db_exec "INSERT INTO lin_group (name, level) VALUES (\"gone$$\", 3)" &&
		as root && echo root >who &&
		http DELETE "/cms/admin/group/$(gid "gone$$")" ;;
	"POST /cms/admin/permission/dispatch")
		as root && echo root >who &&
		http POST /cms/admin/permission/dispatch "{\"group_id\":$(gid walkers),\"permission_id\":$(perm 删除图书)}" ;;
	"POST /cms/admin/permission/dispatch/batch")
		as root && echo root >who &&
		http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(gid walkers),\"permission_ids\":[$(perm 搜索日志)]}" ;;
	"POST /cms/admin/permission/remove")
		as root && echo root >who &&
		http POST /cms/admin/permission/remove "{\"group_id\":$(gid walkers),\"permission_ids\":[$(perm 搜索日志)]}" ;;
	*)
		echo "no example of $1" >&2
		return 1 ;;
	esac
}

fail () {
	case $1 in
	"DELETE /v1/book/{id}")
		as root && http DELETE /v1/book/999999 ;;
	"POST /cms/user/login")
		TOKEN= && http POST /cms/user/login "{\"username\":\"root\",\"password\":\"Wrong_pass9\"}" ;;
	"POST /cms/user/register")
		as root &&
		http POST /cms/user/register "{\"username\":\"walker\",\"password\":\"$PASS\",\"confirm_password\":\"$PASS\"}" ;;
	"PUT /cms/user")
		as walker && http PUT /cms/user "{\"username\":\"root\"}" ;;
	"PUT /cms/user/change_password")
		as walker &&
		http PUT /cms/user/change_password "{\"old_password\":\"Wrong_pass9\",\"new_password\":\"$NEW_PASS\",\"confirm_password\":\"$NEW_PASS\"}" ;;
	"PUT /cms/admin/user/{id}")
		as root && http PUT "/cms/admin/user/$(uid walker)" "{\"group_ids\":[999999]}" ;;
	"PUT /cms/admin/user/{id}/password")
		as root && http PUT /cms/admin/user/999999/password "{\"new_password\":\"$PASS\",\"confirm_password\":\"$PASS\"}" ;;
	"DELETE /cms/admin/user/{id}")
		as root && http DELETE /cms/admin/user/1 ;;
	"POST /cms/admin/group")
		as root && http POST /cms/admin/group "{\"name\":\"walkers\"}" ;;
	"PUT /cms/admin/group/{id}")
		as root && http PUT /cms/admin/group/999999 "{\"name\":\"nowhere\"}" ;;
	"DELETE /cms/admin/group/{id}")
		as root && http DELETE /cms/admin/group/999999 ;;
	"POST /cms/admin/permission/dispatch")
		as root && http POST /cms/admin/permission/dispatch "{\"group_id\":$(gid walkers),\"permission_id\":999999}" ;;
	"POST /cms/admin/permission/dispatch/batch")
		as root && http POST /cms/admin/permission/dispatch/batch "{\"group_id\":999999,\"permission_ids\":[$(perm 搜索日志)]}" ;;
	"POST /cms/admin/permission/remove")
		as root && http POST /cms/admin/permission/remove "{\"group_id\":999999,\"permission_ids\":[$(perm 搜索日志)]}" ;;
	*)
		echo "no example of $1" >&2
		return 1 ;;
	esac
}

# before_fail ROUTE: what fail ROUTE needs that writes a row of its own (a login).
before_fail () {
	case $1 in
	"PUT /cms/user/change_password")
		remember walker "$NEW_PASS" ;; # the change revoked walker's token
	esac
}

# 2xx, or 4xx, from the last response.
expect_success () {
	grep -q "^2" "$TRASH/status" || { _show_response; return 1; }
}
expect_refusal () {
	grep -q "^4" "$TRASH/status" || { _show_response; return 1; }
}

templated_routes >"$TRASH/routes.tsv"

test_expect_success 'the route table has templates to walk' '
	test "$(wc -l <routes.tsv)" -ge 10
'

test_expect_success 'every route with a template has an example, and every example a route' '
	cut -f1 routes.tsv | sort >routes.expected &&
	sed -n "s/^\t\"\([A-Z]* [^\"]*\)\")$/\1/p" "$TOP/t/0380-route-log-rows.t" | sort -u >examples.actual &&
	diff -u routes.expected examples.actual
'

test_expect_success 'setup: root, a group walkers and a user walker in it' '
	remember root "$ROOT_PASSWORD" &&
	http POST /cms/admin/group "{\"name\":\"walkers\"}" &&
	expect_status 201 &&
	new_user walker &&
	remember walker "$PASS"
'

while IFS='	' read -r route template; do
	test_expect_success "$route: a success writes exactly one row, with the rendered template" '
		n=$(log_count) &&
		succeed "$route" &&
		expect_success &&
		test "$(log_count)" -eq $((n + 1)) &&
		status=$(cat "$TRASH/status") &&
		method=${route%% *} &&
		who=$(cat who) &&
		message=$(printf "%s" "$template" | sed "s/{user.username}/$who/") &&
		expect_db "SELECT CONCAT_WS(\"|\", message, username, status_code, method)
			FROM lin_log ORDER BY id DESC LIMIT 1" "$message|$who|$status|$method"
	'
	test_expect_success "$route: a refusal writes no row" '
		before_fail "$route" &&
		n=$(log_count) &&
		fail "$route" &&
		expect_refusal &&
		test "$(log_count)" -eq "$n"
	'
	# walker's password goes back for the next examples.
	[ "$route" != "PUT /cms/user/change_password" ] ||
	test_expect_success 'setup: walker gets its password back' '
		as root &&
		http PUT "/cms/admin/user/$(uid walker)/password" "{\"new_password\":\"$PASS\",\"confirm_password\":\"$PASS\"}" &&
		expect_status 200 &&
		remember walker "$PASS"
	'
done <"$TRASH/routes.tsv"

test_done
