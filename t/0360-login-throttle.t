#!/bin/sh
test_description='login throttling: failures counted per (username, address), per address, and a per-username ceiling that refuses only addresses that failed; nobody can lock an account out'
. "$(dirname "$0")/lib.sh"

# Requests come from loopback source addresses 127.0.0.N (nginx listens on 127.0.0.1), so each test
# picks the client address it needs.
start_db
start_app login_captcha=off login_max_failures=3 login_address_max_failures=6 login_username_max_failures=5 \
	login_failure_window=60
start_nginx

USER_PASSWORD=User_pass1

# try_login NAME PASSWORD N [CURL_ARGS...]: POST /cms/user/login from 127.0.0.N, status and body
# left in $TRASH.
try_login () {
	local name=$1 password=$2 n=$3
	shift 3
	TOKEN= &&
	http POST /cms/user/login "$(jq -nc --arg u "$name" --arg p "$password" \
		'{username: $u, password: $p}')" --interface "127.0.0.$n" "$@"
}

# fail_login NAME N: one login of NAME from 127.0.0.N with a wrong password, answered 401 10031.
fail_login () {
	try_login "$1" Wrong_pass9 "$2" &&
	expect_status 401 &&
	expect_json .code 10031
}

# failures NAME N: the rows of cms_login_failure for NAME from 127.0.0.N: under its keyed hash, or,
# when a user has it, under the user's id (as every failure of an existing user is recorded).
failures () {
	db_exec "SELECT COUNT(*) FROM cms_login_failure WHERE address = '127.0.0.$2' AND username IN ('$(throttle_name "$1")',
		(SELECT CONCAT('(the account of user id ', id, ')') FROM lin_user WHERE username = '$1'))"
}

# age [N]: moves the failure rows (of 127.0.0.N only, when given) 61 s into the past, out of the
# window.
age () {
	db_exec "UPDATE cms_login_failure SET create_time = create_time - INTERVAL 61 SECOND
		${1:+WHERE address = '127.0.0.$1'}"
}

# change_password OLD N: PUT /cms/user/change_password as dave (see remember) from 127.0.0.N, from
# OLD to New_pass2.
change_password () {
	as dave &&
	http PUT /cms/user/change_password "$(jq -nc --arg o "$1" \
		'{old_password: $o, new_password: "New_pass2", confirm_password: "New_pass2"}')" \
		--interface "127.0.0.$2"
}

test_expect_success 'setup: root registers alice, bob, carol and dave' '
	login root "$ROOT_PASSWORD" &&
	for u in alice bob carol dave; do
		http POST /cms/user/register "{\"username\":\"$u\",\"password\":\"$USER_PASSWORD\",
			\"confirm_password\":\"$USER_PASSWORD\"}" &&
		expect_status 201 || return 1
	done
'

test_expect_success 'three wrong passwords for alice from 127.0.0.2 each answer 401 10031' '
	fail_login alice 2 &&
	fail_login alice 2 &&
	fail_login alice 2
'

test_expect_success 'each failure is a row of cms_login_failure with alice'"'"'s id and the address' '
	test "$(failures alice 2)" = 3 &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure WHERE username = \"alice\"" 0 &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure" 3
'

test_expect_success 'the fourth attempt from 127.0.0.2, with the right password, is refused with 429 10140' '
	try_login alice "$USER_PASSWORD" 2 &&
	expect_status 429 &&
	expect_json .code 10140 &&
	expect_json .message 请求过于频繁，请稍后重试 &&
	expect_json .request "POST /cms/user/login"
'

test_expect_success 'the refused attempt issues no token' '
	try_login alice "$USER_PASSWORD" 2 &&
	expect_status 429 &&
	expect_json .access_token null
'

test_expect_success 'a refused attempt is not counted and writes no log row' '
	n=$(db_exec "SELECT COUNT(*) FROM lin_log") &&
	try_login alice "$USER_PASSWORD" 2 &&
	expect_status 429 &&
	test "$(failures alice 2)" = 3 &&
	test "$(db_exec "SELECT COUNT(*) FROM lin_log")" = "$n"
'

test_expect_success 'an X-Forwarded-For header does not move the request to another address' '
	try_login alice "$USER_PASSWORD" 2 -H "X-Forwarded-For: 10.9.8.7" &&
	expect_status 429
'

test_expect_success 'alice logs in from 127.0.0.3: the failures of 127.0.0.2 do not lock her out' '
	try_login alice "$USER_PASSWORD" 3 &&
	expect_status 200 &&
	expect_json_true ".access_token | length > 0"
'

test_expect_success 'bob logs in from 127.0.0.2: the pair limit of alice there is not his' '
	try_login bob "$USER_PASSWORD" 2 &&
	expect_status 200
'

test_expect_success 'once the failures have left the window, alice logs in from 127.0.0.2 again' '
	age 2 &&
	try_login alice "$USER_PASSWORD" 2 &&
	expect_status 200
'

test_expect_success 'a new failure prunes the rows older than the window' '
	fail_login carol 2 &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure
		WHERE create_time < NOW(3) - INTERVAL 60 SECOND" 0
'

test_expect_success 'setup: the failure table is emptied' '
	db_exec "DELETE FROM cms_login_failure" &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure" 0
'

test_expect_success 'a successful login clears the failures of its username from its address only' '
	fail_login alice 2 &&
	fail_login alice 2 &&
	fail_login alice 3 &&
	fail_login bob 2 &&
	try_login alice "$USER_PASSWORD" 2 &&
	expect_status 200 &&
	test "$(failures alice 2)" = 0 &&
	test "$(failures alice 3)" = 1 &&
	test "$(failures bob 2)" = 1
'

test_expect_success 'setup: the failure table is emptied again' '
	db_exec "DELETE FROM cms_login_failure"
'

test_expect_success 'six failures from 127.0.0.4 over six usernames reach the per-address limit' '
	for u in alice bob carol ghost1 ghost2 ghost3; do
		fail_login $u 4 || return 1
	done &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure WHERE address = \"127.0.0.4\"" 6
'

test_expect_success 'then dave from 127.0.0.4, never tried there, is refused with 429 10140' '
	try_login dave "$USER_PASSWORD" 4 &&
	expect_status 429 &&
	expect_json .code 10140
'

test_expect_success 'dave logs in from 127.0.0.5: the address limit holds only that address' '
	try_login dave "$USER_PASSWORD" 5 &&
	expect_status 200
'

# No new failure in between: one would prune the aged rows, and the count would not be tested.
test_expect_success 'once those failures have left the window, dave logs in from 127.0.0.4' '
	age 4 &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure WHERE address = \"127.0.0.4\"" 6 &&
	try_login dave "$USER_PASSWORD" 4 &&
	expect_status 200
'

test_expect_success 'failures of a username that does not exist are counted as well' '
	test "$(failures ghost1 4)" = 1
'

test_expect_success 'setup: the failure table is emptied once more' '
	db_exec "DELETE FROM cms_login_failure"
'

test_expect_success 'failures for carol from three addresses, each below the pair limit, reach the ceiling of 5' '
	fail_login carol 11 &&
	fail_login carol 11 &&
	fail_login carol 12 &&
	fail_login carol 12 &&
	fail_login carol 13 &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure WHERE username =
		(SELECT CONCAT(\"(the account of user id \", id, \")\") FROM lin_user WHERE username = \"carol\")" 5
'

test_expect_success 'then 127.0.0.13, with one failure for carol, is refused her right password (429)' '
	try_login carol "$USER_PASSWORD" 13 &&
	expect_status 429 &&
	expect_json .code 10140
'

test_expect_success 'carol logs in from 127.0.0.14, which has no failures for her' '
	try_login carol "$USER_PASSWORD" 14 &&
	expect_status 200
'

test_expect_success 'a guess from a fresh address is checked and counted (401), then that address is refused' '
	fail_login carol 15 &&
	try_login carol Wrong_pass9 15 &&
	expect_status 429
'

test_expect_success 'ten attempts at root from 127.0.0.20: three wrong passwords answer 401, the rest 429' '
	for i in 1 2 3; do
		fail_login root 20 || return 1
	done &&
	for i in 4 5 6 7 8 9 10; do
		try_login root Wrong_pass9 20 &&
		expect_status 429 || return 1
	done
'

test_expect_success 'root logs in from 127.0.0.21 with the right password' '
	try_login root "$ROOT_PASSWORD" 21 &&
	expect_status 200
'

test_expect_success 'setup: the failure table is emptied; dave logs in and keeps his token' '
	db_exec "DELETE FROM cms_login_failure" &&
	remember dave "$USER_PASSWORD"
'

test_expect_success 'three wrong old passwords of dave from 127.0.0.2 each answer 400 10032' '
	for i in 1 2 3; do
		change_password Wrong_old9 2 &&
		expect_status 400 &&
		expect_json .code 10032 || return 1
	done
'

test_expect_success 'the wrong old passwords are counted like failed logins of dave from 127.0.0.2' '
	test "$(failures dave 2)" = 3
'

test_expect_success 'then a change from 127.0.0.2 with the right old password is refused with 429 10140' '
	change_password "$USER_PASSWORD" 2 &&
	expect_status 429 &&
	expect_json .code 10140 &&
	expect_json .request "PUT /cms/user/change_password"
'

test_expect_success 'the refused change left the password as it was: the old one logs in from 127.0.0.3' '
	try_login dave "$USER_PASSWORD" 3 &&
	expect_status 200
'

test_expect_success 'a change from 127.0.0.3 with the right old password is let through (200)' '
	change_password "$USER_PASSWORD" 3 &&
	expect_status 200 &&
	expect_json .code 4
'

# A username typed is often a password typed into the wrong box.
test_expect_success 'a failure of a name no user has is recorded under its keyed hash, never as typed' '
	fail_login "Hunter2-Typed" 6 &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure WHERE username LIKE \"%hunter2%\"" 0 &&
	expect_db "SELECT username FROM cms_login_failure WHERE address = \"127.0.0.6\"" "$(throttle_name Hunter2-Typed)"
'

test_expect_success 'failures of a name no user has still count, whatever its case: the pair limit refuses the fourth' '
	fail_login ghost9 7 &&
	fail_login GHOST9 7 &&
	fail_login Ghost9 7 &&
	try_login ghost9 Wrong_pass9 7 &&
	expect_status 429 &&
	expect_json .code 10140
'

test_done
