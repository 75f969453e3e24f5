#!/bin/sh
test_description='a message table with its own text for 10022: that text is sent for a missing book'
. "$(dirname "$0")/lib.sh"

start_db
sed 's/^code-message\[10022\]=.*/code-message[10022]=这本书不在书架上 📚/' \
	"$TOP/conf/code-message.properties" >"$TRASH/messages.properties"
start_app message_file="$TRASH/messages.properties"
start_nginx

test_expect_success 'setup: the message table copy has the custom text for 10022' '
	grep -q "^code-message\[10022\]=这本书不在书架上 📚\$" messages.properties
'

test_expect_success 'GET of a missing book answers 404 with code 10022' '
	http GET /v1/book/12345 &&
	expect_status 404 &&
	expect_json .code 10022
'

test_expect_success 'the configured text of 10022 is the message, byte for byte' '
	http GET /v1/book/12345 &&
	expect_json .message "这本书不在书架上 📚"
'

test_expect_success 'the custom text is sent as UTF-8, not \u escapes' '
	http GET /v1/book/12345 &&
	grep -q "这本书不在书架上 📚" body
'

test_expect_success 'the envelope keeps request "GET /v1/book/12345"' '
	http GET /v1/book/12345 &&
	expect_json .request "GET /v1/book/12345"
'

test_expect_success 'the other texts of the table are unchanged (unknown path: 资源不存在)' '
	http GET /no/such/path &&
	expect_status 404 &&
	expect_json .message 资源不存在
'

test_done
