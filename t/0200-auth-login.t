#!/bin/sh
test_description='POST /cms/user/login: the raw token pair, alike failures, and the claims of each token'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

# jwt_part TOKEN N: the JSON of part N (1 header, 2 payload) of a JWT, base64url-decoded.
jwt_part () {
	local p
	p=$(printf '%s' "$1" | cut -d. -f"$2" | tr '_-' '/+')
	case $((${#p} % 4)) in
	2) p=$p== ;;
	3) p=$p= ;;
	esac
	printf '%s' "$p" | base64 -d
}

# expect_file_json FILE FILTER EXPECTED: `jq -r FILTER FILE` equals EXPECTED.
expect_file_json () {
	local got
	got=$(jq -r "$2" "$1" 2>&1) && [ "$got" = "$3" ] && return 0
	echo "expected $2 of $1 to be '$3', got '$got'" >&2
	return 1
}

test_expect_success 'root with the right password gets 200 and exactly {access_token, refresh_token}' '
	http POST /cms/user/login "{\"username\":\"root\",\"password\":\"$ROOT_PASSWORD\"}" &&
	expect_status 200 &&
	expect_header Content-Type "^application/json" &&
	expect_json "keys | join(\",\")" "access_token,refresh_token" &&
	expect_json ".access_token | type" string &&
	expect_json ".refresh_token | type" string &&
	keep access "$(jq -r .access_token body)" &&
	keep refresh "$(jq -r .refresh_token body)" &&
	date +%s >login_time
'

test_expect_success 'a successful login carries no envelope (no code, message or request)' '
	http POST /cms/user/login "{\"username\":\"root\",\"password\":\"$ROOT_PASSWORD\"}" &&
	expect_status 200 &&
	expect_json_true "has(\"code\") | not" &&
	expect_json_true "has(\"message\") | not" &&
	expect_json_true "has(\"request\") | not"
'

test_expect_success 'the access token has three parts and an HS256 JWT header' '
	test "$(kept access | tr -cd .)" = ".." &&
	jwt_part "$(kept access)" 1 >access.header &&
	expect_file_json access.header .alg HS256
'

test_expect_success 'the access token says identity 1 as a JSON number' '
	jwt_part "$(kept access)" 2 >access.payload &&
	expect_file_json access.payload ".identity | type" number &&
	expect_file_json access.payload .identity 1
'

test_expect_success 'the access token has scope "lin" and type "access"' '
	expect_file_json access.payload .scope lin &&
	expect_file_json access.payload .type access
'

test_expect_success 'the access token lives 3600 s by default (exp - iat)' '
	expect_file_json access.payload ".exp - .iat" 3600
'

test_expect_success 'the access token iat is the time of the login, give or take 60 s' '
	iat=$(jq -r .iat access.payload) &&
	now=$(cat login_time) &&
	test $((iat - now)) -le 60 &&
	test $((now - iat)) -le 60
'

test_expect_success 'the refresh token says identity 1, scope "lin" and type "refresh"' '
	jwt_part "$(kept refresh)" 2 >refresh.payload &&
	expect_file_json refresh.payload ".identity | type" number &&
	expect_file_json refresh.payload .identity 1 &&
	expect_file_json refresh.payload .scope lin &&
	expect_file_json refresh.payload .type refresh
'

test_expect_success 'the refresh token lives 2592000 s (30 days) by default (exp - iat)' '
	expect_file_json refresh.payload ".exp - .iat" 2592000
'

test_expect_success 'the access token of the login is accepted by GET /cms/user/information' '
	as access &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .username root
'

test_expect_success 'a wrong password answers 401 with code 10031 and its text' '
	http POST /cms/user/login "{\"username\":\"root\",\"password\":\"Wrong_pass9\"}" &&
	expect_status 401 &&
	expect_json .code 10031 &&
	expect_json .message "用户名或密码错误" &&
	expect_json .request "POST /cms/user/login" &&
	cp body wrong_password.json
'

test_expect_success 'an unknown username answers 401 with code 10031 too' '
	http POST /cms/user/login "{\"username\":\"nobody\",\"password\":\"Wrong_pass9\"}" &&
	expect_status 401 &&
	expect_json .code 10031 &&
	cp body unknown_user.json
'

test_expect_success 'the wrong-password and unknown-username bodies are byte for byte the same' '
	cmp wrong_password.json unknown_user.json
'

test_expect_success 'a login without username and password answers 400 10030 naming both fields' '
	http POST /cms/user/login "{}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.username "用户名不可为空" &&
	expect_json .message.password "密码不可为空" &&
	expect_json .request "POST /cms/user/login"
'

test_expect_success 'a login without password answers 400 10030 naming only the password' '
	http POST /cms/user/login "{\"username\":\"root\"}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json ".message | keys | join(\",\")" password &&
	expect_json .message.password "密码不可为空"
'

test_expect_success 'a login with an empty username answers 400 10030 naming only the username' '
	http POST /cms/user/login "{\"username\":\"\",\"password\":\"$ROOT_PASSWORD\"}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json ".message | keys | join(\",\")" username &&
	expect_json .message.username "用户名不可为空"
'

test_done
