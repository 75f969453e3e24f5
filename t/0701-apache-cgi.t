#!/bin/sh
test_description='Apache 2.4 with the shipped apache/cms-fcgi-cgi.conf: mod_cgi runs the binary per request, with CGIPassAuth, CMS_CONFIG and a password database account as on shared hosting'
TEST_WEB=apache-cgi
. "$(dirname "$0")/lib.sh"

start_db
start_app max_body_bytes=4096
start_web

test_expect_success 'setup: httpd.conf includes the shipped snippets unchanged; no pool runs' '
	grep -q "^Include \"$TOP/apache/cms-fcgi-cgi.conf\"\$" apache/httpd.conf &&
	grep -q "^Include \"$TOP/apache/cms-fcgi-assets.conf\"\$" apache/httpd.conf &&
	test -z "$POOL_PID" &&
	test ! -e pool.pid
'

. "$TOP/t/web-front-subset.sh"

test_expect_success 'each request ran in a process of its own: the access lines of book 7 have distinct pids' '
	http GET /v1/book/7 &&
	expect_status 200 &&
	grep "access: method=GET path=/v1/book/7 " app.log | sed "s/.* pid=\([0-9]*\) .*/\1/" >pids &&
	test "$(wc -l <pids)" -ge 3 &&
	test "$(sort -u pids | wc -l)" -eq "$(wc -l <pids)"
'

test_expect_success 'an unreadable configuration answers the 500 JSON envelope through Apache, not an HTML page' '
	cp cms.conf cms.conf.good &&
	printf "workers = 2\nworkers = 3\n" >>cms.conf &&
	http GET /v1/book/7 &&
	cp cms.conf.good cms.conf &&
	expect_status 500 &&
	expect_header Content-Type "^application/json" &&
	expect_json .code 9999 &&
	expect_json .request "GET /v1/book/7" &&
	! grep -q workers body
'

test_expect_success 'the reason of the start-up failure is in Apache error.log, not in the answer' '
	grep -q "workers" apache/error.log
'

test_expect_success 'with the configuration back the next request answers 200' '
	http GET /v1/book/7 &&
	expect_status 200
'

test_done
