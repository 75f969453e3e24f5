#!/bin/sh
test_description='cors_allowed_origins=https://a.example: that origin is echoed on successes, failures and preflights; any other origin gets no Access-Control-Allow-Origin'
. "$(dirname "$0")/lib.sh"

start_db
start_app cors_allowed_origins=https://a.example
start_nginx

test_expect_success 'setup: book 7 exists' '
	db_exec "INSERT INTO book (id, title, author, summary) VALUES (7, \"Dune\", \"A\", \"S\")"
'

test_expect_success 'the allowed origin is echoed on a successful read' '
	http GET /v1/book/7 "" -H "Origin: https://a.example" &&
	expect_status 200 &&
	expect_header Access-Control-Allow-Origin "^https://a\.example$"
'

test_expect_success 'the echoed origin comes with Vary: Origin' '
	http GET /v1/book/7 "" -H "Origin: https://a.example" &&
	expect_header Vary "(^|[ ,])Origin(,|$)"
'

test_expect_success 'the allowed origin is echoed on a 404' '
	http GET /v1/book/999 "" -H "Origin: https://a.example" &&
	expect_status 404 &&
	expect_header Access-Control-Allow-Origin "^https://a\.example$"
'

test_expect_success 'the allowed origin is echoed on a 401' '
	http POST /v1/book "{}" -H "Origin: https://a.example" &&
	expect_status 401 &&
	expect_header Access-Control-Allow-Origin "^https://a\.example$"
'

test_expect_success 'the allowed origin is echoed on a preflight' '
	http OPTIONS /v1/book/7 "" -H "Origin: https://a.example" \
		-H "Access-Control-Request-Method: PUT" &&
	expect_status 204 &&
	expect_header Access-Control-Allow-Origin "^https://a\.example$"
'

for origin in https://b.example http://a.example https://a.example:8443 https://a.example.evil.test https://evil.test null; do
	test_expect_success "origin $origin gets no Access-Control-Allow-Origin on a read" '
		http GET /v1/book/7 "" -H "Origin: $origin" &&
		expect_status 200 &&
		! expect_header Access-Control-Allow-Origin "." 2>/dev/null
	'
done

test_expect_success 'another origin gets no Access-Control-Allow-Origin on a 404' '
	http GET /v1/book/999 "" -H "Origin: https://b.example" &&
	expect_status 404 &&
	! expect_header Access-Control-Allow-Origin "." 2>/dev/null
'

test_expect_success 'another origin gets no Access-Control-Allow-Origin on a preflight' '
	http OPTIONS /v1/book/7 "" -H "Origin: https://b.example" \
		-H "Access-Control-Request-Method: PUT" &&
	! expect_header Access-Control-Allow-Origin "." 2>/dev/null
'

test_expect_success 'no Origin header gets no Access-Control-Allow-Origin' '
	http GET /v1/book/7 &&
	expect_status 200 &&
	! expect_header Access-Control-Allow-Origin "." 2>/dev/null
'

test_expect_success 'a request from another origin is still served (CORS is the browser business)' '
	http GET /v1/book/7 "" -H "Origin: https://b.example" &&
	expect_status 200 &&
	expect_json .title Dune
'

test_done
