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
	grep -q "path=/v1/book/7 " app.log
'

# A second Apache on test_port 2 (in apache-api/, stopped at exit with the first) mounting the app
# under /api/ with the directives of the comment in apache/cms-fcgi-proxy.conf, taken from it
# verbatim.
API_PORT=$(test_port 2)
svc_port_free "$API_PORT" || bail_out "port $API_PORT is already in use"
mkdir -p "$TRASH/apache-api/htdocs" &&
sed -n '/^#     ProxyPass "\/api\/"/,/^#     <\/Location>/s/^#     //p' "$TOP/apache/cms-fcgi-proxy.conf" \
	>"$TRASH/apache-api/recipe.conf" &&
sed -e "/cms-fcgi-assets.conf/d" -e "s|$TRASH/apache|$TRASH/apache-api|g" -e "s|^Listen .*|Listen 127.0.0.1:$API_PORT|" \
	-e "s|^Include .*|Include \"$TRASH/apache-api/recipe.conf\"|" "$TRASH/apache/httpd.conf" \
	>"$TRASH/apache-api/httpd.conf" || bail_out "cannot write apache-api/httpd.conf"
svc_apache_start "$TRASH/apache-api" >/dev/null 2>>"$TRASH/fixture.log" ||
	bail_out "apache2 with the /api/ recipe did not start"
svc_wait_http_200 "http://127.0.0.1:$API_PORT/api/healthz" 100 2>>"$TRASH/fixture.log" ||
	bail_out "GET /api/healthz did not answer 200"

test_expect_success 'the /api/ recipe is the comment of the snippet: ProxyPass, CGIPassAuth and both ProxyFCGISetEnvIf' '
	test "$(grep -c . apache-api/recipe.conf)" -eq 6 &&
	grep -q "^ *CGIPassAuth On$" apache-api/recipe.conf
'

test_expect_success 'mounted under /api/, GET /api/v1/book/7 answers book 7' '
	HTTP_PORT=$API_PORT &&
	http GET /api/v1/book/7 &&
	expect_status 200 &&
	expect_json .id 7
'

test_expect_success 'mounted under /api/, the 404 envelope has request "GET /v1/book/999", without the prefix' '
	HTTP_PORT=$API_PORT &&
	http GET /api/v1/book/999 &&
	expect_status 404 &&
	expect_json .request "GET /v1/book/999"
'

test_expect_success 'mounted under /api/, the token reaches the app' '
	HTTP_PORT=$API_PORT &&
	as root &&
	http GET /api/cms/user/information &&
	expect_status 200 &&
	expect_json .username root
'

test_done
