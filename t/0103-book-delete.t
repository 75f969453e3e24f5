#!/bin/sh
test_description='DELETE /v1/book/{id}: permission 图书/删除图书 (root passes), 200 code 14, a soft delete that every read, update and delete then honours'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

USER_PASSWORD=Editor_pass1

test_expect_success 'setup: books 1 to 4; alice (guest), bob (group with 图书/删除图书), carol (group with 日志/搜索日志 only)' '
	hash=$(printf "%s\n" "$USER_PASSWORD" | "$APP_BIN" --hash-password) &&
	db_exec "INSERT INTO book (id, title, author, summary) VALUES
		(1, \"Doomed\", \"A\", \"S\"), (2, \"Keeper\", \"A\", \"S\"),
		(3, \"ByBob\", \"A\", \"S\"), (4, \"Guarded\", \"A\", \"S\")" &&
	db_exec "INSERT INTO lin_group (id, name, level) VALUES (3, \"editors\", 3), (4, \"auditors\", 3)" &&
	db_exec "INSERT INTO lin_group_permission (group_id, permission_id)
		SELECT 3, id FROM lin_permission WHERE module = \"图书\" AND name = \"删除图书\"" &&
	db_exec "INSERT INTO lin_group_permission (group_id, permission_id)
		SELECT 4, id FROM lin_permission WHERE module = \"日志\" AND name = \"搜索日志\"" &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission" 2 &&
	db_exec "INSERT INTO lin_user (id, username) VALUES (2, \"alice\"), (3, \"bob\"), (4, \"carol\")" &&
	db_exec "INSERT INTO lin_user_identity (user_id, identity_type, identifier, credential) VALUES
		(2, \"USERNAME_PASSWORD\", \"alice\", \"$hash\"),
		(3, \"USERNAME_PASSWORD\", \"bob\", \"$hash\"),
		(4, \"USERNAME_PASSWORD\", \"carol\", \"$hash\")" &&
	db_exec "INSERT INTO lin_user_group (user_id, group_id) VALUES (2, 2), (3, 3), (4, 4)" &&
	remember root "$ROOT_PASSWORD" &&
	remember alice "$USER_PASSWORD" &&
	remember bob "$USER_PASSWORD" &&
	remember carol "$USER_PASSWORD"
'

test_expect_success 'without a token DELETE answers 401 with code 10012' '
	http DELETE /v1/book/4 &&
	expect_status 401 &&
	expect_json .code 10012 &&
	expect_json .request "DELETE /v1/book/4"
'

test_expect_success 'a user without the permission gets 403 with code 10001' '
	as alice &&
	http DELETE /v1/book/4 &&
	expect_status 403 &&
	expect_json .code 10001 &&
	expect_json .message 权限不足 &&
	expect_json .request "DELETE /v1/book/4"
'

test_expect_success 'a user holding only another permission gets 403 with code 10001' '
	as carol &&
	http DELETE /v1/book/4 &&
	expect_status 403 &&
	expect_json .code 10001
'

test_expect_success 'the refused deletes left book 4 live' '
	expect_db "SELECT delete_time IS NULL FROM book WHERE id = 4" 1 &&
	http GET /v1/book/4 &&
	expect_status 200
'

test_expect_success 'a user whose group holds 图书/删除图书 deletes: 200 code 14' '
	as bob &&
	http DELETE /v1/book/3 &&
	expect_status 200 &&
	expect_json .code 14
'

test_expect_success 'root deletes without holding the permission: 200 {"code":14,"message":"删除图书成功","request":"DELETE /v1/book/1"}' '
	as root &&
	db_exec "SELECT NOW(3)" >before &&
	http DELETE /v1/book/1 &&
	db_exec "SELECT NOW(3)" >after &&
	expect_status 200 &&
	printf "%s" "{\"code\":14,\"message\":\"删除图书成功\",\"request\":\"DELETE /v1/book/1\"}" >expected &&
	expect_body_file expected
'

test_expect_success 'the deleted row is kept' '
	expect_db "SELECT title FROM book WHERE id = 1" Doomed
'

test_expect_success 'delete_time is set with three fractional digits (milliseconds)' '
	expect_db "SELECT delete_time REGEXP \"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}[.][0-9]{3}\$\"
		FROM book WHERE id = 1" 1
'

test_expect_success 'delete_time lies between the times read just before and after the request, to the millisecond' '
	expect_db "SELECT delete_time >= \"$(cat before)\" AND delete_time <= \"$(cat after)\"
		FROM book WHERE id = 1" 1
'

test_expect_success 'the other books are untouched by the deletes' '
	expect_db "SELECT id FROM book WHERE delete_time IS NULL ORDER BY id" "$(printf "2\n4")"
'

test_expect_success 'GET of the deleted book answers 404 with code 10022' '
	http GET /v1/book/1 &&
	expect_status 404 &&
	expect_json .code 10022
'

test_expect_success 'a second DELETE answers 404 with code 10022 and its request' '
	as root &&
	http DELETE /v1/book/1 &&
	expect_status 404 &&
	expect_json .code 10022 &&
	expect_json .message 未找到相关书籍 &&
	expect_json .request "DELETE /v1/book/1"
'

test_expect_success 'a second DELETE keeps the first delete_time' '
	expect_db "SELECT delete_time >= \"$(cat before)\" AND delete_time <= \"$(cat after)\"
		FROM book WHERE id = 1" 1
'

test_expect_success 'PUT on the deleted book answers 404 with code 10022' '
	as root &&
	http PUT /v1/book/1 "{\"title\":\"Back\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 404 &&
	expect_json .code 10022
'

test_expect_success 'PUT on the deleted book changes nothing' '
	expect_db "SELECT title FROM book WHERE id = 1" Doomed
'

test_expect_success 'the deleted book is not listed by GET /v1/book' '
	http GET /v1/book &&
	expect_status 200 &&
	expect_json "[.[].id] | map(tostring) | join(\",\")" 2,4
'

test_expect_success 'the deleted book is not found by GET /v1/book/search' '
	http GET "/v1/book/search?q=Doomed" &&
	expect_status 200 &&
	expect_json length 0
'

test_expect_success 'a deleted book is not counted in the page total' '
	http GET "/v1/book?page=0&count=10" &&
	expect_status 200 &&
	expect_json .total 2 &&
	expect_json "[.items[].id] | map(tostring) | join(\",\")" 2,4
'

test_expect_success 'DELETE of an id that never existed answers 404 with code 10022' '
	as root &&
	http DELETE /v1/book/999 &&
	expect_status 404 &&
	expect_json .code 10022 &&
	expect_json .request "DELETE /v1/book/999"
'

for bad in 0 -1 abc 4294967296; do
	test_expect_success "DELETE of id $bad answers 400 {\"id\":\"id必须为正整数\"}" '
		as root &&
		http DELETE /v1/book/$bad &&
		expect_status 400 &&
		expect_json .code 10030 &&
		expect_json ".message | tojson" "{\"id\":\"id必须为正整数\"}"
	'
done

test_done
