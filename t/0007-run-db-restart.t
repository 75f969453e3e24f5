#!/bin/sh
test_description='make run (scripts/run) starts a stopped MariaDB again on the port it recorded, without CMS_DB_PORT, and keeps its state in CMS_VAR_DIR'
. "$(dirname "$0")/lib.sh"

use_make_run

# ready: GET /readyz through the nginx of scripts/run answers 200.
ready () {
	http GET /readyz 2>/dev/null && expect_status 200 2>/dev/null
}

# db_port_now: the port the mariadbd of CMS_VAR_DIR listens on, as the server says.
db_port_now () {
	svc_sql "$CMS_VAR_DIR/db.sock" -N -B -e "SELECT @@port"
}

# var_listing: the checkout's var/ (names, sizes, times), or ls saying there is none.
var_listing () {
	ls -lA --full-time "$TOP/var" 2>&1
}

var_listing >"$TRASH/var.before"

test_expect_success 'scripts/run with CMS_DB_PORT, CMS_FCGI_PORT and CMS_HTTP_PORT starts all three' '
	CMS_HTTP_PORT=$HTTP_PORT CMS_FCGI_PORT=$FCGI_PORT CMS_DB_PORT=$DB_PORT \
		"$TOP/scripts/run" >run1.out 2>&1 &&
	grep -qx "rec_db=$DB_PORT" "$CMS_VAR_DIR/ports" &&
	test "$(db_port_now)" = "$DB_PORT" &&
	ready
'

test_expect_success 'with mariadbd alone stopped by its PID file, /readyz answers 503' '
	svc_db_stop "$CMS_VAR_DIR/db.sock" "$CMS_VAR_DIR/db.pid" &&
	! svc_running "$CMS_VAR_DIR/db.pid" mariadbd &&
	http GET /readyz &&
	expect_status 503
'

test_expect_success 'scripts/run without CMS_DB_PORT starts mariadbd again on the recorded port' '
	"$TOP/scripts/run" >run2.out 2>&1 &&
	svc_running "$CMS_VAR_DIR/db.pid" mariadbd &&
	test "$(db_port_now)" = "$DB_PORT" &&
	grep -qx "rec_db=$DB_PORT" "$CMS_VAR_DIR/ports"
'

test_expect_success 'after the second scripts/run, /readyz answers 200 again' '
	poll_until 50 ready
'

test_expect_success 'scripts/stop stops nginx, the pool and mariadbd of CMS_VAR_DIR' '
	"$TOP/scripts/stop" >stop.out 2>&1 &&
	! svc_running "$CMS_VAR_DIR/nginx/nginx.pid" nginx &&
	! svc_running "$CMS_VAR_DIR/pool.pid" multiwatch &&
	! svc_running "$CMS_VAR_DIR/db.pid" mariadbd
'

test_expect_success 'the checkout var/ was left as it was' '
	{ var_listing >var.after || :; } &&
	diff -u var.before var.after
'

test_done
