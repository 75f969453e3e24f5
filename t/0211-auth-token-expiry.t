#!/bin/sh
test_description='the expiry boundary through the server: an access token whose exp is the current second is refused (10051), one expiring a second later is accepted'
. "$(dirname "$0")/lib.sh"

SECRET=t0211-secret-3c9e71b0d2f84a56e8c1b7d04f92a6e3

start_db
start_app jwt_secret=$SECRET
start_nginx

# expiring EXP: root's access token (user 1, credential version 0) with exp EXP, signed with the
# test's secret as the app signs its own.
expiring () {
	printf '{"identity":1,"scope":"lin","type":"access","iat":%s,"exp":%s,"ver":0}' \
		$(($1 - 3600)) "$1" | jwt_sign "$SECRET"
}

# in_one_second OFFSET: GET /cms/user/information with a token expiring OFFSET seconds after the
# second it is made in. Succeeds when the server can only have read the clock in that same second
# (the test's clock read the same second before and after): then the answer in $TRASH tells
# exactly how the server compares exp with now. The machine's speed decides how often that
# happens, never what the answer must be; next_second makes it the rule.
in_one_second () {
	local before after
	next_second &&
	before=$(date +%s) &&
	TOKEN=$(expiring $((before + $1))) &&
	http GET /cms/user/information &&
	after=$(date +%s) &&
	test "$after" -eq "$before"
}

# The crafting itself is checked first, far from the boundary.
test_expect_success 'a token crafted with the test secret, expiring in an hour, is accepted' '
	TOKEN=$(expiring $(($(date +%s) + 3600))) &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .id 1
'

# Whatever second the server reads, it is at least exp: refused every time. Tries until one
# request fell within the second of its exp, where a comparison exp < now would accept it.
test_expect_success 'a token whose exp is the current second is refused with 401 10051' '
	i=0 &&
	until in_one_second 0; do
		expect_status 401 &&
		expect_json .code 10051 &&
		i=$((i + 1)) &&
		test $i -lt 30 || return 1
	done &&
	expect_status 401 &&
	expect_json .code 10051 &&
	expect_json .message "access token 过期"
'

# Only a request within that second says anything: one that straddled the next second may
# rightly be refused, so it is tried again.
test_expect_success 'a token expiring one second after the current second is accepted' '
	i=0 &&
	until in_one_second 1; do
		i=$((i + 1)) &&
		test $i -lt 30 || return 1
	done &&
	expect_status 200 &&
	expect_json .id 1
'

test_done
