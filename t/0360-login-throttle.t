#!/bin/sh
test_description='login throttling: failures counted in cms_login_failure per username and per address'
. "$(dirname "$0")/lib.sh"

start_db
start_app login_max_failures=3 login_failure_window=60
start_nginx

USER_PASSWORD=User_pass1

# try_login NAME PASSWORD [CURL_ARGS...]: POST /cms/user/login, status and body left in $TRASH.
try_login () {
	local name=$1 password=$2
	shift 2
	TOKEN= &&
	http POST /cms/user/login "$(jq -nc --arg u "$name" --arg p "$password" \
		'{username: $u, password: $p}')" "$@"
}

# fail_login NAME: one login of NAME with a wrong password, answered 401 10031.
fail_login () {
	try_login "$1" Wrong_pass9 &&
	expect_status 401 &&
	expect_json .code 10031
}

# failures KIND SUBJECT: the rows of cms_login_failure for KIND (username or address) and SUBJECT.
failures () {
	db_exec "SELECT COUNT(*) FROM cms_login_failure WHERE kind = '$1' AND subject = '$2'"
}

# age KIND [SUBJECT]: moves the matching failure rows 61 s into the past, out of the window.
age () {
	db_exec "UPDATE cms_login_failure SET create_time = create_time - INTERVAL 61 SECOND
		WHERE kind = '$1' ${2:+AND subject = '$2'}"
}

# change_password OLD: PUT /cms/user/change_password as dave (see remember), from OLD to New_pass2.
change_password () {
	as dave &&
	http PUT /cms/user/change_password "$(jq -nc --arg o "$1" \
		'{old_password: $o, new_password: "New_pass2", confirm_password: "New_pass2"}')"
}

test_expect_success 'setup: root registers alice, bob and carol' '
	login root "$ROOT_PASSWORD" &&
	for u in alice bob carol; do
		http POST /cms/user/register "{\"username\":\"$u\",\"password\":\"$USER_PASSWORD\",
			\"confirm_password\":\"$USER_PASSWORD\"}" &&
		expect_status 201 || return 1
	done
'

test_expect_success 'three wrong passwords for alice each answer 401 10031' '
	fail_login alice &&
	fail_login alice &&
	fail_login alice
'

test_expect_success 'the failures are rows of cms_login_failure, per username and per address' '
	test "$(failures username alice)" = 3 &&
	test "$(failures address 127.0.0.1)" = 3
'

test_expect_success 'the fourth attempt, with the right password, is refused with 429 10140' '
	try_login alice "$USER_PASSWORD" &&
	expect_status 429 &&
	expect_json .code 10140 &&
	expect_json .message 请求过于频繁，请稍后重试 &&
	expect_json .request "POST /cms/user/login"
'

test_expect_success 'the refused attempt issues no token' '
	try_login alice "$USER_PASSWORD" &&
	expect_status 429 &&
	expect_json .access_token null
'

test_expect_success 'a refused attempt is not counted and writes no log row' '
	n=$(db_exec "SELECT COUNT(*) FROM lin_log") &&
	try_login alice "$USER_PASSWORD" &&
	expect_status 429 &&
	test "$(failures username alice)" = 3 &&
	test "$(db_exec "SELECT COUNT(*) FROM lin_log")" = "$n"
'

test_expect_success 'another username from the same address is refused too (429)' '
	try_login bob "$USER_PASSWORD" &&
	expect_status 429 &&
	expect_json .code 10140
'

test_expect_success 'an X-Forwarded-For header does not move the request to another address' '
	try_login bob "$USER_PASSWORD" -H "X-Forwarded-For: 10.9.8.7" &&
	expect_status 429
'

test_expect_success 'setup: the address failures leave the window' '
	age address &&
	test "$(failures address 127.0.0.1)" = 3
'

test_expect_success 'with the address count out of the window, bob logs in' '
	try_login bob "$USER_PASSWORD" &&
	expect_status 200
'

test_expect_success 'alice is still refused on her own username count (429)' '
	try_login alice "$USER_PASSWORD" &&
	expect_status 429 &&
	expect_json .code 10140
'

test_expect_success 'setup: the username failures of alice leave the window' '
	age username alice
'

test_expect_success 'once the window has passed, alice logs in with the right password' '
	try_login alice "$USER_PASSWORD" &&
	expect_status 200 &&
	expect_json_true ".access_token | length > 0"
'

test_expect_success 'a new failure prunes the rows older than the window' '
	fail_login carol &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure
		WHERE create_time < NOW(3) - INTERVAL 60 SECOND" 0
'

test_expect_success 'setup: the failure table is emptied' '
	db_exec "DELETE FROM cms_login_failure" &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure" 0
'

test_expect_success 'a successful login before the limit resets the count of the username' '
	fail_login alice &&
	fail_login alice &&
	try_login alice "$USER_PASSWORD" &&
	expect_status 200 &&
	test "$(failures username alice)" = 0
'

test_expect_success 'a successful login does not reset the count of the address' '
	test "$(failures address 127.0.0.1)" = 2
'

test_expect_success 'after the reset, two more failures still leave alice below the limit' '
	age address &&
	fail_login alice &&
	fail_login alice &&
	try_login alice "$USER_PASSWORD" &&
	expect_status 200
'

test_expect_success 'setup: the failure table is emptied again' '
	db_exec "DELETE FROM cms_login_failure"
'

test_expect_success 'failures spread over usernames reach the per-address limit' '
	fail_login alice &&
	fail_login bob &&
	fail_login ghost &&
	test "$(failures username alice)" = 1 &&
	test "$(failures username bob)" = 1 &&
	test "$(failures address 127.0.0.1)" = 3
'

test_expect_success 'then a third username with the right password is refused (429)' '
	try_login carol "$USER_PASSWORD" &&
	expect_status 429 &&
	expect_json .code 10140
'

test_expect_success 'failures of a username that does not exist are counted as well' '
	test "$(failures username ghost)" = 1
'

test_expect_success 'setup: the failure table is emptied; root registers dave, who logs in' '
	db_exec "DELETE FROM cms_login_failure" &&
	login root "$ROOT_PASSWORD" &&
	http POST /cms/user/register "{\"username\":\"dave\",\"password\":\"$USER_PASSWORD\",
		\"confirm_password\":\"$USER_PASSWORD\"}" &&
	expect_status 201 &&
	remember dave "$USER_PASSWORD"
'

test_expect_success 'three wrong old passwords of dave each answer 400 10032' '
	for i in 1 2 3; do
		change_password Wrong_old9 &&
		expect_status 400 &&
		expect_json .code 10032 || return 1
	done
'

test_expect_success 'the wrong old passwords are counted like failed logins of dave' '
	test "$(failures username dave)" = 3
'

test_expect_success 'then a change with the right old password is refused with 429 10140' '
	change_password "$USER_PASSWORD" &&
	expect_status 429 &&
	expect_json .code 10140 &&
	expect_json .request "PUT /cms/user/change_password"
'

test_expect_success 'setup: the failures of dave and of the address leave the window' '
	age username dave &&
	age address
'

test_expect_success 'the refused change left the password as it was: the old one logs in' '
	try_login dave "$USER_PASSWORD" &&
	expect_status 200
'

test_done
