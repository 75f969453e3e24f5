#!/bin/sh
test_description='cms-fcgi --backup while a writer POSTs books and uploads files, then --restore into a fresh database and file store: every book acknowledged before the backup began is there, every lin_file row has its file with its SHA-256, the row counts are the manifest'"'"'s, and the restored service logs root in with the old password and serves the files at the same URLs'
. "$(dirname "$0")/lib.sh"

command -v mariadb-dump >/dev/null 2>&1 || skip_all "mariadb-dump is not installed (scripts/install-deps)"

start_db --private
start_app
start_nginx

RESTORED=restored_$$
# A writer still running when a check fails stops with the file.
test_atexit 'touch "$TRASH/stop"'

# The writer: POSTs a book, and every third time uploads a file of its own content, until
# $TRASH/stop exists. Each acknowledged title goes to acked.log after its 201 (so a title there
# was acknowledged before the line was written); each request's time to answer to times.log.
writer () {
	local i=0 url=http://127.0.0.1:$HTTP_PORT code
	while [ ! -e "$TRASH/stop" ]; do
		i=$((i + 1))
		code=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' -H "Authorization: Bearer $TOKEN" \
			-H 'Content-Type: application/json' \
			-d "{\"title\":\"w$i\",\"author\":\"a\",\"summary\":\"s\",\"image\":\"i\"}" "$url/v1/book")
		echo "$code" >>"$TRASH/times.log"
		[ "${code%% *}" != 201 ] || echo "w$i" >>"$TRASH/acked.log"
		if [ $((i % 3)) = 0 ]; then
			png "upload $i" >"$TRASH/w.png"
			curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -H "Authorization: Bearer $TOKEN" \
				-F "file=@$TRASH/w.png" "$url/cms/file" >>"$TRASH/times.log"
		fi
	done
}

# True once the writer has had more than $1 books acknowledged.
acked_more_than () {
	test "$(wc -l <"$TRASH/acked.log")" -gt "$1"
}

test_expect_success 'setup: 20000 books, a few files, root logged in' '
	db_exec "INSERT INTO book (title, author, summary, image)
		SELECT CONCAT(\"pre\", seq), \"a\", \"s\", \"i\" FROM seq_1_to_20000" &&
	remember root "$ROOT_PASSWORD" &&
	png "first file" >first.png &&
	http POST /cms/file "" -F file=@first.png &&
	expect_status 200 &&
	jq -r ".[0].url" body >first.url
'

test_expect_success 'the backup runs to the end while the writer POSTs books and files' '
	as root &&
	: >acked.log && : >times.log &&
	{ writer & echo $! >writer.pid; } &&
	poll_until 100 test -s acked.log &&
	cp acked.log acked-before &&
	"$APP_BIN" -c "$TRASH/cms.conf" --backup "$TRASH/backups" >archive.path 2>backup.err &&
	lines=$(wc -l <acked.log) &&
	poll_until 100 acked_more_than "$((lines + 2))" &&
	touch stop &&
	svc_wait_gone "$(cat writer.pid)" 100 &&
	test "$(wc -l <acked-before)" -gt 0 &&
	test -s "$(cat archive.path)"
'
sort -k2 -n "$TRASH/times.log" 2>/dev/null | tail -n 1 | sed 's/^/slowest write while the backup ran: status, seconds: /' | say_diag

test_expect_success 'the archive is mode 0600, alone in the backup directory (nothing partial left)' '
	test "$(stat -c %a "$(cat archive.path)")" = 600 &&
	test "$(ls -A backups)" = "$(basename "$(cat archive.path)")"
'

test_expect_success 'the manifest names the versions, the time and a SHA-256 of every member' '
	tar -xOf "$(cat archive.path)" manifest.json >manifest.json &&
	jq -e ".format == \"cms-fcgi-backup 1\" and (.schema_version | type == \"number\")
		and (.cms_fcgi_version | length > 0) and (.time | test(\"^[0-9-]+T[0-9:]+Z$\"))" manifest.json &&
	tar -tf "$(cat archive.path)" | grep -v "^manifest" | sort >members &&
	jq -r ".members | keys[]" manifest.json | sort >listed &&
	cmp members listed
'

# The account here has no password (t/0622 checks one that has).
test_expect_success 'the archive does not hold the JWT secret' '
	secret=$(sed -n "s/^jwt_secret = //p" cms.conf) &&
	test -n "$secret" &&
	! grep -a -q "$secret" "$(cat archive.path)"
'

test_expect_success 'the restore into an empty database and file store succeeds' '
	svc_sql "$DB_SOCKET" -e "CREATE DATABASE $RESTORED" &&
	sed -e "s|^db_name = .*|db_name = $RESTORED|" -e "s|^file_store_dir = .*|file_store_dir = $TRASH/assets2|" \
		cms.conf >restored.conf &&
	echo "sql_dir = $TOP/sql" >>restored.conf &&
	"$APP_BIN" -c restored.conf --restore "$(cat archive.path)" >restore.out 2>&1 &&
	grep -q "restore: done" restore.out
'

restored () {
	svc_sql "$DB_SOCKET" -N -B "$RESTORED" -e "$1"
}

test_expect_success 'every book acknowledged before the backup began is restored' '
	restored "SELECT title FROM book WHERE delete_time IS NULL" | sort >restored-titles &&
	sort acked-before >before &&
	test -z "$(comm -23 before restored-titles)" &&
	test "$(restored "SELECT COUNT(*) FROM book WHERE title LIKE \"pre%\"")" = 20000
'

test_expect_success 'every lin_file row names a restored file with the SHA-256 of its row' '
	restored "SELECT path, sha256 FROM lin_file" >rows &&
	test -s rows &&
	while read -r path sha; do
		test -f "assets2/$path" &&
		test "$(sha256sum <"assets2/$path" | cut -d" " -f1)" = "$sha" || {
			echo "row of $path: file missing or different" >&2
			exit 1
		}
	done <rows &&
	! grep -q "neither in the archive" restore.out
'

test_expect_success 'restored files are 0644 and their directories 0755, as uploads are stored' '
	test -z "$(find assets2 -type f ! -perm 0644)" &&
	test -z "$(find assets2 -type d ! -perm 0755)" &&
	test -n "$(find assets2 -type f)"
'

test_expect_success 'the row count of every table equals the manifest'"'"'s' '
	jq -r ".tables | to_entries[] | \"\(.key) \(.value)\"" manifest.json >counts &&
	test -s counts &&
	while read -r table n; do
		test "$(restored "SELECT COUNT(*) FROM \`$table\`")" = "$n" || {
			echo "$table: manifest $n, restored $(restored "SELECT COUNT(*) FROM \`$table\`")" >&2
			exit 1
		}
	done <counts
'

test_expect_success 'no staging database and no scratch directory are left behind' '
	test -z "$(svc_sql "$DB_SOCKET" -N -B -e "SHOW DATABASES LIKE \"${RESTORED}_%\"")" &&
	test -z "$(ls -A "$TRASH" | grep "^\.cms-restore-")"
'

# The pool and nginx again, on the restored database and file store.
stop_app
svc_nginx_stop "$TRASH/nginx" || bail_out "nginx did not stop"
DB_NAME=$RESTORED
start_app "file_store_dir=$TRASH/assets2"
start_nginx

test_expect_success 'root logs in to the restored service with the old password' '
	login root "$ROOT_PASSWORD"
'

test_expect_success 'a file uploaded before the backup is served at the same URL' '
	http GET "/$(sed "s|^http://[^/]*/||" first.url)" &&
	expect_status 200 &&
	cmp body first.png
'

test_done
