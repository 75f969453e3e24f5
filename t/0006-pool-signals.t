#!/bin/sh
test_description='signals: TERM finishes an upload in progress, USR2 restarts losing nothing, HUP reopens the log'
. "$(dirname "$0")/lib.sh"

command -v wrk >/dev/null 2>&1 || skip_all "wrk is not installed (scripts/install-deps)"

start_db
start_app workers=2 file_single_limit=8388608
start_nginx
# Workers stopped with TERM outside a stop are started again; the master warns about each.

test_expect_success 'setup: root logs in; a 5 MiB png multipart body' '
	remember root "$ROOT_PASSWORD" &&
	{
		printf -- "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.png\"\r\n"
		printf "Content-Type: image/png\r\n\r\n\211PNG\r\n\032\n"
		head -c 5242880 /dev/urandom
		printf "\r\n--XyZ--\r\n"
	} >upload.body
'

test_expect_success 'TERM to every worker during a 5 MiB upload: the upload completes and is stored' '
	paused_request upload.out upload.body 1048576 --param REQUEST_METHOD=POST \
		--param PATH_INFO=/cms/file --param "HTTP_AUTHORIZATION=Bearer $(cat root.token)" \
		--param "CONTENT_TYPE=multipart/form-data; boundary=XyZ" &&
	kill -TERM $(pool_workers) &&
	touch pause/go &&
	answered () {
		grep -q "^Status: " upload.out
	} &&
	poll_until 100 answered &&
	grep -q "^Status: 200" upload.out &&
	sed "1,/^\r$/d" upload.out >upload.json &&
	path=$(jq -r ".[0].path" upload.json) &&
	test "$(wc -c <"$FILE_STORE_DIR/$path")" -eq 5242888
'

test_expect_success 'the stopped workers were replaced, and the master said so' '
	two () {
		test $(pool_workers | wc -w) -eq 2
	} &&
	poll_until 50 two &&
	grep -q "worker [0-9]* exited with status 0 after .*; starting another" app.log
'

# served: how many GETs of /v1/book/ID the pool has logged, by any worker.
served () {
	grep -c " access: method=GET path=/v1/book/" app.log || :
}

# load_until FILE ID: 8 clients on GET /v1/book/ID, in runs of 2 s until FILE exists, each run's
# result line (wrk-result.lua) appended to load.results. (Runs of a fixed length: wrk stops early
# on SIGINT only when the signal reaches its main thread.)
load_until () {
	until [ -e "$1" ]; do
		wrk --threads 2 --connections 8 --duration 2s --timeout 10s \
			--script "$TOP/t/wrk-result.lua" "http://127.0.0.1:$HTTP_PORT/v1/book/$2" \
			>wrk.out 2>&1 &&
		grep "^wrk-result " wrk.out >>load.results || return 1
	done
}

# The load runs from before the USR2 until the old workers have left and a new one has answered
# some of it, whenever that is: it spans the whole hand-over however fast the machine is, and what
# is checked is that no request of it failed, never how many there were.
test_expect_success 'USR2 during a load re-executes the master, loses no request, and the old workers leave' '
	db_exec "INSERT INTO book (title, author) VALUES (\"Dune\", \"Herbert\")" &&
	id=$(db_exec "SELECT id FROM book") &&
	before=$(pool_workers) &&
	n=$(served) &&
	rm -f load.stop load.results &&
	{ load_until load.stop "$id" & } &&
	load=$! &&
	under_way () {
		test "$(served)" -gt "$n"
	} &&
	old_generation_gone () {
		after=$(pool_workers) &&
		for pid in $before; do
			! echo " $after " | grep -q " $pid " || return 1
		done
	} &&
	new_generation_serves () {
		for pid in $(pool_workers); do
			! grep -q " access: method=GET path=/v1/book/$id status=200 .* pid=$pid " app.log ||
				return 0
		done
		return 1
	} &&
	{
		poll_until 100 under_way &&
		kill -USR2 "$POOL_PID" &&
		poll_until 150 old_generation_gone &&
		poll_until 100 new_generation_serves
	}
	handed_over=$?
	touch load.stop &&
	wait $load &&
	test $handed_over -eq 0 &&
	cat load.results &&
	awk "{ n += \$2; e += \$4 } END { exit !(n > 0 && e == 0) }" load.results &&
	svc_alive "$POOL_PID" &&
	grep -q "restarting: re-executing" app.log
'

test_expect_success 'HUP makes the master and the workers reopen log_file' '
	mv app.log app.log.rotated &&
	kill -HUP "$POOL_PID" &&
	reopened () {
		http GET /healthz &&
		grep -q " access: method=GET path=/healthz" app.log 2>/dev/null
	} &&
	poll_until 50 reopened
'

set_socket_path OWN_SOCKET own.sock
# A pool left running by a failed check below would hold the file's output open, and prove with it.
test_atexit "[ ! -s '$TRASH/own.pid' ] || svc_kill \"\$(cat '$TRASH/own.pid')\" TERM 150"

test_expect_success 'a pool that made its own --listen socket keeps it across USR2, then stops on TERM' '
	{ "$APP_BIN" -c "$TRASH/cms.conf" --supervise --listen "$OWN_SOCKET" 2>own.err & } &&
	echo $! >own.pid &&
	up () {
		"$TOP/t/fcgi-client.pl" "$OWN_SOCKET" request --param REQUEST_METHOD=GET \
			--param PATH_INFO=/healthz >own.out &&
		grep -q "^Status: 200" own.out
	} &&
	poll_until 50 up &&
	inode=$(stat -c %i "$OWN_SOCKET") &&
	kill -USR2 "$(cat own.pid)" &&
	again () {
		test "$(grep -c "\[$(cat own.pid)\] info: supervising" app.log)" -ge 2
	} &&
	poll_until 50 again &&
	poll_until 50 up &&
	test "$(stat -c %i "$OWN_SOCKET")" = "$inode" &&
	kill -TERM "$(cat own.pid)" &&
	gone () {
		! svc_alive "$(cat own.pid)"
	} &&
	poll_until 150 gone
'

test_done
