#!/bin/sh
test_description='/status and the login throttle behind a proxy: a front nginx on TCP proxying to the nginx of the pool on a unix socket, without and with the realip lines of doc/deploy-nginx.md, "Behind another proxy"'
. "$(dirname "$0")/lib.sh"

start_db
start_app login_captcha=off login_address_max_failures=3

# The two snippets of doc/deploy-nginx.md's "Behind another proxy", as written: $1 = 1 the
# proxy's location, 2 the lines of the pool's nginx.
doc_snippet () {
	sed -n '/^### Behind another proxy$/,/^### /p' "$TOP/doc/deploy-nginx.md" |
		awk -v want="$1" '/^```nginx$/ { n++; on = (n == want); next } /^```$/ { on = 0 } on'
}

# The pool's nginx as start_nginx makes it, listening on unix socket $2 instead of TCP, in
# $TRASH/$1; with $3 = realip, the documented lines next to `include cms-fcgi.conf;`.
inner_nginx () {
	local dir=$TRASH/$1
	svc_nginx_conf "$dir" "$(test_port 3)" "$APP_SOCKET" "$TOP" "$TRASH/assets" &&
	sed -i "s|^\\( *\\)listen 127.0.0.1:$(test_port 3);|\\1listen unix:$2;|" "$dir/nginx.conf" &&
	grep -q "listen unix:$2;" "$dir/nginx.conf" || return 1
	if [ "${3:-}" = realip ]; then
		doc_snippet 2 >"$dir/realip.conf" &&
		grep -q "real_ip_header" "$dir/realip.conf" &&
		sed -i "s|^\\( *\\)include cms-fcgi.conf;|\\1include realip.conf;\\n\\1include cms-fcgi.conf;|" \
			"$dir/nginx.conf" || return 1
	fi
	svc_nginx_start "$dir" 2>>"$TRASH/fixture.log"
}

set_socket_path PLAIN_SOCKET plain.sock
set_socket_path REALIP_SOCKET realip.sock
PLAIN_PID=$(inner_nginx inner-plain "$PLAIN_SOCKET") || bail_out "the plain inner nginx did not start"
test_atexit "svc_nginx_stop '$TRASH/inner-plain'"
REALIP_PID=$(inner_nginx inner-realip "$REALIP_SOCKET" realip) ||
	bail_out "the realip inner nginx did not start"
test_atexit "svc_nginx_stop '$TRASH/inner-realip'"

# The front: one server on TCP per inner nginx, each location the documented proxy's.
PLAIN_PORT=$(test_port 1)
REALIP_PORT=$(test_port 2)
front_server () {
	printf '    server {\n        listen 127.0.0.1:%s;\n' "$1"
	doc_snippet 1 | sed -e "s|http://unix:/run/nginx-cms/cms.sock:|http://unix:$2:|" -e 's/^/        /'
	printf '    }\n'
}
mkdir -p "$TRASH/front"
{
	[ "$(id -u)" -ne 0 ] || echo "user root $(id -gn);"
	cat <<-CONF
	daemon off;
	worker_processes 1;
	pid "$TRASH/front/nginx.pid";
	error_log "$TRASH/front/error.log";
	events { worker_connections 256; }
	http {
	    access_log "$TRASH/front/access.log";
	CONF
	front_server "$PLAIN_PORT" "$PLAIN_SOCKET"
	front_server "$REALIP_PORT" "$REALIP_SOCKET"
	echo "}"
} >"$TRASH/front/nginx.conf"
grep -q "proxy_pass http://unix:$PLAIN_SOCKET:;" "$TRASH/front/nginx.conf" ||
	bail_out "doc/deploy-nginx.md has no proxy_pass to http://unix:/run/nginx-cms/cms.sock:"
FRONT_PID=$(svc_nginx_start "$TRASH/front" 2>>"$TRASH/fixture.log") || bail_out "the front nginx did not start"
test_atexit "svc_nginx_stop '$TRASH/front'"
start_validator
HTTP_PORT=$PLAIN_PORT
svc_wait_http_200 "http://127.0.0.1:$PLAIN_PORT/healthz" 100 "$FRONT_PID" 2>>"$TRASH/fixture.log" ||
	bail_out "the plain chain does not answer /healthz"
svc_wait_http_200 "http://127.0.0.1:$REALIP_PORT/healthz" 100 "$FRONT_PID" 2>>"$TRASH/fixture.log" ||
	bail_out "the realip chain does not answer /healthz"

# from N PORT METHOD PATH [BODY [CURL_ARGS...]]: http from client address 127.0.0.N through the
# front server on PORT.
from () {
	local n=$1
	HTTP_PORT=$2
	shift 2
	local method=$1 path=$2 body=${3:-}
	shift 2
	[ $# -eq 0 ] || shift
	http "$method" "$path" "$body" --interface "127.0.0.$n" "$@"
}

test_expect_success 'without realip, /status through the proxy answers a client 404: the app sees unix:, which the default lets in no more' '
	from 2 "$PLAIN_PORT" GET /status &&
	expect_status 404 &&
	expect_json .code 10020 &&
	from 1 "$PLAIN_PORT" GET /status &&
	expect_status 404 &&
	grep -q "remote=unix:" app.log
'

test_expect_success 'with realip as documented, the app sees the client: loopback reads /status, 127.0.0.2 gets 404' '
	from 1 "$REALIP_PORT" GET /status &&
	expect_status 200 &&
	expect_json_true ".capacity.workers > 0" &&
	from 2 "$REALIP_PORT" GET /status &&
	expect_status 404 &&
	expect_json .code 10020
'

test_expect_success 'with realip, an address a client writes into its own X-Forwarded-For or X-Real-IP is never taken' '
	from 2 "$REALIP_PORT" GET /status "" -H "X-Forwarded-For: 127.0.0.1" &&
	expect_status 404 &&
	from 2 "$REALIP_PORT" GET /status "" -H "X-Forwarded-For: 127.0.0.1, 127.0.0.1" &&
	expect_status 404 &&
	from 2 "$REALIP_PORT" GET /status "" -H "X-Real-IP: 127.0.0.1" &&
	expect_status 404
'

# wrong_logins N PORT USERNAME...: a wrong password for each USERNAME from 127.0.0.N through the
# nginx on PORT, each answered 401.
wrong_logins () {
	local n=$1 port=$2 u
	shift 2
	for u in "$@"; do
		from "$n" "$port" POST /cms/user/login "{\"username\":\"$u\",\"password\":\"Wrong_pass1\"}" &&
		expect_status 401 || return 1
	done
}

test_expect_success 'with realip, the throttle counts each client by its own address: one refused, the next let through' '
	wrong_logins 2 "$REALIP_PORT" a1 a2 a3 &&
	from 2 "$REALIP_PORT" POST /cms/user/login "{\"username\":\"a4\",\"password\":\"Wrong_pass1\"}" &&
	expect_status 429 &&
	from 3 "$REALIP_PORT" POST /cms/user/login "{\"username\":\"a5\",\"password\":\"Wrong_pass1\"}" &&
	expect_status 401 &&
	grep -q "remote=127.0.0.3" app.log
'

test_expect_success 'without realip every client shares unix: in the throttle: the next client is refused too' '
	wrong_logins 4 "$PLAIN_PORT" b1 b2 b3 &&
	from 5 "$PLAIN_PORT" POST /cms/user/login "{\"username\":\"b4\",\"password\":\"Wrong_pass1\"}" &&
	expect_status 429
'

stop_app
start_app login_captcha=off "status_allow=127.0.0.1 ::1 unix:"

test_expect_success 'an operator who sets status_allow = ... unix: explicitly opens /status to every client of the unix socket' '
	poll_until 100 sh -c "curl -s -o /dev/null -w %{http_code} http://127.0.0.1:$PLAIN_PORT/healthz | grep -q 200" &&
	from 2 "$PLAIN_PORT" GET /status &&
	expect_status 200 &&
	expect_json_true ".capacity.workers > 0"
'

test_done
