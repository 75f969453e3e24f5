# Test library for the black-box tests t/NNNN-name.t: TAP output, a trash directory per file,
# fixtures (MariaDB, the FastCGI pool, nginx or Apache with the shipped config) on loopback ports
# derived from the file's number, HTTP and assertion helpers. Sourced by each t/*.t; POSIX sh plus
# `local`. Everything started here is stopped at exit by recorded PID, in reverse order.
#
# TEST_WEB chooses the front of start_web: nginx (the default), apache (mod_proxy_fcgi to the
# pool), apache-cgi (mod_cgi runs the binary per request), apache-fcgid (mod_fcgid runs it as
# workers of its own) or apache-htaccess (a shared host's Apache serving $TRASH/public_html,
# which the test file fills first); with the last three start_app starts no pool.
#
# TEST_CLUSTER_DIR (set by scripts/check-cluster) names a running 3-node Galera cluster (see
# svc_galera_start): start_db makes the file's database there (on node 1), start_app starts two
# pools standing for two application hosts (pool 1 tries node 1 first, pool 2 node 2) and
# start_nginx one upstream over both, so consecutive requests alternate between them.

TEST_NAME=$(basename "$0" .t)
TEST_NUMBER=$(expr "$TEST_NAME" : '\([0-9]*\)')
TEST_NUMBER=$(expr "0$TEST_NUMBER" + 0)
TOP=$(cd "$(dirname "$0")/.." && pwd)
APP_BIN=${APP_BIN:-$TOP/src/cms-fcgi}
ROOT_PASSWORD=Root_pass1
TRASH=$TOP/t/trash.$TEST_NAME

. "$TOP/scripts/lib-services.sh"

# The developer's CMS_* variables would override the test configuration; the test decides.
for _v in $(env | sed -n 's/^\(CMS_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$_v"
done
unset _v

test_count=0
test_failed=0
test_done_ok=
app_started=
app_errors_allowed=
TOKEN=
REFRESH_TOKEN=
DB_PID=
DB_SHARED=
POOL_PID=
NGINX_PID=
APACHE_PID=
DB_ACCOUNT=
TEST_WEB=${TEST_WEB:-nginx}
FILE_STORE_DIR=
SOCK_DIR=
POOL2_PID=
APP_SOCKET2=
[ -z "${TEST_CLUSTER_DIR:-}" ] || TEST_DB_SOCKET=$TEST_CLUSTER_DIR/node1/db.sock
VALIDATOR_PID=

# ---- TAP core -----------------------------------------------------------------------------------

# Prints each line of stdin as a TAP diagnostic on stderr (which prove always shows).
say_diag () {
	sed 's/^/# /' >&2
}

skip_all () {
	# CI must have every tool: there a skip is a failure (.ci/run sets TEST_NO_SKIP).
	[ -z "${TEST_NO_SKIP:-}" ] || bail_out "cannot skip in CI: $1"
	echo "1..0 # SKIP $1"
	test_done_ok=1
	exit 0
}

# Stops the file with reason $1, after showing what the fixtures said (fixture.log).
bail_out () {
	[ ! -s "$TRASH/fixture.log" ] || tail -n 20 "$TRASH/fixture.log" | say_diag
	echo "Bail out! $TEST_NAME: $1"
	exit 1
}

# Runs body $2 in a subshell inside the trash dir, output to test.log; prints ok / not ok $1.
test_expect_success () {
	_test_run "$1" "$2" && return 0
	test_failed=$((test_failed + 1))
}

# Like test_expect_success for a known bug: reported as TODO, never counted as a failure.
test_expect_failure () {
	_test_run "$1" "$2" "# TODO known breakage"
	return 0
}

_test_run () {
	local title=$1 body=$2 todo=${3:-} start
	test_count=$((test_count + 1))
	start=$(wc -l <"$TRASH/test.log")
	echo "=== $test_count - $title" >>"$TRASH/test.log"
	if (cd "$TRASH" && eval "$body") </dev/null >>"$TRASH/test.log" 2>&1; then
		echo "ok $test_count - $title${todo:+ $todo vanished}"
		return 0
	fi
	echo "not ok $test_count - $title${todo:+ $todo}"
	[ -z "$todo" ] || return 1
	{
		echo "failed: $title"
		printf '%s\n' "$body" | sed '/^[[:space:]]*$/d'
		echo "--- output (test.log, last 30 lines):"
		sed -n "$((start + 2)),\$p" "$TRASH/test.log" | tail -n 30
	} | say_diag
	return 1
}

# Turns off the automatic "app log has no error: lines" check, for files that provoke errors.
allow_app_errors () {
	app_errors_allowed=1
}

# Stops the services so their shutdown is checked too, runs the automatic checks, prints the
# plan and exits non-zero if anything failed.
test_done () {
	if [ -n "$NGINX_PID" ]; then
		svc_nginx_stop "$TRASH/nginx" 2>>"$TRASH/fixture.log"
		NGINX_PID=
	fi
	if [ -n "$APACHE_PID" ]; then
		svc_apache_stop "$TRASH/apache" 2>>"$TRASH/fixture.log"
		APACHE_PID=
		if web_runs_app && [ -z "$app_errors_allowed" ]; then
			test_expect_success "app log of the processes $TEST_WEB ran has no error: lines" '
				! grep -n "error:" app.log
			'
		fi
	fi
	if [ -n "$POOL_PID" ]; then
		test_expect_success 'the FastCGI pool stops on TERM without a KILL' '
			svc_pool_stop "$TRASH/pool.pid"
		'
		POOL_PID=
	fi
	if [ -n "$POOL2_PID" ]; then
		test_expect_success 'the second FastCGI pool stops on TERM without a KILL' '
			svc_pool_stop "$TRASH/pool2.pid"
		'
		POOL2_PID=
	fi
	if [ -n "$app_started" ]; then
		# A pool that logged nothing, or whose log went elsewhere, must not pass for a clean one.
		test_expect_success 'app log exists and has no sanitizer report' '
			test -s app.log &&
			! grep -nE "(ERROR|SUMMARY): [A-Za-z]+Sanitizer|runtime error:" app.log
		'
		if [ -z "$app_errors_allowed" ]; then
			test_expect_success 'app log has no error: lines' '
				! grep -n "error:" app.log
			'
		fi
	fi
	if [ -e "$TRASH/nginx/nginx.conf" ]; then
		test_expect_success 'nginx error.log has no [alert], [crit] or [emerg] lines' '
			! grep -nE "\[(alert|crit|emerg)\]" nginx/error.log
		'
	fi
	if [ -e "$TRASH/apache/httpd.conf" ]; then
		test_expect_success 'apache error.log has no alert, crit or emerg lines' '
			! grep -nE ":(alert|crit|emerg)\]" apache/error.log
		'
	fi
	echo "1..$test_count"
	if [ "$test_failed" -gt 0 ]; then
		echo "$test_failed of $test_count failed; files kept in $TRASH" | say_diag
		exit 1
	fi
	test_done_ok=1
	exit 0
}

# test_atexit CMD: runs the shell command CMD when the file exits, even after a bail out, before
# the fixtures are stopped; for what a file starts itself. The last one given runs first.
test_atexit () {
	_atexit="$1${_atexit:+; $_atexit}"
}

# True when the front TEST_WEB names runs the binary itself, so that no pool is started.
web_runs_app () {
	case $TEST_WEB in apache-cgi | apache-fcgid | apache-htaccess) return 0 ;; esac
	return 1
}

# Each stop is a no-op when its PID file names no live process of the right program, so this
# also catches a fixture that bailed out half-started.
_cleanup () {
	[ -z "${_atexit:-}" ] || (cd "$TOP" && eval "$_atexit") >>"$TRASH/fixture.log" 2>&1
	svc_nginx_stop "$TRASH/nginx"
	# start_apache's, and any a test file started in a directory of its own next to it.
	for _d in "$TRASH"/apache*; do
		svc_apache_stop "$_d"
	done
	svc_pool_stop "$TRASH/pool.pid"
	svc_pool_stop "$TRASH/pool2.pid"
	for _d in "$TRASH"/nginx-pool*; do
		svc_nginx_stop "$_d"
	done
	if [ -n "$DB_SHARED" ]; then
		svc_sql "$DB_SOCKET" -e "DROP DATABASE IF EXISTS \`$DB_NAME\`"
		[ -z "$DB_ACCOUNT" ] || svc_sql "$DB_SOCKET" -e "DROP USER IF EXISTS '$DB_ACCOUNT'@'localhost'"
	else
		svc_db_stop "${DB_SOCKET:-}" "$TRASH/db/db.pid"
	fi
	[ -z "$VALIDATOR_PID" ] || kill "$VALIDATOR_PID" 2>/dev/null
	[ -z "$SOCK_DIR" ] || rm -rf "$SOCK_DIR"
	if [ -n "$test_done_ok" ] && [ -z "${TEST_KEEP:-}" ]; then
		cd "$TOP" && rm -rf "$TRASH"
	fi
}

# ---- Fixtures (call at top level, not inside test bodies, so the PIDs are kept) -----------------
# Their stderr goes to $TRASH/fixture.log, which bail_out shows.

# TEST_PORT_BASE (20000) + 4 x file number + $1: 0 for the FastCGI pool, 1 for nginx, 2 and 3
# spare. Two checkouts tested at once on one machine need bases 40000 apart.
test_port () {
	echo $((${TEST_PORT_BASE:-20000} + 4 * TEST_NUMBER + $1))
}

# Polls command "$2 ..." every 0.1 s until it succeeds, at most $1 tenths of a second.
poll_until () {
	local max=$1 i=0
	shift
	until "$@"; do
		[ "$i" -lt "$max" ] || { echo "still failing after $((max / 10)) s: $*" >&2; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
}

# Sets variable $1 to a unix socket path named $2: in the trash dir, or in a short private
# directory under /tmp when that path would be too long for a socket.
set_socket_path () {
	local dir=$TRASH
	if [ "${#TRASH}" -gt 90 ]; then
		[ -n "$SOCK_DIR" ] || SOCK_DIR=$(mktemp -d /tmp/cms-t.XXXXXX) || bail_out "mktemp failed"
		dir=$SOCK_DIR
	fi
	eval "$1=\$dir/\$2"
}

_start_private_db () {
	# A small buffer pool and redo log: a test database holds a few rows, and prove -j runs
	# several servers at once.
	DB_PID=$(svc_db_start "$TRASH/db/data" "$DB_SOCKET" "$TRASH/db/db.pid" "$TRASH/db/db.err" "" \
		--innodb-buffer-pool-size=32M --innodb-log-file-size=8M 2>>"$TRASH/fixture.log") ||
		bail_out "mariadbd did not start"
}

# A database with the schema, the seed and root's password $ROOT_PASSWORD: a fresh database on
# the shared server of $TEST_DB_SOCKET (dropped at exit), otherwise, or with --private, a
# private server in the trash dir (needed to stop and restart it).
start_db () {
	local name
	if [ "${1:-}" != --private ] && [ -n "${TEST_DB_SOCKET:-}" ]; then
		DB_SOCKET=$TEST_DB_SOCKET
		name=$(echo "$TEST_NAME" | tr -c 'A-Za-z0-9\n' _)
		DB_NAME=t_${name}_$$
		svc_db_ping "$DB_SOCKET" || bail_out "no MariaDB answers on TEST_DB_SOCKET=$DB_SOCKET"
		DB_SHARED=1
	else
		set_socket_path DB_SOCKET db.sock
		DB_NAME=cms
		svc_db_init "$TRASH/db/data" "$TRASH/db/install.log" 2>>"$TRASH/fixture.log" ||
			bail_out "mariadb-install-db failed"
		_start_private_db
	fi
	svc_sql "$DB_SOCKET" -e "CREATE DATABASE \`$DB_NAME\`
		CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci" 2>>"$TRASH/fixture.log" ||
		bail_out "cannot create database $DB_NAME"
	svc_db_load "$DB_SOCKET" "$DB_NAME" "$TOP" 2>>"$TRASH/fixture.log" ||
		bail_out "cannot load sql/ into $DB_NAME"
	[ -x "$APP_BIN" ] || bail_out "$APP_BIN is not built (run make)"
	svc_db_set_root_password "$DB_SOCKET" "$DB_NAME" "$APP_BIN" "$ROOT_PASSWORD" \
		2>>"$TRASH/fixture.log" || bail_out "cannot set root's password"
}

# Stops the private server of start_db --private (cleanly, like an operator would).
stop_db () {
	[ -n "$DB_PID" ] || bail_out "stop_db needs start_db --private"
	svc_db_stop "$DB_SOCKET" "$TRASH/db/db.pid" 2>>"$TRASH/fixture.log" ||
		bail_out "mariadbd did not stop cleanly"
	DB_PID=
}

# Starts the private server again on the same datadir and socket.
restart_db () {
	[ -d "$TRASH/db/data" ] && [ -z "$DB_SHARED" ] || bail_out "restart_db needs start_db --private"
	[ -z "$DB_PID" ] || stop_db
	_start_private_db
}

# A MariaDB account with a password and the rights of make run's `cms` on the test database, as
# a hosting provider gives one: a binary run by an Apache started as root runs as nobody (see
# svc_apache_start), whom the admin account's unix_socket authentication does not let in. Sets
# DB_ACCOUNT and DB_ACCOUNT_PASSWORD; the account is dropped with the database.
_db_password_account () {
	DB_ACCOUNT=$DB_NAME
	DB_ACCOUNT_PASSWORD=$(svc_random_alnum 24)
	svc_sql "$DB_SOCKET" -e "CREATE USER '$DB_ACCOUNT'@'localhost' IDENTIFIED BY '$DB_ACCOUNT_PASSWORD';
		GRANT SELECT, INSERT, UPDATE, DELETE ON \`$DB_NAME\`.* TO '$DB_ACCOUNT'@'localhost'" \
		2>>"$TRASH/fixture.log" || bail_out "cannot create the database account $DB_ACCOUNT"
}

# Writes $TRASH/cms.conf (test defaults, each replaced by a key=value argument of the same key)
# and starts the pool (cms-fcgi --supervise under spawn-fcgi) on the unix socket $APP_SOCKET;
# when the front runs the binary (web_runs_app), no pool and a password database account.
# Readiness is checked by start_web, through the front.
# Uploads go to FILE_STORE_DIR ($TRASH/assets unless given), which the front serves at /assets/.
start_app () {
	local kv key conf=$TRASH/cms.conf workers
	[ -x "$APP_BIN" ] || bail_out "$APP_BIN is not built (run make)"
	[ -n "${DB_NAME:-}" ] || bail_out "start_app needs start_db first"
	set_socket_path APP_SOCKET pool.sock
	! web_runs_app || _db_password_account
	{
		echo "# written by t/lib.sh start_app"
		echo "workers = 2"
		if [ -n "${TEST_CLUSTER_DIR:-}" ]; then
			echo "db_hosts = $(cluster_node_sockets 1 2 3)"
		else
			echo "db_socket = $DB_SOCKET"
		fi
		if [ -n "$DB_ACCOUNT" ]; then
			echo "db_user = $DB_ACCOUNT"
			echo "db_password = $DB_ACCOUNT_PASSWORD"
		else
			echo "db_user = $svc_db_admin"
		fi
		echo "db_name = $DB_NAME"
		echo "jwt_secret = $(svc_random_hex 32)"
		echo "log_file = $TRASH/app.log"
		echo "message_file = $TOP/conf/code-message.properties"
		echo "file_store_dir = $TRASH/assets"
		echo "file_public_url = http://127.0.0.1:$(test_port 1)/assets/"
	} >"$conf"
	for kv in "$@"; do
		key=${kv%%=*}
		case $kv in [a-z]*=*) ;; *) bail_out "start_app: not key=value: $kv" ;; esac
		sed -i "/^$key = /d" "$conf"
		echo "$key = ${kv#*=}" >>"$conf"
	done
	chmod 600 "$conf"
	"$APP_BIN" -c "$conf" -t >>"$TRASH/fixture.log" 2>&1 ||
		bail_out "$APP_BIN -c cms.conf -t rejects the test configuration"
	workers=$("$APP_BIN" -c "$conf" --get workers 2>>"$TRASH/fixture.log") ||
		bail_out "cannot read workers from cms.conf"
	FILE_STORE_DIR=$("$APP_BIN" -c "$conf" --get file_store_dir 2>>"$TRASH/fixture.log") ||
		bail_out "cannot read file_store_dir from cms.conf"
	case $FILE_STORE_DIR in /*) ;; *) FILE_STORE_DIR=$TRASH/$FILE_STORE_DIR ;; esac
	! web_runs_app || return 0
	app_started=1
	POOL_PID=$(svc_pool_start "$APP_BIN" "$conf" "$APP_SOCKET" "$workers" "$TRASH/app.log" "$TRASH" \
		"$TRASH/pool.pid" 2>>"$TRASH/fixture.log") || bail_out "the FastCGI pool did not start"
	[ -z "${TEST_CLUSTER_DIR:-}" ] || _start_pool2 "$workers"
}

# The second application host of a cluster test: the same configuration but for the order of
# db_hosts (node 2 first), its own socket APP_SOCKET2, the same log and file store.
_start_pool2 () {
	set_socket_path APP_SOCKET2 pool2.sock
	sed "s|^db_hosts = .*|db_hosts = $(cluster_node_sockets 2 3 1)|" "$TRASH/cms.conf" >"$TRASH/cms2.conf"
	chmod 600 "$TRASH/cms2.conf"
	POOL2_PID=$(svc_pool_start "$APP_BIN" "$TRASH/cms2.conf" "$APP_SOCKET2" "$1" "$TRASH/app.log" \
		"$TRASH" "$TRASH/pool2.pid" 2>>"$TRASH/fixture.log") || bail_out "the second pool did not start"
}

# The unix sockets of the cluster nodes $@, comma-separated, in that order.
cluster_node_sockets () {
	local n out=
	for n in "$@"; do
		out=$out${out:+,}$TEST_CLUSTER_DIR/node$n/db.sock
	done
	echo "$out"
}

# Starts an nginx in front of each pool alone: pool N on test_port N+1 (see via_pool), for
# checks that must know which application host answers.
start_pool_fronts () {
	local n sock
	[ -n "$POOL2_PID" ] || bail_out "start_pool_fronts needs start_app on a cluster"
	for n in 1 2; do
		sock=$APP_SOCKET
		[ "$n" = 1 ] || sock=$APP_SOCKET2
		svc_port_free "$(test_port $((n + 1)))" || bail_out "port $(test_port $((n + 1))) is in use"
		svc_nginx_conf "$TRASH/nginx-pool$n" "$(test_port $((n + 1)))" "$sock" "$TOP" \
			"$FILE_STORE_DIR" || bail_out "cannot write nginx-pool$n/nginx.conf"
		_nginx_texts "$TRASH/nginx-pool$n"
		svc_nginx_start "$TRASH/nginx-pool$n" >/dev/null 2>>"$TRASH/fixture.log" ||
			bail_out "nginx for pool $n did not start"
		svc_wait_http_200 "http://127.0.0.1:$(test_port $((n + 1)))/healthz" 100 \
			2>>"$TRASH/fixture.log" || bail_out "pool $n alone did not answer /healthz"
	done
}

# via_pool N CMD...: runs CMD (http, login, ...) against pool N alone (after start_pool_fronts).
via_pool () {
	local HTTP_PORT
	HTTP_PORT=$(test_port $(($1 + 1)))
	shift
	"$@"
}

# node_sql N SQL: the rows of SQL in the test database on cluster node N, after the node has
# applied every write committed before (wsrep_sync_wait).
node_sql () {
	svc_sql "$TEST_CLUSTER_DIR/node$1/db.sock" -N -B "$DB_NAME" \
		-e "SET SESSION wsrep_sync_wait = 1; $2"
}

# For a file that runs scripts/run and scripts/stop (make run): their state in CMS_VAR_DIR under
# the trash dir, never the checkout's var/ (a developer's make run); HTTP_PORT, FCGI_PORT and
# DB_PORT free ports of this file; scripts/stop at exit.
use_make_run () {
	local port
	CMS_VAR_DIR=$TRASH/var
	# Its sockets must fit in a unix socket path.
	if [ "${#CMS_VAR_DIR}" -gt 90 ]; then
		SOCK_DIR=$(mktemp -d /tmp/cms-t.XXXXXX) || bail_out "mktemp failed"
		CMS_VAR_DIR=$SOCK_DIR/var
	fi
	export CMS_VAR_DIR
	HTTP_PORT=$(test_port 1)
	FCGI_PORT=$(test_port 0)
	DB_PORT=$(test_port 2)
	for port in $HTTP_PORT $FCGI_PORT $DB_PORT; do
		svc_port_free "$port" || bail_out "port $port is already in use"
	done
	test_atexit '"$TOP/scripts/stop"'
}

# Starts t/openapi-validate, which check_openapi asks about each response through two FIFOs
# (its verdicts in $TRASH/openapi.log), and waits (at most 30 s) until it has read the document.
# Once per file; start_nginx and start_apache call it.
start_validator () {
	[ -z "$VALIDATOR_PID" ] || return 0
	rm -f "$TRASH/openapi.in" "$TRASH/openapi.out" "$TRASH/openapi.log"
	mkfifo "$TRASH/openapi.in" "$TRASH/openapi.out" || bail_out "mkfifo failed"
	/usr/bin/python3 "$TOP/t/openapi-validate" "$TRASH/openapi.in" "$TRASH/openapi.out" \
		"$TOP/doc/openapi.yaml" "$TRASH/openapi.log" 2>>"$TRASH/fixture.log" &
	VALIDATOR_PID=$!
	poll_until 300 test -s "$TRASH/openapi.log" 2>>"$TRASH/fixture.log" ||
		bail_out "t/openapi-validate did not start (python3-jsonschema, python3-yaml: scripts/install-deps)"
}

# Starts nginx with the shipped nginx/cms-fcgi.conf (and the texts of start_app's message file) on
# test_port 1 and waits (at most 10 s) until GET /healthz answers 200 through it.
start_nginx () {
	start_validator
	HTTP_PORT=$(test_port 1)
	svc_port_free "$HTTP_PORT" || bail_out "port $HTTP_PORT is already in use"
	[ -n "${APP_SOCKET:-}" ] || set_socket_path APP_SOCKET pool.sock
	svc_nginx_conf "$TRASH/nginx" "$HTTP_PORT" "$APP_SOCKET${APP_SOCKET2:+ $APP_SOCKET2}" "$TOP" \
		"$FILE_STORE_DIR" ||
		bail_out "cannot write nginx.conf"
	_nginx_texts "$TRASH/nginx"
	NGINX_PID=$(svc_nginx_start "$TRASH/nginx" 2>>"$TRASH/fixture.log") ||
		bail_out "nginx did not start"
	_wait_front nginx "$NGINX_PID"
}

# Writes the texts of nginx's own errors (svc_nginx_texts) into the nginx directory $1 from
# start_app's cms.conf; without one, nginx keeps the defaults of nginx/cms-fcgi.conf.
_nginx_texts () {
	[ -e "$TRASH/cms.conf" ] || return 0
	svc_nginx_texts "$1" "$APP_BIN" "$TRASH/cms.conf" 2>>"$TRASH/fixture.log" ||
		bail_out "cms-fcgi --nginx-texts rejects the test configuration"
}

# Waits (at most 10 s) until GET /healthz answers 200 through front $1 (process $2, its logs in
# $TRASH/$1), or bails out with what the app and the front logged.
_wait_front () {
	svc_wait_http_200 "http://127.0.0.1:$HTTP_PORT/healthz" 100 "$2" 2>>"$TRASH/fixture.log" &&
		return 0
	{
		echo "--- app.log:"
		tail -n 15 "$TRASH/app.log" 2>/dev/null
		echo "--- $1/error.log:"
		tail -n 5 "$TRASH/$1/error.log"
	} >>"$TRASH/fixture.log"
	bail_out "GET /healthz through $1 did not answer 200"
}

# Starts the front TEST_WEB names on test_port 1 (see start_nginx and start_apache).
start_web () {
	case $TEST_WEB in
	nginx) start_nginx ;;
	apache) start_apache proxy ;;
	apache-cgi) start_apache cgi ;;
	apache-fcgid) start_apache fcgid ;;
	apache-htaccess) start_apache htaccess ;;
	*) bail_out "TEST_WEB is nginx, apache, apache-cgi, apache-fcgid or apache-htaccess, not $TEST_WEB" ;;
	esac
}

# Starts a private Apache with the shipped apache/cms-fcgi-$1.conf (proxy: mod_proxy_fcgi to the
# pool; cgi or fcgid: mod_cgi or mod_fcgid running $APP_BIN with $TRASH/cms.conf; htaccess: no
# snippet, $TRASH/public_html with AllowOverride All) on test_port 1, and waits (at most 10 s)
# until GET /healthz answers 200 through it.
start_apache () {
	local target=$APP_BIN
	start_validator
	HTTP_PORT=$(test_port 1)
	svc_port_free "$HTTP_PORT" || bail_out "port $HTTP_PORT is already in use"
	if [ "$1" = proxy ]; then
		[ -n "${APP_SOCKET:-}" ] || set_socket_path APP_SOCKET pool.sock
		target=$APP_SOCKET
	fi
	[ "$1" != htaccess ] || target=$TRASH/public_html
	svc_apache_conf "$TRASH/apache" "$HTTP_PORT" "$1" "$TOP" "$target" "$FILE_STORE_DIR" \
		"$TRASH/cms.conf" 2>>"$TRASH/fixture.log" || bail_out "cannot write httpd.conf"
	APACHE_PID=$(svc_apache_start "$TRASH/apache" 2>>"$TRASH/fixture.log") ||
		bail_out "apache2 did not start"
	_wait_front apache "$APACHE_PID"
}

# PIDs of the pool's workers (children of its master), sorted, space-separated.
pool_workers () {
	svc_children "$POOL_PID" | sort -n | tr '\n' ' ' | sed 's/ $//'
}

# paused_request OUT BODY AT PARAM...: a request straight to the pool's socket (t/fcgi-client.pl,
# with --param NAME=VALUE arguments), in the background, whose body stops after AT bytes until
# pause/go exists; returns once the pool is reading it (pause/paused). The answer goes to OUT.
paused_request () {
	local out=$1 body=$2 at=$3
	shift 3
	rm -rf pause && mkdir pause &&
	{ "$TOP/t/fcgi-client.pl" "$APP_SOCKET" request "$@" --body "$body" --pause-at "$at" \
		--pause-dir pause >"$out" & } &&
	poll_until 50 test -e pause/paused
}

# Stops the pool of start_app (TERM, as an operator would), e.g. to see what nginx answers without
# it. The end-of-file checks of the pool are then skipped.
stop_app () {
	[ -n "$POOL_PID" ] || bail_out "stop_app needs start_app"
	svc_pool_stop "$TRASH/pool.pid" 2>>"$TRASH/fixture.log" ||
		bail_out "the FastCGI pool did not stop on TERM"
	POOL_PID=
}

# ---- HTTP and assertions (each checks one thing and says why it failed) -------------------------

db_exec () {
	if [ $# -gt 0 ] && [ -n "${TEST_CLUSTER_DIR:-}" ]; then
		node_sql 1 "$1"
	elif [ $# -gt 0 ]; then
		svc_sql "$DB_SOCKET" -N -B "$DB_NAME" -e "$1"
	else
		svc_sql "$DB_SOCKET" -N -B "$DB_NAME"
	fi
}

# http METHOD PATH [BODY [CURL_ARGS...]]: leaves status, headers and body in $TRASH. BODY "@file"
# sends a file; a BODY sets Content-Type: application/json; a non-empty $TOKEN is sent as a
# bearer token. Fails only on transport errors, never because of the status.
http () {
	local method=$1 path=$2 body=
	shift 2
	if [ $# -gt 0 ]; then
		body=$1
		shift
	fi
	if [ -n "$body" ]; then
		case $body in
		@*) set -- --data-binary "$body" "$@" ;;
		*) set -- --data-raw "$body" "$@" ;;
		esac
		set -- -H 'Content-Type: application/json' "$@"
	fi
	[ -z "${TOKEN:-}" ] || set -- -H "Authorization: Bearer $TOKEN" "$@"
	case $method in
	HEAD) set -- --head "$@" ;;
	*) set -- --request "$method" "$@" ;;
	esac
	rm -f "$TRASH/status" "$TRASH/headers" "$TRASH/body"
	echo "> $method $path${body:+ $body}" >&2
	curl --silent --show-error --max-time 5 --globoff --path-as-is \
		--output "$TRASH/body" --dump-header "$TRASH/headers" --write-out '%{http_code}\n' \
		"$@" "http://127.0.0.1:$HTTP_PORT$path" >"$TRASH/status" &&
	check_openapi "$method" "$path"
}

# check_openapi METHOD PATH [NAME]: fails, saying why, when the JSON response in $TRASH/status,
# headers and body (NAME.status, NAME.headers, NAME.body with NAME) does not match the schema
# doc/openapi.yaml gives for request METHOD PATH and its status. http calls it for each
# response; a file that sends requests with curl itself calls it for each answer it gets. Shell
# builtins only: a process per response would cost more than the request.
check_openapi () {
	local request="$1 $2 $TRASH/${3:+$3.}" answer
	[ -n "$VALIDATOR_PID" ] || return 0
	kill -0 "$VALIDATOR_PID" 2>/dev/null || { echo "t/openapi-validate is not running" >&2; return 1; }
	printf '%s\n' "$request" >"$TRASH/openapi.in" &&
	read -r answer <"$TRASH/openapi.out" || return 1
	case $answer in
	"ok $request" | "skipped $request") return 0 ;;
	"mismatch $request")
		echo "the response to $1 $2 does not match doc/openapi.yaml:" >&2
		cat "$TRASH/${3:+$3.}openapi" >&2
		head -c 2000 "$TRASH/${3:+$3.}body" >&2
		echo >&2
		;;
	*) echo "t/openapi-validate answered '$answer' to '$request'" >&2 ;;
	esac
	return 1
}

_show_response () {
	{
		echo "< status $(cat "$TRASH/status" 2>/dev/null)"
		head -c 2000 "$TRASH/body" 2>/dev/null
		echo
	} >&2
}

expect_status () {
	local got
	got=$(cat "$TRASH/status" 2>/dev/null)
	[ "$got" = "$1" ] && return 0
	echo "expected status $1, got $got" >&2
	_show_response
	return 1
}

# expect_ascii_body: the last body holds no byte outside printable ASCII (no Chinese text).
expect_ascii_body () {
	! LC_ALL=C grep -q "[^ -~]" "$TRASH/body"
}

# expect_header NAME REGEX: a header NAME (any case) whose value matches the extended REGEX.
expect_header () {
	tr -d '\r' <"$TRASH/headers" | awk -v n="$1" -v re="$2" '
		{ i = index($0, ":") }
		i > 0 && tolower(substr($0, 1, i - 1)) == tolower(n) {
			v = substr($0, i + 1); sub(/^[ \t]+/, "", v)
			if (v ~ re) found = 1
		}
		END { exit !found }' && return 0
	echo "expected a header $1 matching /$2/; headers:" >&2
	tr -d '\r' <"$TRASH/headers" >&2
	return 1
}

# expect_json FILTER EXPECTED: `jq -r FILTER` of the body equals EXPECTED.
expect_json () {
	local got
	got=$(jq -r "$1" "$TRASH/body" 2>&1) && [ "$got" = "$2" ] && return 0
	echo "expected $1 to be '$2', got '$got'" >&2
	_show_response
	return 1
}

# expect_json_true EXPR: `jq -e EXPR` of the body is true (neither false nor null).
expect_json_true () {
	jq -e "$1" "$TRASH/body" >/dev/null 2>&1 && return 0
	echo "expected $1 to hold" >&2
	_show_response
	return 1
}

# expect_body_file FILE: the body is the JSON of FILE, key order and layout aside.
expect_body_file () {
	jq -S . "$1" >"$TRASH/expect.json" || { echo "$1 is not JSON" >&2; return 1; }
	jq -S . "$TRASH/body" >"$TRASH/actual.json" 2>&1 || {
		echo "the body is not JSON" >&2
		_show_response
		return 1
	}
	diff -u "$TRASH/expect.json" "$TRASH/actual.json" >&2
}

# png TEXT: the 8-byte PNG signature and TEXT, content an upload takes as a PNG.
png () {
	printf '\211PNG\r\n\032\n%s' "$1"
}

# transactions WHERE: the open InnoDB transactions of this file's database that match WHERE (the
# server may be shared with other test files, whose transactions must not count).
transactions () {
	db_exec "SELECT COUNT(*) FROM information_schema.INNODB_TRX t
		JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
		WHERE p.DB = DATABASE() AND $1"
}

# one_open_transaction: exactly one transaction of this file's database is open.
one_open_transaction () {
	test "$(transactions 1)" -eq 1
}

# expect_db SQL EXPECTED: the rows of SQL (tab-separated columns, one row a line) equal EXPECTED.
expect_db () {
	local got
	got=$(db_exec "$1") && [ "$got" = "$2" ] && return 0
	echo "expected '$1' to give '$2', got '$got'" >&2
	return 1
}

# login USER PASSWORD: sets TOKEN and REFRESH_TOKEN from POST /cms/user/login.
login () {
	local body
	body=$(jq -nc --arg u "$1" --arg p "$2" '{username: $u, password: $p}') &&
	TOKEN= &&
	http POST /cms/user/login "$body" &&
	expect_status 200 &&
	TOKEN=$(jq -r '.access_token // empty' "$TRASH/body") &&
	REFRESH_TOKEN=$(jq -r '.refresh_token // empty' "$TRASH/body") &&
	[ -n "$TOKEN" ] && [ -n "$REFRESH_TOKEN" ] || {
		echo "login as $1 gave no tokens" >&2
		return 1
	}
}

# remember NAME PASSWORD: logs in once and keeps the access token for `as NAME` (a login hashes a
# password, which takes a while: log each user in once per file).
remember () {
	login "$1" "$2" &&
	echo "$TOKEN" >"$TRASH/$1.token"
}

# keep NAME [TOKEN]: keeps TOKEN (the current $TOKEN when not given; e.g. "$REFRESH_TOKEN") for
# `as NAME` and `kept NAME`, as remember does after its login.
keep () {
	printf '%s\n' "${2-$TOKEN}" >"$TRASH/$1.token"
}

# kept NAME: prints the token kept by `remember NAME` or `keep NAME`.
kept () {
	cat "$TRASH/$1.token"
}

# as NAME: sets TOKEN to the token kept by `remember NAME` or `keep NAME`.
as () {
	TOKEN=$(kept "$1")
}

# jwt_payload TOKEN: the JSON payload of a JWT, base64url-decoded.
jwt_payload () {
	local p
	p=$(printf '%s' "$1" | cut -d. -f2 | tr '_-' '/+')
	case $((${#p} % 4)) in
	2) p=$p== ;;
	3) p=$p= ;;
	esac
	printf '%s' "$p" | base64 -d
}

# jwt_sign SECRET: the payload JSON on stdin as a JWT signed with HS256 and SECRET (the app's
# jwt_secret), as the app signs its own tokens.
jwt_sign () {
	local h p s
	h=$(printf '{"alg":"HS256","typ":"JWT"}' | openssl base64 -A | tr '+/' '-_' | tr -d '=\n') &&
	p=$(openssl base64 -A | tr '+/' '-_' | tr -d '=\n') &&
	s=$(printf '%s.%s' "$h" "$p" | openssl dgst -sha256 -hmac "$1" -binary |
		openssl base64 -A | tr '+/' '-_' | tr -d '=\n') &&
	printf '%s.%s.%s\n' "$h" "$p" "$s"
}

# captcha N: POST /cms/user/captcha with no body from 127.0.0.N, as lin-cms-vue asks for one.
captcha () {
	TOKEN= &&
	http POST /cms/user/captcha "" --interface "127.0.0.$1"
}

# captcha_login NAME PASSWORD N [CODE [TAG]]: POST /cms/user/login from 127.0.0.N as lin-cms-vue
# sends it: the code as captcha in the body, the tag in a tag header (both empty when not given).
captcha_login () {
	TOKEN= &&
	http POST /cms/user/login "$(jq -nc --arg u "$1" --arg p "$2" --arg c "${4-}" \
		'{username: $u, password: $p, captcha: $c}')" --interface "127.0.0.$3" -H "tag: ${5-}"
}

# next_second: returns just after the clock has turned to a new second, so that what follows has
# a whole second before it turns again (archives named by the second, expiry boundaries).
next_second () {
	local now
	now=$(date +%s%N)
	sleep "$(printf '0.%09d' $((1000000000 - now % 1000000000)))"
}

# ---- On source ----------------------------------------------------------------------------------

_tools="mariadbd mariadb-install-db mariadb nginx spawn-fcgi curl jq"
case $TEST_WEB in apache*) _tools="$_tools apache2" ;; esac
for _tool in $_tools; do
	command -v "$_tool" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
	command -v "$_tool" >/dev/null 2>&1 || skip_all "$_tool is not installed (scripts/install-deps)"
done
unset _tool _tools

rm -rf "$TRASH"
mkdir -p "$TRASH" || bail_out "cannot create $TRASH"
: >"$TRASH/test.log"
cd "$TRASH" || bail_out "cannot enter $TRASH"
trap _cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# prove closes its end when another file bails out: leave through the EXIT trap, which stops the
# servers this file started, rather than die of SIGPIPE or SIGHUP with them still running.
trap 'exit 129' HUP
trap 'exit 141' PIPE
