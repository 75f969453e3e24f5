#!/bin/sh
test_description='USR2 after listen changed: the pool answers on the new address and no longer on the old (unix socket to TCP to another unix socket, and from the socket spawn-fcgi gave it), an upload in progress on the old one completes, the old file the pool made goes; a new listen that cannot be opened keeps the old socket'
. "$(dirname "$0")/lib.sh"

start_db
start_app workers=2
start_nginx

set_socket_path SOCK_A a.sock
set_socket_path SOCK_B b.sock
TCP=127.0.0.1:$(test_port 2)
sed "s|^log_file = .*|log_file = $TRASH/own.log|" "$TRASH/cms.conf" >"$TRASH/own.conf.base"

# own.conf with listen = $1 (the pool reads it at each re-exec).
listen_on () {
	{ cat own.conf.base && echo "listen = $1"; } >own.conf.tmp &&
	mv -f own.conf.tmp own.conf
}

# answers ADDRESS: GET /healthz straight to the pool at ADDRESS answers 200.
answers () {
	"$TOP/t/fcgi-client.pl" "$1" request --param REQUEST_METHOD=GET \
		--param PATH_INFO=/healthz >answer.out 2>answer.err &&
	grep -q "^Status: 200" answer.out
}

# refused ADDRESS: nothing accepts a connection there (fcgi-client exits 2 when it cannot connect).
refused () {
	"$TOP/t/fcgi-client.pl" "$1" request --param REQUEST_METHOD=GET \
		--param PATH_INFO=/healthz >refused.out 2>refused.err
	test $? -eq 2 &&
	grep -q "cannot connect" refused.err
}

# reload: USR2 to the pool of own.conf, then waits until its master runs again (it logged
# "supervising" once more) with 2 workers of a new generation.
reload () {
	svc_children "$OWN_PID" >old-workers &&
	starts=$(grep -c "\[$OWN_PID\] info: supervising" own.log) &&
	kill -USR2 "$OWN_PID" &&
	restarted () {
		test "$(grep -c "\[$OWN_PID\] info: supervising" own.log)" -gt "$starts" &&
		svc_children "$OWN_PID" >workers &&
		test "$(grep -cvxFf old-workers workers)" -eq 2
	} &&
	poll_until 150 restarted
}

test_atexit 'svc_kill "$(cat "$TRASH/own.pid" 2>/dev/null)" TERM 150'

test_expect_success 'setup: root logs in; a pool on listen = a unix socket path answers there' '
	remember root "$ROOT_PASSWORD" &&
	listen_on "$SOCK_A" &&
	OWN_PID=$(svc_spawn "$TRASH/own.pid" "$TRASH/own.log" "$APP_BIN" -c "$TRASH/own.conf" \
		--supervise) &&
	poll_until 50 answers "$SOCK_A" &&
	test -S "$SOCK_A" &&
	svc_port_free "$(test_port 2)"
'
OWN_PID=$(cat "$TRASH/own.pid" 2>/dev/null)

test_expect_success 'setup: a 1.5 MiB png upload body' '
	{
		printf -- "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.png\"\r\n"
		printf "Content-Type: image/png\r\n\r\n\211PNG\r\n\032\n"
		head -c 1572864 /dev/urandom
		printf "\r\n--XyZ--\r\n"
	} >upload.body
'

test_expect_success 'listen changed to HOST:PORT, USR2 during an upload on the socket: the pool answers on the port, the upload completes' '
	rm -rf pause && mkdir pause &&
	{ "$TOP/t/fcgi-client.pl" "$SOCK_A" request --param REQUEST_METHOD=POST \
		--param PATH_INFO=/cms/file --param "HTTP_AUTHORIZATION=Bearer $(kept root)" \
		--param "CONTENT_TYPE=multipart/form-data; boundary=XyZ" --body upload.body \
		--pause-at 1048576 --pause-dir pause >upload.out & } &&
	upload=$! &&
	poll_until 50 test -e pause/paused &&
	listen_on "$TCP" &&
	reload
	reloaded=$?
	touch pause/go &&
	wait $upload &&
	test $reloaded -eq 0 &&
	answers "$TCP" &&
	grep -q "^Status: 200" upload.out &&
	sed "1,/^\r$/d" upload.out >upload.json &&
	path=$(jq -r ".[0].path" upload.json) &&
	test "$(wc -c <"$FILE_STORE_DIR/$path")" -eq 1572872
'

test_expect_success 'the old socket is closed and the file the pool made for it removed' '
	! test -e "$SOCK_A" &&
	refused "$SOCK_A" &&
	grep -q "listen changed from .$SOCK_A. to .$TCP." own.log
'

test_expect_success 'listen changed to another socket path, USR2: the pool answers there, no longer on the port' '
	listen_on "$SOCK_B" &&
	reload &&
	answers "$SOCK_B" &&
	test -S "$SOCK_B" &&
	test "$(stat -c %a "$SOCK_B")" = 660 &&
	refused "$TCP"
'

test_expect_success 'listen unchanged, USR2: the same socket, the same file' '
	inode=$(stat -c %i "$SOCK_B") &&
	reload &&
	answers "$SOCK_B" &&
	test "$(stat -c %i "$SOCK_B")" = "$inode"
'

test_expect_success 'a new listen that cannot be opened (a file at the path): the pool goes on on the old socket, the file stays' '
	echo precious >"$SOCK_A" &&
	listen_on "$SOCK_A" &&
	reload &&
	grep -q "error: cannot listen on .$SOCK_A.: the path holds a file that is not a socket; serving on .$SOCK_B. still" own.log &&
	answers "$SOCK_B" &&
	test "$(cat "$SOCK_A")" = precious &&
	rm "$SOCK_A"
'

test_expect_success 'the next USR2 with that listen now free moves the pool there' '
	reload &&
	answers "$SOCK_A" &&
	! test -e "$SOCK_B"
'

test_expect_success 'TERM: the pool stops and removes the file of the socket it moved to' '
	kill -TERM "$OWN_PID" &&
	svc_wait_gone "$OWN_PID" 150 &&
	! test -e "$SOCK_A" &&
	grep -q "\[$OWN_PID\] info: stopped" own.log
'

test_expect_success 'the pool of own.conf logged no error but the refused listen' '
	! grep "error:" own.log | grep -v "cannot listen on .$SOCK_A."
'

# The pool of start_app was handed its socket on fd 0 by spawn-fcgi (listen empty).
test_expect_success 'from the socket spawn-fcgi gave it to listen = a socket path: the pool moves, spawn-fcgi'"'"'s file stays' '
	echo "listen = $SOCK_B" >>cms.conf &&
	old=$(pool_workers) &&
	kill -USR2 "$POOL_PID" &&
	moved () {
		answers "$SOCK_B" && test "$(pool_workers)" != "$old"
	} &&
	poll_until 150 moved &&
	grep -q "listen changed from .. to .$SOCK_B." app.log &&
	test -S "$APP_SOCKET" &&
	refused "$APP_SOCKET"
'

test_expect_success 'its master holds no descriptor of the socket it left: fd 0 is /dev/null' '
	test "$(readlink /proc/$POOL_PID/fd/0)" = /dev/null
'

test_expect_success 'TERM to that pool removes the file it made' '
	svc_pool_stop "$TRASH/pool.pid" &&
	! test -e "$SOCK_B"
'
POOL_PID=

test_done
