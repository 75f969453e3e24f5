#!/bin/sh
test_description='GET /v1/book/{id}: the bare book, 404 for a missing or deleted one, 400 for an id that is not a positive integer'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

test_expect_success 'setup: a live book (id 7) and a soft-deleted book (id 8)' '
	db_exec "INSERT INTO book (id, title, author, summary, image)
		VALUES (7, \"Dune\", \"Herbert\", \"Spice\", \"https://img.example/d.png\")" &&
	db_exec "INSERT INTO book (id, title, author, summary, delete_time)
		VALUES (8, \"Gone\", \"Nobody\", \"Deleted\", CURRENT_TIMESTAMP(3))"
'

test_expect_success 'a live book answers 200 with its five fields' '
	http GET /v1/book/7 &&
	expect_status 200 &&
	expect_json .id 7 &&
	expect_json .title Dune &&
	expect_json .author Herbert &&
	expect_json .summary Spice &&
	expect_json .image https://img.example/d.png
'

test_expect_success 'a book has exactly the keys id, title, author, summary and image' '
	http GET /v1/book/7 &&
	expect_status 200 &&
	expect_json "keys | join(\",\")" author,id,image,summary,title
'

test_expect_success 'a read carries no code, message nor request' '
	http GET /v1/book/7 &&
	expect_json_true "has(\"code\") or has(\"message\") or has(\"request\") | not"
'

test_expect_success 'the id of a book is a JSON number' '
	http GET /v1/book/7 &&
	expect_json ".id | type" number
'

test_expect_success 'a book without image answers image null, the key still present' '
	db_exec "INSERT INTO book (id, title, author, summary) VALUES (9, \"Bare\", \"A\", \"S\")" &&
	http GET /v1/book/9 &&
	expect_status 200 &&
	expect_json ".image | type" null &&
	expect_json "keys | length" 5
'

test_expect_success 'an unknown id answers 404 with code 10022' '
	http GET /v1/book/12345 &&
	expect_status 404 &&
	expect_json .code 10022
'

test_expect_success 'the 404 of an unknown id carries the text 未找到相关书籍' '
	http GET /v1/book/12345 &&
	expect_json .message 未找到相关书籍
'

test_expect_success 'the 404 of an unknown id carries request "GET /v1/book/12345"' '
	http GET /v1/book/12345 &&
	expect_json .request "GET /v1/book/12345"
'

test_expect_success 'the 404 envelope has exactly the keys code, message and request' '
	http GET /v1/book/12345 &&
	expect_json "keys | join(\",\")" code,message,request
'

test_expect_success 'the 404 request field carries no query string' '
	http GET "/v1/book/12345?x=1" &&
	expect_status 404 &&
	expect_json .request "GET /v1/book/12345"
'

test_expect_success 'the largest id of the column (4294967295) is valid and answers 404' '
	http GET /v1/book/4294967295 &&
	expect_status 404 &&
	expect_json .code 10022 &&
	expect_json .request "GET /v1/book/4294967295"
'

test_expect_success 'the smallest id (1) is valid and answers 404 when absent' '
	http GET /v1/book/1 &&
	expect_status 404 &&
	expect_json .code 10022
'

test_expect_success 'a soft-deleted book answers 404 with code 10022' '
	http GET /v1/book/8 &&
	expect_status 404 &&
	expect_json .code 10022 &&
	expect_json .request "GET /v1/book/8"
'

# Each of these is rejected before the database is asked.
for bad in 0 -1 abc 1.5 4294967296 99999999999999999999 %20 +1 1e3 0x10; do
	test_expect_success "id $bad answers 400 with code 10030" '
		http GET /v1/book/$bad &&
		expect_status 400 &&
		expect_json .code 10030
	'
	test_expect_success "id $bad answers the message {\"id\":\"id必须为正整数\"} only" '
		http GET /v1/book/$bad &&
		expect_json ".message | tojson" "{\"id\":\"id必须为正整数\"}"
	'
done

test_expect_success 'the 400 of an invalid id carries request "GET /v1/book/abc"' '
	http GET /v1/book/abc &&
	expect_json .request "GET /v1/book/abc"
'

test_expect_success 'a failure answers Content-Type application/json; charset=utf-8' '
	http GET /v1/book/abc &&
	expect_header Content-Type "^application/json; charset=utf-8$"
'

test_expect_success 'a read answers Content-Type application/json; charset=utf-8' '
	http GET /v1/book/7 &&
	expect_header Content-Type "^application/json; charset=utf-8$"
'

test_done
