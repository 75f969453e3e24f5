#!/bin/sh
test_description='a pool started while its database is down: the paths of collections answer 503 (and GET /openapi.json too), then, once the database is back, the applied collections'
. "$(dirname "$0")/lib.sh"

start_db --private
apply_content "$TOP/t/fixtures/content/blog.json" || bail_out "cannot apply blog.json"
stop_db
start_app
start_nginx
allow_app_errors

test_expect_success 'with the database down, a collection'"'"'s path and /openapi.json are 503/10302, not 404' '
	http GET /v1/article &&
	expect_status 503 &&
	expect_json .code 10302 &&
	http GET /v1/nothing/7 &&
	expect_status 503 &&
	http GET /openapi.json &&
	expect_status 503
'

test_expect_success 'once it is back, every worker serves the applied collections' '
	restart_db &&
	served () {
		for i in 1 2 3 4 5 6; do
			test "$(curl -s -o /dev/null -w "%{http_code}" "http://127.0.0.1:$HTTP_PORT/v1/article")" = 200 ||
				return 1
		done
	} &&
	poll_until 200 served &&
	http GET /v1/nothing/7 &&
	expect_status 404 &&
	curl -s -o openapi.json "http://127.0.0.1:$HTTP_PORT/openapi.json" &&
	jq -e ".paths | has(\"/v1/article/{id}\")" openapi.json >/dev/null
'

test_done
