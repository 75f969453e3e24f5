#!/bin/sh
test_description='routing and envelope: unknown path 404, wrong method 405 with Allow, trailing slash, JSON content type, UTF-8 text, CORS on every answer and the preflight'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

test_expect_success 'setup: root logs in; book 7 exists' '
	remember root "$ROOT_PASSWORD" &&
	db_exec "INSERT INTO book (id, title, author, summary) VALUES (7, \"三体\", \"刘慈欣\", \"第一行\n😀\")"
'

for path in /no/such/path /v1/books /v1/book/7/extra /v1 /cms/user/nope; do
	test_expect_success "GET $path answers 404 {code 10020, 资源不存在, request \"GET $path\"}" '
		http GET $path &&
		expect_status 404 &&
		expect_json .code 10020 &&
		expect_json .message 资源不存在 &&
		expect_json .request "GET $path"
	'
done

test_expect_success 'POST to an unknown path answers 404 code 10020, not 405' '
	http POST /no/such/path "{}" &&
	expect_status 404 &&
	expect_json .code 10020
'

test_expect_success 'the 404 request field of an unknown path carries no query string' '
	http GET "/no/such/path?a=1&b=2" &&
	expect_status 404 &&
	expect_json .request "GET /no/such/path"
'

test_expect_success 'the root path answers 404 code 10020' '
	http GET / &&
	expect_status 404 &&
	expect_json .code 10020
'

test_expect_success 'DELETE /v1/book answers 405 with code 10080 and 请求方法不允许' '
	as root &&
	http DELETE /v1/book &&
	expect_status 405 &&
	expect_json .code 10080 &&
	expect_json .message 请求方法不允许 &&
	expect_json .request "DELETE /v1/book"
'

test_expect_success 'the 405 of DELETE /v1/book has an Allow header listing GET, POST and OPTIONS' '
	http DELETE /v1/book &&
	expect_header Allow "(^|, )GET(,|$)" &&
	expect_header Allow "(^|, )POST(,|$)" &&
	expect_header Allow "(^|, )OPTIONS(,|$)"
'

test_expect_success 'the Allow header of /v1/book lists no method it does not serve' '
	http DELETE /v1/book &&
	expect_header Allow "^(GET|POST|HEAD|OPTIONS)(, (GET|POST|HEAD|OPTIONS))*$"
'

test_expect_success 'PATCH /v1/book/7 answers 405 with Allow listing GET, PUT, DELETE and OPTIONS' '
	http PATCH /v1/book/7 &&
	expect_status 405 &&
	expect_json .code 10080 &&
	expect_header Allow "(^|, )GET(,|$)" &&
	expect_header Allow "(^|, )PUT(,|$)" &&
	expect_header Allow "(^|, )DELETE(,|$)" &&
	expect_header Allow "(^|, )OPTIONS(,|$)" &&
	expect_json .request "PATCH /v1/book/7"
'

test_expect_success 'POST /v1/book/7 answers 405, not 404' '
	as root &&
	http POST /v1/book/7 "{\"title\":\"T\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 405 &&
	expect_json .code 10080
'

test_expect_success 'a 405 is answered before authentication (no token: still 405)' '
	http PUT /v1/book &&
	expect_status 405
'

test_expect_success 'GET /v1/book/ (trailing slash) answers the list like /v1/book' '
	http GET /v1/book/ &&
	expect_status 200 &&
	expect_json type array &&
	expect_json ".[0].id" 7
'

test_expect_success 'GET /v1/book/7/ (trailing slash) answers book 7' '
	http GET /v1/book/7/ &&
	expect_status 200 &&
	expect_json .title 三体
'

test_expect_success 'POST /v1/book/ (trailing slash) creates like POST /v1/book' '
	as root &&
	http POST /v1/book/ "{\"title\":\"Slash\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 201 &&
	expect_json .code 1 &&
	expect_db "SELECT COUNT(*) FROM book WHERE title = \"Slash\"" 1
'

test_expect_success 'GET /v1/book/search/?q= (trailing slash) searches' '
	http GET "/v1/book/search/?q=%E4%B8%89" &&
	expect_status 200 &&
	expect_json "[.[].id] | join(\",\")" 7
'

test_expect_success 'a read answers Content-Type application/json; charset=utf-8' '
	http GET /v1/book/7 &&
	expect_header Content-Type "^application/json; charset=utf-8$"
'

test_expect_success 'a list answers Content-Type application/json; charset=utf-8' '
	http GET /v1/book &&
	expect_header Content-Type "^application/json; charset=utf-8$"
'

test_expect_success 'a 201 answers Content-Type application/json; charset=utf-8' '
	as root &&
	http POST /v1/book "{\"title\":\"CT\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 201 &&
	expect_header Content-Type "^application/json; charset=utf-8$"
'

for req in "GET /no/such 404" "GET /v1/book/0 400" "POST /v1/book 401" "DELETE /v1/book 405"; do
	set -- $req
	method=$1 path=$2 status=$3
	test_expect_success "the $status of $method $path answers Content-Type application/json; charset=utf-8" '
		http $method $path &&
		expect_status $status &&
		expect_header Content-Type "^application/json; charset=utf-8$"
	'
done

test_expect_success 'non-ASCII text of a book is sent as UTF-8 bytes, never \u escapes' '
	http GET /v1/book/7 &&
	grep -q "三体" body &&
	grep -q "刘慈欣" body &&
	grep -q "😀" body &&
	! grep -q "\\\\u" body
'

test_expect_success 'non-ASCII text of an envelope is sent as UTF-8 bytes, never \u escapes' '
	http GET /v1/book/999 &&
	grep -q "未找到相关书籍" body &&
	! grep -q "\\\\u" body
'

test_expect_success 'a line break in a stored text is sent as the two-character JSON escape' '
	http GET /v1/book/7 &&
	grep -q "第一行\\\\n😀" body
'

test_expect_success 'GET /v1/book/%FF (a raw 0xFF byte in the path) answers 400 with a UTF-8 body' '
	http GET /v1/book/%FF &&
	expect_status 400 &&
	iconv -f UTF-8 -t UTF-8 "$TRASH/body" >/dev/null
'

test_expect_success 'the request field of GET /v1/book/%FF is the path %XX-escaped again' '
	http GET /v1/book/%FF &&
	expect_json .request "GET /v1/book/%FF"
'

test_expect_success 'CORS: a successful read carries Access-Control-Allow-Origin' '
	http GET /v1/book/7 "" -H "Origin: https://any.example" &&
	expect_status 200 &&
	expect_header Access-Control-Allow-Origin "^(\*|https://any\.example)$"
'

test_expect_success 'CORS: a 201 carries Access-Control-Allow-Origin' '
	as root &&
	http POST /v1/book "{\"title\":\"Cors\",\"author\":\"A\",\"summary\":\"S\"}" -H "Origin: https://any.example" &&
	expect_status 201 &&
	expect_header Access-Control-Allow-Origin "^(\*|https://any\.example)$"
'

for req in "GET /v1/book/999 404" "GET /v1/book/abc 400" "POST /v1/book 401" "DELETE /v1/book 405" "GET /no/such 404"; do
	set -- $req
	method=$1 path=$2 status=$3
	test_expect_success "CORS: the $status of $method $path carries Access-Control-Allow-Origin" '
		http $method $path "" -H "Origin: https://any.example" &&
		expect_status $status &&
		expect_header Access-Control-Allow-Origin "^(\*|https://any\.example)$"
	'
done

test_expect_success 'CORS: a 415 carries Access-Control-Allow-Origin' '
	as root &&
	http POST /v1/book "" -H "Content-Type: text/plain" --data-raw "x" -H "Origin: https://any.example" &&
	expect_status 415 &&
	expect_header Access-Control-Allow-Origin "^(\*|https://any\.example)$"
'

test_expect_success 'OPTIONS preflight of /v1/book/1 answers 204 without a token' '
	http OPTIONS /v1/book/1 "" -H "Origin: https://any.example" \
		-H "Access-Control-Request-Method: DELETE" \
		-H "Access-Control-Request-Headers: authorization, content-type" &&
	expect_status 204
'

test_expect_success 'the preflight lists GET, PUT and DELETE in Access-Control-Allow-Methods' '
	http OPTIONS /v1/book/1 "" -H "Origin: https://any.example" \
		-H "Access-Control-Request-Method: DELETE" &&
	expect_header Access-Control-Allow-Methods "(^|[ ,])GET(,|$)" &&
	expect_header Access-Control-Allow-Methods "(^|[ ,])PUT(,|$)" &&
	expect_header Access-Control-Allow-Methods "(^|[ ,])DELETE(,|$)"
'

test_expect_success 'the preflight carries Access-Control-Allow-Origin' '
	http OPTIONS /v1/book/1 "" -H "Origin: https://any.example" \
		-H "Access-Control-Request-Method: DELETE" &&
	expect_header Access-Control-Allow-Origin "^(\*|https://any\.example)$"
'

test_expect_success 'the preflight allows the Authorization and Content-Type request headers' '
	http OPTIONS /v1/book/1 "" -H "Origin: https://any.example" \
		-H "Access-Control-Request-Method: PUT" \
		-H "Access-Control-Request-Headers: authorization, content-type" &&
	expect_header Access-Control-Allow-Headers "(^|[ ,])[Aa]uthorization(,|$)" &&
	expect_header Access-Control-Allow-Headers "(^|[ ,])[Cc]ontent-[Tt]ype(,|$)"
'

test_expect_success 'the preflight answers its fixed Allow-Headers list, never the requested headers echoed' '
	http OPTIONS /v1/book/1 "" -H "Origin: https://any.example" \
		-H "Access-Control-Request-Method: PUT" \
		-H "Access-Control-Request-Headers: x-evil, authorization" &&
	expect_status 204 &&
	expect_header Access-Control-Allow-Headers "^Authorization, Content-Type, Idempotency-Key, tag$"
'

test_expect_success 'the preflight has no body' '
	http OPTIONS /v1/book/1 "" -H "Origin: https://any.example" \
		-H "Access-Control-Request-Method: GET" &&
	test ! -s body
'

test_expect_success 'the preflight of /v1/book lists GET and POST, not DELETE' '
	http OPTIONS /v1/book "" -H "Origin: https://any.example" \
		-H "Access-Control-Request-Method: POST" &&
	expect_status 204 &&
	expect_header Access-Control-Allow-Methods "(^|[ ,])POST(,|$)" &&
	! expect_header Access-Control-Allow-Methods "DELETE" 2>/dev/null
'

test_expect_success 'OPTIONS of an unknown path answers 404 code 10020' '
	http OPTIONS /no/such "" -H "Origin: https://any.example" \
		-H "Access-Control-Request-Method: GET" &&
	expect_status 404 &&
	expect_json .code 10020
'

test_expect_success 'a body just over the default max_body_bytes (1 MiB) gets the app 413 JSON envelope, not nginx HTML' '
	as root &&
	head -c 1048577 /dev/zero | tr "\0" " " >big.json &&
	http POST /v1/book @big.json &&
	expect_status 413 &&
	expect_header Content-Type "^application/json; charset=utf-8$" &&
	expect_json .code 10300 &&
	expect_json .request "POST /v1/book"
'

test_done
