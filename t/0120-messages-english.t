#!/bin/sh
test_description='message_file = conf/code-message.en.properties: every text a client sees is English, codes unchanged, field texts included'
. "$(dirname "$0")/lib.sh"

start_db
start_app message_file="$TOP/conf/code-message.en.properties"
start_nginx

test_expect_success 'setup: root logs in' '
	remember root "$ROOT_PASSWORD"
'

test_expect_success 'a missing book answers 404 10022 with its English text' '
	http GET /v1/book/12345 &&
	expect_status 404 &&
	expect_json .code 10022 &&
	expect_json .message "Book not found"
'

test_expect_success 'a book body with every rule broken keeps code 10030, each field in English' '
	as root &&
	http POST /v1/book "{\"title\":\"\",\"author\":\"$(printf "%031d" 0)\",\"summary\":[]}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.title "The title is required" &&
	expect_json .message.author "The author must be at most 30 characters" &&
	expect_json .message.summary "summary has the wrong type" &&
	expect_ascii_body
'

test_expect_success 'a path id that is not a number names id in English' '
	http GET /v1/book/abc &&
	expect_status 400 &&
	expect_json .message.id "id must be a positive integer"
'

test_expect_success 'paging texts are English' '
	as root &&
	http GET "/cms/admin/users?count=31&page=-1" &&
	expect_status 400 &&
	expect_json .message.count "count must be at most 30" &&
	expect_json .message.page "page must be a non-negative integer"
'

test_expect_success 'password rules on registration are English' '
	as root &&
	http POST /cms/user/register "{\"username\":\"a\",\"password\":\"short\",\"confirm_password\":\"other\",\"email\":\"x\"}" &&
	expect_status 400 &&
	expect_json .message.username "The username must be 2 to 10 characters" &&
	expect_json .message.password "The password must be 6 to 22 characters of letters, digits and _" &&
	expect_json .message.confirm_password "The two passwords differ" &&
	expect_json .message.email "The email address is not valid, enter a correct one" &&
	expect_ascii_body
'

test_expect_success 'group permission texts are English' '
	as root &&
	http POST /cms/admin/permission/dispatch/batch "{\"permission_ids\":[]}" &&
	expect_status 400 &&
	expect_json .message.group_id "The group id is required" &&
	expect_json .message.permission_ids "Enter the permission ids, none of them empty"
'

test_expect_success 'log filter texts are English' '
	as root &&
	http GET "/cms/log?start=yesterday" &&
	expect_status 400 &&
	expect_json .message.start "The time must be written YYYY-MM-DD HH:mm:ss"
'

test_expect_success 'malformed JSON keeps 10030 with the English text of 10310' '
	as root &&
	http POST /v1/book "{" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message "The request body is not valid JSON"
'

test_expect_success 'a wrong method answers 10080 in English' '
	http DELETE /v1/book &&
	expect_status 405 &&
	expect_json .message "Method not allowed"
'

test_expect_success 'a success envelope is English too' '
	as root &&
	http POST /v1/book "{\"title\":\"t\",\"author\":\"a\",\"summary\":\"s\"}" &&
	expect_status 201 &&
	expect_json .code 1 &&
	expect_json .message "Book created"
'

test_expect_success 'every Code of src/base/errors.h is in k_codes of errors.cpp, and so a key both tables must hold' '
	sed -n "/^enum class Code/,/^};/s/^ *\([a-z_0-9]*\) = [0-9]*,$/\1/p" "$TOP/src/base/errors.h" | sort >codes &&
	test "$(wc -l <codes)" -gt 50 &&
	sed -n "/^const Code k_codes\[\] = {/,/^};/s/^ *Code::\([a-z_0-9]*\),$/\1/p" "$TOP/src/base/errors.cpp" | sort >listed &&
	diff -u codes listed
'

test_expect_success 'the built-in texts are the English file, row for row (make generates them from it)' '
	(cd "$TOP" && scripts/message-texts conf/code-message.en.properties) >expected &&
	diff -u expected "$TOP/src/base/message_texts.inc"
'

test_done
