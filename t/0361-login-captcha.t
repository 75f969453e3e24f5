#!/bin/sh
test_description='login captcha, after_failures (the default): an address with 3 recent failures gets an image and must solve it; a tag is sealed, expires, and is spent by its first try on every host; every refusal is one 400 10260 and counts; the 429 stays'
. "$(dirname "$0")/lib.sh"

# Two pools on one database stand for two application hosts; via_pool N talks to one of them.
# Requests come from loopback addresses 127.0.0.N, so each test picks a fresh address.
start_db
start_app login_captcha_after=3 login_failure_window=60
_start_pool2 2
start_nginx
start_pool_fronts

USER_PASSWORD=User_pass1
SECRET=$("$APP_BIN" -c "$TRASH/cms.conf" --get jwt_secret) || bail_out "cannot read jwt_secret"

# refused: the last answer is the captcha refusal, which never says why.
refused () {
	expect_status 400 &&
	expect_json .code 10260 &&
	expect_json .message 请输入正确的验证码 &&
	expect_json .request "POST /cms/user/login" &&
	expect_json .access_token null
}

# fail_3 N: three wrong passwords from 127.0.0.N, each an ordinary 401 10031.
fail_3 () {
	for i in 1 2 3; do
		captcha_login alice Wrong_pass9 "$1" && expect_status 401 && expect_json .code 10031 || return 1
	done
}

# new_tag N: a captcha for 127.0.0.N; its tag in TAG and, read with the configured secret, its code
# in CODE (the service never tells it) and its nonce in NONCE (hex).
new_tag () {
	captcha "$1" &&
	expect_status 200 &&
	TAG=$(jq -r .tag "$TRASH/body") &&
	"$TOP/t/captcha-tag" open "$SECRET" "$TAG" >"$TRASH/opened" &&
	read -r CODE _ NONCE <"$TRASH/opened" &&
	test -n "$CODE"
}

failures () {
	db_exec "SELECT COUNT(*) FROM cms_login_failure WHERE address = '127.0.0.$1'"
}

test_expect_success 'setup: root registers alice' '
	login root "$ROOT_PASSWORD" &&
	http POST /cms/user/register "{\"username\":\"alice\",\"password\":\"$USER_PASSWORD\",
		\"confirm_password\":\"$USER_PASSWORD\"}" &&
	expect_status 201
'

test_expect_success 'an address without failures gets {"tag":null,"image":null}' '
	captcha 2 &&
	expect_status 200 &&
	echo "{\"tag\":null,\"image\":null}" >none.json &&
	expect_body_file none.json
'

test_expect_success 'the first 3 failures from an address need no captcha (401 10031 each)' '
	fail_3 2
'

test_expect_success 'after 3 failures the endpoint hands out a data: URL and a tag' '
	captcha 2 &&
	expect_status 200 &&
	expect_json_true ".image | startswith(\"data:image/png;base64,\")" &&
	expect_json_true ".tag | test(\"^[A-Za-z0-9_-]{40,128}\$\")"
'

test_expect_success 'the image is a 120x40 PNG of at most 6 KiB, and not to be cached' '
	jq -r ".image | ltrimstr(\"data:image/png;base64,\")" body | base64 -d >captcha.png &&
	test "$(head -c 8 captcha.png | od -An -tx1 | tr -d " ")" = 89504e470d0a1a0a &&
	test "$(od -An -tu1 -j16 -N8 captcha.png | tr -s " ")" = " 0 0 0 120 0 0 0 40" &&
	test "$(wc -c <captcha.png)" -le 6144 &&
	expect_header Cache-Control "^no-store$"
'

test_expect_success 'the tag holds the code sealed, not in clear; a code of 5 from the alphabet' '
	new_tag 2 &&
	! printf "%s" "$TAG" | grep -q "$CODE" &&
	printf "%s\n" "$CODE" | grep -Eqx "[2-9A-HJKMNP-Z]{5}"
'

test_expect_success 'the right password without captcha nor tag is refused' '
	n=$(failures 2) &&
	captcha_login alice "$USER_PASSWORD" 2 &&
	refused &&
	test "$(failures 2)" = $((n + 1))
'

test_expect_success 'the right password with the tag but no code is refused' '
	new_tag 2 &&
	captcha_login alice "$USER_PASSWORD" 2 "" "$TAG" &&
	refused
'

test_expect_success 'the right password with a wrong code is refused, and counts' '
	new_tag 2 &&
	wrong=22222 && [ "$CODE" != 22222 ] || wrong=33333 &&
	n=$(failures 2) &&
	captcha_login alice "$USER_PASSWORD" 2 "$wrong" "$TAG" &&
	refused &&
	test "$(failures 2)" = $((n + 1))
'

test_expect_success 'a tampered tag with its right code is refused' '
	new_tag 2 &&
	c=$(printf "%s" "$TAG" | cut -c30) &&
	if [ "$c" = A ]; then r=B; else r=A; fi &&
	forged=$(printf "%s" "$TAG" | sed "s/./$r/30") &&
	captcha_login alice "$USER_PASSWORD" 2 "$CODE" "$forged" &&
	refused
'

test_expect_success 'a tag sealed with another configuration'\''s secret is refused' '
	other=$("$TOP/t/captcha-tag" seal "$(svc_random_hex 32)" ABCDE $(($(date +%s) + 300))) &&
	captcha_login alice "$USER_PASSWORD" 2 ABCDE "$other" &&
	refused
'

test_expect_success 'an expired tag with its right code is refused' '
	old=$("$TOP/t/captcha-tag" seal "$SECRET" ABCDE $(($(date +%s) - 1))) &&
	captcha_login alice "$USER_PASSWORD" 2 ABCDE "$old" &&
	refused
'

test_expect_success 'a tag of our secret, not expired, with its code logs in (the check of the test above)' '
	good=$("$TOP/t/captcha-tag" seal "$SECRET" ABCDE $(($(date +%s) + 300))) &&
	captcha_login alice "$USER_PASSWORD" 2 ABCDE "$good" &&
	expect_status 200 &&
	expect_json_true ".access_token | length > 0"
'

test_expect_success 'the right code, in lower case, with the right password logs in' '
	fail_3 4 &&
	new_tag 4 &&
	lower=$(printf "%s" "$CODE" | tr A-Z a-z) &&
	captcha_login alice "$USER_PASSWORD" 4 "$lower" "$TAG" &&
	expect_status 200 &&
	expect_json_true ".access_token | length > 0"
'

test_expect_success 'the login cleared the failures of alice there: the address gets no image again' '
	captcha 4 &&
	expect_json .image null
'

test_expect_success 'with the captcha solved, a wrong password is the usual 401 10031, and spends the tag' '
	fail_3 5 &&
	via_pool 1 new_tag 5 &&
	via_pool 1 captcha_login alice Wrong_pass9 5 "$CODE" "$TAG" &&
	expect_status 401 &&
	expect_json .code 10031 &&
	expect_db "SELECT COUNT(*) FROM cms_captcha_spent WHERE nonce = \"$NONCE\"" 1 &&
	echo "$CODE $TAG" >spent
'

test_expect_success 'that tag, tried once on one host, is refused on the other, right password and all' '
	read -r CODE TAG <spent &&
	via_pool 2 captcha_login alice "$USER_PASSWORD" 5 "$CODE" "$TAG" &&
	refused
'

test_expect_success 'and on the first host again' '
	read -r CODE TAG <spent &&
	via_pool 1 captcha_login alice "$USER_PASSWORD" 5 "$CODE" "$TAG" &&
	refused
'

test_expect_success 'a tag is spent by a wrong code too: its right code afterwards is refused' '
	new_tag 5 &&
	captcha_login alice "$USER_PASSWORD" 5 22222 "$TAG" &&
	refused &&
	captcha_login alice "$USER_PASSWORD" 5 "$CODE" "$TAG" &&
	refused
'

# Kept an hour past their expiry (t/0364 shows a row expired a minute ago kept).
test_expect_success 'the rows of tags expired over an hour ago are deleted when the next tag is made' '
	db_exec "UPDATE cms_captcha_spent SET expires = UNIX_TIMESTAMP() - 7200" &&
	new_tag 5 &&
	captcha_login alice Wrong_pass9 5 "$CODE" "$TAG" &&
	expect_db "SELECT COUNT(*) FROM cms_captcha_spent" 1
'

# alice's failures from 127.0.0.5 would ask 127.0.0.6 a captcha for her from the first try.
test_expect_success 'setup: the failure table is emptied' '
	db_exec "DELETE FROM cms_login_failure"
'

test_expect_success 'captcha refusals count towards the 429: the 10th failure of the pair is the last' '
	fail_3 6 &&
	for i in 4 5 6 7 8 9 10; do
		captcha_login alice "$USER_PASSWORD" 6 && refused || return 1
	done &&
	captcha_login alice "$USER_PASSWORD" 6 &&
	expect_status 429 &&
	expect_json .code 10140
'

test_expect_success 'the 429 comes before the captcha: a solved one does not lift it' '
	new_tag 6 &&
	captcha_login alice "$USER_PASSWORD" 6 "$CODE" "$TAG" &&
	expect_status 429
'

test_expect_success 'setup: 127.0.0.5 fails 3 times again, for another username' '
	for i in 1 2 3; do
		captcha_login ghost Wrong_pass9 5 && expect_status 401 || return 1
	done
'

test_expect_success 'an address with 3 failures, one for each of 3 usernames, gets an image too' '
	for u in dave erin frank; do
		captcha_login $u Wrong_pass9 7 && expect_status 401 || return 1
	done &&
	captcha 7 &&
	expect_status 200 &&
	expect_json_true ".image | startswith(\"data:image/png;base64,\")"
'

test_expect_success 'no log line holds a code or a tag' '
	new_tag 5 &&
	captcha_login alice "$USER_PASSWORD" 5 "$CODE" "$TAG" &&
	test -n "$TAG" &&
	! grep -F "$TAG" app.log &&
	! grep -F "$CODE" app.log
'

test_done
