#!/bin/sh
test_description='USR2 reloads with logrotate between them, a FastCGI connection open across the first: the master and the workers hold the same descriptors as before, none on a rotated file, and a stopping worker lets go of the connection'
. "$(dirname "$0")/lib.sh"

command -v logrotate >/dev/null 2>&1 || skip_all "logrotate is not installed (scripts/install-deps run)"

# What the test's shell holds reaches the pool through spawn-fcgi; not the pool's to close.
ls /proc/$$/fd >"$TRASH/inherited"

start_db
start_app workers=2

# What process $1 holds open, one "fd target" line each, sorted: a socket, pipe or anonymous inode
# without its inode number, which a new connection or a new generation of workers changes. Stdout
# and stderr are the service manager's (here app.log as spawn-fcgi was started, renamed since).
descriptors () {
	local fd target
	for fd in /proc/"$1"/fd/*; do
		target=$(readlink "$fd") || continue
		echo "${fd##*/} $target"
	done | sed -e 's/:\[[0-9]*\]$//' -e 's/^\([0-9]* anon_inode:\).*/\1/' -e 's/^\([12]\) .*/\1 stdio/' |
		sort -n
}

# The master's descriptors, then each worker's on one line, into file $1 (the workers' lines
# sorted, so that the lists of two generations line up whichever worker holds a connection).
snapshot () {
	{
		echo "master"
		descriptors "$POOL_PID"
		for pid in $(pool_workers); do
			echo "worker $(descriptors "$pid" | tr '\n' ';')"
		done | sort
	} >"$1"
}

# How many sockets the workers hold together.
worker_sockets () {
	for pid in $(pool_workers); do
		ls -l /proc/"$pid"/fd
	done | grep -c "socket:" || :
}

# Opens a FastCGI connection to the pool that sends nothing (t/fcgi-client.pl idle, for at most 60
# s; what it saw goes to $1.out, its pid to $1.pid) and waits until a worker has accepted it.
open_connection () {
	local before
	before=$(worker_sockets) &&
	{ "$TOP/t/fcgi-client.pl" "$APP_SOCKET" idle 60 >"$1.out" & } &&
	echo $! >"$1.pid" &&
	held () {
		test "$(worker_sockets)" -gt "$before"
	} &&
	poll_until 50 held
}
test_atexit 'for f in "$TRASH"/conn*.pid; do [ ! -s "$f" ] || kill "$(cat "$f")" 2>/dev/null; done'

# A worker opens its database connection, then its epoll descriptor, before it serves.
serving () {
	local pid
	for pid in $(pool_workers); do
		ls -l /proc/"$pid"/fd | grep -q "anon_inode:.eventpoll" || return 1
	done
}

# A new generation of 2 workers, none of them in $1, each serving.
new_generation () {
	local now pid
	now=$(pool_workers)
	[ $(echo "$now" | wc -w) -eq 2 ] || return 1
	for pid in $now; do
		! echo " $1 " | grep -q " $pid " || return 1
	done
	serving
}

test_expect_success 'setup: the descriptors of a pool whose workers serve, one holding a FastCGI connection' '
	poll_until 50 serving &&
	open_connection conn1 &&
	snapshot before &&
	cat before &&
	grep -q "app.log$" before
'

# The shipped logrotate snippet for app.log: this user instead of cms-fcgi, HUP to this pool
# instead of systemctl's. Forced, it renames app.log to app.log.1, compresses the previous .1
# (delaycompress) and deletes it: what left the pool holding deleted files.
test_expect_success 'setup: the logrotate snippet of make install, for this pool' '
	sed -e "s|^@localstatedir@/log/cms-fcgi/\*.log {|$TRASH/app.log {|" -e "/^[[:space:]]*su /d" \
		-e "s|create 0640 cms-fcgi cms-fcgi|create 0640 $(id -un) $(id -gn)|" \
		-e "s|^\([[:space:]]*\)systemctl kill .*|\1kill -HUP $POOL_PID|" \
		"$TOP/conf/cms-fcgi.logrotate.in" >logrotate.conf &&
	cat logrotate.conf &&
	grep -q "kill -HUP $POOL_PID" logrotate.conf &&
	grep -q "^$TRASH/app.log {" logrotate.conf
'

test_expect_success '5 USR2 reloads, each after logrotate rotated the log (compressing and deleting the older)' '
	for i in 1 2 3 4 5; do
		old=$(pool_workers) &&
		logrotate -f -s logrotate.state logrotate.conf &&
		test -e app.log.1 &&
		kill -USR2 "$POOL_PID" &&
		poll_until 150 new_generation "$old" || return 1
	done &&
	ls app.log* &&
	test -e app.log.4.gz &&
	test "$(zcat -f app.log* | grep -c "restarting: re-executing")" -eq 5
'

test_expect_success 'the connection open across the first reload was closed by its stopping worker' '
	wait_closed () {
		grep -q "^closed after" conn1.out
	} &&
	poll_until 100 wait_closed
'

test_expect_success 'with a connection open to the new workers, the master and each worker hold the same descriptors as before the reloads' '
	open_connection conn2 &&
	snapshot after &&
	cat after &&
	diff -u before after
'

test_expect_success 'no descriptor but the inherited stdout and stderr points to a rotated or deleted file' '
	for pid in "$POOL_PID" $(pool_workers); do
		descriptors "$pid" | sed "/^[012] /d"
	done >held &&
	! grep -E "app\.log\.[0-9]|\(deleted\)" held
'

# spawn-fcgi hands the listening socket over on fd 0 (which must cross the reload's exec);
# nothing the processes open themselves may (a reload, its -t check).
test_expect_success 'every descriptor the pool opened is close-on-exec in the master and the workers' '
	for pid in "$POOL_PID" $(pool_workers); do
		for info in /proc/$pid/fdinfo/*; do
			fd=${info##*/}
			! grep -qx "$fd" inherited || continue
			flags=$(sed -n "s/^flags:[[:space:]]*//p" "$info") || continue
			# O_CLOEXEC is 02000000 (octal) in fdinfo flags.
			echo "$pid $fd $(readlink "/proc/$pid/fd/$fd") cloexec=$(( (0$flags >> 19) & 1 ))"
		done
	done >flags &&
	cat flags &&
	test -s flags &&
	! grep "cloexec=0" flags
'

test_done
