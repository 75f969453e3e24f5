#!/bin/sh
test_description='make run (scripts/run) refuses a CMS_ROOT_PASSWORD the password rule refuses, naming the rule, and CMS_MESSAGE_FILE=conf/code-message.en.properties gives an English service, nginx'"'"'s own errors included'
. "$(dirname "$0")/lib.sh"

use_make_run

# run ARGS...: scripts/run on this file's ports, with the environment assignments ARGS.
run () {
	env CMS_HTTP_PORT="$HTTP_PORT" CMS_FCGI_PORT="$FCGI_PORT" CMS_DB_PORT="$DB_PORT" "$@" \
		"$TOP/scripts/run"
}

test_expect_success 'a CMS_ROOT_PASSWORD with spaces is refused, naming the rule' '
	! run CMS_ROOT_PASSWORD="the root password" >spaces.out 2>&1 &&
	grep -F "run: CMS_ROOT_PASSWORD: the password breaks the password rule (6 to 22 characters, each a letter, a digit or one of _*&\$#@)" spaces.out
'

test_expect_success 'a refused CMS_ROOT_PASSWORD leaves nothing made: no database, nothing running' '
	test ! -e "$CMS_VAR_DIR/db" &&
	test ! -e "$CMS_VAR_DIR/db.pid"
'

test_expect_success 'a CMS_ROOT_PASSWORD of 23 characters is refused too' '
	! run CMS_ROOT_PASSWORD=Abcdefghij_klmnopqrstu1 >long.out 2>&1 &&
	grep -F "password rule" long.out &&
	test ! -e "$CMS_VAR_DIR/db"
'

test_expect_success 'scripts/run with a good CMS_ROOT_PASSWORD and the English table starts' '
	run CMS_ROOT_PASSWORD="$ROOT_PASSWORD" CMS_MESSAGE_FILE=conf/code-message.en.properties \
		>run.out 2>&1 &&
	http GET /healthz &&
	expect_status 200
'

test_expect_success 'root logs in with CMS_ROOT_PASSWORD' '
	remember root "$ROOT_PASSWORD"
'

test_expect_success 'a wrong password answers the English text of 10031' '
	TOKEN= &&
	http POST /cms/user/login "{\"username\":\"root\",\"password\":\"Wrong_pass1\"}" &&
	expect_status 401 &&
	expect_json .code 10031 &&
	expect_json .message "Wrong username or password"
'

test_expect_success 'a validation failure sends the English field text' '
	as root &&
	http POST /v1/book "{}" &&
	expect_json .message.title "The title is required"
'

test_expect_success 'nginx answers its own errors in English too: a malformed request line is 400 10320' '
	grep -qx "set \$cms_text_10320 \"Malformed request\";" "$CMS_VAR_DIR/nginx/cms-fcgi-texts.conf" &&
	http get /v1/book &&
	expect_status 400 &&
	expect_json .code 10320 &&
	expect_json .message "Malformed request"
'

test_done
