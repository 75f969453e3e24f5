#!/bin/sh
test_description='errors nginx answers itself (413 above client_max_body_size, 400 malformed HTTP, 414, 431, 502 with the pool stopped) are JSON envelopes whose codes and texts are those of the message table, its default texts those of conf/code-message.properties'
. "$(dirname "$0")/lib.sh"

conf=$TOP/nginx/cms-fcgi.conf
table=$TOP/conf/code-message.properties

# The answers of location /.cms-fcgi-error, one a line: "STATUS BODY" for each
# `if ($status = STATUS) { return STATUS 'BODY'; }`, "- BODY" for the closing `return`.
nginx_error_answers () {
	sed -n '/^location = \/\.cms-fcgi-error {/,/^}/{
		s/^ *if (\$status = \([0-9]*\)) { return \1 '"'"'\(.*\)'"'"'; }$/\1 \2/p
		s/^ *return [0-9]* '"'"'\(.*\)'"'"';$/- \1/p
	}' "$conf"
}

# The default texts of /.cms-fcgi-error, one `set $cms_text_CODE "TEXT";` a line as
# cms-fcgi --nginx-texts writes them.
nginx_default_texts () {
	sed -n '/^location = \/\.cms-fcgi-error {/,/^}/s/^ *\(set \$cms_text_.*\)$/\1/p' "$conf"
}

# The statuses error_page sends to /.cms-fcgi-error, as sent (494 =431 gives 431), sorted.
nginx_error_statuses () {
	sed -n 's/^error_page \(.*\) \/\.cms-fcgi-error;$/\1/p' "$conf" |
		sed 's/^.*=\([0-9]*\)$/\1/' | tr ' ' '\n' | sort -n
}

test_expect_success 'setup: cms-fcgi.conf sends nginx errors to /.cms-fcgi-error and it answers each' '
	nginx_error_answers >answers &&
	nginx_error_statuses >statuses &&
	test $(wc -l <statuses) -ge 10 &&
	test $(wc -l <answers) -eq $(($(wc -l <statuses) + 1))
'

test_expect_success 'the default texts are those cms-fcgi --nginx-texts writes from conf/code-message.properties' '
	nginx_default_texts >defaults &&
	test $(wc -l <defaults) -ge 9 &&
	CMS_MESSAGE_FILE="$table" "$APP_BIN" --nginx-texts >generated &&
	grep -v "^#" generated >generated.set &&
	diff -u generated.set defaults
'

test_expect_success 'cms-fcgi.conf reads the generated texts after its defaults, from cms-fcgi-texts.conf only' '
	sed -n "/^location = \/\.cms-fcgi-error {/,/^}/p" "$conf" >location &&
	test "$(grep -c "^ *include " location)" = 1 &&
	grep -n "^    include cms-fcgi-text\[s\]\.conf;\$" location >include.line &&
	test "$(grep -n "set \$cms_text_" location | tail -n 1 | cut -d: -f1)" -lt "$(cut -d: -f1 include.line)" &&
	test "$(grep -n "if (\$status" location | head -n 1 | cut -d: -f1)" -gt "$(cut -d: -f1 include.line)"
'

test_expect_success 'every answer sends the text variable of its own code' '
	sed -n "s/^[^ ]* {\"code\":\([0-9]*\),\"message\":\"\\\$cms_text_\([0-9]*\)\",.*/\1 \2/p" answers >pairs &&
	test $(wc -l <pairs) -eq $(wc -l <answers) &&
	! awk "\$1 != \$2" pairs | grep .
'

test_expect_success 'each status error_page sends has its own answer, and no answer is for another status' '
	grep -v "^-" answers | cut -d" " -f1 | sort -n >answered &&
	diff -u statuses answered
'

test_expect_success 'every answer of /.cms-fcgi-error is an envelope of exactly code, message and request' '
	sed -n "s/^set \\\$cms_text_\([0-9]*\) \"\(.*\)\";\$/s|\\\\\$cms_text_\1\"|\2\"|/p" defaults >texts.sed &&
	cut -d" " -f2- answers | sed -f texts.sed |
		sed "s/\\\$cms_error_request/GET \\/v1\\/book/" >bodies &&
	jq -e -s "length == $(wc -l <answers) and
		all(.[]; keys == [\"code\", \"message\", \"request\"] and (.code | type) == \"number\"
			and .request == \"GET /v1/book\")" bodies
'

test_expect_success 'every code nginx answers is in the message table with the same text' '
	jq -r "\"code-message[\(.code)]=\(.message)\"" bodies | sort -u >nginx_texts &&
	test -s nginx_texts &&
	test -s "$table" &&
	! grep -vxF -f "$table" nginx_texts
'

test_expect_success 'nginx answers failures only (codes from 9999 on)' '
	jq -e -s "all(.[]; .code >= 9999)" bodies
'

start_db
start_app
start_nginx

test_expect_success 'setup: a body of 3 MB, above client_max_body_size 2m' '
	head -c 3000000 /dev/zero | tr "\0" " " >big.json &&
	test $(wc -c <big.json) -eq 3000000
'

test_expect_success 'a body above client_max_body_size answers 413 with code 10300 and 请求体过大' '
	http POST /v1/book @big.json &&
	expect_status 413 &&
	expect_json .code 10300 &&
	expect_json .message 请求体过大
'

test_expect_success 'the 413 of nginx is application/json; charset=utf-8 with request "POST /v1/book"' '
	http POST "/v1/book?x=1" @big.json &&
	expect_header Content-Type "^application/json; charset=utf-8$" &&
	expect_json .request "POST /v1/book"
'

test_expect_success 'the 413 of nginx has exactly the keys code, message and request' '
	http POST /v1/book @big.json &&
	expect_json "keys | join(\",\")" code,message,request
'

test_expect_success 'a request line with a lower-case method answers 400 JSON with code 10320 and request ""' '
	http get /v1/book &&
	expect_status 400 &&
	expect_header Content-Type "^application/json; charset=utf-8$" &&
	expect_json .code 10320 &&
	expect_json .message 请求格式错误 &&
	expect_json .request ""
'

test_expect_success 'a request target with a bad %-escape answers 400 JSON with code 10320' '
	http GET / "" --request-target "/v1/book/%zz" &&
	expect_status 400 &&
	expect_json .code 10320 &&
	expect_json .request "GET /v1/book/%zz"
'

test_expect_success 'a request line with " and \ in the path gives a valid envelope with request ""' '
	http POST / @big.json --request-target "/v1/\"},\"x\":\"\\" &&
	expect_status 413 &&
	expect_json .code 10300 &&
	expect_json .request ""
'

test_expect_success 'a request target above the 8k header buffer answers 414 JSON with code 10322' '
	http GET "/v1/$(head -c 9000 /dev/zero | tr "\0" a)" &&
	expect_status 414 &&
	expect_header Content-Type "^application/json; charset=utf-8$" &&
	expect_json .code 10322 &&
	expect_json .message 请求地址过长
'

test_expect_success 'a header above the 8k header buffer answers 431 JSON with code 10323' '
	http GET /v1/book "" -H "X-Big: $(head -c 9000 /dev/zero | tr "\0" a)" &&
	expect_status 431 &&
	expect_header Content-Type "^application/json; charset=utf-8$" &&
	expect_json .code 10323 &&
	expect_json .message 请求头过大 &&
	expect_json .request "GET /v1/book"
'

test_expect_success 'an unknown Transfer-Encoding answers 501 JSON with code 10320' '
	http POST /v1/book "{}" -H "Transfer-Encoding: gzip" &&
	expect_status 501 &&
	expect_json .code 10320
'

test_expect_success 'the app still answers its own errors: an unknown path is its 404 with code 10020' '
	http GET /no/such/path &&
	expect_status 404 &&
	expect_json .code 10020
'

test_expect_success 'a file /assets/ does not have answers nginx'"'"'s 404 envelope with code 10020' '
	http GET /assets/2026/01/01/none.png &&
	expect_status 404 &&
	expect_header Content-Type "^application/json; charset=utf-8$" &&
	expect_json .code 10020 &&
	expect_json .message 资源不存在 &&
	expect_json .request "GET /assets/2026/01/01/none.png"
'

test_expect_success 'the directory /assets/ answers 403 with code 10070, a POST to a file there 405 with 10080' '
	mkdir -p "$FILE_STORE_DIR" &&
	png one >"$FILE_STORE_DIR/one.png" &&
	http GET /assets/ &&
	expect_status 403 &&
	expect_json .code 10070 &&
	http POST /assets/one.png "{}" &&
	expect_status 405 &&
	expect_json .code 10080
'

stop_app

test_expect_success 'with the pool stopped, GET /v1/book answers 502 with code 10302 and its text' '
	http GET /v1/book &&
	expect_status 502 &&
	expect_header Content-Type "^application/json; charset=utf-8$" &&
	expect_json .code 10302 &&
	expect_json .message 数据库暂时不可用，请稍后重试 &&
	expect_json .request "GET /v1/book"
'

test_expect_success 'with the pool stopped, a POST gets the 502 envelope naming the POST' '
	http POST /v1/book "{\"title\":\"T\"}" &&
	expect_status 502 &&
	expect_json .code 10302 &&
	expect_json .request "POST /v1/book"
'

test_expect_success 'the 502 of a path ending in .html is JSON all the same, not text/html' '
	http GET /index.html &&
	expect_status 502 &&
	expect_header Content-Type "^application/json; charset=utf-8$" &&
	expect_json .code 10302
'

test_expect_success 'no 502 is an HTML page from nginx' '
	http GET /v1/book/1 &&
	expect_status 502 &&
	! grep -qi "<html" body
'

test_done
