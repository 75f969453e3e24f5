#!/bin/sh
test_description='a CGI query without = whose words become options only once %-decoded (%2Dc, %2D%2Dbackup, %2d-restore, %2D%2Dget, %2Dt) is never read as the command line: through Apache'"'"'s mod_cgi, which decodes them into argv, and run directly as a server runs it'
TEST_WEB=apache-cgi
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_web

SECRET=$("$APP_BIN" -c "$TRASH/cms.conf" --get jwt_secret)

test_expect_success 'setup: book 7 answers 200 through Apache'"'"'s CGI' '
	db_exec "INSERT INTO book (id, title, author, summary) VALUES (7, \"Dune\", \"H\", \"S\")" &&
	http GET /v1/book/7 &&
	expect_status 200 &&
	test -n "$SECRET"
'

# RFC 3875 4.4: the server splits such a query at '+' and %-decodes each word into argv; Apache's
# mod_cgi does, so `?%2D%2Dget+jwt_secret` runs `cms-fcgi --get jwt_secret`.
test_expect_success 'Apache: ?%2D%2Dget+jwt_secret answers the book; the secret is neither in the answer nor in the error log' '
	http GET "/v1/book/7?%2D%2Dget+jwt_secret" &&
	expect_status 200 &&
	expect_json .title Dune &&
	! grep -qF "$SECRET" body headers apache/error.log
'

test_expect_success 'Apache: ?%2Dc+%2Fdev%2Fnull (another configuration) answers the book' '
	http GET "/v1/book/7?%2Dc+%2Fdev%2Fnull" &&
	expect_status 200 &&
	expect_json .title Dune
'

test_expect_success 'Apache: ?%2Dt (check the configuration, print nothing) answers the book' '
	http GET "/v1/book/7?%2Dt" &&
	expect_status 200 &&
	expect_json .title Dune
'

test_expect_success 'Apache: ?%2D%2Dbackup+DIR answers the book and writes no backup' '
	http GET "/v1/book/7?%2D%2Dbackup+$TRASH/cgi-backups" &&
	expect_status 200 &&
	expect_json .title Dune &&
	test ! -e cgi-backups
'

test_expect_success 'Apache: ?%2d-restore (lower-case escape) answers the book' '
	http GET "/v1/book/7?%2d-restore" &&
	expect_status 200 &&
	expect_json .title Dune
'

# As a server runs the program: the query as sent in QUERY_STRING, its decoded words in argv.
cgi_direct () { # QUERY ARGS...: runs the binary for GET /v1/book/7, its answer in direct.out
	query=$1
	shift
	env -i PATH="$PATH" GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 REMOTE_ADDR=127.0.0.1 \
		REQUEST_METHOD=GET PATH_INFO=/v1/book/7 QUERY_STRING="$query" \
		CMS_CONFIG="$TRASH/cms.conf" timeout 10 "$APP_BIN" "$@" >direct.out 2>direct.err </dev/null
}

test_expect_success 'directly: each decoded query serves the request, with no backup and no secret' '
	cgi_direct "%2D%2Dget+jwt_secret" --get jwt_secret &&
	grep -q "^Status: 200" direct.out &&
	! grep -qF "$SECRET" direct.out direct.err &&
	cgi_direct "%2Dc+%2Fdev%2Fnull" -c /dev/null &&
	grep -q "^Status: 200" direct.out &&
	cgi_direct "%2D%2Dbackup+direct-backups" --backup direct-backups &&
	grep -q "^Status: 200" direct.out &&
	test ! -e direct-backups &&
	cgi_direct "%2d-restore" --restore &&
	grep -q "^Status: 200" direct.out &&
	cgi_direct "x+%2Dt" x -t &&
	grep -q "^Status: 200" direct.out
'

test_expect_success 'directly: a query with = is no command line, and the arguments given are read' '
	cgi_direct "page=0" -c /dev/null
	test $? -ne 0 &&
	grep -q "^Status: 500" direct.out &&
	grep -q "jwt_secret is not set" direct.err
'

test_done
