#!/bin/sh
test_description='a frozen or stopped database costs one timeout, then every worker answers 503 at once'
. "$(dirname "$0")/lib.sh"

start_db --private
# Timeouts far apart from what a busy machine adds to a request (a perl start, a scheduler
# wait): "at once" is under 3 s, where a wait for the database would take 5 s or more.
start_app workers=2 db_read_timeout=6 db_connect_timeout=5 fcgi_read_timeout=20
start_nginx
# The app logs the failed database calls while the server is frozen or down.
allow_app_errors

# direct METHOD PATH [BODY_FILE...]: one request straight to the pool on a new connection (so it
# goes to a worker that is free, never to one nginx's kept connection points at); the response in
# file direct, its duration in seconds in file took.
direct () {
	local method=$1 path=$2 start end
	shift 2
	start=$(date +%s.%N) &&
	"$TOP/t/fcgi-client.pl" "$APP_SOCKET" request --param "REQUEST_METHOD=$method" \
		--param "PATH_INFO=$path" --param CONTENT_TYPE=application/json "$@" >direct &&
	end=$(date +%s.%N) &&
	awk -v a="$start" -v b="$end" "BEGIN { printf \"%.3f\n\", b - a }" >took
}

# faster_than SECONDS: the last direct request took less.
faster_than () {
	awk -v s="$(cat took)" -v max="$1" "BEGIN { exit !(s < max) }" || {
		echo "took $(cat took) s, expected under $1 s" >&2
		return 1
	}
}

test_expect_success 'setup: a book is served while the database is up' '
	db_exec "INSERT INTO book (title, author) VALUES (\"Dune\", \"Herbert\")" &&
	db_exec "SELECT id FROM book" >book_id &&
	http GET /v1/book/$(cat book_id) &&
	expect_status 200 &&
	printf "{\"username\":\"root\",\"password\":\"%s\"}" "$ROOT_PASSWORD" >login.json &&
	remember root "$ROOT_PASSWORD"
'

kill -STOP "$DB_PID"

test_expect_success 'setup: one worker is held reading a login body that has not all arrived' '
	paused_request held login.json 10 --param REQUEST_METHOD=POST \
		--param PATH_INFO=/cms/user/login --param CONTENT_TYPE=application/json
'

test_expect_success 'the first request to a frozen database gets its 503 within db_read_timeout + 3 s' '
	direct GET /v1/book/$(cat book_id) &&
	grep -q "^Status: 503" direct &&
	grep -q "\"code\":10302" direct &&
	faster_than 9
'

test_expect_success 'the held worker, which never waited on the database, answers 503 at once' '
	touch pause/go &&
	answered () {
		grep -q "^Status: 503" held
	} &&
	poll_until 30 answered
'

test_expect_success 'every later request gets its 503 before db_connect_timeout (5 s) could pass' '
	for i in $(seq 10); do
		direct GET /v1/book/$(cat book_id) &&
		grep -q "^Status: 503" direct &&
		faster_than 3 || return 1
	done
'

test_expect_success 'GET /readyz answers 503 at once while the database is frozen' '
	direct GET /readyz &&
	grep -q "^Status: 503" direct &&
	faster_than 3
'

kill -CONT "$DB_PID"

test_expect_success 'the book is served again within 10 s of the database thawing' '
	served () {
		http GET /v1/book/$(cat book_id) && expect_status 200
	} &&
	poll_until 100 served
'

stop_db

test_expect_success 'with the database stopped, requests get their 503 at once' '
	for i in 1 2 3; do
		direct GET /v1/book/$(cat book_id) &&
		grep -q "^Status: 503" direct &&
		faster_than 3 || return 1
	done
'

test_expect_success 'a CR in the path of a failed request is escaped in the error log line' '
	direct GET "/cms/admin/group/1$(printf "\r")FORGED" \
		--param "HTTP_AUTHORIZATION=Bearer $(cat root.token)" &&
	grep -q "^Status: 503" direct &&
	grep -q "error: .*\[GET /cms/admin/group/1%0DFORGED\] request_id=[0-9a-f]\{32\}\$" app.log &&
	! grep -q "$(printf "\r")" app.log
'

restart_db

test_expect_success 'the book is served again within 10 s of the restart' '
	served () {
		http GET /v1/book/$(cat book_id) && expect_status 200
	} &&
	poll_until 100 served &&
	grep -q "database reachable again" app.log
'

test_done
