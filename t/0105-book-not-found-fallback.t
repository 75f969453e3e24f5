#!/bin/sh
test_description='a message table without code 10022: a missing book falls back to 404 code 10020 and its text'
. "$(dirname "$0")/lib.sh"

start_db
grep -v '^code-message\[10022\]=' "$TOP/conf/code-message.properties" >"$TRASH/messages.properties"
start_app message_file="$TRASH/messages.properties"
start_nginx

test_expect_success 'setup: the message table copy lacks 10022 and keeps 10020' '
	! grep -q "^code-message\[10022\]" messages.properties &&
	grep -q "^code-message\[10020\]=资源不存在\$" messages.properties
'

test_expect_success 'GET of a missing book answers 404 with code 10020' '
	http GET /v1/book/12345 &&
	expect_status 404 &&
	expect_json .code 10020
'

test_expect_success 'the fallback carries the text of 10020, 资源不存在' '
	http GET /v1/book/12345 &&
	expect_json .message 资源不存在
'

test_expect_success 'the fallback envelope keeps request "GET /v1/book/12345"' '
	http GET /v1/book/12345 &&
	expect_json .request "GET /v1/book/12345"
'

test_expect_success 'a soft-deleted book also answers 404 with code 10020' '
	db_exec "INSERT INTO book (id, title, delete_time) VALUES (8, \"Gone\", CURRENT_TIMESTAMP(3))" &&
	http GET /v1/book/8 &&
	expect_status 404 &&
	expect_json .code 10020 &&
	expect_json .message 资源不存在
'

test_expect_success 'PUT of a missing book falls back to 404 code 10020 too' '
	login root "$ROOT_PASSWORD" &&
	http PUT /v1/book/12345 "{\"title\":\"T\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 404 &&
	expect_json .code 10020 &&
	expect_json .request "PUT /v1/book/12345"
'

test_expect_success 'DELETE of a missing book falls back to 404 code 10020 too' '
	login root "$ROOT_PASSWORD" &&
	http DELETE /v1/book/12345 &&
	expect_status 404 &&
	expect_json .code 10020
'

test_expect_success 'a live book is still served' '
	db_exec "INSERT INTO book (id, title, author, summary) VALUES (7, \"Dune\", \"A\", \"S\")" &&
	http GET /v1/book/7 &&
	expect_status 200 &&
	expect_json .title Dune
'

test_done
