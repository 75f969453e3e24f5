#!/bin/sh
test_description='Apache 2.4 with the shipped apache/cms-fcgi-proxy.conf: mod_proxy_fcgi to the pool on its unix socket carries reads, writes, tokens, uploads and the app envelopes'
TEST_WEB=apache
. "$(dirname "$0")/lib.sh"

start_db
start_app max_body_bytes=4096
start_web

test_expect_success 'setup: httpd.conf includes the shipped snippets unchanged' '
	grep -q "^Include \"$TOP/apache/cms-fcgi-proxy.conf\"\$" apache/httpd.conf &&
	grep -q "^Include \"$TOP/apache/cms-fcgi-assets.conf\"\$" apache/httpd.conf
'

. "$TOP/t/web-front-subset.sh"

test_expect_success 'the requests went through the pool: its workers logged them' '
	grep -q "/v1/book/7" app.log
'

test_done
