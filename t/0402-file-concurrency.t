#!/bin/sh
test_description='POST /cms/file against other writers: an upload that loses the sha256_live key to a concurrent one answers the winner row and removes its copy; a failed transaction leaves no file'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

# The failed-transaction test makes the app log an error on purpose.
allow_app_errors

files_on_disk () {
	find "$FILE_STORE_DIR" -type f 2>/dev/null | wc -l
}

one_lock_wait () {
	test "$(transactions "t.trx_state = \"LOCK WAIT\"")" -eq 1
}

test_expect_success 'setup: root logs in' '
	remember root "$ROOT_PASSWORD"
'

# Another writer inserts the row of the same content and holds its transaction open: the upload
# finds no live row, writes its file, and its insert waits on the sha256_live key until the other
# commits, then fails with a duplicate key.
test_expect_success 'an upload that loses the sha256_live key answers the winner row' '
	as root &&
	png contended >race.png &&
	md5=$(md5sum race.png | cut -d" " -f1) &&
	sha256=$(sha256sum race.png | cut -d" " -f1) &&
	mkfifo sql.fifo &&
	{ svc_sql "$DB_SOCKET" "$DB_NAME" <sql.fifo >other.out 2>&1 & } &&
	other=$! &&
	exec 3>sql.fifo &&
	echo "BEGIN; INSERT INTO lin_file (path, name, extension, size, md5, sha256)
		VALUES (\"2000/01/01/winner.png\", \"winner.png\", \".png\", 9, \"$md5\", \"$sha256\");" >&3 &&
	poll_until 50 one_open_transaction &&
	{ http POST /cms/file "" -F file=@race.png & } &&
	upload=$! &&
	poll_until 50 one_lock_wait &&
	test "$(files_on_disk)" -eq 1 &&
	echo "COMMIT;" >&3 &&
	exec 3>&- &&
	wait $upload &&
	wait $other &&
	expect_status 200 &&
	expect_json ".[0].path" 2000/01/01/winner.png &&
	expect_json ".[0].id" "$(db_exec "SELECT id FROM lin_file WHERE md5 = \"$md5\"")" &&
	expect_json ".[0].url" "http://127.0.0.1:$HTTP_PORT/assets/2000/01/01/winner.png"
'

test_expect_success 'the losing upload removed the file it wrote' '
	test "$(files_on_disk)" -eq 0
'

test_expect_success 'the losing upload added no row' '
	expect_db "SELECT COUNT(*) FROM lin_file" 1
'

test_expect_success 'concurrent uploads of the same new content answer one id and leave one file' '
	as root &&
	png together >together.png &&
	pids= &&
	for i in 1 2 3 4 5 6; do
		{ curl --silent --max-time 10 -H "Authorization: Bearer $TOKEN" -F file=@together.png \
			--output "together.$i.body" --dump-header "together.$i.headers" \
			--write-out "%{http_code}\n" "http://127.0.0.1:$HTTP_PORT/cms/file" \
			>"together.$i.status" & } &&
		pids="$pids $!" || return 1
	done &&
	for p in $pids; do wait $p || return 1; done &&
	for i in 1 2 3 4 5 6; do check_openapi POST /cms/file "together.$i" || return 1; done &&
	jq -s -e "map(.[0].id) | unique | length == 1" together.1.body together.2.body together.3.body \
		together.4.body together.5.body together.6.body &&
	expect_db "SELECT COUNT(*) FROM lin_file WHERE sha256 = \"$(sha256sum together.png | cut -d" " -f1)\"" 1 &&
	test "$(files_on_disk)" -eq 1
'

# The trigger refuses the second of two new rows, so the first one was written and inserted
# when the transaction fails.
test_expect_success 'setup: a trigger makes inserts of 13-byte files fail' '
	db_exec "CREATE TRIGGER lin_file_refuse BEFORE INSERT ON lin_file FOR EACH ROW
		SET NEW.name = IF(NEW.size = 13, NULL, NEW.name)"
'

test_expect_success 'a failed transaction answers 500 with code 9999' '
	as root &&
	png abc >three.png &&
	png abcde >five.png &&
	http POST /cms/file "" -F file_0=@three.png -F file_1=@five.png &&
	expect_status 500 &&
	expect_json .code 9999
'

test_expect_success 'a failed transaction leaves neither its files nor its rows' '
	test "$(files_on_disk)" -eq 1 &&
	expect_db "SELECT COUNT(*) FROM lin_file WHERE size IN (11, 13)" 0
'

test_expect_success 'the same upload succeeds once the trigger is gone' '
	as root &&
	db_exec "DROP TRIGGER lin_file_refuse" &&
	http POST /cms/file "" -F file_0=@three.png -F file_1=@five.png &&
	expect_status 200 &&
	test "$(files_on_disk)" -eq 3
'

test_done
