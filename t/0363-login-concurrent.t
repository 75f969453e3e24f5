#!/bin/sh
test_description='concurrent password checks are counted one after another: 16 at once, from one address or from 16, for login or change_password, get at most login_captcha_after passwords checked, and the rest are asked the captcha'
. "$(dirname "$0")/lib.sh"

start_db
# One worker of 20 handler threads, so that 16 requests are in the database at once (a worker
# serves the connections nginx keeps to it, so with several, one could queue a request behind its
# own busy threads while another idles). The requests wait on row locks until the test releases
# them, however long a loaded machine takes to get there: the bound is the server's
# innodb_lock_wait_timeout (50 s), not the default db_read_timeout (5 s).
# The limits of the 429 are far away, so that every answer is a 401 (or 400 10032) or a captcha.
start_app workers=1 worker_threads=20 db_read_timeout=300 login_captcha_after=3 \
	login_max_failures=1000 login_address_max_failures=1000 login_username_max_failures=1000
start_nginx

USER_PASSWORD=User_pass1
N=16

# The barrier (t/lib/locks.sh): a second session holds the locks of every row and gap of
# cms_login_failure, so that no failure of the requests below can be recorded until it commits.
# Every request then waits on a row lock: today's code on recording its failure, after it has
# counted and checked its password; a check that must count the failures committed before it, on
# the lock of the one before it. The test releases only once all 16 wait, so however the
# requests interleave before and after, all 16 overlap.

all_wait () {
	test "$(lock_waits)" -eq "$N"
}

# wrong_logins USERNAME ADDRESS: N wrong logins of USERNAME in the background, from 127.0.0.ADDRESS
# (many: the i-th from 127.0.0.(100 + i)), then waits until all N wait on the barrier.
wrong_logins () {
	local i=1
	while [ $i -le $N ]; do
		send $i "$([ "$2" = many ] && echo $((100 + i)) || echo "$2")" POST /cms/user/login \
			"$(login_body "$1" Wrong_pass9)" || return 1
		i=$((i + 1))
	done &&
	poll_until 600 all_wait
}

# send I ADDRESS METHOD PATH BODY [CURL_ARGS...]: request I in the background from 127.0.0.ADDRESS.
send () {
	local i=$1 n=$2 method=$3 path=$4 body=$5
	shift 5
	rm -f "r$i.status" "r$i.headers" "r$i.body"
	echo "$method $path" >"r$i.request"
	curl --silent --show-error --max-time 120 --interface "127.0.0.$n" --request "$method" \
		-H "Content-Type: application/json" --data-raw "$body" "$@" \
		--output "r$i.body" --dump-header "r$i.headers" --write-out '%{http_code}\n' \
		"http://127.0.0.1:$HTTP_PORT$path" >"r$i.status" 2>"r$i.err" 9>&- &
	echo $! >"r$i.job"
}

# collect: waits for the 16 answers, checks each against doc/openapi.yaml, and writes one line
# "STATUS CODE" per answer, sorted, to answers.
collect () {
	local i=1
	: >answers
	while [ $i -le $N ]; do
		svc_wait_gone "$(cat "r$i.job")" 1200 &&
		rm "r$i.job" &&
		check_openapi $(cat "r$i.request") "r$i" &&
		echo "$(cat "r$i.status") $(jq -r .code "r$i.body")" >>answers || return 1
		i=$((i + 1))
	done
	sort answers -o answers
}

# expect_answers CHECKED CODE: at most 3 answers are CHECKED ("401 10031": a password was
# checked), and every other one is the captcha refusal, 400 10260.
expect_answers () {
	local checked others
	checked=$(grep -cx "$1" answers)
	others=$(grep -cvx "$1" answers)
	if [ "$checked" -le 3 ] && [ "$(grep -cx "400 10260" answers)" -eq "$others" ] &&
		[ "$((checked + others))" -eq "$N" ]; then
		return 0
	fi
	echo "expected at most 3 answers '$1' and the rest '400 10260'; got:" >&2
	uniq -c answers >&2
	return 1
}

login_body () {
	jq -nc --arg u "$1" --arg p "$2" '{username: $u, password: $p}'
}

test_expect_success 'setup: root registers alice, bob and carol; carol logs in' '
	login root "$ROOT_PASSWORD" &&
	for u in alice bob carol; do
		http POST /cms/user/register "{\"username\":\"$u\",\"password\":\"$USER_PASSWORD\",
			\"confirm_password\":\"$USER_PASSWORD\"}" &&
		expect_status 201 || return 1
	done &&
	remember carol "$USER_PASSWORD"
'

test_expect_success '16 concurrent wrong logins of alice from one address: at most 3 checked (401), the rest asked the captcha' '
	hold "SELECT COUNT(*) FROM cms_login_failure FOR UPDATE;" &&
	wrong_logins alice 2 &&
	release &&
	collect &&
	expect_answers "401 10031"
'

test_expect_success 'each of the 16 is counted: alice has 16 failures from 127.0.0.2' '
	expect_db "SELECT COUNT(*) FROM cms_login_failure WHERE address = \"127.0.0.2\" AND username =
		(SELECT CONCAT(\"(the account of user id \", id, \")\") FROM lin_user WHERE username = \"alice\")" 16
'

test_expect_success '16 concurrent wrong logins of bob from 16 addresses: at most 3 checked (401), the rest asked the captcha' '
	hold "SELECT COUNT(*) FROM cms_login_failure FOR UPDATE;" &&
	wrong_logins bob many &&
	release &&
	collect &&
	expect_answers "401 10031"
'

test_expect_success '16 concurrent wrong old passwords of carol from one address: at most 3 checked (400 10032), the rest asked the captcha' '
	hold "SELECT COUNT(*) FROM cms_login_failure FOR UPDATE;" &&
	i=1 &&
	while [ $i -le $N ]; do
		send $i 3 PUT /cms/user/change_password "$(jq -nc \
			"{old_password: \"Wrong_old9\", new_password: \"New_pass2\", confirm_password: \"New_pass2\"}")" \
			-H "Authorization: Bearer $(kept carol)" || return 1
		i=$((i + 1))
	done &&
	poll_until 600 all_wait &&
	release &&
	collect &&
	expect_answers "400 10032"
'

test_expect_success 'carol'\''s password is unchanged: with her failures forgotten, it logs in' '
	db_exec "DELETE FROM cms_login_failure" &&
	http POST /cms/user/login "$(login_body carol "$USER_PASSWORD")" --interface 127.0.0.4 &&
	expect_status 200
'

test_done
