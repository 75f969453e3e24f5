#!/bin/sh
test_description='max_body_bytes=4096: a larger body answers 413 with the app JSON envelope, a body of exactly the limit is read'
. "$(dirname "$0")/lib.sh"

start_db
start_app max_body_bytes=4096
start_nginx

# A valid book body padded with trailing blanks (valid JSON whitespace) to exactly $1 bytes.
body_of_size () {
	awk -v n="$1" 'BEGIN {
		body = "{\"title\":\"Sized\",\"author\":\"A\",\"summary\":\"S\"}"
		printf "%s", body
		for (i = length(body); i < n; i++) printf " "
	}'
}

test_expect_success 'setup: root logs in' '
	remember root "$ROOT_PASSWORD"
'

test_expect_success 'a body of 8000 bytes answers 413' '
	as root &&
	head -c 8000 /dev/zero | tr "\0" " " >big.json &&
	test $(wc -c <big.json) -eq 8000 &&
	http POST /v1/book @big.json &&
	expect_status 413
'

test_expect_success 'the 413 is the app JSON envelope: Content-Type application/json; charset=utf-8' '
	as root &&
	http POST /v1/book @big.json &&
	expect_header Content-Type "^application/json; charset=utf-8$"
'

test_expect_success 'the 413 envelope has code 10300, 请求体过大 and request "POST /v1/book"' '
	as root &&
	http POST /v1/book @big.json &&
	expect_json .code 10300 &&
	expect_json .message 请求体过大 &&
	expect_json .request "POST /v1/book"
'

test_expect_success 'the 413 envelope has exactly the keys code, message and request' '
	as root &&
	http POST /v1/book @big.json &&
	expect_json "keys | join(\",\")" code,message,request
'

test_expect_success 'the 413 is not an HTML page from nginx' '
	as root &&
	http POST /v1/book @big.json &&
	! grep -qi "<html" body
'

test_expect_success 'the 413 carries Access-Control-Allow-Origin' '
	as root &&
	http POST /v1/book @big.json -H "Origin: https://any.example" &&
	expect_header Access-Control-Allow-Origin "."
'

test_expect_success 'a body of exactly 4096 bytes (the limit) is read and creates the book' '
	as root &&
	body_of_size 4096 >limit.json &&
	test $(wc -c <limit.json) -eq 4096 &&
	http POST /v1/book @limit.json &&
	expect_status 201
'

test_expect_success 'a body of 4097 bytes (one over the limit) answers 413' '
	as root &&
	body_of_size 4097 >over.json &&
	test $(wc -c <over.json) -eq 4097 &&
	http POST /v1/book @over.json &&
	expect_status 413 &&
	expect_json .code 10300
'

test_expect_success 'a valid body under the limit creates the book' '
	as root &&
	body_of_size 1000 >small.json &&
	http POST /v1/book @small.json &&
	expect_status 201
'

test_expect_success 'the oversized bodies wrote no row' '
	expect_db "SELECT COUNT(*) FROM book" 2
'

test_expect_success 'a PUT body over the limit answers 413 with request "PUT /v1/book/1"' '
	as root &&
	http PUT /v1/book/1 @big.json &&
	expect_status 413 &&
	expect_json .code 10300 &&
	expect_json .request "PUT /v1/book/1"
'

test_expect_success 'the pool still answers after the refused bodies' '
	http GET /v1/book &&
	expect_status 200 &&
	expect_json length 2
'

test_done
