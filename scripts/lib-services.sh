# Shell functions that start and stop the private services of `make run` and of the tests
# (MariaDB, the spawn-fcgi + cms-fcgi --supervise pool, nginx, Apache); sourced by scripts/run,
# scripts/cluster, scripts/stop, scripts/check, bench/run, battery/run and t/lib.sh. POSIX sh plus
# `local`. Processes are found by recorded PID only.
#
# Conventions: functions return non-zero after printing one reason to stderr; waits are bounded
# polls in 0.1 s steps ("tenths"); a daemon's PID file is written by svc_spawn before the exec, and
# mariadbd and nginx then rewrite the same file with the same PID (they are exec'd in place).
#
# The start sequence, the same everywhere (see the end of this file): svc_db_up (a datadir made
# when new, mariadbd started), then the database and the configuration (each script's own), then
# svc_pool_up (the configuration checked, the pool started) and svc_nginx_up (nginx.conf, the
# texts of nginx's own errors, nginx started). svc_down stops what they started in a directory.

# Debian installs nginx, mariadbd, apache2 and spawn-fcgi in /usr/sbin, which is not on an ordinary
# user's PATH (nor on that of a user with sudo).
case ":$PATH:" in
*:/usr/sbin:*) ;;
*) PATH=$PATH:/usr/sbin:/sbin ;;
esac

# A PID file's process, only when it is alive and its command name is $2 (so a stale file whose PID
# was reused by another program is never signalled). Prints the PID.
svc_running () {
	local pid comm
	[ -r "$1" ] || return 1
	read -r pid <"$1" 2>/dev/null || return 1
	case $pid in '' | *[!0-9]*) return 1 ;; esac
	svc_alive "$pid" || return 1
	read -r comm <"/proc/$pid/comm" 2>/dev/null || return 1
	[ "$comm" = "$2" ] || return 1
	echo "$pid"
}

# True while process $1 exists and is not a zombie (our own exited children stay zombies until
# waited for, and `kill -0` still succeeds on them).
svc_alive () {
	local stat
	[ -n "$1" ] || return 1
	kill -0 "$1" 2>/dev/null || return 1
	read -r stat 2>/dev/null <"/proc/$1/stat" || return 1
	stat=${stat##*) }
	[ "${stat%% *}" != Z ]
}

# Waits at most $2 tenths of a second for process $1 to be gone.
svc_wait_gone () {
	local i=0
	while svc_alive "$1"; do
		[ "$i" -lt "$2" ] || return 1
		sleep 0.1
		i=$((i + 1))
	done
	wait "$1" 2>/dev/null
	return 0
}

# PIDs of the children of process $1, one a line (read from /proc, so procps is not needed).
svc_children () {
	local f stat rest
	for f in /proc/[0-9]*/stat; do
		# The redirection must come after 2>/dev/null: a process may exit during the scan.
		read -r stat 2>/dev/null <"$f" || continue
		rest=${stat##*) }
		set -- "$1" $rest
		[ "$3" = "$1" ] || continue
		stat=${f#/proc/}
		echo "${stat%/stat}"
	done
}

# Sends $2 (a signal name) to process $1, waits $3 tenths for it to go, then KILLs it.
# Returns 1 when the KILL was needed, so callers can report an unclean stop.
svc_kill () {
	svc_alive "$1" || return 0
	kill -s "$2" "$1" 2>/dev/null
	svc_wait_gone "$1" "$3" && return 0
	echo "process $1 ignored SIG$2 for $(($3 / 10)) s; sending KILL" >&2
	kill -s KILL "$1" 2>/dev/null
	svc_wait_gone "$1" 50
	return 1
}

# Starts "$@" in the background in its own session (so a Ctrl-C at the terminal reaches only the
# script that started it), stdin from /dev/null, stdout and stderr appended to $2, after writing
# its PID to $1. Waits until the PID file exists and prints the PID.
svc_spawn () {
	local pidfile=$1 log=$2 i=0
	shift 2
	rm -f "$pidfile"
	setsid sh -c 'echo $$ >"$0.tmp" && mv "$0.tmp" "$0" && exec "$@"' "$pidfile" "$@" \
		</dev/null >>"$log" 2>&1 &
	while [ ! -s "$pidfile" ]; do
		[ "$i" -lt 50 ] || { echo "$1 did not start (no $pidfile)" >&2; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
	cat "$pidfile"
}

# The state directory of `make run` in checkout $1: $CMS_VAR_DIR (taken from $1 when relative),
# $1/var by default. Prints it.
svc_var_dir () {
	case ${CMS_VAR_DIR:-var} in
	/*) echo "$CMS_VAR_DIR" ;;
	*) echo "$1/${CMS_VAR_DIR:-var}" ;;
	esac
}

# ---- What every script needs --------------------------------------------------------------------

# die MESSAGE: prints "PROG: MESSAGE" on stderr and exits with status svc_die_status (1 unless the
# script says otherwise); PROG is svc_prog, which each script sets to its name (run, bench, ...).
svc_prog=${0##*/}
svc_die_status=1
die () {
	echo "$svc_prog: $*" >&2
	exit "$svc_die_status"
}

# is_count N LO HI: N is a whole number from LO to HI (a setting read from the environment).
is_count () {
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	[ "$1" -ge "$2" ] && [ "$1" -le "$3" ]
}

# fetch CURL_ARGS...: one request with curl (5 s at most), the body in the file svc_fetch_body
# names (which the script sets); prints the status, 000 when there was no answer.
svc_fetch_body=/dev/null
fetch () {
	curl --silent --show-error --max-time 5 --output "$svc_fetch_body" --write-out '%{http_code}' "$@" ||
		true
}

# Letters and digits from /dev/urandom, $1 of them.
svc_random_alnum () {
	LC_ALL=C tr -dc 'A-Za-z0-9' </dev/urandom | head -c "$1"
}

# $1 random bytes as lower-case hex.
svc_random_hex () {
	od -An -tx1 -N"$1" /dev/urandom | tr -d ' \n'
}

# Unix socket paths are limited to 107 bytes (sun_path); say so instead of failing obscurely.
svc_check_socket_path () {
	[ "${#1}" -le 100 ] && return 0
	echo "socket path too long for a unix socket (${#1} > 100 bytes): $1" >&2
	return 1
}

# True when nothing listens on 127.0.0.1:$1 (unknown without ss, then assumed free).
svc_port_free () {
	command -v ss >/dev/null 2>&1 || return 0
	[ -z "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]
}

# Bounded poll until GET $1 answers 200, at most $2 tenths; stops early when process $3 (if given)
# dies. Uses a 1 s timeout per try.
svc_wait_http_200 () {
	local url=$1 max=$2 pid=${3:-} i=0 code
	while :; do
		code=$(curl --silent --output /dev/null --max-time 1 --write-out '%{http_code}' "$url" 2>/dev/null)
		[ "$code" = 200 ] && return 0
		if [ -n "$pid" ] && ! svc_alive "$pid"; then
			echo "process $pid exited while waiting for $url" >&2
			return 1
		fi
		[ "$i" -lt "$max" ] || { echo "$url did not answer 200 within $((max / 10)) s (last: $code)" >&2; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
}

# ---- MariaDB ------------------------------------------------------------------------------------

# The MariaDB account of the user running the scripts: mariadb-install-db gives it unix_socket
# authentication and all privileges, so no password is ever stored for it.
svc_db_admin=$(id -un)

# The mariadb client as that account over socket $1; further arguments are passed on.
svc_sql () {
	local sock=$1
	shift
	mariadb --no-defaults --socket="$sock" --user="$svc_db_admin" --default-character-set=utf8mb4 "$@"
}

svc_db_ping () {
	mariadb-admin --no-defaults --socket="$1" --user="$svc_db_admin" --connect-timeout=1 ping \
		>/dev/null 2>&1
}

# Creates a MariaDB datadir $1 (system tables only), logging to $2.
svc_db_init () {
	local datadir=$1 log=$2
	# Its own temporary directory: servers bootstrapped at once (prove -j) clash in a shared /tmp.
	mkdir -p "$datadir" "${datadir%/}.tmp" || return 1
	mariadb-install-db --no-defaults --user="$svc_db_admin" --datadir="$datadir" \
		--auth-root-authentication-method=socket --auth-root-socket-user="$svc_db_admin" \
		--skip-test-db --tmpdir="${datadir%/}.tmp" >"$log" 2>&1 && return 0
	echo "mariadb-install-db failed for $datadir; its log:" >&2
	tail -n 20 "$log" >&2
	return 1
}

# Starts mariadbd on datadir $1 with socket $2, PID file $3 and error log $4; TCP on 127.0.0.1:$5
# when $5 is not empty, otherwise no networking. Further arguments go to mariadbd. Waits (at most
# 30 s) until it answers a ping and prints its PID.
svc_db_start () {
	local datadir=$1 sock=$2 pidfile=$3 errlog=$4 port=$5 pid i=0
	shift 5
	svc_check_socket_path "$sock" || return 1
	if [ -n "$port" ]; then
		set -- --port="$port" --bind-address=127.0.0.1 "$@"
	else
		set -- --skip-networking "$@"
	fi
	[ "$(id -u)" -ne 0 ] || set -- --user=root "$@"
	mkdir -p "${datadir%/}.tmp" || return 1
	set -- --tmpdir="${datadir%/}.tmp" "$@"
	# SVC_DB_DEFAULTS: an option file instead of none (Galera's SST scripts read theirs there).
	pid=$(svc_spawn "$pidfile" "$errlog" "$(command -v mariadbd || echo /usr/sbin/mariadbd)" \
		"${SVC_DB_DEFAULTS:---no-defaults}" --datadir="$datadir" --socket="$sock" --pid-file="$pidfile" \
		--log-error="$errlog" --character-set-server=utf8mb4 \
		--collation-server=utf8mb4_general_ci "$@") || return 1
	until svc_db_ping "$sock"; do
		if ! svc_alive "$pid"; then
			echo "mariadbd exited during startup; $errlog says:" >&2
			tail -n 20 "$errlog" >&2
			return 1
		fi
		[ "$i" -lt 300 ] || { echo "mariadbd did not answer a ping within 30 s" >&2; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
	echo "$pid"
}

# Stops the mariadbd of socket $1 and PID file $2: a clean shutdown (mariadb-admin waits for
# it; TERM means the same to mariadbd when the socket does not answer), KILL after 30 s.
svc_db_stop () {
	local pid
	pid=$(svc_running "$2" mariadbd) || return 0
	mariadb-admin --no-defaults --socket="$1" --user="$svc_db_admin" shutdown >/dev/null 2>&1
	svc_kill "$pid" TERM 300
}

# Loads the schema and the seed of source tree $3 into the empty database $2 over socket $1 the
# way a fresh install does, with `cms-fcgi --setup-db` of binary $4 ($3/src/cms-fcgi by default):
# every file of sql/migrations/ in order, then sql/seed.sql, then the content declaration
# $CMS_CONTENT_FILE, or conf/content.json. Root gets a generated password, which
# svc_db_set_root_password replaces.
svc_db_load () {
	local out
	out=$(CMS_DB_SOCKET=$1 CMS_DB_USER=$svc_db_admin CMS_DB_PASSWORD= CMS_DB_NAME=$2 \
		CMS_SQL_DIR=$3/sql CMS_CONTENT_FILE=${CMS_CONTENT_FILE:-$3/conf/content.json} "${4:-$3/src/cms-fcgi}" \
		-c /dev/null --setup-db </dev/null 2>&1) ||
		{ printf '%s\n' "$out" >&2; echo "loading $3/sql into $2 failed" >&2; return 1; }
}

# Sets the password of the seeded root user (id 1) of database $2 over socket $1 to $4, hashed by
# the application binary $3 (Argon2id), so no hash format is duplicated here. Root is left as the
# seed makes it, at credential version 0, as if seeded with that password: svc_db_load's
# --setup-db set a generated one, which counted as a change of password (version 1), and the
# tests sign root's tokens for version 0.
svc_db_set_root_password () {
	local hash
	hash=$(printf '%s\n' "$4" | "$3" --hash-password) || { echo "$3 --hash-password failed" >&2; return 1; }
	case $hash in
	'$argon2id$'*) ;;
	*) echo "$3 --hash-password printed no Argon2id hash" >&2; return 1 ;;
	esac
	case $hash in *[!A-Za-z0-9\$=,+/]*) echo "unexpected characters in the password hash" >&2; return 1 ;; esac
	svc_sql "$1" --batch "$2" -e "UPDATE lin_user_identity SET credential = '$hash'
		WHERE user_id = 1 AND identity_type = 'USERNAME_PASSWORD';
		UPDATE lin_user SET credential_version = 0 WHERE id = 1" || return 1
}

# Creates the database cms over socket $1 with sql/ of source tree $2 and the root password $4
# (hashed by binary $3): what `make run` and `make cluster` do on their first start.
svc_db_create_cms () {
	svc_sql "$1" -e "CREATE DATABASE IF NOT EXISTS cms
		CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci" || return 1
	svc_db_load "$1" cms "$2" "$3" || return 1
	svc_db_set_root_password "$1" cms "$3" "$4" || { echo "setting root's password failed" >&2; return 1; }
}

# Prints how to log in as root at URL $1 with the password kept in file $2 (shown as $3): the
# password itself when $4 is not empty (it was just made up), else a command that reads the file.
svc_login_help () {
	if [ -n "$4" ]; then
		cat <<EOF
The root password is $(cat "$2") (kept in $3). Log in with:
  curl -s -H 'Content-Type: application/json' -d '{"username":"root","password":"$(cat "$2")"}' $1/cms/user/login
EOF
	else
		cat <<EOF
The root password is in $2. Log in with:
  jq -nc --rawfile p $2 '{username:"root",password:\$p}' | curl -s -H 'Content-Type: application/json' --data-binary @- $1/cms/user/login
EOF
	fi
}

# ---- MariaDB Galera cluster ---------------------------------------------------------------------
# Three nodes on loopback, for `make cluster` and make check-cluster: node N (1..3) lives in
# $dir/nodeN (data/, db.sock, db.pid, db.err) and uses four ports from base $base:
# base + 4(N-1) for clients, + 1 for replication, + 2 for IST and + 3 for SST. A full copy (SST)
# is made by mariabackup over socat: the donor keeps serving meanwhile, and unlike rsync's daemon
# (which drops to `nobody` when started by root) it runs as the node's own user.

svc_galera_provider=/usr/lib/galera/libgalera_smm.so
svc_galera_nodes="1 2 3"

# The client port of node $2 of a cluster on base port $1.
svc_galera_port () {
	echo $(($1 + 4 * ($2 - 1)))
}

# The wsrep options of node $2 of the cluster on base port $1, one a line.
svc_galera_args () {
	local base=$1 n=$2 p members= m
	for m in $svc_galera_nodes; do
		members="$members${members:+,}127.0.0.1:$(($(svc_galera_port "$base" "$m") + 1))"
	done
	p=$(svc_galera_port "$base" "$n")
	cat <<-EOF
	--wsrep-on=ON
	--wsrep-provider=$svc_galera_provider
	--wsrep-cluster-name=cms
	--wsrep-cluster-address=gcomm://$members
	--wsrep-node-name=node$n
	--wsrep-node-address=127.0.0.1:$((p + 1))
	--wsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:$((p + 1));ist.recv_addr=127.0.0.1:$((p + 2));gcache.size=64M;evs.suspect_timeout=PT2S;evs.inactive_timeout=PT3S;evs.install_timeout=PT3S;evs.keepalive_period=PT0.5S
	--wsrep-sst-method=mariabackup
	--wsrep-sst-receive-address=127.0.0.1:$((p + 3))
	--binlog-format=ROW
	--default-storage-engine=InnoDB
	--innodb-autoinc-lock-mode=2
	--innodb-log-file-size=16M
	EOF
}

# Starts node $3 of the cluster in $1 on base port $2; further arguments (--wsrep-new-cluster)
# go to mariadbd. A joining node copies the data of another (SST) or the writes it missed (IST)
# before it answers, hence the longer wait of svc_db_start. Prints the PID.
svc_galera_node_start () {
	local dir=$1 base=$2 n=$3 node
	shift 3
	node=$dir/node$n
	mkdir -p "$node/data" || return 1
	# The SST scripts read this file only (not /etc/mysql, whose mysqld_safe section would send
	# their log to syslog): their logs go to the datadir.
	printf '[sst]\nsst-syslog = -1\n' >"$node/my.cnf" || return 1
	# shellcheck disable=SC2046 # one option a line, none with spaces
	SVC_DB_DEFAULTS=--defaults-file=$node/my.cnf svc_db_start "$node/data" "$node/db.sock" "$node/db.pid" "$node/db.err" \
		"$(svc_galera_port "$base" "$n")" $(svc_galera_args "$base" "$n") "$@"
}

# The node of the cluster in $1 (base port $2) to bootstrap from when none runs: the one Galera
# marked safe_to_bootstrap (stopped last, cleanly), else the one whose grastate.dat or, after a
# crash, whose --wsrep-recover says it committed most. Prints N.
svc_galera_pick () {
	local dir=$1 base=$2 n best=1 best_seqno=-2 seqno
	for n in $svc_galera_nodes; do
		[ -r "$dir/node$n/data/grastate.dat" ] || continue
		if grep -q '^safe_to_bootstrap: *1' "$dir/node$n/data/grastate.dat"; then
			echo "$n"
			return 0
		fi
		seqno=$(sed -n 's/^seqno: *//p' "$dir/node$n/data/grastate.dat")
		if [ "$seqno" = -1 ]; then
			rm -f "$dir/node$n/recover.err"
			# shellcheck disable=SC2046 # one option a line, none with spaces
			"$(command -v mariadbd || echo /usr/sbin/mariadbd)" \
				--defaults-file="$dir/node$n/my.cnf" --datadir="$dir/node$n/data" \
				$(svc_galera_args "$base" "$n") --wsrep-recover \
				--log-error="$dir/node$n/recover.err" \
				$([ "$(id -u)" -ne 0 ] || echo --user=root) >/dev/null 2>&1 || true
			seqno=$(sed -n 's/.*Recovered position: .*:\([0-9-]*\)$/\1/p' \
				"$dir/node$n/recover.err" 2>/dev/null | tail -n 1)
		fi
		case $seqno in '' | *[!0-9-]*) seqno=-1 ;; esac
		[ "$seqno" -le "$best_seqno" ] || { best=$n; best_seqno=$seqno; }
	done
	echo "$best"
}

# A status variable $2 of the node whose socket is $1.
svc_galera_status () {
	svc_sql "$1" -N -B -e "SHOW STATUS LIKE '$2'" 2>/dev/null | cut -f2
}

# Starts every node of the cluster in $1 (base port $2) that does not run: when none runs,
# bootstraps a new cluster from the most advanced node (a new datadir for a new cluster), then
# lets the others join one at a time. Waits (at most 2 minutes) until all three are Synced
# members of one cluster of three.
svc_galera_start () {
	local dir=$1 base=$2 n first= i=0 ok= jobs
	for n in $svc_galera_nodes; do
		svc_running "$dir/node$n/db.pid" mariadbd >/dev/null && first=$n
	done
	if [ -z "$first" ]; then
		if [ ! -d "$dir/node1/data/mysql" ]; then
			# A new cluster: node 1's first state, stopped cleanly, copied to the others, who
			# then join with nothing to transfer (two full copies would take a minute).
			first=1
			rm -rf "$dir/node1/data" "$dir/node2/data" "$dir/node3/data"
			svc_db_init "$dir/node1/data" "$dir/node1/install.log" || return 1
			svc_galera_node_start "$dir" "$base" 1 --wsrep-new-cluster >/dev/null || return 1
			svc_db_stop "$dir/node1/db.sock" "$dir/node1/db.pid" || return 1
			for n in 2 3; do
				mkdir -p "$dir/node$n" && cp -a "$dir/node1/data" "$dir/node$n/data" || return 1
				rm -f "$dir/node$n/data/gvwstate.dat"
				sed -i 's/^safe_to_bootstrap: *1/safe_to_bootstrap: 0/' "$dir/node$n/data/grastate.dat"
			done
		else
			first=$(svc_galera_pick "$dir" "$base")
			sed -i 's/^safe_to_bootstrap: *0/safe_to_bootstrap: 1/' "$dir/node$first/data/grastate.dat"
		fi
		svc_galera_node_start "$dir" "$base" "$first" --wsrep-new-cluster >/dev/null || return 1
	fi
	# The others join at once: each spends most of its start in the transfer script's waits.
	jobs=
	for n in $svc_galera_nodes; do
		svc_running "$dir/node$n/db.pid" mariadbd >/dev/null && continue
		svc_galera_node_start "$dir" "$base" "$n" >/dev/null &
		jobs="$jobs $!"
	done
	for n in $jobs; do
		wait "$n" || ok=fail
	done
	[ "$ok" != fail ] || return 1
	while :; do
		ok=1
		for n in $svc_galera_nodes; do
			[ "$(svc_galera_status "$dir/node$n/db.sock" wsrep_cluster_size)" = 3 ] &&
				[ "$(svc_galera_status "$dir/node$n/db.sock" wsrep_local_state_comment)" = Synced ] ||
				ok=
		done
		[ -z "$ok" ] || return 0
		[ "$i" -lt 1200 ] || { echo "the cluster in $dir did not reach 3 Synced nodes in 2 minutes" >&2; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
}

# Stops the nodes of the cluster in $1, node 1 last: it is then the one safe to bootstrap from.
svc_galera_stop () {
	local n rc=0
	for n in 3 2 1; do
		svc_db_stop "$1/node$n/db.sock" "$1/node$n/db.pid" || rc=1
	done
	return $rc
}

# ---- FastCGI pool -------------------------------------------------------------------------------

# The spawn-fcgi options that make it listen on $1: a unix socket path (mode 0600: only this
# user, and so only the nginx of svc_nginx_conf, may connect) or HOST:PORT.
svc_pool_listen_args () {
	case $1 in
	/*) echo "-s $1 -M 0600" ;;
	*:*) echo "-a ${1%:*} -p ${1##*:}" ;;
	*) echo "not a socket path or HOST:PORT: $1" >&2; return 1 ;;
	esac
}

# Starts `$1 -c $2 --supervise` (its own master and $4 workers) under spawn-fcgi, listening on $3
# (see svc_pool_listen_args), in directory $6, stderr appended to $5, PID (the master's:
# spawn-fcgi -n execs it in place) recorded in $7. Waits (at most 5 s) until the master runs and
# prints its PID. The worker count is the config's; $4 only says how many to wait for.
svc_pool_start () {
	local app=$1 conf=$2 listen=$3 workers=$4 log=$5 dir=$6 pidfile=$7 args pid comm i=0
	args=$(svc_pool_listen_args "$listen") || return 1
	[ "${listen#/}" = "$listen" ] || rm -f "$listen"
	# shellcheck disable=SC2086 # $args is a list of options
	pid=$(svc_spawn "$pidfile" "$log" "$(command -v spawn-fcgi)" -n $args -d "$dir" \
		-- "$app" -c "$conf" --supervise) || return 1
	while :; do
		if ! svc_alive "$pid"; then
			echo "the FastCGI pool exited during startup; $log says:" >&2
			tail -n 20 "$log" >&2
			return 1
		fi
		read -r comm <"/proc/$pid/comm" 2>/dev/null
		[ "$comm" != cms-fcgi ] || [ "$(svc_children "$pid" | wc -l)" -lt "$workers" ] || break
		[ "$i" -lt 50 ] || { echo "the pool did not start $workers workers within 5 s" >&2; return 1; }
		sleep 0.1
		i=$((i + 1))
	done
	echo "$pid"
}

# Stops the pool of PID file $1: TERM makes the master tell the workers to finish what nginx
# handed over and exit, then exit itself. After 15 s (stop_timeout and its grace), KILLs the
# workers and the master. Returns 1 when the KILL was needed.
svc_pool_stop () {
	local pid kids rc=0
	pid=$(svc_running "$1" cms-fcgi) || { rm -f "$1"; return 0; }
	kids=$(svc_children "$pid")
	kill -s TERM "$pid" 2>/dev/null
	if ! svc_wait_gone "$pid" 150; then
		echo "the FastCGI pool did not stop within 15 s of TERM; killing it" >&2
		kids="$kids $(svc_children "$pid")"
		kill -s KILL $kids "$pid" 2>/dev/null
		svc_wait_gone "$pid" 50
		rc=1
	fi
	rm -f "$1"
	return $rc
}

# ---- nginx --------------------------------------------------------------------------------------

# Writes $1/nginx.conf: everything nginx writes stays in $1, an upstream `cms_fcgi` on the pool's
# address $3 (a unix socket path or HOST:PORT, as for svc_pool_start; several, space-separated,
# for an upstream over several pools) and a server on
# 127.0.0.1:$2 that includes the shipped nginx/cms-fcgi.conf of source tree $4 and serves the app's
# file_store_dir $5 (an absolute path; none when empty) at /assets/, and directory $6 (optional)
# at /docs/. The shipped files are
# symlinked next to nginx.conf because nginx resolves relative includes against the directory of
# its main config file. nginx's workers run as the user who starts it, root included: a private
# checkout (mode 0700, like /root) and the pool's 0600 socket are theirs to use. One worker per
# CPU, each allowed as many open files as this shell's hard limit (at most 8192): nginx raises its
# own limit that far even unprivileged, and asking for more would be an [alert] in error.log.
svc_nginx_conf () {
	local dir=$1 http_port=$2 pool=$3 top=$4 assets=${5:-} docs=${6:-} m user= nofile i
	mkdir -p "$dir" || return 1
	[ "$(id -u)" -ne 0 ] || user="user root $(id -gn);"
	nofile=$(ulimit -Hn)
	case $nofile in '' | *[!0-9]*) nofile=8192 ;; esac
	[ "$nofile" -le 8192 ] || nofile=8192
	for m in cms-fcgi.conf cms-fcgi-params.conf; do
		ln -sfn "$top/nginx/$m" "$dir/$m" || return 1
	done
	{
		cat <<-EOF
		# Generated by scripts/lib-services.sh; includes the shipped nginx/cms-fcgi.conf unchanged.
		$user
		daemon off;
		worker_processes auto;
		worker_rlimit_nofile $nofile;
		pid "$dir/nginx.pid";
		error_log "$dir/error.log";

		events {
		    # A proxied request holds two connections, the client's and the pool's.
		    worker_connections $((nofile / 2));
		}

		http {
		    access_log "$dir/access.log";
		    # The zone of limit_conn in cms-fcgi.conf: requests in progress per client address
		    # (SVC_NGINX_LIMIT_KEY replaces the key: bench/run's wrk is one address).
		    limit_conn_zone ${SVC_NGINX_LIMIT_KEY:-\$binary_remote_addr} zone=cms_fcgi_addr:10m;
		    client_body_temp_path "$dir/client_body_temp";
		    fastcgi_temp_path "$dir/fastcgi_temp";
		    proxy_temp_path "$dir/proxy_temp";
		EOF
		# nginx-light lacks these modules, and then the directives are unknown.
		for m in uwsgi scgi; do
			nginx -V 2>&1 | grep -q -- "--without-http_${m}_module" ||
				echo "    ${m}_temp_path \"$dir/${m}_temp\";"
		done
		cat <<-EOF

		    upstream cms_fcgi {
		EOF
		# Several pools (one per application host): round robin, its state shared by nginx's
		# workers (zone), so that consecutive requests alternate.
		[ "$pool" = "${pool%% *}" ] || echo "        zone cms_fcgi 64k;"
		for m in $pool; do
			case $m in /*) m=unix:$m ;; esac
			echo "        server $m;"
		done
		cat <<-EOF
		        # Idle connections kept per nginx worker; the pool serves any number of them.
		        keepalive 32;
		        keepalive_timeout 60s;
		    }

		    server {
		        listen 127.0.0.1:$http_port;
		        server_name localhost;
		        set \$cms_file_store_dir "$assets";
		        include cms-fcgi.conf;
		EOF
		[ -z "$docs" ] || printf '        location /docs/ {\n            alias "%s/";\n        }\n' "$docs"
		# Several pools: each one's own status page at /status/poolN (N from 1, in the order
		# given), since /status reaches whichever pool the round robin picks.
		if [ "$pool" != "${pool%% *}" ]; then
			i=0
			for m in $pool; do
				i=$((i + 1))
				case $m in /*) m=unix:$m ;; esac
				printf '        location = /status/pool%s {\n' "$i"
				printf '            fastcgi_split_path_info ^()(/status)/pool[0-9]+$;\n'
				printf '            include cms-fcgi-params.conf;\n'
				printf '            fastcgi_pass %s;\n        }\n' "$m"
			done
		fi
		cat <<-EOF
		    }
		}
		EOF
	} >"$dir/nginx.conf"
}

# Writes $1/cms-fcgi-texts.conf next to the nginx.conf of svc_nginx_conf: the texts of the errors
# nginx answers itself, from the message file of binary $2 with configuration $3 and the CMS_*
# environment (so the pool's own), which nginx/cms-fcgi.conf includes instead of its Chinese
# defaults. On failure the file is left as it was.
svc_nginx_texts () {
	"$2" -c "$3" --nginx-texts >"$1/cms-fcgi-texts.conf.new" &&
		mv "$1/cms-fcgi-texts.conf.new" "$1/cms-fcgi-texts.conf" && return 0
	rm -f "$1/cms-fcgi-texts.conf.new"
	return 1
}

# Starts nginx on the configuration written by svc_nginx_conf in $1 and prints its PID once the
# master runs (startup errors go to $1/error.log thanks to -e).
svc_nginx_start () {
	local dir=$1 pid
	nginx -p "$dir/" -c "$dir/nginx.conf" -e "$dir/error.log" -t -q 2>>"$dir/error.log" || {
		echo "nginx rejects $dir/nginx.conf:" >&2
		tail -n 5 "$dir/error.log" >&2
		return 1
	}
	pid=$(svc_spawn "$dir/nginx.pid" "$dir/error.log" "$(command -v nginx)" \
		-p "$dir/" -c "$dir/nginx.conf" -e "$dir/error.log") || return 1
	echo "$pid"
}

# Stops the nginx of $1: QUIT (graceful), then TERM after 5 s, then KILL.
svc_nginx_stop () {
	local pid
	pid=$(svc_running "$1/nginx.pid" nginx) || return 0
	kill -s QUIT "$pid" 2>/dev/null
	svc_wait_gone "$pid" 50 && return 0
	svc_kill "$pid" TERM 50
	return 1
}

# ---- Apache httpd -------------------------------------------------------------------------------

svc_apache_modules=/usr/lib/apache2/modules

# Writes $1/httpd.conf: everything Apache writes stays in $1, a server on 127.0.0.1:$2 that
# includes the shipped apache/ snippet of source tree $4 for front $3 unchanged, and
# apache/cms-fcgi-assets.conf for the app's file_store_dir $6 (an absolute path; no /assets/ when
# empty). Front `proxy` (mod_proxy_fcgi, mpm_event) passes requests to the pool's unix socket $5;
# front `cgi` (mod_cgi, mpm_prefork) runs binary $5 per request with the configuration file $7
# and the CMS_* variables of the environment; front `fcgid` (mod_fcgid, mpm_event) starts binary
# $5 as FastCGI workers of its own with configuration file $7; front `htaccess` is a shared host's
# server instead: DocumentRoot $5 with AllowOverride All, mod_cgi, mod_fcgid and mod_rewrite,
# CMS_CONFIG $7 set for the programs it runs, and no snippet (the apache/htaccess-*.example files
# go below $5).
# Modules come from Debian's $svc_apache_modules; nothing of /etc/apache2 is read.
svc_apache_conf () {
	local dir=$1 http_port=$2 front=$3 top=$4 target=$5 assets=${6:-} conf=${7:-} m mods
	mkdir -p "$dir/htdocs" "$dir/fcgid" || return 1
	mods="authz_core alias mime headers env"
	case $front in
	proxy)
		case $target in /*) ;; *) echo "svc_apache_conf: not a unix socket path: $target" >&2; return 1 ;; esac
		mods="mpm_event $mods proxy proxy_fcgi"
		;;
	cgi | fcgid)
		[ -x "$target" ] && [ -n "$conf" ] || { echo "svc_apache_conf: $front needs a binary and a config" >&2; return 1; }
		if [ "$front" = cgi ]; then
			mods="mpm_prefork $mods cgi"
		else
			mods="mpm_event $mods fcgid"
		fi
		;;
	htaccess) mods="mpm_prefork $mods cgi fcgid rewrite" ;;
	*) echo "svc_apache_conf: unknown front $front (proxy, cgi, fcgid or htaccess)" >&2; return 1 ;;
	esac
	{
		cat <<-EOF
		# Generated by scripts/lib-services.sh (front $front); includes the shipped apache/ snippets unchanged.
		ServerRoot "$dir"
		ServerName localhost
		Listen 127.0.0.1:$http_port
		PidFile "$dir/httpd.pid"
		DefaultRuntimeDir "$dir"
		Mutex file:$dir default
		ErrorLog "$dir/error.log"
		LogLevel warn
		EOF
		for m in $mods; do
			echo "LoadModule ${m}_module $svc_apache_modules/mod_$m.so"
		done
		cat <<-EOF
		LogFormat "%h \"%r\" %>s %b %D" cms
		CustomLog "$dir/access.log" cms
		# The snippets set every Content-Type they serve; no /etc/mime.types is needed.
		TypesConfig /dev/null
		EOF
		if [ "$front" = cgi ] || [ "$front" = htaccess ]; then
			printf 'StartServers 2\nMinSpareServers 1\nMaxSpareServers 4\nMaxRequestWorkers 16\n'
		else
			printf 'StartServers 1\nServerLimit 2\nThreadsPerChild 16\nMaxRequestWorkers 32\n'
			printf 'MinSpareThreads 4\nMaxSpareThreads 32\n'
		fi
		cat <<-EOF
		DocumentRoot "$dir/htdocs"
		<Directory />
		    Require all denied
		    AllowOverride None
		</Directory>

		EOF
		[ "$front" = cgi ] || [ "$front" = proxy ] ||
			printf 'FcgidIPCDir "%s/fcgid"\nFcgidProcessTableFile "%s/fcgid/shm"\n' "$dir" "$dir"
		case $front in
		htaccess)
			printf 'DocumentRoot "%s"\n<Directory "%s">\n' "$target" "$target"
			printf '    Require all granted\n    AllowOverride All\n</Directory>\n'
			# Programs run as Apache's user, whose home has no cms.conf: the host names it.
			printf 'SetEnv CMS_CONFIG "%s"\nFcgidInitialEnv CMS_CONFIG "%s"\n' "$conf" "$conf"
			;;
		proxy) echo "Define CMS_FCGI_SOCKET \"$target\"" ;;
		fcgid)
			printf 'Define CMS_FCGI_BIN "%s"\nDefine CMS_CONFIG "%s"\n' "$target" "$conf"
			env | sed -n 's/^\(CMS_[A-Za-z0-9_]*\)=\(.*\)/FcgidInitialEnv \1 "\2"/p'
			;;
		cgi)
			printf 'Define CMS_FCGI_BIN "%s"\nDefine CMS_CONFIG "%s"\n' "$target" "$conf"
			# The CMS_<KEY> overrides in the environment reach the CGI program as they reach
			# the pool (Apache gives a CGI program no variable it is not told to).
			env | sed -n 's/^\(CMS_[A-Za-z0-9_]*\)=.*/PassEnv \1/p'
			;;
		esac
		[ "$front" = htaccess ] || echo "Include \"$top/apache/cms-fcgi-$front.conf\""
		[ -z "$assets" ] || [ "$front" = htaccess ] || printf 'Define CMS_FILE_STORE_DIR "%s"\nInclude "%s"\n' "$assets" \
			"$top/apache/cms-fcgi-assets.conf"
	} >"$dir/httpd.conf"
}

# Starts Apache on the configuration written by svc_apache_conf in $1 and prints its PID once the
# parent runs (startup errors go to $1/error.log). The PID is recorded in $1/apache2.pid, not in
# Apache's own PidFile, which it finds already written otherwise and warns about. Apache refuses
# `User root` and, started as root, would switch to a user that cannot open a private checkout or
# the pool's 0600 socket; so as root it starts as nobody keeping only CAP_DAC_OVERRIDE, which
# reaches them as nginx's `user root` does. Otherwise it runs as the user who starts it.
svc_apache_start () {
	local dir=$1 pid
	set -- "$(command -v apache2 || echo /usr/sbin/apache2)" -d "$dir" -f "$dir/httpd.conf"
	[ "$(id -u)" -ne 0 ] || set -- setpriv --reuid=nobody --regid=nogroup --clear-groups \
		--inh-caps=+dac_override --ambient-caps=+dac_override "$@"
	"$@" -t >>"$dir/error.log" 2>&1 || {
		echo "apache2 rejects $dir/httpd.conf:" >&2
		tail -n 5 "$dir/error.log" >&2
		return 1
	}
	pid=$(svc_spawn "$dir/apache2.pid" "$dir/error.log" "$@" -DFOREGROUND) || return 1
	echo "$pid"
}

# Stops the Apache of $1: WINCH (graceful: requests in progress finish), TERM after 5 s, then
# KILL; then waits (at most 5 s) for its children, which may outlive the parent by a moment.
svc_apache_stop () {
	local pid kid kids rc=0
	pid=$(svc_running "$1/apache2.pid" apache2) || return 0
	kids=$(svc_children "$pid")
	kill -s WINCH "$pid" 2>/dev/null
	svc_wait_gone "$pid" 50 || { svc_kill "$pid" TERM 50; rc=1; }
	for kid in $kids; do
		svc_wait_gone "$kid" 50
	done
	return $rc
}

# ---- The start sequence -------------------------------------------------------------------------
# What scripts/run, scripts/cluster, bench/run, battery/run and t/lib.sh each assembled by hand;
# between svc_db_up and svc_pool_up each makes its database and its configuration file.

# svc_db_up DATADIR SOCK PIDFILE ERRLOG PORT [MARIADBD_ARGS...]: a private mariadbd on datadir
# DATADIR, made first (mariadb-install-db, logging to ERRLOG with -install.log for .err) when it
# holds no database yet, then started as svc_db_start does (TCP on PORT when not empty). Prints
# its PID.
svc_db_up () {
	if [ ! -d "$1/mysql" ]; then
		svc_db_init "$1" "${4%.err}-install.log" || return 1
	fi
	svc_db_start "$@"
}

# svc_pool_up APP CONF LISTEN LOG DIR PIDFILE: checks configuration file CONF (APP -t), then starts
# the pool of its `workers` as svc_pool_start does (listening on LISTEN, in directory DIR, stderr
# to LOG, the master's PID in PIDFILE). Prints the master's PID.
svc_pool_up () {
	local app=$1 conf=$2 check workers
	check=$("$app" -c "$conf" -t 2>&1) || { echo "$app rejects $conf: $check" >&2; return 1; }
	workers=$("$app" -c "$conf" --get workers) || return 1
	svc_pool_start "$app" "$conf" "$3" "$workers" "$4" "$5" "$6"
}

# svc_nginx_up DIR PORT POOL TOP ASSETS DOCS [APP CONF]: writes DIR/nginx.conf (svc_nginx_conf: on
# 127.0.0.1:PORT in front of the pool or pools POOL, with source tree TOP's shipped configuration,
# ASSETS at /assets/ and DOCS at /docs/ when not empty); with APP and CONF the texts of nginx's own
# errors from that binary and configuration (svc_nginx_texts); runs the command SVC_NGINX_EDIT (when
# set) with the nginx.conf's path, for a caller's own change to it; then starts nginx. Prints its
# PID.
svc_nginx_up () {
	local dir=$1
	svc_nginx_conf "$dir" "$2" "$3" "$4" "$5" "$6" || { echo "cannot write $dir/nginx.conf" >&2; return 1; }
	if [ -n "${7:-}" ]; then
		svc_nginx_texts "$dir" "$7" "$8" || {
			echo "$7 cannot write the texts of nginx's own errors (nginx/cms-fcgi-texts.conf)" >&2
			return 1
		}
	fi
	[ -z "${SVC_NGINX_EDIT:-}" ] || $SVC_NGINX_EDIT "$dir/nginx.conf" || return 1
	svc_nginx_start "$dir"
}

# svc_down DIR: stops what the start sequence started with DIR's layout (DIR/nginx,
# DIR/pool.pid and DIR/pool2.pid, the mariadbd of DIR/db.sock and DIR/db.pid), each only when it
# runs, nginx first. Reports an unclean stop on stderr but always succeeds.
svc_down () {
	svc_nginx_stop "$1/nginx" || true
	svc_pool_stop "$1/pool.pid" || true
	svc_pool_stop "$1/pool2.pid" || true
	svc_db_stop "$1/db.sock" "$1/db.pid" || true
}
