#!/bin/sh
test_description='a request that loses a deadlock runs again: the client gets its 200, not a 503'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

test_expect_success 'setup: a book, and a trigger that makes updating it wait for a row of t_lock' '
	remember root "$ROOT_PASSWORD" &&
	db_exec "INSERT INTO book (title, author) VALUES (\"Dune\", \"Herbert\")" &&
	db_exec "SELECT id FROM book" >book_id &&
	db_exec "CREATE TABLE t_lock (id INT PRIMARY KEY) ENGINE=InnoDB;
		INSERT INTO t_lock VALUES (1);
		CREATE TABLE t_weight (v INT) ENGINE=InnoDB;
		CREATE TRIGGER t_book_waits BEFORE UPDATE ON book FOR EACH ROW
			SELECT id INTO @t_locked FROM t_lock WHERE id = 1 FOR UPDATE"
'

test_expect_success 'an update that deadlocks with another transaction is retried and succeeds' '
	mkfifo session.sql &&
	{ svc_sql "$DB_SOCKET" "$DB_NAME" <session.sql >session.out 2>&1 & } &&
	exec 3>session.sql &&
	# The other transaction holds t_lock and is made the heavier one, so that InnoDB picks the
	# request as the deadlock victim.
	echo "BEGIN; SELECT id FROM t_lock WHERE id = 1 FOR UPDATE;
		INSERT INTO t_weight (v) SELECT seq FROM seq_1_to_500;" >&3 &&
	weighted () {
		test "$(transactions "t.trx_rows_modified >= 500")" -ge 1
	} &&
	poll_until 100 weighted &&
	as root &&
	{ curl --silent --max-time 30 --output put.body --dump-header put.headers \
		--write-out "%{http_code}\n" \
		-X PUT -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \
		--data-raw "{\"title\":\"Dune Messiah\",\"author\":\"Herbert\",\"summary\":\"2\"}" \
		"http://127.0.0.1:$HTTP_PORT/v1/book/$(cat book_id)" >put.status & } &&
	waiting () {
		test "$(transactions "t.trx_state = \"LOCK WAIT\"")" -ge 1
	} &&
	poll_until 100 waiting &&
	echo "UPDATE book SET summary = \"other\" WHERE id = $(cat book_id); COMMIT;" >&3 &&
	exec 3>&- &&
	answered () {
		test -s put.status
	} &&
	poll_until 200 answered &&
	test "$(cat put.status)" = 200 &&
	check_openapi PUT "/v1/book/$(cat book_id)" put &&
	grep -q "deadlock, running the request again" app.log &&
	expect_db "SELECT title FROM book WHERE id = $(cat book_id)" "Dune Messiah"
'

test_done
