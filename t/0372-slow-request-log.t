#!/bin/sh
test_description='slow_request_ms: a request held up by a row lock writes one slow line with its id, route, times and slowest SQL text, and never a password, a token or a query value'
. "$(dirname "$0")/lib.sh"

start_db
start_app slow_request_ms=500 workers=1 worker_threads=2
start_nginx

NEW_PASSWORD=Canary_Pass_7301x
QUERY_CANARY=QueryCanary9302

# held_long: the pool's status page shows the password change waiting on the database for more
# than slow_request_ms already.
held_long () {
	curl -s "http://127.0.0.1:$HTTP_PORT/status?full" >full.json &&
	jq -e '[.threads[] | select(.route == "/cms/user/change_password" and .state == "database"
		and .duration_seconds > 0.7)] | length == 1' full.json >/dev/null
}

test_expect_success 'setup: root logs in' '
	remember root "$ROOT_PASSWORD" &&
	test -s root.token
'

test_expect_success 'a fast request writes no slow line' '
	http GET /healthz &&
	expect_status 200 &&
	! grep -q "slow request:" app.log
'

test_expect_success 'a password change held up by a lock on the user row answers once the lock goes' '
	hold "SELECT id FROM lin_user WHERE username = '"'"'root'"'"' FOR UPDATE;" &&
	jq -nc --arg o "$ROOT_PASSWORD" --arg n "$NEW_PASSWORD" \
		"{old_password: \$o, new_password: \$n, confirm_password: \$n}" >change.json &&
	{ curl -s --max-time 20 -X PUT -H "Authorization: Bearer $(cat root.token)" \
		-H "Content-Type: application/json" --data-binary @change.json \
		--dump-header change.headers --output change.body --write-out "%{http_code}\n" \
		"http://127.0.0.1:$HTTP_PORT/cms/user/change_password?note=$QUERY_CANARY" >change.status 9>&- & } &&
	echo $! >change.job &&
	poll_until 100 held_long &&
	release &&
	svc_wait_gone "$(cat change.job)" 100 &&
	test "$(cat change.status)" = 200
'

test_expect_success 'it wrote one slow line: request id, method, route template, status, times, statements' '
	id=$(tr -d "\r" <change.headers | sed -n "s/^X-Request-Id: //Ip") &&
	test -n "$id" &&
	grep "slow request:" app.log >slow.lines &&
	test "$(wc -l <slow.lines)" -eq 1 &&
	grep -Eq "warn: slow request: method=PUT route=/cms/user/change_password status=200 ms=[0-9.]+ db_ms=[0-9.]+ statements=[0-9]+ round_trips=[0-9]+ slowest_ms=[0-9.]+ slowest_sql=\".*\" request_id=$id\$" slow.lines &&
	ms=$(sed -n "s/.* ms=\([0-9]*\).*/\1/p" slow.lines) &&
	db_ms=$(sed -n "s/.* db_ms=\([0-9]*\).*/\1/p" slow.lines) &&
	slowest=$(sed -n "s/.* slowest_ms=\([0-9]*\).*/\1/p" slow.lines) &&
	test "$ms" -ge 500 && test "$db_ms" -ge 500 && test "$slowest" -ge 500 &&
	test "$(sed -n "s/.* statements=\([0-9]*\).*/\1/p" slow.lines)" -ge 2
'

test_expect_success 'its slowest statement is the one the lock held up, as SQL text with ? for its values' '
	grep -q "slowest_sql=\"UPDATE lin_user SET credential_version = credential_version + 1 WHERE id = ? AND delete_time IS NULL\" " slow.lines
'

test_expect_success 'the password, the token and the query value appear in no log' '
	for f in app.log nginx/error.log nginx/access.log; do
		test ! -e "$f" && continue
		! grep -qF "$NEW_PASSWORD" "$f" &&
		! grep -qF "$ROOT_PASSWORD" "$f" &&
		! grep -qF "$(cat root.token)" "$f" || { echo "a canary is in $f" >&2; return 1; }
	done &&
	! grep -qF "$QUERY_CANARY" app.log
'

test_expect_success 'the slow request is counted on the status page' '
	http GET /status &&
	expect_json .slow_requests 1
'

test_done
