#!/bin/sh
test_description='races decided by row locks: a login against a password change, a registration against a taken name or email, a group delete against a regroup into it'
. "$(dirname "$0")/lib.sh"

start_db
# A request here waits on a row lock until the test releases it. How long that takes depends on
# the machine's load (each step runs a client), so the wait must never meet a bound of the app:
# db_read_timeout at its most (the server's innodb_lock_wait_timeout, 50 s, is the bound), not
# the default 5 s, which a loaded machine overran (a 503 instead of the answer under test).
start_app db_read_timeout=300
start_nginx

USER_PASSWORD=User_pass1

# The second session of t/lib/locks.sh plays the concurrent writer; requests run in the background
# (`send NAME ...`).

# send NAME METHOD PATH [BODY]: starts the request in the background (with $TOKEN as Bearer token);
# `answer NAME` collects it.
send () {
	local name=$1 method=$2 path=$3 body=${4-}
	set -- --request "$method"
	[ -z "$body" ] || set -- "$@" -H "Content-Type: application/json" --data-raw "$body"
	[ -z "${TOKEN:-}" ] || set -- "$@" -H "Authorization: Bearer $TOKEN"
	rm -f "$name.status" "$name.headers" "$name.body"
	echo "$method $path" >"$name.request"
	curl --silent --show-error --max-time 60 --globoff --output "$name.body" \
		--dump-header "$name.headers" --write-out '%{http_code}\n' "$@" \
		"http://127.0.0.1:$HTTP_PORT$path" >"$name.status" 2>"$name.err" 9>&- &
	echo $! >"$name.job"
}

# answer NAME: waits (at most 30 s: a bound, not an expectation) for request NAME to end and shows
# its answer.
answer () {
	svc_wait_gone "$(cat "$1.job")" 300 &&
	rm "$1.job" &&
	show "$1"
}

# show NAME: makes the answer of request NAME the one that expect_status and expect_json check,
# once it matches doc/openapi.yaml.
show () {
	check_openapi $(cat "$1.request") "$1" &&
	cp "$1.status" status &&
	cp "$1.headers" headers &&
	cp "$1.body" body
}

# waiting_or_done N NAME: N transactions wait for a lock, or request NAME has ended without waiting.
waiting_or_done () {
	test "$(lock_waits)" -eq "$1" || ! svc_alive "$(cat "$2.job")"
}

# note_waits: keeps the number of lock waits (before a release) for expect_waited.
note_waits () {
	lock_waits >waits
}

# expect_waited N: note_waits saw N requests waiting for a lock.
expect_waited () {
	[ "$(cat waits)" = "$1" ] && return 0
	echo "expected $1 request(s) waiting for a row lock before the release, saw $(cat waits)" >&2
	return 1
}

register_body () {
	jq -nc --arg u "$1" --arg e "$2" --arg p "$USER_PASSWORD" \
		'{username: $u, email: $e, password: $p, confirm_password: $p}'
}

uid () {
	db_exec "SELECT id FROM lin_user WHERE username = '$1' AND delete_time IS NULL"
}

gid () {
	db_exec "SELECT id FROM lin_group WHERE name = '$1' AND delete_time IS NULL"
}

test_expect_success 'setup: root logs in and registers u1 to u4' '
	remember root "$ROOT_PASSWORD" &&
	for u in u1 u2 u3 u4; do
		http POST /cms/user/register "$(register_body $u $u@x.cn)" &&
		expect_status 201 || return 1
	done
'

# The login reads the committed credential version and hash, verifies the password against the
# old hash, then waits for the user row the password change holds.
test_expect_success 'a login that verified the password before a concurrent change answers 401 10031' '
	hold "UPDATE lin_user SET credential_version = credential_version + 1 WHERE username = \"u1\";" &&
	TOKEN= &&
	send login POST /cms/user/login "{\"username\":\"u1\",\"password\":\"$USER_PASSWORD\"}" &&
	poll_until 300 waiting_or_done 1 login &&
	note_waits &&
	release &&
	answer login &&
	expect_status 401 &&
	expect_json .code 10031 &&
	expect_waited 1
'

test_expect_success 'a login after the password change answers 200 with tokens' '
	login u1 "$USER_PASSWORD"
'

# The registration finds the name and email free in its snapshot; its insert waits on the unique
# key the other transaction holds, then hits the key that transaction took.
test_expect_success 'a registration losing the username to a concurrent insert answers 409 10071' '
	hold "INSERT INTO lin_user (username, email) VALUES (\"racer\", \"a@x.cn\");" &&
	as root &&
	send register POST /cms/user/register "$(register_body racer b@x.cn)" &&
	poll_until 300 waiting_or_done 1 register &&
	note_waits &&
	release &&
	answer register &&
	expect_status 409 &&
	expect_json .code 10071 &&
	expect_waited 1
'

test_expect_success 'the registration that lost the username added no user with its email' '
	expect_db "SELECT COUNT(*) FROM lin_user WHERE email = \"b@x.cn\"" 0
'

test_expect_success 'a registration losing the email to a concurrent insert answers 409 10076' '
	hold "INSERT INTO lin_user (username, email) VALUES (\"other\", \"same@x.cn\");" &&
	as root &&
	send register POST /cms/user/register "$(register_body racer2 same@x.cn)" &&
	poll_until 300 waiting_or_done 1 register &&
	note_waits &&
	release &&
	answer register &&
	expect_status 409 &&
	expect_json .code 10076 &&
	expect_waited 1
'

test_expect_success 'the registration that lost the email added no user' '
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username = \"racer2\"" 0
'

test_expect_success 'setup: root creates groups g1 to g4' '
	as root &&
	for g in g1 g2 g3 g4; do
		http POST /cms/admin/group "{\"name\":\"$g\"}" &&
		expect_status 201 || return 1
	done
'

test_expect_success 'a group delete waits for a lock on the group row, then answers 200 code 8' '
	hold "SELECT id FROM lin_group WHERE id = $(gid g1) FOR UPDATE;" &&
	as root &&
	send delete DELETE "/cms/admin/group/$(gid g1)" &&
	poll_until 300 waiting_or_done 1 delete &&
	note_waits &&
	release &&
	answer delete &&
	expect_status 200 &&
	expect_json .code 8 &&
	expect_waited 1
'

test_expect_success 'a regroup waits for a lock on the group row, then answers 200 code 6' '
	hold "SELECT id FROM lin_group WHERE id = $(gid g2) FOR UPDATE;" &&
	as root &&
	send regroup PUT "/cms/admin/user/$(uid u2)" "{\"group_ids\":[$(gid g2)]}" &&
	poll_until 300 waiting_or_done 1 regroup &&
	note_waits &&
	release &&
	answer regroup &&
	expect_status 200 &&
	expect_json .code 6 &&
	expect_waited 1
'

test_expect_success 'the regrouped user is in the group it was given' '
	expect_db "SELECT GROUP_CONCAT(group_id) FROM lin_user_group WHERE user_id = $(uid u2)" \
		"$(gid g2)"
'

# race GROUP USER FIRST SECOND: the second session locks GROUP; the delete of GROUP and the regroup
# of USER into it, queued in the order FIRST then SECOND, both wait for that lock; then it is
# released. Leaves delete.status and regroup.status.
race () {
	local group user r n=0
	group=$(gid "$1") &&
	user=$(uid "$2") &&
	hold "SELECT id FROM lin_group WHERE id = $group FOR UPDATE;" &&
	as root &&
	for r in "$3" "$4"; do
		n=$((n + 1)) &&
		case $r in
		delete) send delete DELETE "/cms/admin/group/$group" ;;
		regroup) send regroup PUT "/cms/admin/user/$user" "{\"group_ids\":[$group]}" ;;
		esac &&
		poll_until 300 waiting_or_done $n "$r" || return 1
	done &&
	note_waits &&
	release &&
	answer delete &&
	answer regroup
}

# expect_one_success: of the delete and the regroup of a race, exactly one answered 200.
expect_one_success () {
	[ "$(cat delete.status regroup.status | grep -c "^200$")" = 1 ] && return 0
	echo "expected one 200: the delete answered $(cat delete.status)," \
		"the regroup $(cat regroup.status)" >&2
	return 1
}

# expect_loser_refused: the request of a race that did not succeed answers why: the group was
# deleted (403 10077), or it has a member now (409 10027).
expect_loser_refused () {
	if [ "$(cat delete.status)" = 200 ]; then
		show regroup && expect_status 403 && expect_json .code 10077
	else
		show delete && expect_status 409 && expect_json .code 10027
	fi
}

# Links from users to deleted groups.
deleted_links='SELECT COUNT(*) FROM lin_user_group ug JOIN lin_group g ON g.id = ug.group_id
	WHERE g.delete_time IS NOT NULL'

test_expect_success 'of a group delete and a regroup into it queued behind it, exactly one succeeds' '
	race g3 u3 delete regroup &&
	expect_waited 2 &&
	expect_one_success
'

test_expect_success 'the request that lost the race queued delete first answers why it was refused' '
	expect_loser_refused
'

test_expect_success 'the race of a delete queued first leaves no user in a deleted group' '
	expect_db "$deleted_links" 0
'

test_expect_success 'of a regroup into a group and the group delete queued behind it, exactly one succeeds' '
	race g4 u4 regroup delete &&
	expect_waited 2 &&
	expect_one_success
'

test_expect_success 'the request that lost the race queued regroup first answers why it was refused' '
	expect_loser_refused
'

test_expect_success 'the race of a regroup queued first leaves no user in a deleted group' '
	expect_db "$deleted_links" 0
'

test_done
