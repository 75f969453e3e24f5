#!/bin/sh
test_description='the same binary run as a plain CGI program (no socket on fd 0): one request from the environment and stdin, the answer on stdout with a Status line'
. "$(dirname "$0")/lib.sh"

start_db

{
	echo "db_socket = $DB_SOCKET"
	echo "db_user = $svc_db_admin"
	echo "db_name = $DB_NAME"
	echo "jwt_secret = $(svc_random_hex 32)"
	echo "log_file = $TRASH/cgi.log"
	echo "message_file = $TOP/conf/code-message.properties"
	echo "file_store_dir = $TRASH/assets"
} >"$TRASH/cgi.conf"

# cgi OUT METHOD PATH_INFO [NAME=VALUE...]: runs one CGI request with a clean environment and the
# caller's stdin; stdout to $TRASH/OUT, stderr to $TRASH/OUT.err, exit status to $TRASH/OUT.rc;
# the body (after the blank line) to $TRASH/OUT.body. Bounded to 10 s so a hang fails.
cgi () {
	local out=$1 method=$2 path=$3 rc=0
	shift 3
	env -i PATH="$PATH" GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 REMOTE_ADDR=127.0.0.1 \
		REQUEST_METHOD="$method" PATH_INFO="$path" "$@" \
		timeout 10 "$APP_BIN" -c "$TRASH/cgi.conf" >"$TRASH/$out" 2>"$TRASH/$out.err" || rc=$?
	echo "$rc" >"$TRASH/$out.rc"
	awk 'f { print } !f && /^\r?$/ { f = 1 }' "$TRASH/$out" >"$TRASH/$out.body"
}

# cgi_json OUT PATH FILE [NAME=VALUE...]: cgi POSTs the JSON of FILE to PATH with the access token
# of the login test below.
cgi_json () {
	local out=$1 path=$2 file=$3
	shift 3
	cgi "$out" POST "$path" CONTENT_TYPE=application/json CONTENT_LENGTH="$(wc -c <"$TRASH/$file")" \
		HTTP_AUTHORIZATION="Bearer $(jq -r .access_token "$TRASH/login.body")" "$@" <"$TRASH/$file"
}

# cgi_line OUT N: line N of the CGI output, as sent (with its CR).
cgi_line () {
	sed -n "$2p" "$TRASH/$1"
}

test_expect_success 'setup: the CGI configuration is accepted; book 7 exists' '
	"$APP_BIN" -c cgi.conf -t &&
	db_exec "INSERT INTO book (id, title, author, summary) VALUES (7, \"三体\", \"刘慈欣\", \"S\")"
'

test_expect_success 'GET /healthz as CGI exits 0' '
	cgi healthz GET /healthz </dev/null &&
	test "$(cat healthz.rc)" = 0
'

test_expect_success 'GET /healthz as CGI starts its output with the line "Status: 200 OK" (CRLF)' '
	printf "Status: 200 OK\r\n" >want &&
	cgi_line healthz 1 >got &&
	cmp want got
'

test_expect_success 'GET /healthz as CGI sends Content-Type: application/json; charset=utf-8' '
	grep -q "^Content-Type: application/json; charset=utf-8.\$" healthz
'

test_expect_success 'GET /healthz as CGI sends the JSON {"status":"ok"} after a blank line' '
	jq -e ".status == \"ok\"" healthz.body
'

test_expect_success 'the CGI Content-Length is the size of the body' '
	length=$(sed -n "s/^Content-Length: \([0-9]*\).\$/\1/p" healthz) &&
	test -n "$length" &&
	test "$length" -eq "$(awk "f { printf \"%s\", \$0 } !f && /^\r?\$/ { f = 1 }" healthz | wc -c)"
'

test_expect_success 'GET /v1/book/7 as CGI answers Status: 200 OK and the book' '
	cgi book7 GET /v1/book/7 </dev/null &&
	test "$(cgi_line book7 1 | tr -d "\r")" = "Status: 200 OK" &&
	jq -e ".id == 7 and .title == \"三体\" and .author == \"刘慈欣\"" book7.body
'

test_expect_success 'GET /v1/book/999 as CGI answers Status: 404 Not Found with the book envelope' '
	cgi book999 GET /v1/book/999 </dev/null &&
	test "$(cgi_line book999 1 | tr -d "\r")" = "Status: 404 Not Found" &&
	jq -e ".code == 10022 and .message == \"未找到相关书籍\" and .request == \"GET /v1/book/999\"" book999.body
'

test_expect_success 'with SCRIPT_NAME=/cgi-bin/cms the envelope request has no script prefix' '
	cgi scripted GET /v1/book/999 SCRIPT_NAME=/cgi-bin/cms REQUEST_URI=/cgi-bin/cms/v1/book/999 </dev/null &&
	jq -e ".request == \"GET /v1/book/999\"" scripted.body
'

test_expect_success 'QUERY_STRING is read in CGI mode (page=0&count=1 answers a page)' '
	cgi paged GET /v1/book QUERY_STRING="page=0&count=1" </dev/null &&
	jq -e ".total == 1 and (.items | length) == 1 and .count == 1" paged.body
'

test_expect_success 'an unknown path as CGI answers Status: 404 Not Found with code 10020' '
	cgi unknown GET /no/such </dev/null &&
	test "$(cgi_line unknown 1 | tr -d "\r")" = "Status: 404 Not Found" &&
	jq -e ".code == 10020" unknown.body
'

test_expect_success 'POST /cms/user/login as CGI reads the body from stdin and answers the tokens' '
	printf "{\"username\":\"root\",\"password\":\"%s\"}" "$ROOT_PASSWORD" >login.json &&
	cgi login POST /cms/user/login CONTENT_TYPE=application/json \
		CONTENT_LENGTH=$(wc -c <login.json) <login.json &&
	test "$(cgi_line login 1 | tr -d "\r")" = "Status: 200 OK" &&
	jq -e ".access_token | length > 0" login.body
'

test_expect_success 'POST /v1/book as CGI with the token answers Status: 201 Created and writes the row' '
	printf "{\"title\":\"CGI book\",\"author\":\"A\",\"summary\":\"S\"}" >book.json &&
	cgi_json create /v1/book book.json &&
	test "$(cgi_line create 1 | tr -d "\r")" = "Status: 201 Created" &&
	jq -e ".code == 1 and .request == \"POST /v1/book\"" create.body &&
	expect_db "SELECT COUNT(*) FROM book WHERE title = \"CGI book\"" 1
'

test_expect_success 'a keyed POST as CGI, replayed, answers a stored body longer than a first read (16 KiB) whole' '
	printf "{\"title\":\"Keyed CGI book\",\"author\":\"A\",\"summary\":\"S\"}" >keyed.json &&
	cgi_json keyed /v1/book keyed.json HTTP_IDEMPOTENCY_KEY=cgi-long &&
	test "$(cgi_line keyed 1 | tr -d "\r")" = "Status: 201 Created" &&
	db_exec "UPDATE cms_idempotency SET body = CONCAT(\"[\\\"\", REPEAT(\"x\", 20000), \"\\\"]\")
		WHERE idem_key = \"cgi-long\"" &&
	cgi_json replay /v1/book keyed.json HTTP_IDEMPOTENCY_KEY=cgi-long &&
	test "$(cgi_line replay 1 | tr -d "\r")" = "Status: 201 Created" &&
	jq -e ".[0] | length == 20000" replay.body &&
	expect_db "SELECT COUNT(*) FROM book WHERE title = \"Keyed CGI book\"" 1
'

test_expect_success 'a group created as CGI without info (a NULL parameter) answers 201, the same name again 409 10072' '
	printf "{\"name\":\"CGI group\"}" >group.json &&
	cgi_json group /cms/admin/group group.json &&
	test "$(cgi_line group 1 | tr -d "\r")" = "Status: 201 Created" &&
	expect_db "SELECT COUNT(*) FROM lin_group WHERE name = \"CGI group\" AND info IS NULL" 1 &&
	cgi_json again /cms/admin/group group.json &&
	test "$(cgi_line again 1 | tr -d "\r")" = "Status: 409 Conflict" &&
	jq -e ".code == 10072 and .request == \"POST /cms/admin/group\"" again.body
'

test_expect_success 'a JSON body shorter than its CONTENT_LENGTH answers Status: 400 with the envelope' '
	token=$(jq -r .access_token login.body) &&
	printf "{\"title\":\"Short book\",\"author\":\"A\",\"summary\":\"S\"}" >short.json &&
	cgi short POST /v1/book CONTENT_TYPE=application/json \
		CONTENT_LENGTH=$(($(wc -c <short.json) + 10)) HTTP_AUTHORIZATION="Bearer $token" <short.json &&
	test "$(cgi_line short 1 | tr -d "\r")" = "Status: 400 Bad Request" &&
	jq -e ".code == 10030 and .request == \"POST /v1/book\"" short.body
'

test_expect_success 'the short JSON body, complete as JSON, created no book' '
	expect_db "SELECT COUNT(*) FROM book WHERE title = \"Short book\"" 0
'

test_expect_success 'a multipart upload cut short of its CONTENT_LENGTH answers Status: 400 with the envelope' '
	token=$(jq -r .access_token login.body) &&
	for n in one two three; do
		printf -- "--XyZ\r\nContent-Disposition: form-data; name=\"%s\"; filename=\"%s.png\"\r\nContent-Type: image/png\r\n\r\n\211PNG\r\n\032\n%s\r\n" \
			$n $n $n || return 1
	done >upload.mp &&
	printf -- "--XyZ--\r\n" >>upload.mp &&
	head -c $(($(wc -c <upload.mp) - 30)) upload.mp >cut.mp &&
	cgi cut POST /cms/file CONTENT_TYPE="multipart/form-data; boundary=XyZ" \
		CONTENT_LENGTH=$(wc -c <upload.mp) HTTP_AUTHORIZATION="Bearer $token" <cut.mp &&
	test "$(cgi_line cut 1 | tr -d "\r")" = "Status: 400 Bad Request" &&
	jq -e ".code == 10030 and .request == \"POST /cms/file\"" cut.body
'

test_expect_success 'the cut upload stored none of its complete parts: no file, no lin_file row' '
	expect_db "SELECT COUNT(*) FROM lin_file" 0 &&
	test "$(find assets -type f 2>/dev/null | wc -l)" = 0
'

test_expect_success 'the whole upload, read in full, stores its three files (the body above was sound)' '
	token=$(jq -r .access_token login.body) &&
	cgi whole POST /cms/file CONTENT_TYPE="multipart/form-data; boundary=XyZ" \
		CONTENT_LENGTH=$(wc -c <upload.mp) HTTP_AUTHORIZATION="Bearer $token" <upload.mp &&
	test "$(cgi_line whole 1 | tr -d "\r")" = "Status: 200 OK" &&
	jq -e "length == 3" whole.body &&
	expect_db "SELECT COUNT(*) FROM lin_file" 3
'

test_expect_success 'the CGI runs wrote no error: lines to the log' '
	test -s cgi.log &&
	! grep -n "error:" cgi.log
'

test_expect_success 'an anonymous POST refused with 401 before its body is read still consumes the body' '
	{ head -c 1048576 /dev/zero; echo $? >writer.rc; } |
		cgi refused POST /v1/book CONTENT_TYPE=application/json CONTENT_LENGTH=1048576 &&
	grep -q "^Status: 401" refused &&
	test "$(cat writer.rc)" = 0
'

test_expect_success 'a CGI start-up failure answers the 500 JSON envelope with the built-in English text; the reason goes to stderr only' '
	cp cgi.conf dup.conf &&
	echo "workers = 2" >>dup.conf &&
	echo "workers = 3" >>dup.conf &&
	env -i PATH="$PATH" GATEWAY_INTERFACE=CGI/1.1 REQUEST_METHOD=GET PATH_INFO=/v1/book \
		"$APP_BIN" -c dup.conf >broken 2>broken.err </dev/null ||
	test $? = 1 &&
	grep -q "^Status: 500" broken &&
	grep -q "^Content-Type: application/json" broken &&
	awk "f { print } !f && /^\r?\$/ { f = 1 }" broken >broken.body &&
	jq -e ".code == 9999 and .request == \"GET /v1/book\"" broken.body &&
	jq -e ".message == \"Unknown server error\"" broken.body &&
	! grep -q workers broken.body &&
	grep -q "workers" broken.err
'

test_expect_success 'a CGI GET writes nothing: permissions already registered are only read' '
	db_exec "CREATE TABLE t_writes (n INT NOT NULL);
		INSERT INTO t_writes VALUES (0);
		CREATE TRIGGER t_count_permission_writes BEFORE INSERT ON lin_permission FOR EACH ROW
			UPDATE t_writes SET n = n + 1" &&
	cgi quiet GET /v1/book/7 </dev/null &&
	grep -q "^Status: 200" quiet &&
	expect_db "SELECT n FROM t_writes" 0
'

# RFC 3875 4.4: a query without '=' reaches a CGI program as its arguments (Apache does this), so
# without a guard `?--get+jwt_secret` printed the secret and `?--backup` made a backup.
test_expect_success 'a query without = is never read as command-line options: the request is served' '
	env -i PATH="$PATH" GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 REMOTE_ADDR=127.0.0.1 \
		REQUEST_METHOD=GET PATH_INFO=/v1/book/7 QUERY_STRING=--get+jwt_secret \
		CMS_CONFIG="$TRASH/cgi.conf" timeout 10 "$APP_BIN" --get jwt_secret >isindex.out \
		2>isindex.err </dev/null &&
	grep -q "^Status: 200" isindex.out &&
	! grep -qF "$("$APP_BIN" -c "$TRASH/cgi.conf" --get jwt_secret)" isindex.out isindex.err &&
	env -i PATH="$PATH" GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 REMOTE_ADDR=127.0.0.1 \
		REQUEST_METHOD=GET PATH_INFO=/v1/book/7 QUERY_STRING=--backup+backups \
		CMS_CONFIG="$TRASH/cgi.conf" timeout 10 "$APP_BIN" --backup backups >backup.out \
		2>backup.err </dev/null &&
	grep -q "^Status: 200" backup.out &&
	test ! -e backups
'

test_done
