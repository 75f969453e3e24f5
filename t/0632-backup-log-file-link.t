#!/bin/sh
test_description='root'"'"'s --backup and --restore, whose log_file is in a directory the service account owns, never write through a link the account planted (symbolic or hard), nor wait on a FIFO, nor append to a third user'"'"'s file moved in: refused with the reason; the account'"'"'s own log is appended to'
. "$(dirname "$0")/lib.sh"

# As the attacker: root runs the command, nobody owns the log directory and plants its entries.
[ "$(id -u)" = 0 ] || skip_all "planting as another user against root'\''s command needs root"
command -v runuser >/dev/null 2>&1 || skip_all "runuser is not installed (util-linux)"

reachable_dir LOGDIR log
# restore_logged: root's restore of an archive that does not exist, logging to $LOGDIR/cms.log
# (no database: the archive is read first); its output in restore.out.
restore_logged () {
	timeout 20 "$APP_BIN" -c "$TRASH/restore.conf" --restore "$TRASH/missing.tar" \
		>"$TRASH/restore.out" 2>&1
}
# as_account CMD...: CMD as the account that owns the log directory.
as_account () {
	runuser -u nobody -- "$@"
}

test_expect_success 'setup: a log directory owned by nobody, and a file of root'"'"'s outside it' '
	chown nobody:nogroup "$LOGDIR" &&
	printf "jwt_secret = %s\nlog_file = %s\n" "$(svc_random_hex 32)" "$LOGDIR/cms.log" >restore.conf &&
	echo "root:x:0:0" >precious &&
	sha256sum precious >precious.sum
'

test_expect_success 'a symbolic link planted as the log is refused, and the file it names is untouched' '
	as_account ln -s "$TRASH/precious" "$LOGDIR/cms.log" &&
	! restore_logged &&
	grep -q "cannot open log file .*: it is a symbolic link" restore.out &&
	sha256sum -c precious.sum
'

test_expect_success 'a hard link as the log (where protected_hardlinks is off) is refused, the file untouched' '
	rm -f "$LOGDIR/cms.log" &&
	ln precious "$LOGDIR/cms.log" &&
	! restore_logged &&
	grep -q "cannot open log file .*: it has another name" restore.out &&
	sha256sum -c precious.sum
'

test_expect_success 'a FIFO planted as the log is refused at once, not waited on' '
	rm -f "$LOGDIR/cms.log" &&
	as_account mkfifo "$LOGDIR/cms.log" &&
	! restore_logged &&
	grep -q "cannot open log file .*: it is not a regular file" restore.out
'

test_expect_success 'in the account'"'"'s directory, a log owned by a third user (neither root nor the account) is refused' '
	rm -f "$LOGDIR/cms.log" &&
	touch "$LOGDIR/cms.log" && chown daemon "$LOGDIR/cms.log" &&
	! restore_logged &&
	grep -q "cannot open log file .*: its owner (uid 1) is neither" restore.out &&
	test ! -s "$LOGDIR/cms.log"
'

test_expect_success 'in a directory only root writes, a log of another user'"'"'s (a CGI program'"'"'s) is appended to' '
	mkdir rootdir &&
	touch rootdir/cms.log && chown daemon rootdir/cms.log &&
	sed "s|^log_file = .*|log_file = $TRASH/rootdir/cms.log|" restore.conf >rootdir.conf &&
	! "$APP_BIN" -c rootdir.conf --restore "$TRASH/missing.tar" >rootdir.out 2>&1 &&
	grep -q "error: restore failed: cannot open" rootdir/cms.log
'

test_expect_success 'the account'"'"'s own log is appended to by root'"'"'s restore, and stays the account'"'"'s' '
	rm -f "$LOGDIR/cms.log" &&
	as_account touch "$LOGDIR/cms.log" &&
	! restore_logged &&
	grep -q "cannot open '"'"'$TRASH/missing.tar'"'"'" restore.out &&
	grep -q "error: restore failed: cannot open" "$LOGDIR/cms.log" &&
	test "$(stat -c %U "$LOGDIR/cms.log")" = nobody
'

# The account swaps its log for a link and back, as fast as it can, while root restores: there
# is no moment between a check and the open for it to win (the open itself refuses the link).
test_expect_success 'a log swapped for a link in a loop while root restores 40 times never reaches the file' '
	as_account sh -c "i=0; while [ \$i -lt 20000 ] && [ ! -e \"$LOGDIR/stop\" ]; do
		ln -s \"$TRASH/precious\" \"$LOGDIR/l\" && mv -T \"$LOGDIR/l\" \"$LOGDIR/cms.log\" &&
		: >\"$LOGDIR/f\" && mv -T \"$LOGDIR/f\" \"$LOGDIR/cms.log\"; i=\$((i + 1)); done" &
	racer=$! &&
	n=0 &&
	while [ $n -lt 40 ]; do restore_logged; n=$((n + 1)); done &&
	as_account touch "$LOGDIR/stop" &&
	wait $racer &&
	sha256sum -c precious.sum
'

test_done
