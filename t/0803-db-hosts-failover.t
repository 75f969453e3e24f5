#!/bin/sh
test_description='db_hosts: workers skip a server that does not answer and use the next one; with none answering, the 503 envelope, never 502; back to 200 when one answers again'
. "$(dirname "$0")/lib.sh"

start_db --private
# The first entry names a server that is not there (no such socket): every connect passes it.
start_app "db_hosts=$TRASH/nobody-here.sock,127.0.0.1:1,$DB_SOCKET"
start_nginx
allow_app_errors

test_expect_success 'setup: a book exists' '
	db_exec "INSERT INTO book (title, author) VALUES (\"Dune\", \"Herbert\")" &&
	db_exec "SELECT id FROM book WHERE title = \"Dune\"" >book_id
'

test_expect_success 'requests are served by the third server of db_hosts' '
	http GET /v1/book/$(cat book_id) &&
	expect_status 200 &&
	expect_json .title Dune &&
	grep -q "connected to database .* at $DB_SOCKET" app.log
'

stop_db

test_expect_success 'with no server of db_hosts answering, GET /v1/book/ID answers the 503 envelope' '
	http GET /v1/book/$(cat book_id) &&
	expect_status 503 &&
	expect_json .code 10302
'

restart_db

test_expect_success 'once the server is back, the same request answers 200 again' '
	poll_until 100 eval "http GET /v1/book/$(cat book_id) && expect_status 200"
'

test_done
