#!/bin/sh
test_description='doc/deploy-nginx.md step 5 on a copy of Debian'"'"'s /etc/nginx: the site is port 80'"'"'s default server, so any Host and malformed requests get JSON'
. "$(dirname "$0")/lib.sh"

[ -f /etc/nginx/nginx.conf ] && [ -f /etc/nginx/sites-available/default ] ||
	skip_all "no Debian /etc/nginx to copy (nginx-light: scripts/install-deps run)"

start_db
start_app
HTTP_PORT=$(test_port 1)
svc_port_free "$HTTP_PORT" || bail_out "port $HTTP_PORT is already in use"
ETC=$TRASH/etc/nginx

# Debian's /etc/nginx as the package installs it, with what it names outside /etc/nginx moved
# into $TRASH and its port 80 on this file's port; nginx's workers run as this user.
debian_nginx () {
	rm -rf "$ETC" log && mkdir -p "$TRASH/etc" log &&
	cp -rL /etc/nginx "$ETC" &&
	rm -f "$ETC/sites-enabled/"* "$ETC/conf.d/"* &&
	ln -s ../sites-available/default "$ETC/sites-enabled/default" &&
	to_trash "$ETC/nginx.conf" "$ETC/sites-available/default" &&
	sed -i "s/^user .*/user $(id -un);/" "$ETC/nginx.conf"
}

# Moves the paths and the port of Debian's files $@ (and of the cms-fcgi site) into this test.
to_trash () {
	sed -i -e "s|/etc/nginx|$ETC|g" -e "s|/var/log/nginx|$TRASH/log|g" \
		-e "s|/run/nginx.pid|$TRASH/nginx.pid|" \
		-e "s|listen 80 |listen 127.0.0.1:$HTTP_PORT |" -e "s|listen 80;|listen 127.0.0.1:$HTTP_PORT;|" \
		-e "/listen \[::\]:80/d" \
		-e "s|/run/cms-fcgi/cms-fcgi.sock|$APP_SOCKET|" \
		-e "s|/var/lib/cms-fcgi/assets|$FILE_STORE_DIR|" "$@"
}

# doc/deploy-nginx.md's step 5 as a script: paths moved as above, the installed share/ being this
# checkout, `editor` the moves of to_trash, and nginx tested and started instead of reloaded.
readme_step5 () {
	sed -n "/^### nginx + systemd/,/^### /p" "$TOP/doc/deploy-nginx.md" | sed -n "/^5\\. /,/^6\\. /p" |
		sed -n '/^   ```sh$/,/^   ```$/p' | sed -e '/```/d' -e 's/^   //' |
		sed -e "s|/usr/local/share/cms-fcgi/nginx|$TOP/nginx|g" -e "s|/etc/cms-fcgi/cms.conf|$TRASH/cms.conf|g" \
			-e "s|/etc/nginx|$ETC|g" \
			-e "s|^editor \\(.*\\)|to_trash \\1|" \
			-e "s|^nginx -t && systemctl reload nginx$|nginx -c $ETC/nginx.conf -t|" \
			-e "s|http://127.0.0.1/|http://127.0.0.1:$HTTP_PORT/|g" \
			-e '/^curl /d'
}

test_expect_success 'setup: Debian'"'"'s nginx configuration, its default site enabled' '
	debian_nginx &&
	test -L "$ETC/sites-enabled/default" &&
	grep -q "default_server" "$ETC/sites-available/default" &&
	readme_step5 >step5.sh &&
	cat step5.sh &&
	grep -q "^rm -f $ETC/sites-enabled/default$" step5.sh
'

test_expect_success 'the site next to Debian'"'"'s default: nginx -t refuses two default servers' '
	grep -v "^rm -f $ETC/sites-enabled/default$" step5.sh >keep-default.sh &&
	! (PATH=$(dirname "$APP_BIN"):$PATH && cd "$TRASH" && . ./keep-default.sh) >keep.out 2>&1 &&
	cat keep.out &&
	grep -q "duplicate default server" keep.out
'

test_expect_success 'step 5 as written: nginx -t passes, with the worker settings in nginx.conf' '
	debian_nginx &&
	(PATH=$(dirname "$APP_BIN"):$PATH && cd "$TRASH" && . ./step5.sh) &&
	! test -e "$ETC/sites-enabled/default" &&
	test "$(grep -c "^worker_rlimit_nofile 8192;$" "$ETC/nginx.conf")" -eq 1 &&
	grep -q "^worker_processes auto;$" "$ETC/nginx.conf" &&
	grep -q "worker_connections 4096;" "$ETC/nginx.conf" &&
	test -s "$ETC/cms-fcgi-texts.conf"
'

test_expect_success 'step 5 again (a second run) still passes nginx -t' '
	(PATH=$(dirname "$APP_BIN"):$PATH && cd "$TRASH" && . ./step5.sh) &&
	test "$(grep -c "^worker_rlimit_nofile 8192;$" "$ETC/nginx.conf")" -eq 1
'

mkdir -p "$TRASH/nginx"
NGINX_PID=$(svc_spawn "$TRASH/nginx/spawn.pid" "$TRASH/nginx/stderr.log" "$(command -v nginx)" \
	-c "$ETC/nginx.conf" -g "daemon off;") || bail_out "nginx did not start"
test_atexit "kill -QUIT $NGINX_PID"
poll_until 100 curl -s -o /dev/null "http://127.0.0.1:$HTTP_PORT/healthz" ||
	bail_out "nginx does not answer on $HTTP_PORT"
NGINX_PID=

test_expect_success 'the site'"'"'s server_name answers /readyz 200 JSON' '
	http GET /readyz "" -H "Host: cms.example.org" &&
	expect_status 200 &&
	expect_header Content-Type "^application/json"
'

test_expect_success 'another Host gets the app too: a JSON envelope, not Debian'"'"'s page' '
	http GET /v1/book/999999 "" -H "Host: other.example" &&
	expect_status 404 &&
	expect_header Content-Type "^application/json" &&
	expect_json .request "GET /v1/book/999999"
'

test_expect_success 'a request without Host (HTTP/1.0) gets JSON' '
	http GET /readyz "" --http1.0 -H "Host:" &&
	expect_status 200 &&
	expect_header Content-Type "^application/json"
'

test_expect_success 'a malformed request line gets the 400 JSON envelope (10320)' '
	http get /v1/book &&
	expect_status 400 &&
	expect_header Content-Type "^application/json" &&
	expect_json .code 10320
'

test_done
