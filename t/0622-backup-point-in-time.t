#!/bin/sh
test_description='make backup and make restore UNTIL=... (scripts/backup, scripts/restore) on the make run instance: books written, a backup, more books and a file, every book deleted at T, one more book; the restore up to T minus one second gives back every book, those written after the backup included, and their files, without the deletion or the last book'
. "$(dirname "$0")/lib.sh"

command -v mariadb-binlog >/dev/null 2>&1 || skip_all "mariadb-binlog is not installed (scripts/install-deps)"

use_make_run

# The live books' titles of the make run database, sorted.
live_titles () {
	svc_sql "$CMS_VAR_DIR/db.sock" -N -B cms -e "SELECT title FROM book WHERE delete_time IS NULL ORDER BY title"
}

# post_book TITLE: a new book through the API; 201.
post_book () {
	http POST /v1/book "{\"title\":\"$1\",\"author\":\"a\",\"summary\":\"s\",\"image\":\"i\"}" &&
	expect_status 201
}

test_expect_success 'setup: make run, root logged in, three books and a file' '
	CMS_HTTP_PORT=$HTTP_PORT CMS_FCGI_PORT=$FCGI_PORT CMS_DB_PORT=$DB_PORT \
		"$TOP/scripts/run" >run.out 2>&1 &&
	remember root "$(cat "$CMS_VAR_DIR/root-password")" &&
	post_book before-1 && post_book before-2 && post_book before-3 &&
	png "before the backup" >before.png &&
	http POST /cms/file "" -F file=@before.png &&
	expect_status 200
'

test_expect_success 'make backup writes one archive under var/backups/ and prints its path' '
	"$TOP/scripts/backup" >backup.path 2>backup.err &&
	test "$(wc -l <backup.path)" = 1 &&
	case $(cat backup.path) in "$CMS_VAR_DIR"/backups/cms-backup-*.tar) ;; *) false ;; esac &&
	test "$(stat -c %a "$(cat backup.path)")" = 600 &&
	tar -xOf "$(cat backup.path)" manifest.json | jq -e ".binlog.file | length > 0"
'

test_expect_success 'the archive holds neither the JWT secret nor the database password of var/cms.conf' '
	for key in jwt_secret db_password; do
		secret=$(sed -n "s/^$key = //p" "$CMS_VAR_DIR/cms.conf") &&
		test -n "$secret" &&
		! grep -a -q "$secret" "$(cat backup.path)" || exit 1
	done
'

test_expect_success 'setup: two books and a file after the backup, then every book deleted at T, then one more' '
	as root &&
	post_book after-1 && post_book after-2 &&
	png "after the backup" >after.png &&
	http POST /cms/file "" -F file=@after.png &&
	expect_status 200 &&
	jq -r ".[0].url" body | sed "s|^http://[^/]*||" >after.url &&
	live_titles >expected &&
	next_second &&
	date -d "@$(($(date +%s) - 1))" "+%Y-%m-%d %H:%M:%S" >until &&
	for id in $(svc_sql "$CMS_VAR_DIR/db.sock" -N -B cms -e "SELECT id FROM book WHERE delete_time IS NULL"); do
		http DELETE "/v1/book/$id" && expect_status 200 || exit 1
	done &&
	post_book deleted-at-T-plus &&
	test "$(live_titles)" = deleted-at-T-plus
'

test_expect_success 'make restore UNTIL=T-1s gives back every book written before T, not the deletion nor the last book' '
	"$TOP/scripts/restore" "$(cat backup.path)" "$(cat until)" >restore.out 2>&1 &&
	grep -q "replayed the binary log" restore.out &&
	live_titles >got &&
	cmp expected got
'

test_expect_success 'the pool runs again, root logs in with the old password, the later file is served' '
	login root "$(cat "$CMS_VAR_DIR/root-password")" &&
	http GET "$(cat after.url)" &&
	expect_status 200 &&
	cmp body after.png
'

test_expect_success 'make restore UNTIL= a time before the backup was taken is refused, nothing changed' '
	live_titles >titles.before &&
	! "$TOP/scripts/restore" "$(cat backup.path)" "2001-01-01 00:00:00" >early.out 2>&1 &&
	grep -q "is before the archive was taken" early.out &&
	live_titles >titles.after &&
	cmp titles.before titles.after
'

test_expect_success 'a plain make restore (no UNTIL) gives the backup as it was taken' '
	"$TOP/scripts/restore" "$(cat backup.path)" >restore2.out 2>&1 &&
	test "$(live_titles | tr "\n" " ")" = "before-1 before-2 before-3 "
'

test_expect_success 'make restore of a damaged archive is refused and the instance runs on unchanged' '
	live_titles >titles.before &&
	head -c 10240 "$(cat backup.path)" >damaged.tar &&
	! "$TOP/scripts/restore" damaged.tar >restore3.out 2>&1 &&
	grep -q "truncated" restore3.out &&
	live_titles >titles.after &&
	cmp titles.before titles.after &&
	http GET /v1/book/1 &&
	expect_status 200
'

test_done
