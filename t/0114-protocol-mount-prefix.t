#!/bin/sh
test_description='mounted under /api/ by the location of the nginx/cms-fcgi.conf comment and the shipped params file: routes and envelopes see the path below the prefix'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

# A second server on test_port 2 in the generated nginx.conf, mounting the app under /api/ exactly
# as the comment in nginx/cms-fcgi.conf says, with the shipped cms-fcgi-params.conf (symlinked
# next to nginx.conf by svc_nginx_conf); nginx reloads it on HUP.
API_PORT=$(test_port 2)
svc_port_free "$API_PORT" || bail_out "port $API_PORT is already in use"
{
	sed '$d' "$TRASH/nginx/nginx.conf"
	cat <<-EOF

	    server {
	        listen 127.0.0.1:$API_PORT;
	        server_name localhost;
	        location /api/ {
	            fastcgi_split_path_info ^(/api)(/.*)\$;
	            include cms-fcgi-params.conf;
	            fastcgi_pass cms_fcgi;
	        }
	    }
	}
	EOF
} >"$TRASH/nginx/nginx.conf.new" && mv "$TRASH/nginx/nginx.conf.new" "$TRASH/nginx/nginx.conf" ||
	bail_out "cannot add the /api/ server to nginx.conf"
nginx -p "$TRASH/nginx/" -c "$TRASH/nginx/nginx.conf" -e "$TRASH/nginx/error.log" -t -q \
	2>>"$TRASH/fixture.log" || bail_out "nginx rejects the /api/ server"
kill -HUP "$NGINX_PID" || bail_out "cannot reload nginx"
svc_wait_http_200 "http://127.0.0.1:$API_PORT/api/healthz" 100 "$NGINX_PID" 2>>"$TRASH/fixture.log" ||
	bail_out "GET /api/healthz did not answer 200 after the reload"

test_expect_success 'setup: the /api/ server uses the shipped params file; root logs in; book 1 exists' '
	grep -q "include cms-fcgi-params.conf;" nginx/nginx.conf &&
	test "$(readlink nginx/cms-fcgi-params.conf)" = "$TOP/nginx/cms-fcgi-params.conf" &&
	remember root "$ROOT_PASSWORD" &&
	db_exec "INSERT INTO book (id, title, author, summary) VALUES (1, \"Dune\", \"A\", \"S\")"
'

test_expect_success 'GET /api/v1/book/1 answers book 1' '
	HTTP_PORT=$API_PORT &&
	http GET /api/v1/book/1 &&
	expect_status 200 &&
	expect_json .id 1 &&
	expect_json .title Dune
'

test_expect_success 'the 404 of GET /api/v1/book/999 has request "GET /v1/book/999", without the prefix' '
	HTTP_PORT=$API_PORT &&
	http GET /api/v1/book/999 &&
	expect_status 404 &&
	expect_json .code 10022 &&
	expect_json .request "GET /v1/book/999"
'

test_expect_success 'the 400 of GET /api/v1/book/abc has request "GET /v1/book/abc"' '
	HTTP_PORT=$API_PORT &&
	http GET /api/v1/book/abc &&
	expect_status 400 &&
	expect_json .request "GET /v1/book/abc"
'

test_expect_success 'POST /api/v1/book creates: 201 with request "POST /v1/book"' '
	HTTP_PORT=$API_PORT &&
	as root &&
	http POST /api/v1/book "{\"title\":\"Prefixed\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 201 &&
	expect_json .request "POST /v1/book" &&
	expect_db "SELECT COUNT(*) FROM book WHERE title = \"Prefixed\"" 1
'

test_expect_success 'GET /api/v1/book?page=0&count=1 passes the query string through the prefix' '
	HTTP_PORT=$API_PORT &&
	http GET "/api/v1/book?page=0&count=1" &&
	expect_status 200 &&
	expect_json .total 2 &&
	expect_json ".items | length" 1
'

test_expect_success 'GET /api/v1/book/search?q=Pre searches below the prefix' '
	HTTP_PORT=$API_PORT &&
	http GET "/api/v1/book/search?q=Pre" &&
	expect_status 200 &&
	expect_json ".[0].title" Prefixed
'

test_expect_success 'GET /api/v1/book/ (trailing slash) answers the list' '
	HTTP_PORT=$API_PORT &&
	http GET /api/v1/book/ &&
	expect_status 200 &&
	expect_json length 2
'

test_expect_success 'GET /api/no/such answers 404 code 10020 with request "GET /no/such"' '
	HTTP_PORT=$API_PORT &&
	http GET /api/no/such &&
	expect_status 404 &&
	expect_json .code 10020 &&
	expect_json .request "GET /no/such"
'

test_expect_success 'GET /api/api/v1/book/1 is not the book: the prefix is taken off once' '
	HTTP_PORT=$API_PORT &&
	http GET /api/api/v1/book/1 &&
	expect_status 404 &&
	expect_json .code 10020 &&
	expect_json .request "GET /api/v1/book/1"
'

test_expect_success 'DELETE /api/v1/book answers 405 with Allow and request "DELETE /v1/book"' '
	HTTP_PORT=$API_PORT &&
	http DELETE /api/v1/book &&
	expect_status 405 &&
	expect_header Allow "(^|, )GET(,|$)" &&
	expect_json .request "DELETE /v1/book"
'

test_expect_success 'a percent-encoded id below the prefix is decoded: /api/v1/book/%31 is book 1' '
	HTTP_PORT=$API_PORT &&
	http GET /api/v1/book/%31 &&
	expect_status 200 &&
	expect_json .id 1
'

test_expect_success 'the shipped server at / still answers GET /v1/book/1' '
	http GET /v1/book/1 &&
	expect_status 200 &&
	expect_json .title Dune
'

test_done
