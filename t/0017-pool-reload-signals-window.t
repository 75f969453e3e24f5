#!/bin/sh
test_description='signals that reach the master while USR2 re-executes it, before the new program has taken them over, wait for it: HUP and USR2 are done, TERM stops the pool cleanly, none kills it by the default action'
. "$(dirname "$0")/lib.sh"

start_db
start_app workers=2

# The new program is held at a known point, with no timing: cms.conf becomes a FIFO. The -t check
# of the USR2 reads it first (fed whole); the re-executed master then opens it to read its
# configuration, and the writer started here opens it only once that reader is there (a FIFO's
# open waits for the other end), creates `held`, and writes the configuration once `go` exists.
# Until then the new program is inside its configuration read, before any signal is its own.
hold_reexec () {
	rm -f held go &&
	test -f cms.conf &&
	cp cms.conf cms.conf.real &&
	rm cms.conf &&
	mkfifo cms.conf &&
	restarts=$(restarts) &&
	kill -USR2 "$POOL_PID" &&
	timeout 30 sh -c "cat cms.conf.real >cms.conf" &&
	# Logged once the -t check has exited and closed the FIFO: the next reader is the new program.
	reexecuted () {
		test "$(restarts)" -gt "$restarts"
	} &&
	poll_until 100 reexecuted &&
	{ timeout 60 sh -c "exec 3>cms.conf && : >held &&
		until [ -e go ]; do sleep 0.1; done && cat cms.conf.real >&3" & } &&
	echo $! >writer.pid &&
	poll_until 100 test -e held
}

# Lets the held program read its configuration; cms.conf is a plain file again for what follows
# (the FIFO stays open in the writer and the reader, renamed over).
release () {
	cp cms.conf.real cms.conf.tmp &&
	mv -f cms.conf.tmp cms.conf &&
	: >go &&
	{ wait "$(cat writer.pid)" || :; }
}
test_atexit '[ ! -s "$TRASH/writer.pid" ] || kill "$(cat "$TRASH/writer.pid")" 2>/dev/null'

answers () {
	"$TOP/t/fcgi-client.pl" "$APP_SOCKET" request --param REQUEST_METHOD=GET \
		--param PATH_INFO=/healthz >health.out &&
	grep -q "^Status: 200" health.out
}

restarts () {
	grep -c "restarting: re-executing" app.log || :
}

# How many times the master (its pid stays across re-executions) logged $1.
master_logged () {
	grep -c "\[$POOL_PID\] info: $1" app.log || :
}

test_expect_success 'setup: the pool answers; its master has started supervising once' '
	poll_until 50 answers &&
	test "$(master_logged supervising)" -eq 1
'

test_expect_success 'HUP and USR2 while the new program starts: the master lives, reopens the log and restarts again' '
	hold_reexec &&
	kill -HUP "$POOL_PID" &&
	kill -USR2 "$POOL_PID" &&
	svc_alive "$POOL_PID" &&
	release &&
	three () {
		test "$(master_logged supervising)" -eq 3
	} &&
	poll_until 150 three &&
	svc_alive "$POOL_PID" &&
	test "$(restarts)" -eq 2 &&
	poll_until 50 answers
'

test_expect_success 'TERM while the new program starts: the pool stops as for any TERM, not killed' '
	hold_reexec &&
	kill -TERM "$POOL_PID" &&
	release &&
	gone () {
		! svc_alive "$POOL_PID"
	} &&
	poll_until 150 gone &&
	test "$(master_logged supervising)" -eq 4 &&
	test "$(master_logged "stopping: workers finish")" -eq 1 &&
	test "$(master_logged stopped)" -eq 1
'
POOL_PID=

test_done
