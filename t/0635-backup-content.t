#!/bin/sh
test_description='make backup and make restore UNTIL=... with two collections and a retired field: the restore gives back the rows written before T, the applied declaration with its retired field, and the retired column'"'"'s values'
. "$(dirname "$0")/lib.sh"

command -v mariadb-binlog >/dev/null 2>&1 || skip_all "mariadb-binlog is not installed (scripts/install-deps)"

use_make_run

# The blog of t/fixtures without its field contact: the field retired.
jq "del(.collections[1].fields[] | select(.id == \"contact\"))" "$TOP/t/fixtures/content/blog.json" \
	>"$TRASH/retired.json"

sql () {
	svc_sql "$CMS_VAR_DIR/db.sock" -N -B cms -e "$1"
}

run () {
	CMS_HTTP_PORT=$HTTP_PORT CMS_FCGI_PORT=$FCGI_PORT CMS_DB_PORT=$DB_PORT \
		"$TOP/scripts/run" >>run.out 2>&1
}

test_expect_success 'setup: make run with the blog, a category and two articles, one with a contact' '
	CMS_CONTENT_FILE=$TOP/t/fixtures/content/blog.json run &&
	remember root "$(cat "$CMS_VAR_DIR/root-password")" &&
	http POST /v1/category "{\"title\":\"c\"}" &&
	expect_status 201 &&
	http POST /v1/article "{\"title\":\"before-1\",\"body\":\"b\",\"contact\":\"a@example.com\"}" &&
	expect_status 201 &&
	http POST /v1/article "{\"title\":\"before-2\",\"body\":\"b\",\"category\":1}" &&
	expect_status 201
'

test_expect_success 'make run again with contact removed: the field is retired, the pool restarted' '
	CMS_CONTENT_FILE=$TRASH/retired.json run &&
	grep -q "field contact: retired" run.out &&
	grep -q "restarts to serve the new content declaration" run.out &&
	poll_until 150 sh -c "curl -s http://127.0.0.1:$HTTP_PORT/v1/article/1 | jq -e \"has(\\\"contact\\\") | not\"" &&
	test "$(sql "SELECT contact FROM content_article WHERE id = 1")" = a@example.com
'

test_expect_success 'make backup, then an article after it; at T both articles deleted; then one more' '
	"$TOP/scripts/backup" >backup.path 2>backup.err &&
	as root &&
	http POST /v1/article "{\"title\":\"after-1\",\"body\":\"b\",\"category\":1}" &&
	expect_status 201 &&
	next_second &&
	date -d "@$(($(date +%s) - 1))" "+%Y-%m-%d %H:%M:%S" >until &&
	http DELETE /v1/article/1 && expect_status 200 &&
	http DELETE /v1/article/2 && expect_status 200 &&
	http POST /v1/article "{\"title\":\"after-T\",\"body\":\"b\"}" &&
	expect_status 201 &&
	sql "SELECT declaration FROM cms_content" >declaration.at-T
'

test_expect_success 'make restore UNTIL=T-1s: the rows before T, the declaration with its retired field, the values' '
	CMS_CONTENT_FILE=$TRASH/retired.json "$TOP/scripts/restore" "$(cat backup.path)" "$(cat until)" \
		>restore.out 2>&1 &&
	grep -q "replayed the binary log" restore.out &&
	test "$(sql "SELECT GROUP_CONCAT(title ORDER BY id) FROM content_article WHERE delete_time IS NULL")" = \
		before-1,before-2,after-1 &&
	test "$(sql "SELECT contact FROM content_article WHERE id = 1")" = a@example.com &&
	sql "SELECT declaration FROM cms_content" >declaration.restored &&
	cmp declaration.at-T declaration.restored &&
	jq -e ".collections[1].fields[] | select(.id == \"contact\") | .retired == true" declaration.restored
'

test_expect_success 'the restored instance serves both collections as declared' '
	login root "$(cat "$CMS_VAR_DIR/root-password")" &&
	http GET /v1/article &&
	expect_status 200 &&
	expect_json .total 3 &&
	expect_json_true "[.items[] | has(\"contact\")] | any | not" &&
	http GET /v1/category/1 &&
	expect_status 200
'

test_done
