#!/bin/sh
test_description='a user'"'"'s failed password checks, of login and of change_password, are counted by the user'"'"'s id: a rename without a password (PUT /cms/user) keeps them, and login and change_password share them'
. "$(dirname "$0")/lib.sh"

start_db
start_app login_captcha=off login_max_failures=3 login_failure_window=60
start_nginx

USER_PASSWORD=User_pass1

# change_password NAME OLD N: PUT /cms/user/change_password with NAME's kept token from
# 127.0.0.N, from OLD to New_pass2.
change_password () {
	as "$1" &&
	http PUT /cms/user/change_password "$(jq -nc --arg o "$2" \
		'{old_password: $o, new_password: "New_pass2", confirm_password: "New_pass2"}')" \
		--interface "127.0.0.$3"
}

# try_login NAME PASSWORD N: POST /cms/user/login from 127.0.0.N.
try_login () {
	TOKEN= &&
	http POST /cms/user/login "$(jq -nc --arg u "$1" --arg p "$2" '{username: $u, password: $p}')" \
		--interface "127.0.0.$3"
}

test_expect_success 'setup: root registers erin and gina, who log in and keep their tokens' '
	login root "$ROOT_PASSWORD" &&
	for u in erin gina; do
		http POST /cms/user/register "{\"username\":\"$u\",\"password\":\"$USER_PASSWORD\",
			\"confirm_password\":\"$USER_PASSWORD\"}" &&
		expect_status 201 || return 1
	done &&
	remember erin "$USER_PASSWORD" &&
	remember gina "$USER_PASSWORD" &&
	db_exec "SELECT id FROM lin_user WHERE username = \"erin\"" >erin.id &&
	test -s erin.id
'

test_expect_success 'three wrong old passwords of erin from 127.0.0.2 each answer 400 10032' '
	for i in 1 2 3; do
		change_password erin Wrong_old9 2 &&
		expect_status 400 &&
		expect_json .code 10032 || return 1
	done
'

test_expect_success 'they are recorded under erin'"'"'s id, not under her name' '
	expect_db "SELECT COUNT(*) FROM cms_login_failure
		WHERE username = \"(the account of user id $(cat erin.id))\" AND address = \"127.0.0.2\"" 3 &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure WHERE username = \"erin\"" 0
'

test_expect_success 'erin renames herself frank with her token and no password (200)' '
	as erin &&
	http PUT /cms/user "{\"username\":\"frank\"}" --interface 127.0.0.2 &&
	expect_status 200 &&
	expect_db "SELECT username FROM lin_user WHERE id = $(cat erin.id)" frank
'

test_expect_success 'after the rename, a wrong old password from 127.0.0.2 is refused 429 10140 before any check' '
	change_password erin Wrong_old9 2 &&
	expect_status 429 &&
	expect_json .code 10140
'

test_expect_success 'a failed login of the new name from 127.0.0.2 is refused 429 too: change_password'"'"'s failures count for login' '
	try_login frank Wrong_pass9 2 &&
	expect_status 429 &&
	expect_json .code 10140
'

test_expect_success 'the password was never changed: it logs in as frank from 127.0.0.3' '
	try_login frank "$USER_PASSWORD" 3 &&
	expect_status 200
'

test_expect_success 'three failed logins of gina from 127.0.0.4 each answer 401 10031' '
	for i in 1 2 3; do
		try_login gina Wrong_pass9 4 &&
		expect_status 401 &&
		expect_json .code 10031 || return 1
	done
'

test_expect_success 'then her change_password from 127.0.0.4 is refused 429: the failed logins count for it' '
	change_password gina "$USER_PASSWORD" 4 &&
	expect_status 429 &&
	expect_json .code 10140
'

test_expect_success 'gina renames herself hana with her token (200)' '
	as gina &&
	http PUT /cms/user "{\"username\":\"hana\"}" --interface 127.0.0.4 &&
	expect_status 200
'

test_expect_success 'after the rename, a failed login of the new name from 127.0.0.4 is refused 429: the failed logins followed' '
	try_login hana Wrong_pass9 4 &&
	expect_status 429 &&
	expect_json .code 10140
'

test_expect_success 'a right login of frank from 127.0.0.2 is still refused while the window lasts' '
	try_login frank "$USER_PASSWORD" 2 &&
	expect_status 429
'

test_expect_success 'once the window has passed, a right login of frank from 127.0.0.2 clears the failures recorded under his id there' '
	db_exec "UPDATE cms_login_failure SET create_time = create_time - INTERVAL 61 SECOND" &&
	db_exec "INSERT INTO cms_login_failure (username, address, checked)
		VALUES (\"(the account of user id $(cat erin.id))\", \"127.0.0.2\", 1)" &&
	try_login frank "$USER_PASSWORD" 2 &&
	expect_status 200 &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure
		WHERE username = \"(the account of user id $(cat erin.id))\" AND address = \"127.0.0.2\"" 0
'

test_done
