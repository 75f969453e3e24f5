#!/bin/sh
test_description='login_captcha off (never an image, whatever the failures) and always (every login, from the first, through nginx and as a plain CGI program); a tag older than login_captcha_ttl is refused, and one whose expiry is the current second'
. "$(dirname "$0")/lib.sh"

start_db
start_app login_captcha=off
start_nginx

USER_PASSWORD=User_pass1

# code_of TAG: the code TAG seals, read with the jwt_secret of the running configuration.
code_of () {
	"$TOP/t/captcha-tag" open "$("$APP_BIN" -c "$TRASH/cms.conf" --get jwt_secret)" "$1" | cut -d" " -f1
}

# cgi OUT METHOD PATH_INFO [NAME=VALUE...]: one request to the binary run as a CGI program with
# the running configuration (as t/0115 does); the body after the blank line in $TRASH/OUT.body.
cgi () {
	local out=$1 method=$2 path=$3
	shift 3
	env -i PATH="$PATH" GATEWAY_INTERFACE=CGI/1.1 SERVER_PROTOCOL=HTTP/1.1 REMOTE_ADDR=127.0.0.9 \
		REQUEST_METHOD="$method" PATH_INFO="$path" "$@" \
		timeout 10 "$APP_BIN" -c "$TRASH/cms.conf" >"$TRASH/$out" 2>"$TRASH/$out.err" &&
	awk 'f { print } !f && /^\r?$/ { f = 1 }' "$TRASH/$out" >"$TRASH/$out.body"
}

test_expect_success 'setup: root registers alice' '
	login root "$ROOT_PASSWORD" &&
	http POST /cms/user/register "{\"username\":\"alice\",\"password\":\"$USER_PASSWORD\",
		\"confirm_password\":\"$USER_PASSWORD\"}" &&
	expect_status 201
'

test_expect_success 'off: after 5 failures from an address, the endpoint still answers nulls' '
	for i in 1 2 3 4 5; do
		captcha_login alice Wrong_pass9 2 && expect_status 401 || return 1
	done &&
	captcha 2 &&
	expect_status 200 &&
	expect_json .tag null &&
	expect_json .image null
'

test_expect_success 'off: the right password logs in from there without a captcha' '
	captcha_login alice "$USER_PASSWORD" 2 &&
	expect_status 200
'

stop_app
start_app login_captcha=always
svc_wait_http_200 "http://127.0.0.1:$HTTP_PORT/healthz" 100 2>>"$TRASH/fixture.log" ||
	bail_out "the pool with login_captcha=always did not answer"

test_expect_success 'always: an address without failures gets an image and a tag' '
	captcha 3 &&
	expect_status 200 &&
	expect_json_true ".image | startswith(\"data:image/png;base64,\")" &&
	expect_json_true ".tag | length > 0"
'

test_expect_success 'always: the right password without a captcha is refused with 400 10260' '
	captcha_login alice "$USER_PASSWORD" 3 &&
	expect_status 400 &&
	expect_json .code 10260
'

test_expect_success 'always: the right password with the right code logs in' '
	captcha 3 &&
	tag=$(jq -r .tag body) &&
	captcha_login alice "$USER_PASSWORD" 3 "$(code_of "$tag")" "$tag" &&
	expect_status 200 &&
	expect_json_true ".access_token | length > 0"
'

test_expect_success 'always, as CGI: POST /cms/user/captcha answers 200 with a PNG and a tag' '
	cgi captcha POST /cms/user/captcha CONTENT_LENGTH=0 </dev/null &&
	head -n 1 captcha | grep -q "^Status: 200" &&
	jq -r ".image | ltrimstr(\"data:image/png;base64,\")" captcha.body | base64 -d >cgi.png &&
	test "$(head -c 4 cgi.png | od -An -tx1 | tr -d " ")" = 89504e47 &&
	jq -r .tag captcha.body >cgi.tag &&
	test -s cgi.tag
'

test_expect_success 'always, as CGI: a login with that tag (tag header) and its code answers 200' '
	tag=$(cat cgi.tag) &&
	jq -nc --arg p "$USER_PASSWORD" --arg c "$(code_of "$tag")" \
		"{username: \"alice\", password: \$p, captcha: \$c}" >cgi-login.json &&
	cgi login POST /cms/user/login CONTENT_TYPE=application/json \
		CONTENT_LENGTH="$(wc -c <cgi-login.json)" HTTP_TAG="$tag" <cgi-login.json &&
	head -n 1 login | grep -q "^Status: 200" &&
	jq -e ".access_token | length > 0" login.body
'

test_expect_success 'always, as CGI: the same tag again is refused with 400 10260' '
	tag=$(cat cgi.tag) &&
	cgi again POST /cms/user/login CONTENT_TYPE=application/json \
		CONTENT_LENGTH="$(wc -c <cgi-login.json)" HTTP_TAG="$tag" <cgi-login.json &&
	head -n 1 again | grep -q "^Status: 400" &&
	jq -e ".code == 10260" again.body
'

stop_app
start_app login_captcha=always login_captcha_ttl=1
svc_wait_http_200 "http://127.0.0.1:$HTTP_PORT/healthz" 100 2>>"$TRASH/fixture.log" ||
	bail_out "the pool with login_captcha_ttl=1 did not answer"

# past EPOCH: the clock is past EPOCH.
past () {
	test "$(date +%s)" -gt "$1"
}

test_expect_success 'login_captcha_ttl=1: a tag expires 1 s after it is handed out' '
	now=$(date +%s) &&
	captcha 4 &&
	tag=$(jq -r .tag body) &&
	expires=$("$TOP/t/captcha-tag" open "$("$APP_BIN" -c "$TRASH/cms.conf" --get jwt_secret)" "$tag" |
		cut -d" " -f2) &&
	test "$expires" -ge $((now + 1)) &&
	test "$expires" -le $(($(date +%s) + 1)) &&
	echo "$tag" >short.tag
'

test_expect_success 'login_captcha_ttl=1: once the clock is past its expiry, the tag and its right code are refused' '
	tag=$(cat short.tag) &&
	expires=$("$TOP/t/captcha-tag" open "$("$APP_BIN" -c "$TRASH/cms.conf" --get jwt_secret)" "$tag" |
		cut -d" " -f2) &&
	poll_until 50 past "$expires" &&
	captcha_login alice "$USER_PASSWORD" 4 "$(code_of "$tag")" "$tag" &&
	expect_status 400 &&
	expect_json .code 10260
'

# at_expiry OFFSET N: alice logs in from 127.0.0.N with her password and the right code of a tag
# sealed to expire OFFSET s after the second the login is sent in. Succeeds when the test's clock
# read that second before and after the request: only then does the answer tell how the server
# compares the expiry with its clock. The machine's speed decides how often, never the answer.
at_expiry () {
	local second tag
	second=$(($(date +%s) + 1)) &&
	tag=$("$TOP/t/captcha-tag" seal "$("$APP_BIN" -c "$TRASH/cms.conf" --get jwt_secret)" ABCDE \
		$((second + $1))) &&
	next_second &&
	test "$(date +%s)" -eq "$second" &&
	captcha_login alice "$USER_PASSWORD" "$2" ABCDE "$tag" &&
	test "$(date +%s)" -eq "$second"
}

# Whatever second the server reads, it is at least the expiry: refused every time. Tries (from a
# fresh address each, so that the refusals stay below every limit) until one login fell within
# the second of the expiry, where a comparison expires >= now would accept it.
test_expect_success 'a tag whose expiry is the current second is refused with its right code' '
	i=0 &&
	until at_expiry 0 $((20 + i)); do
		i=$((i + 1)) &&
		test $i -lt 30 || return 1
	done &&
	expect_status 400 &&
	expect_json .code 10260
'

test_expect_success 'a tag expiring one second after the current second is accepted with its right code' '
	i=0 &&
	until at_expiry 1 $((60 + i)); do
		i=$((i + 1)) &&
		test $i -lt 30 || return 1
	done &&
	expect_status 200 &&
	expect_json_true ".access_token | length > 0"
'

test_done
