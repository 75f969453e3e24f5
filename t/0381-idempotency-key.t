#!/bin/sh
test_description='Idempotency-Key on POST: the same key and user within 24 h gets the first answer again and creates nothing; a key is recorded only with its committed change (t/0382: what public routes do with it, and what is stored)'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

PASS=Idem_pass1
BOOK='{"title":"Dune","author":"Herbert","summary":"Spice"}'

books () {
	db_exec "SELECT COUNT(*) FROM book WHERE delete_time IS NULL"
}

keys () {
	db_exec "SELECT COUNT(*) FROM cms_idempotency"
}

test_expect_success 'setup: root and a second user log in' '
	remember root "$ROOT_PASSWORD" &&
	as root &&
	http POST /cms/user/register "{\"username\":\"other\",\"password\":\"$PASS\",\"confirm_password\":\"$PASS\"}" &&
	expect_status 201 &&
	remember other "$PASS"
'

test_expect_success 'a keyed POST creates its book and answers as usual' '
	as root &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: book-1" &&
	expect_status 201 &&
	expect_json .code 1 &&
	cp body first.json &&
	test "$(books)" -eq 1 &&
	! grep -qi "^Idempotent-Replayed" headers
'

test_expect_success 'the same key again gets the first answer, marked replayed, and creates nothing' '
	as root &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: book-1" &&
	expect_status 201 &&
	cmp first.json body &&
	expect_header Idempotent-Replayed "^true$" &&
	test "$(books)" -eq 1
'

test_expect_success 'the key in structured-field quotes is the same key' '
	as root &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: \"book-1\"" &&
	expect_status 201 &&
	expect_header Idempotent-Replayed "^true$" &&
	test "$(books)" -eq 1
'

test_expect_success 'the same key with another body is refused with 422 and code 10391' '
	as root &&
	http POST /v1/book "{\"title\":\"Emma\",\"author\":\"Austen\",\"summary\":\"S\"}" -H "Idempotency-Key: book-1" &&
	expect_status 422 &&
	expect_json .code 10391 &&
	test "$(books)" -eq 1
'

test_expect_success 'the same key on another route is refused with 422' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"g1\"}" -H "Idempotency-Key: book-1" &&
	expect_status 422 &&
	expect_json .code 10391 &&
	expect_db "SELECT COUNT(*) FROM lin_group WHERE name = \"g1\"" 0
'

test_expect_success 'keys are per user: another user with the same key creates its own book' '
	as other &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: book-1" &&
	expect_status 201 &&
	! grep -qi "^Idempotent-Replayed" headers &&
	test "$(books)" -eq 2
'

test_expect_success 'without a key, two POSTs create two books' '
	as root &&
	http POST /v1/book "$BOOK" &&
	expect_status 201 &&
	http POST /v1/book "$BOOK" &&
	expect_status 201 &&
	test "$(books)" -eq 4
'

test_expect_success 'a key of 101 characters is refused with 400 and code 10390, nothing created' '
	as root &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: $(printf "%0101d" 0)" &&
	expect_status 400 &&
	expect_json .code 10390 &&
	test "$(books)" -eq 4
'

test_expect_success 'a key of 100 characters is taken' '
	as root &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: $(printf "%0100d" 0)" &&
	expect_status 201 &&
	test "$(books)" -eq 5
'

test_expect_success 'a key with a backslash is refused with 400 and code 10390' '
	as root &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: a\\b" &&
	expect_status 400 &&
	expect_json .code 10390
'

test_expect_success 'a refused request does not record its key: the key stays free' '
	as root &&
	http POST /v1/book "{\"title\":\"\"}" -H "Idempotency-Key: fixed-later" &&
	expect_status 400 &&
	expect_db "SELECT COUNT(*) FROM cms_idempotency WHERE idem_key = \"fixed-later\"" 0 &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: fixed-later" &&
	expect_status 201 &&
	! grep -qi "^Idempotent-Replayed" headers &&
	test "$(books)" -eq 6
'

test_expect_success 'a key older than 24 hours is forgotten: the POST runs again' '
	db_exec "UPDATE cms_idempotency SET create_time = NOW(3) - INTERVAL 25 HOUR
		WHERE idem_key = \"book-1\" AND user_id = 1" &&
	as root &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: book-1" &&
	expect_status 201 &&
	! grep -qi "^Idempotent-Replayed" headers &&
	test "$(books)" -eq 7
'

test_expect_success 'expired keys are deleted by the next keyed POST, of any user' '
	db_exec "UPDATE cms_idempotency SET create_time = NOW(3) - INTERVAL 25 HOUR
		WHERE idem_key = \"fixed-later\" AND user_id = 1" &&
	expect_db "SELECT COUNT(*) FROM cms_idempotency WHERE idem_key = \"fixed-later\"" 1 &&
	as other &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: prune-1" &&
	expect_status 201 &&
	expect_db "SELECT COUNT(*) FROM cms_idempotency WHERE idem_key = \"fixed-later\"" 0
'

test_expect_success 'PUT ignores the header' '
	n=$(keys) &&
	as root &&
	id=$(db_exec "SELECT MIN(id) FROM book") &&
	http PUT /v1/book/$id "$BOOK" -H "Idempotency-Key: put-1" &&
	expect_status 200 &&
	test "$(keys)" -eq "$n"
'

test_expect_success 'an upload with the same key in a new multipart encoding is replayed' '
	as root &&
	printf "\211PNG\r\n\032\nidempotent upload" >up.png &&
	http POST /cms/file "" -F file=@up.png -H "Idempotency-Key: up-1" &&
	expect_status 200 &&
	cp body up.json &&
	http POST /cms/file "" -F file=@up.png -H "Idempotency-Key: up-1" &&
	expect_status 200 &&
	expect_header Idempotent-Replayed "^true$" &&
	cmp up.json body
'

test_expect_success 'another file with the same key is refused with 422, not answered with the first' '
	as root &&
	printf "\211PNG\r\n\032\nanother upload" >other.png &&
	http POST /cms/file "" -F file=@other.png -H "Idempotency-Key: up-1" &&
	expect_status 422 &&
	expect_json .code 10391
'

# Another session holds the key in an open transaction, as a concurrent request with it that has
# not committed yet: the POST answers 409 at once, and after the commit gets what was stored. The
# fingerprint is keyed by the server's secret: it is taken from a first POST of the same book.
test_expect_success 'while the first request with the key runs, the same key answers 409 and code 10392' '
	as root &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: race-seed" &&
	expect_status 201 &&
	print=$(db_exec "SELECT fingerprint FROM cms_idempotency WHERE user_id = 1 AND idem_key = \"race-seed\"") &&
	mkfifo sql.fifo &&
	{ svc_sql "$DB_SOCKET" "$DB_NAME" <sql.fifo >other.out 2>&1 & } &&
	other=$! &&
	exec 3>sql.fifo &&
	echo "BEGIN; INSERT INTO cms_idempotency (user_id, idem_key, fingerprint, status, body)
		VALUES (1, \"race-1\", \"$print\", 201,
		\"{\\\"code\\\":1,\\\"message\\\":\\\"first\\\",\\\"request\\\":\\\"POST /v1/book\\\"}\");" >&3 &&
	poll_until 50 one_open_transaction &&
	n=$(books) &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: race-1" &&
	expect_status 409 &&
	expect_json .code 10392 &&
	test "$(books)" -eq "$n" &&
	echo "COMMIT;" >&3 &&
	exec 3>&- &&
	wait $other &&
	http POST /v1/book "$BOOK" -H "Idempotency-Key: race-1" &&
	expect_status 201 &&
	expect_header Idempotent-Replayed "^true$" &&
	expect_json .message first &&
	test "$(books)" -eq "$n"
'

test_expect_success 'concurrent requests with one new key create one book' '
	as root &&
	n=$(books) &&
	pids= &&
	for i in 1 2 3 4 5 6; do
		{ curl --silent --max-time 20 -H "Authorization: Bearer $TOKEN" \
			-H "Content-Type: application/json" -H "Idempotency-Key: many-1" --data-raw "$BOOK" \
			--output "many.$i" --write-out "%{http_code}\n" "http://127.0.0.1:$HTTP_PORT/v1/book" >"many.$i.status" & } &&
		pids="$pids $!" || return 1
	done &&
	for p in $pids; do wait $p || return 1; done &&
	cat many.*.status | sort -u >statuses &&
	grep -qx 201 statuses &&
	! grep -vx -e 201 -e 409 statuses &&
	test "$(books)" -eq $((n + 1))
'

test_done
