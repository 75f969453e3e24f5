# The fixtures of t/lib.sh (as git's lib-httpd.sh): MariaDB, the FastCGI pool, nginx or Apache,
# the OpenAPI validator and the cluster helpers, each started through scripts/lib-services.sh on
# the ports of the file (test_port) and stopped at exit by _cleanup, in reverse order. Call them
# at top level, not inside test bodies, so the PIDs are kept. Their stderr goes to
# $TRASH/fixture.log, which bail_out shows.

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
	[ -z "$REACH_DIR" ] || rm -rf "$REACH_DIR"
	if [ -n "$test_done_ok" ] && [ -z "${TEST_KEEP:-}" ]; then
		cd "$TOP" && rm -rf "$TRASH"
	fi
}

# TEST_PORT_BASE (20000) + 4 x file number + $1: 0 for the FastCGI pool, 1 for nginx, 2 and 3
# spare. Two checkouts tested at once on one machine need bases 40000 apart.
test_port () {
	echo $((${TEST_PORT_BASE:-20000} + 4 * TEST_NUMBER + $1))
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

# Sets variable $1 to a new directory named $2 that other users can reach: the service account's
# of the tests that play it against root. Under /tmp, in a directory of the file's own (removed
# at exit), never below the checkout, whose parents other users may not pass (a clone in a
# private directory, as CI's).
reachable_dir () {
	[ -n "$REACH_DIR" ] || REACH_DIR=$(mktemp -d /tmp/cms-reach.XXXXXX) || bail_out "mktemp failed"
	chmod 755 "$REACH_DIR" && mkdir "$REACH_DIR/$2" || bail_out "cannot make $REACH_DIR/$2"
	eval "$1=\$REACH_DIR/\$2"
}

# The private server in $TRASH/db, its datadir made on the first start (svc_db_up).
_start_private_db () {
	# A small buffer pool and redo log: a test database holds a few rows, and prove -j runs
	# several servers at once.
	DB_PID=$(svc_db_up "$TRASH/db/data" "$DB_SOCKET" "$TRASH/db/db.pid" "$TRASH/db/db.err" "" \
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
		_start_private_db
	fi
	svc_sql "$DB_SOCKET" -e "CREATE DATABASE \`$DB_NAME\`
		CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci" 2>>"$TRASH/fixture.log" ||
		bail_out "cannot create database $DB_NAME"
	[ -x "$APP_BIN" ] || bail_out "$APP_BIN is not built (run make)"
	svc_db_load "$DB_SOCKET" "$DB_NAME" "$TOP" "$APP_BIN" 2>>"$TRASH/fixture.log" ||
		bail_out "cannot load sql/ into $DB_NAME"
	svc_db_set_root_password "$DB_SOCKET" "$DB_NAME" "$APP_BIN" "$ROOT_PASSWORD" \
		2>>"$TRASH/fixture.log" || bail_out "cannot set root's password"
}

# Applies the content declaration FILE to the file's database with `cms-fcgi --setup-db`, as an
# operator does after editing content_file; its output goes to $TRASH/apply.out. Fails, saying
# why, when the apply does. A running pool serves the new declaration after restart_app.
apply_content () {
	local file=$1
	case $file in /*) ;; *) file=$PWD/$file ;; esac
	CMS_DB_SOCKET=$DB_SOCKET CMS_DB_USER=$svc_db_admin CMS_DB_PASSWORD= CMS_DB_NAME=$DB_NAME \
		CMS_SQL_DIR=$TOP/sql CMS_CONTENT_FILE=$file "$APP_BIN" -c /dev/null --setup-db \
		</dev/null >"$TRASH/apply.out" 2>&1 && return 0
	echo "applying $1 failed:" >&2
	cat "$TRASH/apply.out" >&2
	return 1
}

# USR2 to the pool of start_app (or the master PID), then waits (at most 15 s) until the master
# logged "supervising" again and none of its workers is one of before: they read the applied
# content declaration anew. With use_served_openapi, the validator is then given the new
# GET /openapi.json.
reload_app () {
	local pid=${1:-$POOL_PID} starts old
	starts=$(grep -c "\[$pid\] info: supervising" "$TRASH/app.log") &&
	old=$(svc_children "$pid" | tr '\n' ' ') &&
	kill -USR2 "$pid" || return 1
	_reloaded () {
		local w
		test "$(grep -c "\[$pid\] info: supervising" "$TRASH/app.log")" -gt "$starts" || return 1
		test -n "$(svc_children "$pid")" || return 1
		for w in $(svc_children "$pid"); do
			case " $old" in *" $w "*) return 1 ;; esac
		done
		svc_wait_http_200 "http://127.0.0.1:$HTTP_PORT/healthz" 10 2>/dev/null
	}
	poll_until 150 _reloaded || return 1
	[ -z "${SERVED_OPENAPI:-}" ] || use_served_openapi
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
	local kv key conf=$TRASH/cms.conf
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
	FILE_STORE_DIR=$("$APP_BIN" -c "$conf" --get file_store_dir 2>>"$TRASH/fixture.log") ||
		bail_out "cannot read file_store_dir from cms.conf"
	case $FILE_STORE_DIR in /*) ;; *) FILE_STORE_DIR=$TRASH/$FILE_STORE_DIR ;; esac
	! web_runs_app || return 0
	app_started=1
	POOL_PID=$(svc_pool_up "$APP_BIN" "$conf" "$APP_SOCKET" "$TRASH/app.log" "$TRASH" \
		"$TRASH/pool.pid" 2>>"$TRASH/fixture.log") || bail_out "the FastCGI pool did not start"
	[ -z "${TEST_CLUSTER_DIR:-}" ] || _start_pool2
}

# The second application host of a cluster test: the same configuration but for the order of
# db_hosts (node 2 first), its own socket APP_SOCKET2, the same log and file store.
_start_pool2 () {
	set_socket_path APP_SOCKET2 pool2.sock
	sed "s|^db_hosts = .*|db_hosts = $(cluster_node_sockets 2 3 1)|" "$TRASH/cms.conf" >"$TRASH/cms2.conf"
	chmod 600 "$TRASH/cms2.conf"
	POOL2_PID=$(svc_pool_up "$APP_BIN" "$TRASH/cms2.conf" "$APP_SOCKET2" "$TRASH/app.log" \
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
		_nginx_up "nginx-pool$n" "$(test_port $((n + 1)))" "$sock" >/dev/null ||
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
		"$TOP/doc/openapi.yaml" "$TRASH/openapi.log" ${SERVED_OPENAPI:+"$SERVED_OPENAPI"} \
		2>>"$TRASH/fixture.log" &
	VALIDATOR_PID=$!
	poll_until 300 test -s "$TRASH/openapi.log" 2>>"$TRASH/fixture.log" ||
		bail_out "t/openapi-validate did not start (python3-jsonschema, python3-yaml: scripts/install-deps)"
}

# Checks each answer from now on against the pool's own GET /openapi.json (the declared
# collections) too, fetched through the front; called again (reload_app does), it fetches it
# again, and the validator reads the new one.
use_served_openapi () {
	local started=${SERVED_OPENAPI:-}
	SERVED_OPENAPI=$TRASH/served-openapi.json
	curl -sf -o "$SERVED_OPENAPI.new" "http://127.0.0.1:$HTTP_PORT/openapi.json" &&
		mv "$SERVED_OPENAPI.new" "$SERVED_OPENAPI" || bail_out "GET /openapi.json failed"
	[ -z "$started" ] || return 0
	if [ -n "$VALIDATOR_PID" ]; then
		kill "$VALIDATOR_PID" 2>/dev/null
		wait "$VALIDATOR_PID" 2>/dev/null
		VALIDATOR_PID=
	fi
	start_validator
}

# Starts nginx with the shipped nginx/cms-fcgi.conf (and the texts of start_app's message file) on
# test_port 1 and waits (at most 10 s) until GET /healthz answers 200 through it.
start_nginx () {
	start_validator
	HTTP_PORT=$(test_port 1)
	svc_port_free "$HTTP_PORT" || bail_out "port $HTTP_PORT is already in use"
	[ -n "${APP_SOCKET:-}" ] || set_socket_path APP_SOCKET pool.sock
	NGINX_PID=$(_nginx_up nginx "$HTTP_PORT" "$APP_SOCKET${APP_SOCKET2:+ $APP_SOCKET2}") ||
		bail_out "nginx did not start"
	_wait_front nginx "$NGINX_PID"
}

# _nginx_up DIR PORT POOL: starts an nginx in $TRASH/DIR (svc_nginx_up) on PORT in front of the
# pool(s) POOL, serving FILE_STORE_DIR at /assets/, with the texts of nginx's own errors from
# start_app's cms.conf (without one, nginx keeps the defaults of nginx/cms-fcgi.conf); its stderr
# to fixture.log. Prints its PID.
_nginx_up () {
	if [ -e "$TRASH/cms.conf" ]; then
		set -- "$@" "$APP_BIN" "$TRASH/cms.conf"
	else
		set -- "$@" "" ""
	fi
	svc_nginx_up "$TRASH/$1" "$2" "$3" "$TOP" "$FILE_STORE_DIR" "" "$4" "$5" 2>>"$TRASH/fixture.log"
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

# ---- A shared host (t/0706 on this machine, t/0707 in a Debian 11 chroot) ---------------------

# start_site_db PORT: the shared host's database, as a provider gives it: a MariaDB of its own on
# TCP port PORT (and the socket DB_SOCKET) with an empty database site and its account
# 'site'@'127.0.0.1', whose password is DB_USER_PASSWORD. Sets DB_SOCKET, DB_NAME, DB_PID and
# DB_USER_PASSWORD; bails out on failure.
start_site_db () {
	set_socket_path DB_SOCKET db.sock
	DB_NAME=site
	DB_USER_PASSWORD=$(svc_random_alnum 24)
	svc_db_init "$TRASH/db/data" "$TRASH/db/install.log" 2>>"$TRASH/fixture.log" ||
		bail_out "mariadb-install-db failed"
	DB_PID=$(svc_db_start "$TRASH/db/data" "$DB_SOCKET" "$TRASH/db/db.pid" "$TRASH/db/db.err" "$1" \
		--innodb-buffer-pool-size=32M --innodb-log-file-size=8M 2>>"$TRASH/fixture.log") ||
		bail_out "mariadbd did not start"
	svc_sql "$DB_SOCKET" -e "CREATE DATABASE site CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci;
		CREATE USER 'site'@'127.0.0.1' IDENTIFIED BY '$DB_USER_PASSWORD';
		GRANT ALL ON site.* TO 'site'@'127.0.0.1'" 2>>"$TRASH/fixture.log" ||
		bail_out "cannot create the database and its account"
}

# The AllowOverride that doc/deploy-apache-shared-hosting.md asks of the host, and no more.
SHARED_HOST_ALLOW_OVERRIDE='FileInfo AuthConfig Options=ExecCGI,Indexes,MultiViews'

# shared_host_apache ROOT DIR PORT: Apache's directory DIR (as Apache sees it; ROOT/DIR from here,
# ROOT empty on this machine or a chroot) with htdocs/up, a fcgid directory for www-data, and an
# httpd.conf of Debian's apache2.conf lines and default modules on 127.0.0.1:PORT, with what a
# shared host adds: userdir (userdir.conf's AllowOverride set to the recipe's), suexec, cgid,
# fcgid, rewrite and headers. Bails out on failure.
shared_host_apache () {
	local root=$1 dir=$2 port=$3 mods m debian=/etc/apache2/mods-available
	mkdir -p "$root$dir/htdocs" "$root$dir/fcgid" && chown www-data: "$root$dir/fcgid" &&
		chmod 755 "$root$dir" && echo up >"$root$dir/htdocs/up" || bail_out "cannot fill $dir"
	sed "s/^\([[:space:]]*AllowOverride\)[[:space:]].*/\1 $SHARED_HOST_ALLOW_OVERRIDE/" \
		"$root$debian/userdir.conf" >"$root$dir/userdir.conf" || bail_out "cannot write userdir.conf"
	{
		cat <<-EOF
		# Written by $TEST_NAME: Debian's apache2.conf and default modules, on loopback.
		ServerRoot "$dir"
		ServerName localhost
		Listen 127.0.0.1:$port
		PidFile "$dir/httpd.pid"
		DefaultRuntimeDir "$dir"
		Mutex file:$dir default
		ErrorLog "$dir/error.log"
		LogLevel notice
		User www-data
		Group www-data
		Timeout 300
		KeepAlive On
		HostnameLookups Off
		EOF
		# Debian's default modules (a2enmod's list after installing apache2), then the host's.
		mods="mpm_event access_compat alias auth_basic authn_core authn_file authz_core authz_host
			authz_user autoindex deflate dir env filter mime negotiation reqtimeout setenvif status
			userdir suexec cgid fcgid rewrite headers"
		for m in $mods; do
			echo "LoadModule ${m}_module $svc_apache_modules/mod_$m.so"
		done
		for m in $mods; do
			case $m in userdir | cgid) continue ;; esac
			[ ! -e "$root$debian/$m.conf" ] || echo "Include $debian/$m.conf"
		done
		cat <<-EOF
		ScriptSock "$dir/cgid.sock"
		FcgidIPCDir "$dir/fcgid"
		FcgidProcessTableFile "$dir/fcgid/shm"
		Include "$dir/userdir.conf"
		<Directory />
		    Options FollowSymLinks
		    AllowOverride None
		    Require all denied
		</Directory>
		AccessFileName .htaccess
		<FilesMatch "^\.ht">
		    Require all denied
		</FilesMatch>
		DocumentRoot "$dir/htdocs"
		<Directory "$dir/htdocs">
		    Require all granted
		</Directory>
		LogFormat "%h \"%r\" %>s %b %D" cms
		CustomLog "$dir/access.log" cms
		EOF
	} >"$root$dir/httpd.conf" || bail_out "cannot write $dir/httpd.conf"
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
