#!/bin/sh
test_description='tokens issued before an admin password reset or a deletion are refused; profile changes revoke nothing'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

test_expect_success 'setup: root logs in, registers alice and bob; both log in' '
	remember root "$ROOT_PASSWORD" &&
	for u in alice bob; do
		http POST /cms/user/register "{\"username\":\"$u\",\"password\":\"Pass_word1\",\"confirm_password\":\"Pass_word1\"}" &&
		expect_status 201 || return 1
	done &&
	db_exec "SELECT id FROM lin_user WHERE username = \"alice\"" >alice_id &&
	remember alice Pass_word1 &&
	keep alice_refresh "$REFRESH_TOKEN" &&
	remember bob Pass_word1
'

test_expect_success 'PUT /cms/user changing the nickname and username leaves the token valid' '
	as alice &&
	http PUT /cms/user "{\"nickname\":\"Ally\",\"username\":\"alicia\"}" &&
	expect_status 200 &&
	expect_json .code 6 &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .username alicia &&
	expect_json .nickname Ally
'

test_expect_success 'the refresh token survives the profile change too' '
	as alice_refresh &&
	http GET /cms/user/refresh &&
	expect_status 200
'

test_expect_success 'after a profile change the user logs in with the new username' '
	login alicia Pass_word1
'

test_expect_success 'PUT /cms/admin/user/{id}/password answers 200 code 4' '
	as root &&
	http PUT /cms/admin/user/$(cat alice_id)/password "{\"new_password\":\"Reset_pass2\",\"confirm_password\":\"Reset_pass2\"}" &&
	expect_status 200 &&
	expect_json .code 4 &&
	expect_json .request "PUT /cms/admin/user/$(cat alice_id)/password"
'

test_expect_success 'after the admin reset the user access token from before is refused with 10041' '
	as alice &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'after the admin reset the user refresh token from before is refused with 10042' '
	as alice_refresh &&
	http GET /cms/user/refresh &&
	expect_status 401 &&
	expect_json .code 10042
'

test_expect_success 'the reset revokes nothing of other users: the tokens of bob and root still work' '
	as bob &&
	http GET /cms/user/information &&
	expect_status 200 &&
	as root &&
	http GET /cms/user/information &&
	expect_status 200
'

test_expect_success 'the reset password logs in at once, the old one no longer' '
	login alicia Reset_pass2 &&
	keep alice &&
	keep alice_refresh "$REFRESH_TOKEN" &&
	http POST /cms/user/login "{\"username\":\"alicia\",\"password\":\"Pass_word1\"}" &&
	expect_status 401 &&
	expect_json .code 10031
'

test_expect_success 'DELETE /cms/admin/user/{id} answers 200 code 5' '
	as root &&
	http DELETE /cms/admin/user/$(cat alice_id) &&
	expect_status 200 &&
	expect_json .code 5
'

test_expect_success 'the access token of a deleted user is refused with 401 10041' '
	as alice &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'the refresh token of a deleted user is refused with 401 10042' '
	as alice_refresh &&
	http GET /cms/user/refresh &&
	expect_status 401 &&
	expect_json .code 10042
'

test_expect_success 'a deleted user cannot log in: the same 401 10031 body as an unknown user' '
	http POST /cms/user/login "{\"username\":\"alicia\",\"password\":\"Reset_pass2\"}" &&
	expect_status 401 &&
	cp body deleted.json &&
	http POST /cms/user/login "{\"username\":\"nobody\",\"password\":\"Reset_pass2\"}" &&
	expect_status 401 &&
	cmp deleted.json body
'

test_done
