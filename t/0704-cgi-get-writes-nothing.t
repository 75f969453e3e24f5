#!/bin/sh
test_description='GETs run as CGI programs (Apache mod_cgi, a process a request) write nothing to the database: the write counters of the test'\''s own MariaDB do not move, while a CGI POST moves them; and they close no statement one by one'
TEST_WEB=apache-cgi
. "$(dirname "$0")/lib.sh"

# A private server: its counters are this file's alone.
start_db --private
start_app
start_web

# The server's counters of statements and InnoDB rows that change data, summed.
writes () {
	svc_sql "$DB_SOCKET" -N -B -e "SELECT SUM(VARIABLE_VALUE) FROM information_schema.GLOBAL_STATUS
		WHERE VARIABLE_NAME IN ('COM_INSERT', 'COM_INSERT_SELECT', 'COM_REPLACE',
			'COM_REPLACE_SELECT', 'COM_UPDATE', 'COM_UPDATE_MULTI', 'COM_DELETE',
			'COM_DELETE_MULTI', 'INNODB_ROWS_INSERTED', 'INNODB_ROWS_UPDATED', 'INNODB_ROWS_DELETED')"
}

# The server's count of one status variable.
status () {
	svc_sql "$DB_SOCKET" -N -B -e "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS
		WHERE VARIABLE_NAME = '$1'"
}

test_expect_success 'setup: book 7 exists and a first CGI GET of it answers 200' '
	db_exec "INSERT INTO book (id, title, author, summary) VALUES (7, \"三体\", \"刘慈欣\", \"S\")" &&
	http GET /v1/book/7 &&
	expect_status 200 &&
	writes >before &&
	status COM_STMT_CLOSE >closes.before &&
	status COM_STMT_EXECUTE >executes.before
'

test_expect_success 'five CGI GETs of book 7 answer 200 each' '
	for i in 1 2 3 4 5; do
		http GET /v1/book/7 && expect_status 200 || return 1
	done
'

test_expect_success 'a CGI GET of the book list answers 200, of an unknown book 404' '
	http GET "/v1/book?page=0&count=5" &&
	expect_status 200 &&
	http GET /v1/book/999 &&
	expect_status 404
'

test_expect_success 'those CGI GETs moved no write counter of the server' '
	writes >after &&
	diff -u before after
'

test_expect_success 'they executed statements, but closed none one by one: the connection'\''s end frees them' '
	status COM_STMT_EXECUTE >executes.after &&
	test "$(cat executes.after)" -ge "$(($(cat executes.before) + 7))" &&
	status COM_STMT_CLOSE >closes.after &&
	diff -u closes.before closes.after
'

test_expect_success 'a CGI POST of a book moves them: they count what the CGI processes write' '
	login root "$ROOT_PASSWORD" &&
	http POST /v1/book "{\"title\":\"CGI book\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 201 &&
	writes >posted &&
	test "$(cat posted)" -gt "$(cat after)"
'

test_done
