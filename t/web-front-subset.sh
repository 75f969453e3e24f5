# The behaviours every front must carry unchanged (a read, a create, a login, the token errors, an
# upload served back at /assets/, the app's 413, a refused body): sourced by the t/07*-apache-*.t
# files after start_app max_body_bytes=4096 and start_web, so each front passes the same tests.

test_expect_success 'setup: book 7 exists; root logs in through the front and keeps the token' '
	db_exec "INSERT INTO book (id, title, author, summary) VALUES (7, \"三体\", \"刘慈欣\", \"S\")" &&
	remember root "$ROOT_PASSWORD"
'

test_expect_success 'GET /v1/book/7 answers 200 with the book' '
	http GET /v1/book/7 &&
	expect_status 200 &&
	expect_json .id 7 &&
	expect_json .title 三体 &&
	expect_header Content-Type "^application/json; charset=utf-8$"
'

test_expect_success 'the 404 of GET /v1/book/999 has request "GET /v1/book/999": the app routes on PATH_INFO' '
	http GET "/v1/book/999?x=1" &&
	expect_status 404 &&
	expect_json .code 10022 &&
	expect_json .request "GET /v1/book/999"
'

test_expect_success 'a percent-encoded path is routed decoded (/v1/%62ook/7 is book 7)' '
	http GET /v1/%62ook/7 &&
	expect_status 200 &&
	expect_json .id 7
'

test_expect_success 'POST /v1/book with the token answers 201 and writes the row' '
	as root &&
	http POST /v1/book "{\"title\":\"Front book\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 201 &&
	expect_json .code 1 &&
	expect_db "SELECT COUNT(*) FROM book WHERE title = \"Front book\"" 1
'

test_expect_success 'a wrong password answers 401 10031 with the login envelope' '
	http POST /cms/user/login "{\"username\":\"root\",\"password\":\"wrong-1\"}" &&
	expect_status 401 &&
	expect_json .code 10031 &&
	expect_json .request "POST /cms/user/login"
'

test_expect_success 'the Authorization header reaches the app: the token answers 200 on a login route' '
	as root &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .username root
'

test_expect_success 'no Authorization header answers 401 10012' '
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10012 &&
	expect_json .request "GET /cms/user/information"
'

test_expect_success 'a garbage token answers 401 10041' '
	TOKEN=not-a-jwt-at-all &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'a token signed with another secret answers 401 10041' '
	TOKEN=$(printf "{\"identity\":1,\"scope\":\"lin\",\"type\":\"access\",\"exp\":%s,\"ver\":0}" \
		$(($(date +%s) + 600)) | jwt_sign other-secret-0123456789abcdef0123456789abcdef) &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'an upload answers 200 and its url serves the same bytes as image/png with nosniff' '
	as root &&
	printf "\211PNG\r\n\032\nfront" >one.png &&
	http POST /cms/file "" -F file=@one.png &&
	expect_status 200 &&
	url=$(jq -r ".[0].url" body) &&
	case $url in "http://127.0.0.1:$HTTP_PORT/assets/"*) ;; *) false ;; esac &&
	TOKEN= &&
	http GET "${url#http://127.0.0.1:$HTTP_PORT}" &&
	expect_status 200 &&
	cmp one.png body &&
	expect_header Content-Type "^image/png$" &&
	expect_header X-Content-Type-Options "^nosniff$"
'

test_expect_success 'a stored file of another extension is served as application/octet-stream' '
	mkdir -p "$FILE_STORE_DIR" &&
	echo "<script>" >"$FILE_STORE_DIR/x.html" &&
	http GET /assets/x.html &&
	expect_status 200 &&
	expect_header Content-Type "^application/octet-stream$"
'

test_expect_success 'a body over max_body_bytes answers the app 413 JSON envelope, not an HTML page' '
	as root &&
	head -c 8000 /dev/zero | tr "\0" " " >big.json &&
	http POST /v1/book @big.json &&
	expect_status 413 &&
	expect_json .code 10300 &&
	expect_json .request "POST /v1/book" &&
	expect_header Content-Type "^application/json; charset=utf-8$"
'

test_expect_success 'an anonymous POST of 1 MiB is refused with its 401 envelope, the connection not reset' '
	head -c 1048576 /dev/zero | tr "\0" " " >mib.json &&
	http POST /v1/book @mib.json &&
	expect_status 401 &&
	expect_json .code 10012
'

test_expect_success 'after the refused body the front still answers (GET /v1/book/7 is 200)' '
	http GET /v1/book/7 &&
	expect_status 200
'
