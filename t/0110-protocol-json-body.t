#!/bin/sh
test_description='request bodies: malformed JSON, trailing garbage, duplicate keys, deep nesting, non-objects, empty and non-UTF-8 bodies answer 400 code 10030 with one text; a non-JSON Content-Type answers 415'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

book_count () {
	db_exec "SELECT COUNT(*) FROM book"
}

# $1 nested objects {"a":{"a":...{}}}, the innermost empty, inside the top-level book object.
nested () {
	awk -v n="$1" 'BEGIN {
		printf "{\"title\":\"T\",\"author\":\"A\",\"summary\":\"S\",\"x\":"
		for (i = 1; i < n; i++) printf "{\"a\":"
		printf "{}"
		for (i = 1; i < n; i++) printf "}"
		printf "}"
	}'
}

test_expect_success 'setup: root logs in' '
	remember root "$ROOT_PASSWORD" &&
	book_count >count.before
'

# name | body file content (printf format) | text of the message
while IFS='|' read -r name format text; do
	[ -n "$name" ] || continue
	test_expect_success "$name answers 400 with code 10030 and the single text $text" '
		as root &&
		printf "$format" >body.bin &&
		http POST /v1/book @body.bin &&
		expect_status 400 &&
		expect_json .code 10030 &&
		expect_json ".message | type" string &&
		expect_json .message "$text" &&
		expect_json .request "POST /v1/book"
	'
done <<'EOF'
a truncated object|{"title":"T","author":|请求体不是合法的JSON
an unquoted key|{title:"T","author":"A","summary":"S"}|请求体不是合法的JSON
a trailing comma|{"title":"T","author":"A","summary":"S",}|请求体不是合法的JSON
single-quoted strings|{'title':'T','author':'A','summary':'S'}|请求体不是合法的JSON
a comment|{"title":"T",/* c */"author":"A","summary":"S"}|请求体不是合法的JSON
a raw line break inside a string|{"title":"T\n","author":"A","summary":"S"}|请求体不是合法的JSON
trailing garbage after the object|{"title":"T","author":"A","summary":"S"} x|请求体不是合法的JSON
a second object after the first|{"title":"T","author":"A","summary":"S"}{}|请求体不是合法的JSON
a number that is only a minus sign|{"title":"T","author":"A","summary":"S","n":-}|请求体不是合法的JSON
a number ending in a dot|{"title":"T","author":"A","summary":"S","n":1.}|请求体不是合法的JSON
a number with a plus sign|{"title":"T","author":"A","summary":"S","n":+1}|请求体不是合法的JSON
a fraction without its integer part|{"title":"T","author":"A","summary":"S","n":-.5}|请求体不是合法的JSON
a dot with no digit before the exponent|{"title":"T","author":"A","summary":"S","n":1.e5}|请求体不是合法的JSON
a number with a leading zero|{"title":"T","author":"A","summary":"S","n":01}|请求体不是合法的JSON
a NUL byte and garbage after the object|{"title":"T","author":"A","summary":"S"}\0garbage|请求体不是合法的JSON
a duplicate key|{"title":"T","author":"A","summary":"S","title":"U"}|JSON中存在重复的键
a duplicate key in a nested object|{"title":"T","author":"A","summary":"S","x":{"k":1,"k":2}}|JSON中存在重复的键
a top-level array|[{"title":"T","author":"A","summary":"S"}]|请求体必须是JSON对象
a top-level string|"title"|请求体必须是JSON对象
a top-level number|42|请求体必须是JSON对象
a top-level null|null|请求体必须是JSON对象
a body of blanks only| \r\n\t |请求体不可为空
a byte 0xFF inside a string|{"title":"\377","author":"A","summary":"S"}|请求体不是合法的UTF-8文本
an overlong encoding of /|{"title":"\300\257","author":"A","summary":"S"}|请求体不是合法的UTF-8文本
a UTF-8 encoded surrogate|{"title":"\355\240\200","author":"A","summary":"S"}|请求体不是合法的UTF-8文本
a truncated 4-byte sequence|{"title":"\360\237\230","author":"A","summary":"S"}|请求体不是合法的UTF-8文本
a code point above U+10FFFF|{"title":"\364\220\200\200","author":"A","summary":"S"}|请求体不是合法的UTF-8文本
a lone low surrogate escape|{"title":"\\udc00","author":"A","summary":"S"}|请求体不是合法的UTF-8文本
EOF

test_expect_success 'a lone high surrogate escape answers 400 with code 10030 and a single text' '
	as root &&
	printf "{\"title\":\"\\\\ud83dx\",\"author\":\"A\",\"summary\":\"S\"}" >body.bin &&
	grep -q "\\\\ud83dx" body.bin &&
	http POST /v1/book @body.bin &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json ".message | type" string
'

test_expect_success 'none of the refused bodies wrote a row' '
	expect_db "SELECT COUNT(*) FROM book" "$(cat count.before)"
'

test_expect_success 'no body at all answers 400 code 10030 with the single text 请求体不可为空' '
	as root &&
	http POST /v1/book &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message 请求体不可为空
'

test_expect_success 'an empty body declared as JSON answers 400 code 10030 with 请求体不可为空' '
	as root &&
	http POST /v1/book "" -H "Content-Type: application/json" --data-binary "" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message 请求体不可为空
'

test_expect_success 'an empty PUT body answers 400 code 10030 with 请求体不可为空' '
	as root &&
	db_exec "INSERT INTO book (id, title, author, summary) VALUES (50, \"P\", \"A\", \"S\")" &&
	http PUT /v1/book/50 &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message 请求体不可为空 &&
	expect_json .request "PUT /v1/book/50"
'

test_expect_success 'malformed JSON on PUT answers 400 code 10030 with one text and changes nothing' '
	as root &&
	http PUT /v1/book/50 "{\"title\":\"Q\"," &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message 请求体不是合法的JSON &&
	expect_db "SELECT title FROM book WHERE id = 50" P
'

test_expect_success 'nesting at json_max_depth (32 levels) is parsed: the body rules answer, not the depth' '
	as root &&
	nested 31 >body.json &&
	http POST /v1/book @body.json &&
	expect_status 201
'

test_expect_success 'nesting one level deeper than json_max_depth answers 400 code 10030 with the single text JSON嵌套层数过深' '
	as root &&
	nested 32 >body.json &&
	http POST /v1/book @body.json &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message JSON嵌套层数过深
'

test_expect_success 'nesting 100000 levels deep answers 400 with JSON嵌套层数过深, not a crash' '
	as root &&
	awk "BEGIN { printf \"{\\\"x\\\":\"; for (i = 0; i < 100000; i++) printf \"[\"; for (i = 0; i < 100000; i++) printf \"]\"; printf \"}\" }" >body.json &&
	http POST /v1/book @body.json &&
	expect_status 400 &&
	expect_json .message JSON嵌套层数过深
'

test_expect_success 'a surrogate-pair escape is decoded and stored as the 4-byte character' '
	as root &&
	printf "{\"title\":\"esc\\ud83d\\\\ude00\",\"author\":\"A\",\"summary\":\"S\"}" >body.json &&
	grep -q "ud83d" body.json &&
	http POST /v1/book @body.json &&
	expect_status 201 &&
	expect_db "SELECT HEX(title) FROM book WHERE title LIKE \"esc%\"" 657363F09F9880
'

test_expect_success 'Content-Type text/plain on POST /v1/book answers 415' '
	as root &&
	before=$(book_count) &&
	http POST /v1/book "" -H "Content-Type: text/plain" \
		--data-raw "{\"title\":\"Plain\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 415 &&
	expect_json .code 10301 &&
	expect_json .message "请求体须为 application/json" &&
	expect_json .request "POST /v1/book" &&
	expect_db "SELECT COUNT(*) FROM book" "$before"
'

test_expect_success 'Content-Type application/jsonx (not JSON) on POST /v1/book answers 415' '
	as root &&
	http POST /v1/book "" -H "Content-Type: application/jsonx" \
		--data-raw "{\"title\":\"Jsonx\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 415
'

test_expect_success 'a form Content-Type on POST /v1/book answers 415' '
	as root &&
	http POST /v1/book "" -H "Content-Type: application/x-www-form-urlencoded" \
		--data-raw "title=Form&author=A&summary=S" &&
	expect_status 415 &&
	expect_json .code 10301
'

test_expect_success 'a body without Content-Type on POST /v1/book answers 415' '
	as root &&
	http POST /v1/book "" -H "Content-Type:" \
		--data-raw "{\"title\":\"NoType\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 415
'

test_expect_success 'Content-Type text/plain on PUT /v1/book/{id} answers 415' '
	as root &&
	http PUT /v1/book/50 "" -H "Content-Type: text/plain" \
		--data-raw "{\"title\":\"Plain\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 415 &&
	expect_json .request "PUT /v1/book/50"
'

test_expect_success 'application/json; charset=utf-8 is accepted as JSON' '
	as root &&
	http POST /v1/book "" -H "Content-Type: application/json; charset=utf-8" \
		--data-raw "{\"title\":\"Charset\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 201
'

test_expect_success 'the media type is matched without regard to case (Application/JSON)' '
	as root &&
	http POST /v1/book "" -H "Content-Type: Application/JSON" \
		--data-raw "{\"title\":\"Cased\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 201
'

test_done
