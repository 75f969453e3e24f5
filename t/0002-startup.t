#!/bin/sh
test_description='the binary checks its configuration, takes CMS_* overrides and exits 0 on SIGTERM'
. "$(dirname "$0")/lib.sh"

start_db

good_secret=0123456789abcdef0123456789abcdef

test_expect_success 'setup: a valid config file' '
	cat >"$TRASH/good.conf" <<-EOF
	db_socket = $DB_SOCKET
	db_user = $svc_db_admin
	db_name = $DB_NAME
	message_file = $TOP/conf/code-message.properties
	log_file = $TRASH/listen.log
	jwt_secret = $good_secret
	EOF
'

test_expect_success '-t accepts the valid config' '
	"$APP_BIN" -c "$TRASH/good.conf" -t 2>"$TRASH/err"
'

test_expect_success '-t refuses a config without jwt_secret and names the key' '
	grep -v jwt_secret "$TRASH/good.conf" >"$TRASH/nosecret.conf" &&
	! "$APP_BIN" -c "$TRASH/nosecret.conf" -t 2>"$TRASH/err" &&
	grep -q "jwt_secret is not set" "$TRASH/err"
'

test_expect_success '-t refuses the published Lin CMS default secret' '
	sed "s/^jwt_secret = .*/jwt_secret = x88Wf0991079889x8796a0Ac68f9ecJJU17c5Vbe8beod7d8d3e695*4/" \
		"$TRASH/good.conf" >"$TRASH/default.conf" &&
	! "$APP_BIN" -c "$TRASH/default.conf" -t 2>"$TRASH/err" &&
	grep -q "published default" "$TRASH/err"
'

test_expect_success '-t refuses a secret of 31 bytes and accepts one of 32' '
	sed "s/^jwt_secret = .*/jwt_secret = 0123456789abcdef0123456789abcde/" \
		"$TRASH/good.conf" >"$TRASH/short.conf" &&
	! "$APP_BIN" -c "$TRASH/short.conf" -t 2>"$TRASH/err" &&
	grep -q "shorter than 32 bytes" "$TRASH/err"
'

test_expect_success 'an unknown key stops start-up with the file and the line' '
	{ echo "# comment"; echo "lisen = 127.0.0.1:9000"; } >"$TRASH/typo.conf" &&
	! "$APP_BIN" -c "$TRASH/typo.conf" -t 2>"$TRASH/err" &&
	grep -q "typo.conf.* line 2: unknown key .lisen." "$TRASH/err"
'

test_expect_success 'a value out of range stops start-up' '
	{ cat "$TRASH/good.conf"; echo "workers = 0"; } >"$TRASH/range.conf" &&
	! "$APP_BIN" -c "$TRASH/range.conf" -t 2>"$TRASH/err" &&
	grep -q "key .workers.: .0. is out of range" "$TRASH/err"
'

test_expect_success 'a listen address without a host is refused' '
	CMS_LISTEN=:9000 && export CMS_LISTEN &&
	! "$APP_BIN" -c "$TRASH/good.conf" -t 2>"$TRASH/err" &&
	grep -q "has no host" "$TRASH/err"
'

test_expect_success 'CMS_WORKERS overrides the file and --get prints the effective value' '
	echo "workers = 3" >"$TRASH/workers.conf" &&
	"$APP_BIN" -c "$TRASH/workers.conf" --get workers >"$TRASH/out" &&
	test "$(cat "$TRASH/out")" = 3 &&
	CMS_WORKERS=7 "$APP_BIN" -c "$TRASH/workers.conf" --get workers >"$TRASH/out" &&
	test "$(cat "$TRASH/out")" = 7
'

test_expect_success 'CMS_JWT_SECRET supplies the secret a file lacks' '
	CMS_JWT_SECRET=$good_secret "$APP_BIN" -c "$TRASH/nosecret.conf" -t 2>"$TRASH/err"
'

test_expect_success 'a malformed message file stops start-up with its line' '
	{ echo "code-message[1]=ok"; echo "not a message line"; } >"$TRASH/bad.properties" &&
	! CMS_MESSAGE_FILE=$TRASH/bad.properties "$APP_BIN" -c "$TRASH/good.conf" -t 2>"$TRASH/err" &&
	grep -q "bad.properties. line 2" "$TRASH/err"
'

listen_port=$(test_port 2)

test_expect_success 'with --listen the binary serves FastCGI itself and exits 0 on SIGTERM' '
	"$APP_BIN" -c "$TRASH/good.conf" --listen 127.0.0.1:$listen_port 2>"$TRASH/listen.err" &
	pid=$! &&
	ready () { grep -q "ready: accepting FastCGI requests" "$TRASH/listen.log"; } &&
	poll_until 50 ready &&
	kill -TERM $pid &&
	wait $pid &&
	grep -q "stopping: signal received" "$TRASH/listen.log"
'

test_expect_success 'SIGUSR1 (what multiwatch sends) also ends it with status 0' '
	"$APP_BIN" -c "$TRASH/good.conf" --listen 127.0.0.1:$listen_port 2>"$TRASH/listen.err" &
	pid=$! &&
	ready () { test "$(grep -c "ready: accepting" "$TRASH/listen.log")" -ge 2; } &&
	poll_until 50 ready &&
	kill -USR1 $pid &&
	wait $pid
'

test_expect_success '--version prints the version of configure.ac and exits 0, whatever follows it' '
	version=$(sed -n "s/^AC_INIT(\[cms-fcgi\], \[\([^]]*\)\]).*/\1/p" "$TOP/configure.ac") &&
	test -n "$version" &&
	"$APP_BIN" --version >out 2>err &&
	echo "cms-fcgi $version" >expect &&
	diff -u expect out &&
	! test -s err &&
	"$APP_BIN" --version --no-such-option >out &&
	diff -u expect out
'

test_expect_success 'the command line: -h exits 0, an unknown or incomplete option 2, both with the usage' '
	"$APP_BIN" -h 2>err && grep -q "^usage: cms-fcgi" err &&
	"$APP_BIN" --help 2>err && grep -q "^usage: cms-fcgi" err &&
	for args in --no-such-option "-c" "--listen" "--get" "--restore" "-t --env" \
		"--db-admin me -t" "-c $TRASH/good.conf --db-admin me"; do
		rc=0 &&
		"$APP_BIN" $args >out 2>err || rc=$? &&
		{ [ "$rc" -eq 2 ] || { echo "$args: exit $rc"; false; }; } &&
		grep -q "^usage: cms-fcgi" err || return 1
	done
'

test_expect_success 'the command line: of several commands the first of the table runs (--get before -t, --restore before --backup)' '
	"$APP_BIN" -c "$TRASH/good.conf" -t --get db_name >out 2>err &&
	echo "$DB_NAME" >expect &&
	diff -u expect out &&
	! "$APP_BIN" -c "$TRASH/good.conf" --backup "$TRASH/b" --restore "$TRASH/none.tar" 2>err &&
	grep -q "none.tar" err &&
	! test -e "$TRASH/b"
'

test_expect_success 'the command line: an empty archive names no restore, and so never a backup either' '
	CMS_BACKUP_DIR="$TRASH/kept" "$APP_BIN" -c "$TRASH/good.conf" --restore "" </dev/null >out 2>err;
	! test -e "$TRASH/kept" &&
	! grep -q "cms-backup-" out err
'

test_done
