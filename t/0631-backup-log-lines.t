#!/bin/sh
test_description='the log escapes control characters: a crafted archive member name logged by --restore (a line break, a carriage return, ESC) stays on its own line and starts none'
. "$(dirname "$0")/lib.sh"

# No database: the archive is read, and refused, before any connection.
test_expect_success 'setup: an archive whose member name holds a cron line between line breaks' '
	printf "jwt_secret = %s\nlog_file = %s\n" "$(svc_random_hex 32)" "$TRASH/restore.log" >restore.conf &&
	python3 -c "import io, sys, tarfile
t = tarfile.open(sys.argv[1], \"w\", format=tarfile.USTAR_FORMAT)
i = tarfile.TarInfo(\"x\n* * * * * root touch /tmp/owned\r\n\x1b[2K\")
i.size = 1
t.addfile(i, io.BytesIO(b\"x\"))
t.close()" crafted.tar
'

test_expect_success 'the restore is refused, naming the member' '
	! "$APP_BIN" -c restore.conf --restore crafted.tar >restore.out 2>&1 &&
	grep -q "is not a file the archive may hold" restore.out
'

test_expect_success 'the refusal is one line of the log, the member name escaped in it' '
	test "$(wc -l <restore.log)" = 1 &&
	grep -qF "member '"'"'x\\x0a* * * * * root touch /tmp/owned\\x0d\\x0a\\x1b[2K'"'"' is not" restore.log
'

test_expect_success 'no byte of the log is a control character but the line break that ends its line' '
	! LC_ALL=C grep -q "[[:cntrl:]]" restore.log &&
	! grep -q "^\* \* \* \* \*" restore.log
'

test_done
