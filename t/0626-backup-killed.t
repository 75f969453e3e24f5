#!/bin/sh
test_description='a backup killed with SIGKILL leaves its scratch directory (the option file with the password, the dump, the partial archive), and the next backup into that directory removes it; the scratch directory of a backup still running is never removed'
. "$(dirname "$0")/lib.sh"

command -v mariadb-dump >/dev/null 2>&1 || skip_all "mariadb-dump is not installed (scripts/install-deps)"

start_db
start_app

# The backups held in their dump stay at a known point, without any timing: the mariadb-dump in
# tools/ writes its PID to dump.pid, then waits to open the FIFO release for reading until a
# test opens it for writing, then runs the real one.
test_expect_success 'setup: a mariadb-dump that waits on a FIFO' '
	mkdir tools &&
	mkfifo release &&
	printf "#!/bin/sh\necho \$\$ >\"%s\"\n: <\"%s\"\nexec \"%s\" \"\$@\"\n" \
		"$TRASH/dump.pid" "$TRASH/release" "$(command -v mariadb-dump)" >tools/mariadb-dump &&
	chmod +x tools/mariadb-dump
'

# A backup still held when the file ends (a check failed before it was killed) is released: its
# dump then runs and it finishes. Opening the FIFO without blocking fails when nothing waits.
release_held () {
	python3 -c 'import os, sys
try:
    os.close(os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK))
except OSError:
    pass' "$TRASH/release"
}
test_atexit release_held

# held DIR: starts a backup into $TRASH/DIR through that mariadb-dump, its PID in held.pid, and
# returns once it is in its dump (its scratch directory made and claimed).
held () {
	rm -f "$TRASH/dump.pid" &&
	{ PATH=$TRASH/tools:$PATH "$APP_BIN" -c "$TRASH/cms.conf" --backup "$TRASH/$1" \
		>"$TRASH/held.out" 2>"$TRASH/held.err" & echo $! >"$TRASH/held.pid"; } &&
	poll_until 100 test -s "$TRASH/dump.pid"
}

# killed: SIGKILL to the held backup and to its dump, as an OOM kill or a power cut would leave
# them; returns once both are gone.
killed () {
	kill -9 "$(cat "$TRASH/held.pid")" "$(cat "$TRASH/dump.pid")" &&
	svc_wait_gone "$(cat "$TRASH/held.pid")" 100 &&
	svc_wait_gone "$(cat "$TRASH/dump.pid")" 100
}

scratch_dirs () {
	ls -A "$TRASH/$1" | grep "^\.cms-backup-"
}

test_expect_success 'a backup killed in its dump leaves its scratch directory, with the option file' '
	held killed &&
	killed &&
	test "$(scratch_dirs killed | wc -l)" = 1 &&
	test -f "killed/$(scratch_dirs killed)/client.cnf"
'

test_expect_success 'the next backup into that directory removes it, says so, and leaves only its archive' '
	"$APP_BIN" -c cms.conf --backup "$TRASH/killed" >next.path 2>next.err &&
	test "$(ls -A killed)" = "$(basename "$(cat next.path)")" &&
	grep -q "removed .*killed/\.cms-backup-.*left by a run that was killed" next.err
'

# Its archive is moved out before the last backup: two backups of one directory within one
# second are refused, and nothing here waits for the clock.
test_expect_success 'a backup leaves the scratch directory of a backup still running in that directory' '
	held running &&
	running=$(scratch_dirs running) &&
	"$APP_BIN" -c cms.conf --backup "$TRASH/running" >beside.path 2>beside.err &&
	mv "$(cat beside.path)" . &&
	test -d "running/$running" &&
	! grep -q "removed" beside.err &&
	killed &&
	"$APP_BIN" -c cms.conf --backup "$TRASH/running" >after.path 2>after.err &&
	test "$(ls -A running)" = "$(basename "$(cat after.path)")"
'

test_expect_success 'a directory like a scratch directory but without its claim is left alone' '
	mkdir -p unclaimed/.cms-backup-oldone &&
	echo kept >unclaimed/.cms-backup-oldone/db.sql &&
	"$APP_BIN" -c cms.conf --backup "$TRASH/unclaimed" >unclaimed.path 2>unclaimed.err &&
	test "$(cat unclaimed/.cms-backup-oldone/db.sql)" = kept
'

test_done
