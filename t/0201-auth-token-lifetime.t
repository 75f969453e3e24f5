#!/bin/sh
test_description='access_token_lifetime and refresh_token_lifetime set the exp - iat of the issued tokens'
. "$(dirname "$0")/lib.sh"

start_db
start_app access_token_lifetime=120 refresh_token_lifetime=600
start_nginx

# expect_file_json FILE FILTER EXPECTED: `jq -r FILTER FILE` equals EXPECTED.
expect_file_json () {
	local got
	got=$(jq -r "$2" "$1" 2>&1) && [ "$got" = "$3" ] && return 0
	echo "expected $2 of $1 to be '$3', got '$got'" >&2
	return 1
}

test_expect_success 'setup: root logs in' '
	login root "$ROOT_PASSWORD" &&
	jwt_payload "$TOKEN" >access.payload &&
	jwt_payload "$REFRESH_TOKEN" >refresh.payload &&
	keep refresh "$REFRESH_TOKEN"
'

test_expect_success 'with access_token_lifetime=120 the access token lives 120 s (exp - iat)' '
	expect_file_json access.payload .type access &&
	expect_file_json access.payload ".exp - .iat" 120
'

test_expect_success 'with refresh_token_lifetime=600 the refresh token lives 600 s (exp - iat)' '
	expect_file_json refresh.payload .type refresh &&
	expect_file_json refresh.payload ".exp - .iat" 600
'

test_expect_success 'the pair issued by GET /cms/user/refresh has the configured lifetimes too' '
	as refresh &&
	http GET /cms/user/refresh &&
	expect_status 200 &&
	jwt_payload "$(jq -r .access_token body)" >access2.payload &&
	jwt_payload "$(jq -r .refresh_token body)" >refresh2.payload &&
	expect_file_json access2.payload ".exp - .iat" 120 &&
	expect_file_json refresh2.payload ".exp - .iat" 600
'

test_done
