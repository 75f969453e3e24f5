# The test runner of t/lib.sh (as git's test-lib.sh): TAP output, test_expect_success and its
# kin, the end of a file (test_done) and the waits every part uses. POSIX sh plus `local`.

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

# next_second: returns just after the clock has turned to a new second, so that what follows has
# a whole second before it turns again (archives named by the second, expiry boundaries).
next_second () {
	local now
	now=$(date +%s%N)
	sleep "$(printf '0.%09d' $((1000000000 - now % 1000000000)))"
}
