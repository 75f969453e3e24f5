#!/bin/sh
test_description='access levels: public, login, group (a permission through a group, root passes) and admin; 403 10001 when logged in'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

test_expect_success 'setup: root logs in, creates group editors and registers alice in it' '
	remember root "$ROOT_PASSWORD" &&
	http POST /cms/admin/group "{\"name\":\"editors\",\"info\":\"book editors\"}" &&
	expect_status 201 &&
	db_exec "SELECT id FROM lin_group WHERE name = \"editors\"" >group_id &&
	http POST /cms/user/register "{\"username\":\"alice\",\"password\":\"Alice_pass1\",\"confirm_password\":\"Alice_pass1\",\"group_ids\":[$(cat group_id)]}" &&
	expect_status 201 &&
	remember alice Alice_pass1
'

test_expect_success 'setup: three books exist and the id of 删除图书 is known' '
	db_exec "INSERT INTO book (title, author, summary) VALUES (\"B1\", \"A\", \"S\"), (\"B2\", \"A\", \"S\"), (\"B3\", \"A\", \"S\")" &&
	db_exec "SELECT id FROM book WHERE title = \"B1\"" >book1 &&
	db_exec "SELECT id FROM book WHERE title = \"B2\"" >book2 &&
	db_exec "SELECT id FROM book WHERE title = \"B3\"" >book3 &&
	db_exec "SELECT id FROM lin_permission WHERE module = \"图书\" AND name = \"删除图书\"" >perm_id &&
	test -s perm_id
'

test_expect_success 'a logged-in user outside the root group gets 403 10001 on GET /cms/admin/group/all' '
	as alice &&
	http GET /cms/admin/group/all &&
	expect_status 403 &&
	expect_json .code 10001 &&
	expect_json .message "权限不足" &&
	expect_json .request "GET /cms/admin/group/all"
'

test_expect_success 'a logged-in non-admin gets 403 10001 on POST /cms/user/register' '
	as alice &&
	http POST /cms/user/register "{\"username\":\"mallory\",\"password\":\"Mallory_1\",\"confirm_password\":\"Mallory_1\"}" &&
	expect_status 403 &&
	expect_json .code 10001 &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username = \"mallory\"" 0
'

test_expect_success 'a logged-in non-admin gets 403 10001 on POST /cms/admin/permission/dispatch/batch' '
	as alice &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat group_id),\"permission_ids\":[$(cat perm_id)]}" &&
	expect_status 403 &&
	expect_json .code 10001 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission" 0
'

test_expect_success 'anonymous GET /cms/admin/group/all answers 401 10012' '
	http GET /cms/admin/group/all &&
	expect_status 401 &&
	expect_json .code 10012
'

test_expect_success 'a login route answers 200 to the non-admin user' '
	as alice &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .username alice
'

test_expect_success 'POST /v1/book (login) answers 401 10012 to an anonymous client' '
	http POST /v1/book "{\"title\":\"T\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 401 &&
	expect_json .code 10012
'

test_expect_success 'POST /v1/book (login) answers 201 to the non-admin user' '
	as alice &&
	http POST /v1/book "{\"title\":\"By alice\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 201 &&
	expect_json .code 1
'

test_expect_success 'GET /v1/book/{id} (public) answers 200 without a token' '
	http GET /v1/book/$(cat book1) &&
	expect_status 200 &&
	expect_json .title B1
'

test_expect_success 'anonymous DELETE /v1/book/{id} answers 401 10012' '
	http DELETE /v1/book/$(cat book1) &&
	expect_status 401 &&
	expect_json .code 10012
'

test_expect_success 'DELETE /v1/book/{id} without the 删除图书 permission answers 403 10001' '
	as alice &&
	http DELETE /v1/book/$(cat book1) &&
	expect_status 403 &&
	expect_json .code 10001 &&
	expect_json .request "DELETE /v1/book/$(cat book1)"
'

test_expect_success 'the refused delete left the book live' '
	expect_db "SELECT delete_time IS NULL FROM book WHERE id = $(cat book1)" 1
'

test_expect_success 'GET /cms/log (group 日志/查询所有日志) answers 403 10001 to the user without it' '
	as alice &&
	http GET /cms/log &&
	expect_status 403 &&
	expect_json .code 10001
'

test_expect_success 'setup: root grants 删除图书 to the group of alice' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat group_id),\"permission_ids\":[$(cat perm_id)]}" &&
	expect_status 201
'

test_expect_success 'with 删除图书 granted to her group, the same token deletes the book (200 code 14)' '
	as alice &&
	http DELETE /v1/book/$(cat book1) &&
	expect_status 200 &&
	expect_json .code 14 &&
	expect_db "SELECT delete_time IS NOT NULL FROM book WHERE id = $(cat book1)" 1
'

test_expect_success 'the grant of 删除图书 gives no other group permission (GET /cms/log still 403)' '
	as alice &&
	http GET /cms/log &&
	expect_status 403 &&
	expect_json .code 10001
'

test_expect_success 'a permission does not make its holder an admin (GET /cms/admin/group/all still 403)' '
	as alice &&
	http GET /cms/admin/group/all &&
	expect_status 403 &&
	expect_json .code 10001
'

test_expect_success 'root passes a group route without any permission row (DELETE /v1/book/{id} 200)' '
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE group_id = 1" 0 &&
	as root &&
	http DELETE /v1/book/$(cat book2) &&
	expect_status 200 &&
	expect_json .code 14
'

test_expect_success 'root passes GET /cms/log without any permission row' '
	as root &&
	http GET /cms/log &&
	expect_status 200
'

test_expect_success 'setup: root removes 删除图书 from the group of alice' '
	as root &&
	http POST /cms/admin/permission/remove "{\"group_id\":$(cat group_id),\"permission_ids\":[$(cat perm_id)]}" &&
	expect_status 200
'

test_expect_success 'after the removal the same token is refused again with 403 10001' '
	as alice &&
	http DELETE /v1/book/$(cat book3) &&
	expect_status 403 &&
	expect_json .code 10001 &&
	expect_db "SELECT delete_time IS NULL FROM book WHERE id = $(cat book3)" 1
'

test_expect_success 'setup: alice also joins group ghosts, which holds 删除图书' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"ghosts\"}" &&
	expect_status 201 &&
	db_exec "SELECT id FROM lin_group WHERE name = \"ghosts\"" >ghost_id &&
	http POST /cms/admin/permission/dispatch/batch "{\"group_id\":$(cat ghost_id),\"permission_ids\":[$(cat perm_id)]}" &&
	expect_status 201 &&
	db_exec "INSERT INTO lin_user_group (user_id, group_id) SELECT id, $(cat ghost_id) FROM lin_user WHERE username = \"alice\"" &&
	as alice &&
	http GET /cms/user/permissions &&
	expect_json ".permissions | length" 1
'

test_expect_success 'a permission held only through a soft-deleted group no longer counts (403 10001)' '
	db_exec "UPDATE lin_group SET delete_time = NOW(3) WHERE id = $(cat ghost_id)" &&
	as alice &&
	http DELETE /v1/book/$(cat book3) &&
	expect_status 403 &&
	expect_json .code 10001
'

test_done
