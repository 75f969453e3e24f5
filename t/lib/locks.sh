# A second database session that plays the concurrent writer, for the tests of what requests do
# while a row is locked (t/0363, t/0370, t/0372). `hold SQL` runs SQL in an open transaction and
# keeps it open, its row locks held, until `release` commits it, in the same test body (the
# session's input is descriptor 9 of that body's shell). `lock_waits` tells when requests wait on
# those locks, so nothing sleeps to synchronise; every poll has a bound far above what any step
# takes, so a slow machine only makes a test slower. Background processes keep their PID in
# NAME.job; a test that fails stops them (stop_jobs, the EXIT trap hold sets), so none outlives
# its test.

# stop_jobs: stops the background processes of this test that are still running.
stop_jobs () {
	local f
	for f in *.job; do
		[ ! -e "$f" ] || svc_kill "$(cat "$f")" TERM 20
		rm -f "$f"
	done
}

# hold SQL: starts the second session, runs BEGIN and SQL there and returns once SQL has run.
hold () {
	rm -f held.fifo held.out &&
	mkfifo held.fifo &&
	trap stop_jobs EXIT &&
	# The client itself in the background (not svc_sql, a function), so held.job is its PID.
	{ mariadb --no-defaults --socket="$DB_SOCKET" --user="$svc_db_admin" --unbuffered -N -B \
		"$DB_NAME" <held.fifo >held.out 2>&1 9>&- & } &&
	echo $! >held.job &&
	# Kept open until release, so the client does not read end-of-file.
	exec 9>held.fifo &&
	printf '%s\n' "BEGIN;" "$1" "SELECT 'held';" >&9 &&
	poll_until 300 grep -qx held held.out
}

# release: commits the second session's transaction and waits (at most 30 s) for it to end.
release () {
	echo "COMMIT;" >&9 &&
	exec 9>&- &&
	svc_wait_gone "$(cat held.job)" 300 &&
	rm held.job &&
	! grep -n ERROR held.out
}

# lock_waits: how many transactions of this test's database (the server may be shared) wait for
# a row lock.
lock_waits () {
	db_exec "SELECT COUNT(*) FROM information_schema.innodb_trx t
		JOIN information_schema.processlist p ON p.id = t.trx_mysql_thread_id
		WHERE p.db = DATABASE() AND t.trx_state = 'LOCK WAIT'"
}
