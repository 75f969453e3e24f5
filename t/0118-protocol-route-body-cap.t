#!/bin/sh
test_description='per-route body caps: login 4 KiB, bodyless public routes and refresh 1 KiB, other routes max_body_bytes; over the cap, the 413 envelope before any parsing'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

# padded JSON SIZE: JSON followed by blanks (valid JSON whitespace) up to exactly SIZE bytes.
padded () {
	awk -v body="$1" -v n="$2" 'BEGIN {
		printf "%s", body
		for (i = length(body); i < n; i++) printf " "
	}'
}

# login_body SIZE: root's login body padded to SIZE bytes.
login_body () {
	padded "$(jq -nc --arg p "$ROOT_PASSWORD" '{username: "root", password: $p}')" "$1"
}

test_expect_success 'setup: root logs in and keeps both tokens' '
	login root "$ROOT_PASSWORD" &&
	keep access &&
	keep refresh "$REFRESH_TOKEN"
'

test_expect_success 'a login body of 4097 bytes answers 413 10300 for "POST /cms/user/login"' '
	login_body 4097 >over.json &&
	test $(wc -c <over.json) -eq 4097 &&
	TOKEN= &&
	http POST /cms/user/login @over.json &&
	expect_status 413 &&
	expect_json .code 10300 &&
	expect_json .message 请求体过大 &&
	expect_json .request "POST /cms/user/login"
'

test_expect_success 'a login body of exactly 4096 bytes is read and logs root in' '
	login_body 4096 >limit.json &&
	test $(wc -c <limit.json) -eq 4096 &&
	TOKEN= &&
	http POST /cms/user/login @limit.json &&
	expect_status 200 &&
	expect_json_true ".access_token | length > 0"
'

test_expect_success 'a JSON array just under max_body_bytes (1 MiB) at login answers 413 and counts no failure' '
	awk "BEGIN { printf \"[\"; for (i = 0; i < 524286; i++) printf \"1,\"; printf \"1]\" }" >array.json &&
	test $(wc -c <array.json) -eq 1048575 &&
	TOKEN= &&
	http POST /cms/user/login @array.json &&
	expect_status 413 &&
	expect_json .code 10300 &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure" 0
'

test_expect_success 'POST /cms/user/captcha with a body of 1025 bytes answers 413' '
	padded "{}" 1025 >captcha-over.json &&
	TOKEN= &&
	http POST /cms/user/captcha @captcha-over.json &&
	expect_status 413 &&
	expect_json .request "POST /cms/user/captcha"
'

test_expect_success 'POST /cms/user/captcha with a body of 1024 bytes answers 200' '
	padded "{}" 1024 >captcha-limit.json &&
	TOKEN= &&
	http POST /cms/user/captcha @captcha-limit.json &&
	expect_status 200
'

test_expect_success 'GET /cms/user/refresh with a body of 1025 bytes answers 413' '
	as refresh &&
	http GET /cms/user/refresh @captcha-over.json &&
	expect_status 413 &&
	expect_json .request "GET /cms/user/refresh"
'

test_expect_success 'GET /v1/book with a body of 1025 bytes answers 413' '
	TOKEN= &&
	http GET /v1/book @captcha-over.json &&
	expect_status 413
'

test_expect_success 'POST /v1/book keeps max_body_bytes: a body of 8 KiB creates the book' '
	padded "{\"title\":\"Padded\",\"author\":\"A\",\"summary\":\"S\"}" 8192 >book.json &&
	as access &&
	http POST /v1/book @book.json &&
	expect_status 201 &&
	expect_db "SELECT COUNT(*) FROM book WHERE title = \"Padded\"" 1
'

test_done
