#!/bin/sh
test_description='Apache 2.4 with the shipped apache/cms-fcgi-fcgid.conf: mod_fcgid starts the binary as FastCGI workers of its own (no --supervise, the socket on fd 0) and carries the same behaviours'
TEST_WEB=apache-fcgid
. "$(dirname "$0")/lib.sh"

start_db
start_app max_body_bytes=4096
start_web

test_expect_success 'setup: httpd.conf includes the shipped snippets unchanged; no pool runs' '
	grep -q "^Include \"$TOP/apache/cms-fcgi-fcgid.conf\"\$" apache/httpd.conf &&
	grep -q "^Include \"$TOP/apache/cms-fcgi-assets.conf\"\$" apache/httpd.conf &&
	test -z "$POOL_PID" &&
	test ! -e pool.pid
'

. "$TOP/t/web-front-subset.sh"

test_expect_success 'the processes serve many requests each: fewer pids than access lines' '
	grep "access: method=" app.log | sed "s/.* pid=\([0-9]*\) .*/\1/" >pids &&
	test "$(sort -u pids | wc -l)" -lt "$(wc -l <pids)"
'

test_expect_success 'the processes run without --supervise, given the configuration by the wrapper line' '
	for pid in $(sort -u pids); do
		tr "\0" " " <"/proc/$pid/cmdline" || continue
		echo
	done >cmdlines &&
	test -s cmdlines &&
	grep -q -- "-c $TRASH/cms.conf" cmdlines &&
	! grep -q -- --supervise cmdlines
'

test_done
