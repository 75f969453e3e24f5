#!/bin/sh
test_description='cms-fcgi --backup leaves the rows of the cache tables (cms_idempotency, cms_login_failure, cms_captcha_spent, cms_login_gate) out of db.sql and keeps their definitions: the archive holds no password, no plain fingerprint of one and no token, and its restore gives a database the service runs on'
. "$(dirname "$0")/lib.sh"

command -v mariadb-dump >/dev/null 2>&1 || skip_all "mariadb-dump is not installed (scripts/install-deps)"

start_db --private
# No captcha: the failed login below must reach the password check.
start_app login_captcha=off
start_nginx

CACHE_TABLES="cms_idempotency cms_login_failure cms_captcha_spent cms_login_gate"
RESTORED=restored_$$

# The canary password, a typo of it and the one it is changed to.
canary_bodies Canary_pw_6T1m Canary_pw_6T1n Canary_pw_9W5p

# holds TEXT: the archive holds TEXT, as it is or in the upper-case hex of mariadb-dump --hex-blob.
holds () {
	grep -a -q -F -e "$1" -e "$(printf %s "$1" | od -An -tx1 | tr -d " \n" | tr a-f A-F)" "$(cat "$TRASH/archive.path")"
}

test_expect_success 'setup: a keyed register, keyed logins (one failed), a keyed change_password' '
	remember root "$ROOT_PASSWORD" &&
	jq -r .access_token,.refresh_token body >tokens &&
	as root &&
	http POST /cms/user/register "$REGISTER" -H "Idempotency-Key: reg-1" &&
	expect_status 201 &&
	TOKEN= &&
	http POST /cms/user/login "$LOGIN" -H "Idempotency-Key: login-1" &&
	expect_status 200 &&
	jq -r .access_token,.refresh_token body >>tokens &&
	keep canary "$(jq -r .access_token body)" &&
	http POST /cms/user/login "$FAILED" -H "Idempotency-Key: login-2" &&
	expect_status 401 &&
	as canary &&
	http PUT /cms/user/change_password "$CHANGE" -H "Idempotency-Key: change-1" &&
	expect_status 200 &&
	test "$(grep -c "^ey" tokens)" -eq 4
'

test_expect_success 'setup: every cache table holds a row' '
	db_exec "INSERT INTO cms_captcha_spent (nonce, expires) VALUES (\"00112233445566778899aabb\", 4102444800)" &&
	for t in $CACHE_TABLES; do
		test "$(db_exec "SELECT COUNT(*) FROM $t")" -gt 0 || { echo "$t is empty" >&2; exit 1; }
	done
'

test_expect_success 'the backup runs' '
	"$APP_BIN" -c "$TRASH/cms.conf" --backup "$TRASH/backups" >archive.path 2>backup.err &&
	test -s "$(cat archive.path)" &&
	tar -xOf "$(cat archive.path)" db.sql >db.sql &&
	tar -xOf "$(cat archive.path)" manifest.json >manifest.json
'

test_expect_success 'db.sql defines every cache table and inserts no row into any' '
	for t in $CACHE_TABLES; do
		grep -q "^CREATE TABLE \`$t\`" db.sql || { echo "no CREATE TABLE $t" >&2; exit 1; }
		! grep -q "^INSERT INTO \`$t\`" db.sql || { echo "rows of $t" >&2; exit 1; }
	done &&
	grep -q "^INSERT INTO \`lin_user\`" db.sql
'

test_expect_success 'the manifest counts no row in the cache tables' '
	for t in $CACHE_TABLES; do
		test "$(jq ".tables.$t" manifest.json)" = 0 || { echo "$t: $(jq ".tables.$t" manifest.json)" >&2; exit 1; }
	done
'

test_expect_success 'the archive holds no canary password and no plain fingerprint of a request with one' '
	for secret in "$CANARY" "$TYPO" "$CHANGED" \
		"$(plain_print POST /cms/user/register "$REGISTER")" \
		"$(plain_print POST /cms/user/login "$LOGIN")" \
		"$(plain_print POST /cms/user/login "$FAILED")" \
		"$(plain_print PUT /cms/user/change_password "$CHANGE")"; do
		! holds "$secret" || { echo "the archive holds $secret" >&2; exit 1; }
	done
'

test_expect_success 'the archive holds no token of the logins' '
	while read -r token; do
		! holds "$token" || { echo "the archive holds a token" >&2; exit 1; }
	done <tokens
'

test_expect_success 'the archive restores into an empty database, the cache tables there and empty' '
	svc_sql "$DB_SOCKET" -e "CREATE DATABASE $RESTORED" &&
	sed -e "s|^db_name = .*|db_name = $RESTORED|" -e "s|^file_store_dir = .*|file_store_dir = $TRASH/assets2|" \
		-e "s|^log_file = .*|log_file = $TRASH/restore.log|" cms.conf >restored.conf &&
	echo "sql_dir = $TOP/sql" >>restored.conf &&
	"$APP_BIN" -c restored.conf --restore "$(cat archive.path)" >restore.out 2>&1 &&
	grep -q "restore: done" restore.out &&
	for t in $CACHE_TABLES; do
		test "$(svc_sql "$DB_SOCKET" -N -B "$RESTORED" -e "SELECT COUNT(*) FROM $t")" = 0 || exit 1
	done
'

# The pool and nginx again, on the restored database.
stop_app
svc_nginx_stop "$TRASH/nginx" || bail_out "nginx did not stop"
DB_NAME=$RESTORED
start_app login_captcha=off "file_store_dir=$TRASH/assets2"
start_nginx

test_expect_success 'the restored service logs in with the changed password and counts a failure' '
	TOKEN= &&
	http POST /cms/user/login "$FAILED" &&
	expect_status 401 &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure" 1 &&
	login canary "$CHANGED" &&
	keep changed
'

test_expect_success 'the restored service keeps and replays a keyed POST' '
	as changed &&
	http POST /v1/book "{\"title\":\"Restored\",\"author\":\"A\",\"summary\":\"S\"}" -H "Idempotency-Key: reg-1" &&
	expect_status 201 &&
	! grep -qi "^Idempotent-Replayed" headers &&
	http POST /v1/book "{\"title\":\"Restored\",\"author\":\"A\",\"summary\":\"S\"}" -H "Idempotency-Key: reg-1" &&
	expect_status 201 &&
	expect_header Idempotent-Replayed "^true$"
'

test_done
