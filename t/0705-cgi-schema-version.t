#!/bin/sh
test_description='a CGI program (Apache mod_cgi) on a database of another schema version answers the 503 database envelope, never a book: the version is checked at each connect, also without the version table'
TEST_WEB=apache-cgi
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_web
allow_app_errors

# The version this cms-fcgi needs: the number of the last migration (the Makefile gives it the same).
NEEDS=$(ls "$TOP/sql/migrations" | sed -n 's/^0*\([0-9][0-9]*\)-.*\.sql$/\1/p' | tail -n 1)
NEWER=$((NEEDS + 1))

test_expect_success 'setup: book 7 exists and a CGI GET of it answers 200' '
	db_exec "INSERT INTO book (id, title, author, summary) VALUES (7, \"三体\", \"刘慈欣\", \"S\")" &&
	http GET /v1/book/7 &&
	expect_status 200
'

test_expect_success 'a database at schema version 2 answers 503 with the database envelope' '
	db_exec "UPDATE cms_schema_version SET version = 2" &&
	http GET /v1/book/7 &&
	expect_status 503 &&
	expect_json .code 10302 &&
	expect_json .request "GET /v1/book/7"
'

test_expect_success 'the log names both versions and the upgrade command' '
	grep -q "error: database .* has schema version 2, this cms-fcgi needs version $NEEDS: upgrade it with \`cms-fcgi -c FILE --setup-db\`" app.log
'

test_expect_success 'a database without cms_schema_version (the first release) answers the same 503' '
	db_exec "RENAME TABLE cms_schema_version TO t_version_aside" &&
	http GET /v1/book/7 &&
	expect_status 503 &&
	expect_json .code 10302 &&
	grep -q "error: database .* has schema version 1, this cms-fcgi needs version $NEEDS" app.log
'

test_expect_success 'a database a newer cms-fcgi upgraded (a later version) answers the same 503, saying so' '
	db_exec "RENAME TABLE t_version_aside TO cms_schema_version;
		UPDATE cms_schema_version SET version = $NEWER" &&
	http GET /v1/book/7 &&
	expect_status 503 &&
	expect_json .code 10302 &&
	grep -q "error: database .* has schema version $NEWER, .*: a newer cms-fcgi upgraded it" app.log
'

test_expect_success 'back at the version it needs, book 7 is served' '
	db_exec "UPDATE cms_schema_version SET version = $NEEDS" &&
	http GET /v1/book/7 &&
	expect_status 200 &&
	expect_json .title "三体"
'

test_done
