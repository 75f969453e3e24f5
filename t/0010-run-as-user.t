#!/bin/sh
test_description='make run as an ordinary user whose PATH lacks /usr/sbin: the service starts, logs in and serves uploads'
. "$(dirname "$0")/lib.sh"

# As root, the run is a throwaway user's, in a home of its own under /tmp; otherwise it is this
# user's. Either way the PATH is an ordinary Debian user's, and the checkout is a copy in a private
# (0700) directory the user owns, as a clone in a home directory is.
HTTP_PORT=$(test_port 2)
if [ "$(id -u)" -eq 0 ]; then
	command -v useradd >/dev/null 2>&1 && command -v runuser >/dev/null 2>&1 ||
		skip_all "useradd and runuser are needed to run as a throwaway user"
	RUN_USER=cmst$$
	RUN_HOME=$(mktemp -d /tmp/cms-user.XXXXXX) || bail_out "mktemp failed"
	useradd --no-create-home --home-dir "$RUN_HOME" --shell /bin/sh "$RUN_USER" ||
		bail_out "useradd $RUN_USER failed"
	test_atexit "userdel $RUN_USER; rm -rf $RUN_HOME"
	as_user () {
		runuser -u "$RUN_USER" -- "$@"
	}
else
	RUN_HOME=$(mktemp -d /tmp/cms-user.XXXXXX) || bail_out "mktemp failed"
	test_atexit "rm -rf $RUN_HOME"
	as_user () {
		"$@"
	}
fi
test_atexit "as_user env -i HOME=$RUN_HOME PATH=/usr/bin:/bin sh $RUN_HOME/p/scripts/stop"

# ordinary CMD...: CMD as that user, with the environment of a fresh login.
ordinary () {
	as_user env -i HOME="$RUN_HOME" PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 "$@"
}

test_expect_success 'setup: a copy of the checkout that the user owns' '
	mkdir -p "$RUN_HOME/p/src" &&
	cp -R "$TOP/scripts" "$TOP/nginx" "$TOP/conf" "$TOP/sql" "$RUN_HOME/p/" &&
	cp "$APP_BIN" "$RUN_HOME/p/src/cms-fcgi" &&
	if [ -n "${RUN_USER:-}" ]; then chown -R "$RUN_USER" "$RUN_HOME"; fi
'

test_expect_success 'scripts/run starts everything with /usr/sbin missing from PATH' '
	ordinary CMS_HTTP_PORT=$HTTP_PORT CMS_DB_PORT=$(test_port 3) CMS_ROOT_PASSWORD="$ROOT_PASSWORD" \
		sh "$RUN_HOME/p/scripts/run" >run.out 2>&1 &&
	cat run.out &&
	grep -q "cms-fcgi is running at http://127.0.0.1:$HTTP_PORT/" run.out
'

test_expect_success 'root logs in through it' '
	remember root "$ROOT_PASSWORD"
'

test_expect_success 'a 1 MiB upload (nginx buffers it to disk) is stored, and nginx serves it at /assets/' '
	test "$(stat -c %a "$RUN_HOME")" = 700 &&
	as root &&
	{ printf "\211PNG\r\n\032\n"; head -c 1048576 /dev/urandom; } >big.png &&
	http POST /cms/file "" -F "file=@big.png" &&
	expect_status 200 &&
	url=$(jq -r ".[0].url" body) &&
	curl --silent --max-time 5 --output served.png --write-out "%{http_code}\n" "$url" >served.status &&
	test "$(cat served.status)" = 200 &&
	cmp big.png served.png
'

test_expect_success 'scripts/stop stops what it started' '
	ordinary sh "$RUN_HOME/p/scripts/stop" >stop.out 2>&1 &&
	cat stop.out &&
	! grep -q "needed a KILL" stop.out &&
	gone () {
		! curl --silent --max-time 1 --output /dev/null "http://127.0.0.1:$HTTP_PORT/healthz"
	} &&
	poll_until 50 gone
'

test_done
