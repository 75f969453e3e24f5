#!/bin/sh
test_description='the Lin CMS password hash formats (doc/lin-cms.md §5.5) log in, and are re-hashed to Argon2id on success'
. "$(dirname "$0")/lib.sh"

start_db
# Every vector tries a wrong password twice; keep the login throttle and the captcha out of the way.
start_app login_max_failures=1000 login_captcha=off
start_nginx

# The three verified vectors of doc/lin-cms.md §5.5, each for the password 123456.
SPRING='pbkdf2sha256:64000:18:24:n:yUnDokcNRbwILZllmUOItIyo9MnI00QW:6ZcPf+sfzyoygOU8h/GSoirF'
KOA='sha1$c419e500$1$84869e5560ebf3de26b6690386484929456d6c07'
KOA3='sha1$c419e500$3$4bfb9fdd94435f711a03c906635a6f95dbe5994a'
FLASK='pbkdf2:sha256:260000$LinCmsTestSalt16$06a1f4626f0a24d07f14b74ba910bfb3e911cf93fed90abafbd6aadfbd5a8e3c'
ARGON2ID='$argon2id$'
ROOT_IDENTITY="user_id = 1 AND identity_type = \"USERNAME_PASSWORD\""

# set_root_hash HASH: stores HASH as root's credential.
set_root_hash () {
	db_exec "UPDATE lin_user_identity SET credential = \"$1\" WHERE $ROOT_IDENTITY"
}

# expect_login_refused USER PASSWORD: POST /cms/user/login answers 401 10031.
expect_login_refused () {
	http POST /cms/user/login "$(jq -nc --arg u "$1" --arg p "$2" '{username: $u, password: $p}')" &&
	expect_status 401 &&
	expect_json .code 10031
}

CRED="SELECT credential FROM lin_user_identity WHERE $ROOT_IDENTITY"
PREFIX="SELECT LEFT(credential, 10) FROM lin_user_identity WHERE $ROOT_IDENTITY"

for format in SPRING KOA KOA3 FLASK; do
	eval "hash=\$$format"

	test_expect_success "setup: root's credential is the $format vector" '
		set_root_hash "$hash" &&
		expect_db "$CRED" "$hash"
	'

	test_expect_success "$format: a wrong password is refused with 401 10031" '
		expect_login_refused root 1234567
	'

	test_expect_success "$format: a refused login leaves the stored hash as it was" '
		expect_db "$CRED" "$hash"
	'

	test_expect_success "$format: root/123456 logs in with 200 and a token that works" '
		login root 123456 &&
		http GET /cms/user/information &&
		expect_status 200 &&
		expect_json .username root
	'

	test_expect_success "$format: after that login the stored credential is an Argon2id PHC string" '
		expect_db "$PREFIX" "$ARGON2ID"
	'

	test_expect_success "$format: root/123456 still logs in after the re-hash" '
		login root 123456
	'

	test_expect_success "$format: the wrong password is still refused after the re-hash" '
		expect_login_refused root 1234567
	'
done

test_expect_success 'an Argon2id credential is not re-hashed by a further login' '
	db_exec "$CRED" >before &&
	login root 123456 &&
	db_exec "$CRED" >after &&
	cmp before after
'

test_expect_success 'a credential in no known format refuses the login with 401 10031, not a 500' '
	set_root_hash "!" &&
	expect_login_refused root 123456 &&
	expect_login_refused root "!"
'

test_expect_success 'a spring hash with a corrupted digest refuses the right password' '
	set_root_hash "pbkdf2sha256:64000:18:24:n:yUnDokcNRbwILZllmUOItIyo9MnI00QW:6ZcPf+sfzyoygOU8h/GSoirG" &&
	expect_login_refused root 123456
'

test_expect_success 'a koa hash with a corrupted digest refuses the right password' '
	set_root_hash "sha1\$c419e500\$1\$84869e5560ebf3de26b6690386484929456d6c08" &&
	expect_login_refused root 123456
'

test_done
