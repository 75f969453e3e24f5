#!/bin/sh
test_description='--setup-db on a version 4 database empties cms_idempotency: rows of older versions (plain SHA-256 fingerprints of login and register bodies, a login'"'"'s tokens) do not survive the upgrade, and keyed POSTs work after it'
. "$(dirname "$0")/lib.sh"
. "$TOP/t/fixtures/migrate/helpers.sh"

start_db
empty_db

CANARY=Canary_pw_4U9k
LOGIN="{\"username\":\"root\",\"password\":\"$CANARY\"}"
REGISTER="{\"username\":\"canary\",\"password\":\"$CANARY\",\"confirm_password\":\"$CANARY\"}"
OLD_ACCESS=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvbGQiOiJhY2Nlc3MifQ.b2xkLWFjY2Vzcy1zaWduYXR1cmU
OLD_REFRESH=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJvbGQiOiJyZWZyZXNoIn0.b2xkLXJlZnJlc2gtc2lnbmF0dXJl

# plain_print PATH BODY: a POST's fingerprint as versions 3 and 4 stored it.
plain_print () {
	printf "POST %s\napplication/json\n%s" "$1" "$2" | sha256sum | cut -d" " -f1
}

test_expect_success 'setup: a version 4 database (migrations 0001 to 0004 and the seed)' '
	for f in 0001 0002 0003 0004; do
		svc_sql "$DB_SOCKET" "$DB_NAME" <"$(ls "$TOP"/sql/migrations/$f-*.sql)" || exit 1
	done &&
	svc_sql "$DB_SOCKET" "$DB_NAME" <"$TOP/sql/seed.sql" &&
	db_exec "INSERT INTO cms_schema_version (id, version) VALUES (1, 4)" &&
	svc_db_set_root_password "$DB_SOCKET" "$DB_NAME" "$APP_BIN" "$ROOT_PASSWORD"
'

test_expect_success 'setup: the rows version 4 wrote for a keyed login (an address'"'"'s key, the tokens) and a keyed register' '
	db_exec "INSERT INTO cms_idempotency (user_id, address, idem_key, fingerprint, status, body) VALUES
		(0, \"127.0.0.1\", \"login-1\", \"$(plain_print /cms/user/login "$LOGIN")\", 200,
		 \"{\\\"access_token\\\":\\\"$OLD_ACCESS\\\",\\\"refresh_token\\\":\\\"$OLD_REFRESH\\\"}\"),
		(1, \"\", \"reg-1\", \"$(plain_print /cms/user/register "$REGISTER")\", 201,
		 \"{\\\"code\\\":11,\\\"message\\\":\\\"ok\\\"}\")" &&
	expect_db "SELECT COUNT(*) FROM cms_idempotency" 2
'

test_expect_success '--setup-db upgrades version 4 to the current version' '
	CMS_DB_SOCKET=$DB_SOCKET CMS_DB_USER=$svc_db_admin CMS_DB_PASSWORD= CMS_DB_NAME=$DB_NAME \
		CMS_SQL_DIR=$TOP/sql "$APP_BIN" -c /dev/null --setup-db </dev/null >setup.out 2>&1 &&
	grep -q "is at schema version 4: upgrading to $SCHEMA_VERSION" setup.out &&
	expect_db "SELECT version FROM cms_schema_version" "$SCHEMA_VERSION"
'

test_expect_success 'no row of the old cms_idempotency survives: no fingerprint, no token' '
	expect_db "SELECT COUNT(*) FROM cms_idempotency" 0 &&
	dump_db >after.sql &&
	! grep -q -F "$(plain_print /cms/user/login "$LOGIN")" after.sql &&
	! grep -q -F "$(plain_print /cms/user/register "$REGISTER")" after.sql &&
	! grep -q -F "$OLD_ACCESS" after.sql &&
	! grep -q -F "$OLD_REFRESH" after.sql
'

test_expect_success 'the upgraded schema is exactly that of a fresh install' '
	dump_schema >schema.actual &&
	diff -u schema.expected schema.actual
'

test_expect_success 'a second --setup-db has nothing to do' '
	CMS_DB_SOCKET=$DB_SOCKET CMS_DB_USER=$svc_db_admin CMS_DB_PASSWORD= CMS_DB_NAME=$DB_NAME \
		CMS_SQL_DIR=$TOP/sql "$APP_BIN" -c /dev/null --setup-db </dev/null >setup.2.out 2>&1 &&
	grep -q "is at schema version $SCHEMA_VERSION: nothing to do" setup.2.out
'

start_app
start_nginx

test_expect_success 'after the upgrade a keyed POST is stored and its repeat replayed' '
	login root "$ROOT_PASSWORD" &&
	http POST /v1/book "{\"title\":\"Upgraded\",\"author\":\"A\",\"summary\":\"S\"}" -H "Idempotency-Key: reg-1" &&
	expect_status 201 &&
	! grep -qi "^Idempotent-Replayed" headers &&
	http POST /v1/book "{\"title\":\"Upgraded\",\"author\":\"A\",\"summary\":\"S\"}" -H "Idempotency-Key: reg-1" &&
	expect_status 201 &&
	expect_header Idempotent-Replayed "^true$" &&
	expect_db "SELECT COUNT(*) FROM book WHERE title = \"Upgraded\"" 1
'

test_done
