#!/bin/sh
test_description='the token error matrix: header, signature, algorithm, expiry and type, on a login route and on /refresh'
. "$(dirname "$0")/lib.sh"

SECRET=t0202-secret-5b8e2c71d94f0a36e1c7b2d58f9a04e6
OTHER_SECRET=t0202-other-secret-0f1e2d3c4b5a69788796a5b4c3d2e1f0

start_db
start_app jwt_secret=$SECRET
start_nginx

b64url () {
	openssl base64 -A | tr '+/' '-_' | tr -d '=\n'
}

# jwt_make DIGEST HEADER_JSON PAYLOAD_JSON SECRET: a JWT signed with HMAC-DIGEST (sha256, sha512).
jwt_make () {
	local h p s
	h=$(printf '%s' "$2" | b64url) &&
	p=$(printf '%s' "$3" | b64url) &&
	s=$(printf '%s.%s' "$h" "$p" | openssl dgst -"$1" -hmac "$4" -binary | b64url) &&
	printf '%s.%s.%s\n' "$h" "$p" "$s"
}

# claims TYPE EXP_OFFSET: the claims of root (user 1, credential version 0), expiring at now+offset.
claims () {
	local now
	now=$(date +%s)
	printf '{"identity":1,"scope":"lin","type":"%s","iat":%s,"exp":%s,"ver":0}' \
		"$1" $((now - 7200)) $((now + $2))
}

HS256='{"alg":"HS256","typ":"JWT"}'

test_expect_success 'setup: root logs in and keeps both tokens' '
	login root "$ROOT_PASSWORD" &&
	keep access &&
	keep refresh "$REFRESH_TOKEN"
'

test_expect_success 'a token crafted with the test secret is accepted (the crafting below is sound)' '
	TOKEN=$(jwt_make sha256 "$HS256" "$(claims access 600)" "$SECRET") &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .id 1
'

test_expect_success 'no Authorization header answers 401 10012 with its text' '
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10012 &&
	expect_json .message "请传入认证头字段" &&
	expect_json .request "GET /cms/user/information"
'

test_expect_success '"Bearer" alone answers 401 10013 with its text' '
	http GET /cms/user/information "" -H "Authorization: Bearer" &&
	expect_status 401 &&
	expect_json .code 10013 &&
	expect_json .message "认证头字段解析失败"
'

test_expect_success '"Basic xxx" answers 401 10013' '
	http GET /cms/user/information "" -H "Authorization: Basic cm9vdDpSb290X3Bhc3Mx" &&
	expect_status 401 &&
	expect_json .code 10013
'

test_expect_success 'a lower-case "bearer <token>" answers 401 10013' '
	http GET /cms/user/information "" -H "Authorization: bearer $(kept access)" &&
	expect_status 401 &&
	expect_json .code 10013
'

test_expect_success 'two spaces between Bearer and the token answer 401 10013' '
	http GET /cms/user/information "" -H "Authorization: Bearer  $(kept access)" &&
	expect_status 401 &&
	expect_json .code 10013
'

test_expect_success '"Bearer <token> extra" (three parts) answers 401 10013' '
	http GET /cms/user/information "" -H "Authorization: Bearer $(kept access) extra" &&
	expect_status 401 &&
	expect_json .code 10013
'

test_expect_success 'the real access token itself is accepted with a single space' '
	http GET /cms/user/information "" -H "Authorization: Bearer $(kept access)" &&
	expect_status 200
'

test_expect_success 'a garbage token answers 401 10041 with its text' '
	TOKEN=not-a-jwt-at-all &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041 &&
	expect_json .message "access token 损坏"
'

test_expect_success 'a token whose exp was extended after signing answers 401 10041' '
	real=$(kept access) &&
	jwt_payload "$real" | jq -cj ".exp += 1000" >tampered.json &&
	TOKEN=${real%%.*}.$(b64url <tampered.json).${real##*.} &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'a token signed with another secret answers 401 10041' '
	TOKEN=$(jwt_make sha256 "$HS256" "$(claims access 600)" "$OTHER_SECRET") &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'an unsigned token with alg "none" answers 401 10041' '
	h=$(printf "%s" "{\"alg\":\"none\",\"typ\":\"JWT\"}" | b64url) &&
	p=$(claims access 600 | b64url) &&
	TOKEN=$h.$p. &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'a token with alg "HS512" signed with the right secret answers 401 10041' '
	TOKEN=$(jwt_make sha512 "{\"alg\":\"HS512\",\"typ\":\"JWT\"}" "$(claims access 600)" "$SECRET") &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'a token with scope other than "lin" answers 401 10041' '
	TOKEN=$(jwt_make sha256 "$HS256" "$(claims access 600 | sed "s/\"lin\"/\"cms\"/")" "$SECRET") &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'a token whose identity is the string "1" answers 401 10041' '
	TOKEN=$(jwt_make sha256 "$HS256" "$(claims access 600 | sed "s/\"identity\":1/\"identity\":\"1\"/")" "$SECRET") &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'a token without an exp claim answers 401 10041' '
	TOKEN=$(jwt_make sha256 "$HS256" "{\"identity\":1,\"scope\":\"lin\",\"type\":\"access\",\"ver\":0}" "$SECRET") &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'a token without a ver claim answers 401 10041, though root is at version 0' '
	TOKEN=$(jwt_make sha256 "$HS256" "$(claims access 600 | jq -c "del(.ver)")" "$SECRET") &&
	jwt_payload "$TOKEN" | jq -e "has(\"ver\") | not" &&
	expect_db "SELECT credential_version FROM lin_user WHERE id = 1" 0 &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'an expired access token answers 401 10051 "access token 过期"' '
	TOKEN=$(jwt_make sha256 "$HS256" "$(claims access -3600)" "$SECRET") &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10051 &&
	expect_json .message "access token 过期" &&
	expect_json .request "GET /cms/user/information"
'

test_expect_success 'the doc/api.md §3 example: GET /cms/admin/group/all with an expired token, whole body' '
	cat >expected.json <<-\EOF &&
	{"code":10051,"message":"access token 过期","request":"GET /cms/admin/group/all"}
	EOF
	TOKEN=$(jwt_make sha256 "$HS256" "$(claims access -3600)" "$SECRET") &&
	http GET /cms/admin/group/all &&
	expect_status 401 &&
	expect_body_file expected.json
'

test_expect_success 'a refresh token used as an access token answers 401 10041' '
	as refresh &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'GET /cms/user/refresh without a header answers 401 10012' '
	http GET /cms/user/refresh &&
	expect_status 401 &&
	expect_json .code 10012
'

test_expect_success 'GET /cms/user/refresh with an access token answers 401 10042 with its text' '
	as access &&
	http GET /cms/user/refresh &&
	expect_status 401 &&
	expect_json .code 10042 &&
	expect_json .message "refresh token 损坏" &&
	expect_json .request "GET /cms/user/refresh"
'

test_expect_success 'GET /cms/user/refresh with a garbage token answers 401 10042' '
	TOKEN=garbage.garbage.garbage &&
	http GET /cms/user/refresh &&
	expect_status 401 &&
	expect_json .code 10042
'

test_expect_success 'GET /cms/user/refresh with a refresh token signed with another secret answers 401 10042' '
	TOKEN=$(jwt_make sha256 "$HS256" "$(claims refresh 600)" "$OTHER_SECRET") &&
	http GET /cms/user/refresh &&
	expect_status 401 &&
	expect_json .code 10042
'

test_expect_success 'GET /cms/user/refresh with an expired refresh token answers 401 10052 with its text' '
	TOKEN=$(jwt_make sha256 "$HS256" "$(claims refresh -60)" "$SECRET") &&
	http GET /cms/user/refresh &&
	expect_status 401 &&
	expect_json .code 10052 &&
	expect_json .message "refresh token 过期"
'

test_expect_success 'GET /cms/user/refresh with the refresh token answers 200 and exactly a new pair' '
	as refresh &&
	http GET /cms/user/refresh &&
	expect_status 200 &&
	expect_json "keys | join(\",\")" "access_token,refresh_token" &&
	keep new_access "$(jq -r .access_token body)" &&
	keep new_refresh "$(jq -r .refresh_token body)" &&
	test -n "$(kept new_access)" &&
	test -n "$(kept new_refresh)"
'

test_expect_success 'the new access token from the refresh is accepted on a login route' '
	as new_access &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .username root
'

test_expect_success 'the new refresh token from the refresh is accepted by GET /cms/user/refresh' '
	as new_refresh &&
	http GET /cms/user/refresh &&
	expect_status 200 &&
	expect_json ".access_token | type" string
'

test_expect_success 'the new access token is still refused by GET /cms/user/refresh (10042)' '
	as new_access &&
	http GET /cms/user/refresh &&
	expect_status 401 &&
	expect_json .code 10042
'

test_done
