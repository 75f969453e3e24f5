#!/bin/sh
test_description='Allow (405 and the preflight) lists HEAD wherever GET is, and a path with a literal segment lists only its own methods'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

test_expect_success 'setup: root logs in' '
	remember root "$ROOT_PASSWORD"
'

test_expect_success 'the 405 of DELETE /v1/book lists GET, HEAD, POST and OPTIONS' '
	http DELETE /v1/book &&
	expect_status 405 &&
	expect_header Allow "^GET, HEAD, POST, OPTIONS$"
'

test_expect_success 'the 405 of PATCH /v1/book/7 lists HEAD after GET' '
	http PATCH /v1/book/7 &&
	expect_status 405 &&
	expect_header Allow "^GET, HEAD, PUT, DELETE, OPTIONS$"
'

test_expect_success 'HEAD answers where Allow lists it' '
	http HEAD /v1/book/search &&
	expect_status 200
'

test_expect_success 'a route without GET lists no HEAD' '
	http GET /cms/user/login &&
	expect_status 405 &&
	expect_header Allow "^POST, OPTIONS$"
'

test_expect_success 'PUT /cms/admin/group/all is a 405 listing only GET, HEAD and OPTIONS' '
	as root &&
	http PUT /cms/admin/group/all "{\"name\":\"all\"}" &&
	expect_status 405 &&
	expect_json .code 10080 &&
	expect_header Allow "^GET, HEAD, OPTIONS$"
'

test_expect_success 'DELETE /cms/admin/group/all is a 405, never a delete of group "all"' '
	as root &&
	http DELETE /cms/admin/group/all &&
	expect_status 405 &&
	expect_header Allow "^GET, HEAD, OPTIONS$"
'

test_expect_success 'PATCH /v1/book/search lists only the methods of /v1/book/search' '
	http PATCH /v1/book/search &&
	expect_status 405 &&
	expect_header Allow "^GET, HEAD, OPTIONS$"
'

test_expect_success 'the preflight of /cms/admin/group/all allows only GET, HEAD and OPTIONS' '
	http OPTIONS /cms/admin/group/all "" -H "Origin: https://any.example" \
		-H "Access-Control-Request-Method: DELETE" &&
	expect_status 204 &&
	expect_header Access-Control-Allow-Methods "^GET, HEAD, OPTIONS$"
'

test_expect_success 'the {id} path keeps its own methods' '
	http PATCH /cms/admin/group/5 &&
	expect_status 405 &&
	expect_header Allow "^GET, HEAD, PUT, DELETE, OPTIONS$"
'

test_done
