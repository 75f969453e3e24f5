#!/bin/sh
test_description='Idempotency-Key stores no password and no token: login and captcha (public routes) ignore the header, and the fingerprint of a keyed POST is keyed by the server'"'"'s secret, so a password (register) cannot be tested against it offline'
. "$(dirname "$0")/lib.sh"

start_db
# No captcha: the failed logins below must reach the password check.
start_app login_captcha=off
start_nginx

# The canary password, a typo of it (a failed login) and the password it is changed to: none of
# them, nor the plain SHA-256 fingerprint of a request carrying them, may be stored.
canary_bodies Canary_pw_7Q2x Canary_pw_7Q2y Canary_pw_8R3z
BOOK='{"title":"Dune","author":"Herbert","summary":"Spice"}'

# Every column of every row of cms_idempotency, as text.
idempotency_rows () {
	db_exec "SELECT user_id, idem_key, fingerprint, status, CAST(body AS CHAR) FROM cms_idempotency"
}

# fingerprint KEY: the stored fingerprint of root's key KEY.
fingerprint () {
	db_exec "SELECT fingerprint FROM cms_idempotency WHERE user_id = 1 AND idem_key = \"$1\""
}

# keys: how many keys are stored.
keys () {
	db_exec "SELECT COUNT(*) FROM cms_idempotency"
}

# tokens_of FILE: the access and refresh tokens of a login's answer, one a line, into tokens.
tokens_of () {
	jq -r ".access_token, .refresh_token" "$1" >>"$TRASH/tokens" &&
	test "$(grep -c "^ey" "$TRASH/tokens")" -ge 2
}

test_expect_success 'setup: root logs in' '
	remember root "$ROOT_PASSWORD"
'

test_expect_success 'a keyed register answers 201 and keeps its key' '
	as root &&
	http POST /cms/user/register "$REGISTER" -H "Idempotency-Key: reg-1" &&
	expect_status 201 &&
	cp body register.json &&
	expect_db "SELECT status FROM cms_idempotency WHERE user_id = 1 AND idem_key = \"reg-1\"" 201
'

test_expect_success 'the same register again is replayed: the keyed fingerprint still tells a repeat' '
	as root &&
	http POST /cms/user/register "$REGISTER" -H "Idempotency-Key: reg-1" &&
	expect_status 201 &&
	expect_header Idempotent-Replayed "^true$" &&
	cmp register.json body &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username = \"canary\"" 1
'

test_expect_success 'the register'"'"'s stored fingerprint is not the plain SHA-256 of the request' '
	stored=$(fingerprint reg-1) &&
	test ${#stored} -eq 64 &&
	test "$stored" != "$(plain_print POST /cms/user/register "$REGISTER")"
'

test_expect_success 'a keyed login answers 200 with tokens, and stores no key' '
	n=$(keys) &&
	TOKEN= &&
	http POST /cms/user/login "$LOGIN" -H "Idempotency-Key: login-1" &&
	expect_status 200 &&
	tokens_of body &&
	test "$(keys)" -eq "$n"
'

test_expect_success 'the same login and key again runs again: a fresh answer, not a replayed one' '
	TOKEN= &&
	http POST /cms/user/login "$LOGIN" -H "Idempotency-Key: login-1" &&
	expect_status 200 &&
	! grep -qi "^Idempotent-Replayed" headers &&
	tokens_of body &&
	keep canary "$(jq -r .access_token body)" &&
	expect_db "SELECT COUNT(*) FROM cms_idempotency WHERE idem_key = \"login-1\"" 0
'

test_expect_success 'a keyed failed login answers 401 each time, counts each, and stores no key' '
	n=$(keys) &&
	TOKEN= &&
	db_exec "DELETE FROM cms_login_failure" &&
	http POST /cms/user/login "$FAILED" -H "Idempotency-Key: login-bad-1" &&
	expect_status 401 &&
	expect_json .code 10031 &&
	http POST /cms/user/login "$FAILED" -H "Idempotency-Key: login-bad-1" &&
	expect_status 401 &&
	! grep -qi "^Idempotent-Replayed" headers &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure WHERE username =
		(SELECT CONCAT(\"(the account of user id \", id, \")\") FROM lin_user WHERE username = \"canary\")" 2 &&
	test "$(keys)" -eq "$n"
'

test_expect_success 'a login ignores a malformed key as it ignores a good one: 200, not 400' '
	TOKEN= &&
	http POST /cms/user/login "$LOGIN" -H "Idempotency-Key: a\\b" &&
	expect_status 200 &&
	tokens_of body
'

test_expect_success 'a keyed captcha request stores no key' '
	n=$(keys) &&
	TOKEN= &&
	http POST /cms/user/captcha "" -H "Idempotency-Key: captcha-1" &&
	expect_status 200 &&
	test "$(keys)" -eq "$n"
'

test_expect_success 'a keyed change_password answers 200 and stores no key (PUT ignores the header)' '
	n=$(keys) &&
	as canary &&
	http PUT /cms/user/change_password "$CHANGE" -H "Idempotency-Key: change-1" &&
	expect_status 200 &&
	test "$(keys)" -eq "$n"
'

test_expect_success 'an admin'"'"'s keyed password reset answers 200 and stores no key (PUT)' '
	n=$(keys) &&
	as root &&
	id=$(db_exec "SELECT id FROM lin_user WHERE username = \"canary\"") &&
	http PUT /cms/admin/user/$id/password "$RESET" -H "Idempotency-Key: reset-1" &&
	expect_status 200 &&
	test "$(keys)" -eq "$n"
'

test_expect_success 'no row of cms_idempotency holds a canary password or a plain fingerprint of one' '
	idempotency_rows >rows &&
	test -s rows &&
	for secret in "$CANARY" "$TYPO" "$CHANGED" \
		"$(plain_print POST /cms/user/register "$REGISTER")" \
		"$(plain_print POST /cms/user/login "$LOGIN")" \
		"$(plain_print POST /cms/user/login "$FAILED")" \
		"$(plain_print PUT /cms/user/change_password "$CHANGE")" \
		"$(plain_print PUT "/cms/admin/user/$(db_exec "SELECT id FROM lin_user WHERE username = \"canary\"")/password" "$RESET")"; do
		! grep -q -F "$secret" rows || { echo "cms_idempotency holds $secret" >&2; exit 1; }
	done
'

test_expect_success 'no row of cms_idempotency holds a token of the logins' '
	idempotency_rows >rows &&
	test "$(wc -l <tokens)" -ge 6 &&
	while read -r token; do
		! grep -q -F "$token" rows || { echo "cms_idempotency holds a token" >&2; exit 1; }
	done <tokens
'

test_expect_success 'under the same secret, the same request under two keys has one fingerprint' '
	as root &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: book-a" &&
	expect_status 201 &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: book-b" &&
	expect_status 201 &&
	test "$(fingerprint book-a)" = "$(fingerprint book-b)"
'

# The same pool on the same database with another jwt_secret.
stop_app
start_app login_captcha=off

test_expect_success 'under another jwt_secret the same request has another fingerprint' '
	login root "$ROOT_PASSWORD" &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: book-c" &&
	expect_status 201 &&
	first=$(fingerprint book-a) &&
	again=$(fingerprint book-c) &&
	test ${#again} -eq 64 &&
	test "$first" != "$again"
'

test_done
