#!/bin/sh
test_description='a clean stop removes the socket file the pool made from listen, a USR2 keeps it, and a stop leaves the one spawn-fcgi made and one put at the path since; the file is made 0660, the pool'"'"'s user'"'"'s, whatever the umask; a stale socket is taken over; a path holding a file, a symlink or a socket something accepts on is refused and left'
. "$(dirname "$0")/lib.sh"

start_db
start_app workers=2

set_socket_path OWN_SOCKET own.sock
sed "s|^log_file = .*|log_file = $TRASH/own.log|" "$TRASH/cms.conf" >"$TRASH/own.conf"
echo "listen = $OWN_SOCKET" >>"$TRASH/own.conf"

# Starts cms-fcgi --supervise on the listen key of own.conf, as cms-fcgi.service does (--listen),
# and waits until its 2 workers run; OWN_PID is the master.
start_own () {
	rm -f own.pid &&
	OWN_PID=$(svc_spawn "$TRASH/own.pid" "$TRASH/own.log" "$APP_BIN" -c "$TRASH/own.conf" \
		--supervise --listen "$OWN_SOCKET") &&
	two_workers () {
		test "$(svc_children "$OWN_PID" | wc -l)" -eq 2
	} &&
	poll_until 50 two_workers &&
	test -S "$OWN_SOCKET"
}

test_atexit 'svc_kill "$(cat "$TRASH/own.pid" 2>/dev/null)" TERM 150'

test_expect_success 'TERM: the pool that made its socket from listen removes the file' '
	start_own &&
	kill -TERM "$OWN_PID" &&
	svc_wait_gone "$OWN_PID" 150 &&
	! test -e "$OWN_SOCKET"
'

test_expect_success 'after a USR2 re-exec, TERM still removes the file' '
	start_own &&
	svc_children "$OWN_PID" >old-workers &&
	kill -USR2 "$OWN_PID" &&
	# Two new workers, none of the old ones (which linger while they finish): only then is the
	# re-executed master running with its signal handlers, not still starting.
	restarted () {
		grep -q "restarting: re-executing" own.log && svc_alive "$OWN_PID" &&
		svc_children "$OWN_PID" >workers &&
		test "$(wc -l <workers)" -eq 2 &&
		! grep -qxFf old-workers workers
	} &&
	poll_until 100 restarted &&
	test -S "$OWN_SOCKET" &&
	kill -TERM "$OWN_PID" &&
	svc_wait_gone "$OWN_PID" 150 &&
	! test -e "$OWN_SOCKET"
'

test_expect_success 'TERM leaves a file put at the path since the pool bound it (another pool'"'"'s), not its own' '
	start_own &&
	echo other >other.sock &&
	mv other.sock "$OWN_SOCKET" &&
	kill -TERM "$OWN_PID" &&
	svc_wait_gone "$OWN_PID" 150 &&
	test "$(cat "$OWN_SOCKET")" = other &&
	rm -f "$OWN_SOCKET"
'

test_expect_success 'a listen path that holds a file other than a socket: no start, and the file stays' '
	echo precious >"$OWN_SOCKET" &&
	! timeout 30 "$APP_BIN" -c "$TRASH/own.conf" --supervise --listen "$OWN_SOCKET" 2>file.err &&
	cat file.err &&
	grep -q "the path holds a file that is not a socket" file.err &&
	test "$(cat "$OWN_SOCKET")" = precious &&
	rm -f "$OWN_SOCKET"
'

# answers: GET /healthz straight to the pool on OWN_SOCKET answers 200.
answers () {
	"$TOP/t/fcgi-client.pl" "$OWN_SOCKET" request --param REQUEST_METHOD=GET \
		--param PATH_INFO=/healthz >answer.out &&
	grep -q "^Status: 200" answer.out
}

test_expect_success 'a socket left by a pool that is gone is taken over, and answered on' '
	python3 -c "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" "$OWN_SOCKET" &&
	test -S "$OWN_SOCKET" &&
	start_own &&
	poll_until 50 answers
'

test_expect_success 'a second pool on the socket of a running one does not start; the first keeps it' '
	! timeout 30 "$APP_BIN" -c "$TRASH/own.conf" --supervise --listen "$OWN_SOCKET" 2>second.err &&
	cat second.err &&
	grep -q "another process accepts on that socket" second.err &&
	test -S "$OWN_SOCKET" &&
	OWN_PID=$(cat "$TRASH/own.pid") &&
	kill -TERM "$OWN_PID" &&
	svc_wait_gone "$OWN_PID" 150 &&
	! test -e "$OWN_SOCKET"
'

test_expect_success 'the file is made 0660 and the pool'"'"'s user'"'"'s and group'"'"'s, under umask 000 as under 077' '
	for mask in 000 077; do
		(umask $mask && start_own) &&
		test "$(stat -c "%a %u %g" "$OWN_SOCKET")" = "660 $(id -u) $(id -g)" &&
		kill -TERM "$(cat own.pid)" &&
		svc_wait_gone "$(cat own.pid)" 150 || return 1
	done
'

test_expect_success 'USR2 keeps the file: the same inode, answered on before and after' '
	start_own &&
	inode=$(stat -c %i "$OWN_SOCKET") &&
	poll_until 50 answers &&
	svc_children "$OWN_PID" >old-workers &&
	kill -USR2 "$OWN_PID" &&
	restarted () {
		test "$(grep -c "\[$OWN_PID\] info: supervising" own.log)" -ge 2 &&
		svc_children "$OWN_PID" >workers &&
		! grep -qxFf old-workers workers
	} &&
	poll_until 150 restarted &&
	test "$(stat -c %i "$OWN_SOCKET")" = "$inode" &&
	poll_until 50 answers &&
	kill -TERM "$OWN_PID" &&
	svc_wait_gone "$OWN_PID" 150 &&
	! test -e "$OWN_SOCKET"
'

test_expect_success 'a listen path that is a symlink: no start, and the link and its target stay' '
	echo precious >target &&
	ln -s "$TRASH/target" "$OWN_SOCKET" &&
	! timeout 30 "$APP_BIN" -c "$TRASH/own.conf" --supervise --listen "$OWN_SOCKET" 2>link.err &&
	grep -q "the path holds a file that is not a socket" link.err &&
	test -L "$OWN_SOCKET" &&
	test "$(cat target)" = precious &&
	rm -f "$OWN_SOCKET"
'

# A listener whose queue is full (backlog 0, one connection queued, none accepted): a probe
# connect is refused with EAGAIN, not ECONNREFUSED. Something accepts there all the same.
test_expect_success 'a socket another program listens on, its queue full: no start, and its file stays' '
	rm -f held done &&
	{ timeout 60 python3 -c "
import os, socket, sys, time
path, held, done = sys.argv[1:]
server = socket.socket(socket.AF_UNIX)
server.bind(path)
server.listen(0)
client = socket.socket(socket.AF_UNIX)
client.connect(path)
open(held, \"w\").close()
while not os.path.exists(done):
    time.sleep(0.1)
" "$OWN_SOCKET" held done & } &&
	listener=$! &&
	poll_until 50 test -e held &&
	! timeout 30 "$APP_BIN" -c "$TRASH/own.conf" --supervise --listen "$OWN_SOCKET" 2>busy.err
	refused=$?
	touch done &&
	wait $listener &&
	test $refused -eq 0 &&
	cat busy.err &&
	grep -q "another process accepts on that socket" busy.err &&
	test -S "$OWN_SOCKET" &&
	rm -f "$OWN_SOCKET"
'

# The pool's file is the one its socket is bound at: a socket at the listen path that another
# process bound is not its own, even when listen names it. A master of an older version handed
# its socket over without its listen (CMS_SUPERVISOR_LISTEN), so the next one takes listen from
# the configuration while it serves on the socket the previous pool bound at another path.
set_socket_path PREV_SOCKET prev.sock
set_socket_path NEW_SOCKET new.sock

# other_listens: a process other than the pool binds and listens on OWN_SOCKET until other-done
# exists; OTHER_PID is it, other-inode the file's inode.
other_listens () {
	rm -f other-held other-done &&
	{ timeout 120 python3 -c "
import os, socket, sys, time
path, held, done = sys.argv[1:]
server = socket.socket(socket.AF_UNIX)
server.bind(path)
server.listen(8)
open(held, \"w\").close()
while not os.path.exists(done):
    time.sleep(0.1)
" "$OWN_SOCKET" other-held other-done & } &&
	OTHER_PID=$! &&
	poll_until 50 test -e other-held &&
	stat -c %i "$OWN_SOCKET" >other-inode
}

# other_kept: the other process's file is still at OWN_SOCKET, the same inode.
other_kept () {
	test -S "$OWN_SOCKET" &&
	test "$(stat -c %i "$OWN_SOCKET")" = "$(cat other-inode)"
}

# start_handed CONF: cms-fcgi --supervise on CONF as the master after one of an older version:
# a listening socket bound at PREV_SOCKET in CMS_SUPERVISOR_SOCKET, no CMS_SUPERVISOR_LISTEN;
# waits until it answers there. OWN_PID is the master.
start_handed () {
	rm -f own.pid "$PREV_SOCKET" &&
	OWN_PID=$(svc_spawn "$TRASH/own.pid" "$TRASH/own.log" env -u CMS_SUPERVISOR_LISTEN python3 -c "
import os, socket, sys
previous = socket.socket(socket.AF_UNIX)
previous.bind(sys.argv[1])
previous.listen(64)
os.set_inheritable(previous.fileno(), True)
os.environ[\"CMS_SUPERVISOR_SOCKET\"] = str(previous.fileno())
os.execv(sys.argv[2], sys.argv[2:])
" "$PREV_SOCKET" "$APP_BIN" -c "$TRASH/$1" --supervise) &&
	poll_until 50 answers_at "$PREV_SOCKET"
}

# answers_at PATH: GET /healthz straight to the pool on PATH answers 200.
answers_at () {
	"$TOP/t/fcgi-client.pl" "$1" request --param REQUEST_METHOD=GET \
		--param PATH_INFO=/healthz >answer-at.out &&
	grep -q "^Status: 200" answer-at.out
}

test_expect_success 'TERM leaves the socket file at listen that another process bound, the pool serving on a socket a previous pool bound at another path' '
	other_listens &&
	start_handed own.conf &&
	other_kept &&
	kill -TERM "$OWN_PID" &&
	svc_wait_gone "$OWN_PID" 150 &&
	other_kept
	kept=$?
	touch other-done &&
	wait $OTHER_PID &&
	test $kept -eq 0 &&
	rm -f "$OWN_SOCKET" "$PREV_SOCKET"
'

test_expect_success 'USR2 to a new listen leaves the socket file at the old listen that another process bound; TERM removes only the new one, the pool'"'"'s' '
	other_listens &&
	cp own.conf handed.conf &&
	start_handed handed.conf &&
	sed -i "s|^listen = .*|listen = $NEW_SOCKET|" handed.conf &&
	kill -USR2 "$OWN_PID" &&
	moved () {
		grep -q "listen changed from .$OWN_SOCKET. to .$NEW_SOCKET." own.log &&
		answers_at "$NEW_SOCKET"
	} &&
	poll_until 150 moved &&
	other_kept &&
	kill -TERM "$OWN_PID" &&
	svc_wait_gone "$OWN_PID" 150 &&
	! test -e "$NEW_SOCKET" &&
	other_kept
	kept=$?
	touch other-done &&
	wait $OTHER_PID &&
	test $kept -eq 0 &&
	rm -f "$OWN_SOCKET" "$PREV_SOCKET"
'

test_expect_success 'TERM to the pool spawn-fcgi gave its socket: the file is spawn-fcgi'"'"'s, and stays' '
	test -S "$APP_SOCKET" &&
	svc_pool_stop "$TRASH/pool.pid" &&
	test -S "$APP_SOCKET"
'
POOL_PID=

test_done
