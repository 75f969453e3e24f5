#!/bin/sh
test_description='a guess spread over many addresses meets the captcha: a username that has failed login_captcha_after times asks it of every address, the right password with a right captcha still gets in; the captcha asked by address whatever the username; IPv6 clients counted by their /64 (through nginx realip); change_password asks the captcha too; spent tags kept an hour past expiry'
. "$(dirname "$0")/lib.sh"

nginx -V 2>&1 | grep -q -- --with-http_realip_module || skip_all "nginx lacks the realip module"

# IPv6 clients reach the app as a proxied setup shows them: nginx's realip module takes the
# address from X-Real-IP, trusted from 127.0.0.1 only (doc/limits.md, Login throttling). Every
# other request comes from a loopback address 127.0.0.N, whose header nginx ignores.
realip () {
	sed -i 's|^\( *\)server_name localhost;|&\n\1set_real_ip_from 127.0.0.1;\n\1real_ip_header X-Real-IP;|' "$1" &&
	grep -q real_ip_header "$1"
}

start_db
start_app login_captcha_after=3 login_failure_window=60 login_username_max_failures=5
SVC_NGINX_EDIT=realip start_nginx

USER_PASSWORD=User_pass1
SECRET=$("$APP_BIN" -c "$TRASH/cms.conf" --get jwt_secret) || bail_out "cannot read jwt_secret"

# new_tag N: a captcha for 127.0.0.N; its tag in TAG and its code (read with the secret) in CODE.
new_tag () {
	captcha "$1" &&
	expect_status 200 &&
	TAG=$(jq -r .tag "$TRASH/body") &&
	"$TOP/t/captcha-tag" open "$SECRET" "$TAG" >"$TRASH/opened" &&
	read -r CODE _ <"$TRASH/opened" &&
	test -n "$CODE"
}

refused () {
	expect_status 400 &&
	expect_json .code 10260
}

# v6_login NAME PASSWORD ADDRESS: a login from the IPv6 ADDRESS (X-Real-IP through realip).
v6_login () {
	TOKEN= &&
	http POST /cms/user/login "$(jq -nc --arg u "$1" --arg p "$2" '{username: $u, password: $p}')" \
		--interface 127.0.0.1 -H "X-Real-IP: $3"
}

# change_password OLD N [CODE [TAG]]: PUT /cms/user/change_password as dave from 127.0.0.N, from
# OLD to New_pass2, with the captcha code in the body and the tag in a header as at login.
change_password () {
	as dave &&
	http PUT /cms/user/change_password "$(jq -nc --arg o "$1" --arg c "${3-}" \
		'{old_password: $o, new_password: "New_pass2", confirm_password: "New_pass2", captcha: $c}')" \
		--interface "127.0.0.$2" -H "tag: ${4-}"
}

test_expect_success 'setup: root registers alice, bob, carol and dave; dave logs in' '
	login root "$ROOT_PASSWORD" &&
	for u in alice bob carol dave; do
		http POST /cms/user/register "{\"username\":\"$u\",\"password\":\"$USER_PASSWORD\",
			\"confirm_password\":\"$USER_PASSWORD\"}" &&
		expect_status 201 || return 1
	done &&
	remember dave "$USER_PASSWORD"
'

test_expect_success 'guesses at alice from 10 addresses, one each: 3 are checked (401), then each is asked the captcha (400 10260)' '
	for n in 11 12 13; do
		captcha_login alice Wrong_pass9 $n && expect_status 401 && expect_json .code 10031 || return 1
	done &&
	for n in 14 15 16 17 18 19 20; do
		captcha_login alice Wrong_pass9 $n && refused || return 1
	done
'

test_expect_success 'each of them is counted, the captcha refusals too' '
	expect_db "SELECT COUNT(*) FROM cms_login_failure WHERE username =
		(SELECT CONCAT(\"(the account of user id \", id, \")\") FROM lin_user WHERE username = \"alice\")" 10
'

test_expect_success 'past alice'\''s ceiling, a fresh address with her right password and no captcha is asked one' '
	captcha_login alice "$USER_PASSWORD" 30 &&
	refused
'

test_expect_success 'that address, refused once for alice, then gets an image from POST /cms/user/captcha' '
	captcha 30 &&
	expect_json_true ".image | startswith(\"data:image/png;base64,\")"
'

test_expect_success 'with the captcha solved, alice'\''s right password logs in from there: no lockout' '
	new_tag 30 &&
	captcha_login alice "$USER_PASSWORD" 30 "$CODE" "$TAG" &&
	expect_status 200 &&
	expect_json_true ".access_token | length > 0"
'

test_expect_success 'an address without failures gets no image while alice is under attack' '
	captcha 31 &&
	expect_status 200 &&
	expect_json .image null
'

test_expect_success 'bob, whose username has no failures, logs in from a fresh address without a captcha' '
	captcha_login bob "$USER_PASSWORD" 32 &&
	expect_status 200
'

test_expect_success 'an address with 3 failures, each for another username, is asked the captcha for carol, who never failed' '
	for u in ghost1 ghost2 ghost3; do
		captcha_login $u Wrong_pass9 40 && expect_status 401 || return 1
	done &&
	captcha_login carol "$USER_PASSWORD" 40 &&
	refused
'

test_expect_success 'and that address gets an image' '
	captcha 40 &&
	expect_json_true ".image | startswith(\"data:image/png;base64,\")"
'

test_expect_success 'carol logs in from another address without a captcha' '
	captcha_login carol "$USER_PASSWORD" 41 &&
	expect_status 200
'

test_expect_success 'three failures from three addresses of one IPv6 /64, each for another username, are counted as the /64' '
	v6_login ghost4 Wrong_pass9 2001:db8:1:2::1 && expect_status 401 &&
	v6_login ghost5 Wrong_pass9 2001:db8:1:2::2 && expect_status 401 &&
	v6_login ghost6 Wrong_pass9 2001:db8:1:2:ffff:ffff:ffff:ffff && expect_status 401 &&
	expect_db "SELECT DISTINCT address FROM cms_login_failure WHERE username IN
		(\"$(throttle_name ghost4)\", \"$(throttle_name ghost5)\", \"$(throttle_name ghost6)\")" 2001:db8:1:2::/64
'

test_expect_success 'a fourth address of that /64, never seen, is asked the captcha for carol' '
	v6_login carol "$USER_PASSWORD" 2001:db8:1:2:abcd::7 &&
	refused
'

test_expect_success 'an address of the next /64 logs carol in without a captcha' '
	v6_login carol "$USER_PASSWORD" 2001:db8:1:3::1 &&
	expect_status 200
'

test_expect_success 'three wrong old passwords of dave from 127.0.0.50 each answer 400 10032' '
	for i in 1 2 3; do
		change_password Wrong_old9 50 && expect_status 400 && expect_json .code 10032 || return 1
	done
'

test_expect_success 'then his right old password without a captcha is asked one (400 10260), and the password stays' '
	change_password "$USER_PASSWORD" 50 &&
	refused &&
	expect_json .request "PUT /cms/user/change_password" &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure WHERE username =
		(SELECT CONCAT(\"(the account of user id \", id, \")\") FROM lin_user WHERE username = \"dave\")" 4
'

test_expect_success 'with the captcha of POST /cms/user/captcha solved, his right old password changes it (200)' '
	new_tag 50 &&
	change_password "$USER_PASSWORD" 50 "$CODE" "$TAG" &&
	expect_status 200 &&
	expect_json .code 4
'

test_expect_success 'a spent tag'\''s row that expired a minute ago is kept when the next tag is made' '
	db_exec "INSERT INTO cms_captcha_spent (nonce, expires)
		VALUES (\"aaaaaaaaaaaaaaaaaaaaaaaa\", UNIX_TIMESTAMP() - 60)" &&
	new_tag 50 &&
	expect_db "SELECT COUNT(*) FROM cms_captcha_spent WHERE nonce = \"aaaaaaaaaaaaaaaaaaaaaaaa\"" 1
'

test_expect_success 'one that expired two hours ago is deleted when the next tag is made' '
	db_exec "UPDATE cms_captcha_spent SET expires = UNIX_TIMESTAMP() - 7200
		WHERE nonce = \"aaaaaaaaaaaaaaaaaaaaaaaa\"" &&
	new_tag 50 &&
	expect_db "SELECT COUNT(*) FROM cms_captcha_spent WHERE nonce = \"aaaaaaaaaaaaaaaaaaaaaaaa\"" 0
'

test_done
