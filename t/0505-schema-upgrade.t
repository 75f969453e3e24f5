#!/bin/sh
test_description='cms-fcgi --setup-db upgrades a database of the released schema: nothing lost, every login works, the schema is that of a fresh install'
. "$(dirname "$0")/lib.sh"
. "$TOP/t/fixtures/migrate/helpers.sh"

allow_app_errors

start_db
empty_db

# A config for the command and for a pool started by hand: the database of start_db, no secret
# needed by --setup-db.
conf () {
	{
		echo "db_socket = $DB_SOCKET"
		echo "db_user = $svc_db_admin"
		echo "db_name = $DB_NAME"
		echo "sql_dir = $TOP/sql"
		echo "jwt_secret = $(svc_random_hex 32)"
		echo "message_file = $TOP/conf/code-message.properties"
		echo "log_file = $TRASH/$1.log"
	} >"$TRASH/$1.conf"
}

# Row counts and key columns of every table kept across the upgrade.
snapshot () {
	db_exec "SELECT 'user', id, username, email, delete_time FROM lin_user ORDER BY id" &&
	db_exec "SELECT 'identity', id, user_id, identifier, credential FROM lin_user_identity ORDER BY id" &&
	db_exec "SELECT 'group', id, name, level, delete_time FROM lin_group ORDER BY id" &&
	db_exec "SELECT 'user_group', id, user_id, group_id FROM lin_user_group ORDER BY id" &&
	db_exec "SELECT 'permission', id, module, name, mount FROM lin_permission ORDER BY id" &&
	db_exec "SELECT 'grant', id, group_id, permission_id FROM lin_group_permission ORDER BY id" &&
	db_exec "SELECT 'book', id, title, author, create_time, delete_time FROM book ORDER BY id" &&
	db_exec "SELECT 'log', id, user_id, message, path, create_time FROM lin_log ORDER BY id" &&
	db_exec "SELECT 'file', id, path, md5, size FROM lin_file ORDER BY id" &&
	db_exec "SELECT 'counts', (SELECT COUNT(*) FROM lin_user), (SELECT COUNT(*) FROM lin_user_identity),
		(SELECT COUNT(*) FROM lin_group), (SELECT COUNT(*) FROM lin_user_group),
		(SELECT COUNT(*) FROM lin_permission), (SELECT COUNT(*) FROM lin_group_permission),
		(SELECT COUNT(*) FROM book), (SELECT COUNT(*) FROM lin_log), (SELECT COUNT(*) FROM lin_file)"
}

test_expect_success 'setup: the released schema (sql/migrations/0001-released.sql) and the seed' '
	svc_sql "$DB_SOCKET" "$DB_NAME" <"$TOP/sql/migrations/0001-released.sql" &&
	svc_sql "$DB_SOCKET" "$DB_NAME" <"$TOP/sql/seed.sql" &&
	svc_db_set_root_password "$DB_SOCKET" "$DB_NAME" "$APP_BIN" "$ROOT_PASSWORD" &&
	expect_db "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
		AND TABLE_NAME = \"cms_login_failure\" AND COLUMN_NAME = \"kind\"" 1
'

test_expect_success 'setup: users, groups, grants, books, logs, files and login failures' '
	alice=$(printf "%s\n" Alice_pass1 | "$APP_BIN" --hash-password) &&
	bob=$(printf "%s\n" Bob_pass22 | "$APP_BIN" --hash-password) &&
	db_exec "INSERT INTO lin_group (id, name, info, level) VALUES (3, \"editors\", \"书\", 3),
		(4, \"gone\", NULL, 3)" &&
	db_exec "UPDATE lin_group SET delete_time = \"2024-01-02 03:04:05.678\" WHERE id = 4" &&
	db_exec "INSERT INTO lin_user (id, username, nickname, email, credential_version) VALUES
		(2, \"alice\", \"爱丽丝\", \"alice@example.com\", 3), (3, \"bob\", NULL, NULL, 0)" &&
	db_exec "INSERT INTO lin_user_identity (id, user_id, identity_type, identifier, credential)
		VALUES (2, 2, \"USERNAME_PASSWORD\", \"alice\", \"$alice\"),
		(3, 3, \"USERNAME_PASSWORD\", \"bob\", \"$bob\")" &&
	db_exec "INSERT INTO lin_user_group (id, user_id, group_id) VALUES (2, 2, 3), (3, 3, 2)" &&
	db_exec "INSERT INTO lin_permission (id, name, module) VALUES (1, \"删除图书\", \"图书\")" &&
	db_exec "INSERT INTO lin_group_permission (id, group_id, permission_id) VALUES (1, 3, 1)" &&
	db_exec "INSERT INTO book (id, title, author, create_time) VALUES
		(1, \"深入理解计算机系统\", \"Randal E.Bryant\", \"2023-05-06 07:08:09.123\"),
		(2, \"C程序设计语言\", NULL, \"2023-05-06 07:08:10.000\")" &&
	db_exec "UPDATE book SET delete_time = NOW(3) WHERE id = 2" &&
	db_exec "INSERT INTO lin_log (id, message, user_id, username, status_code, method, path,
		permission, create_time) VALUES
		(1, \"alice删除了图书\", 2, \"alice\", 200, \"DELETE\", \"/v1/book/2\", \"删除图书\",
		\"2023-06-07 08:09:10.111\")" &&
	db_exec "INSERT INTO lin_file (id, path, name, extension, size, md5) VALUES
		(1, \"2023/06/07/a.png\", \"a.png\", \".png\", 1234, \"8c2f719e893d8b2e0fe15b89b29e24c7\")" &&
	db_exec "INSERT INTO cms_login_failure (kind, subject) VALUES (\"username\", \"bob\"),
		(\"address\", \"127.0.0.1\")" &&
	snapshot >before.txt &&
	test "$(wc -l <before.txt)" = 20 &&
	db_exec "SELECT id, credential_version + 1 FROM lin_user ORDER BY id" >versions.expected
'

test_expect_success 'the pool refuses to start on the released schema, naming both versions and the command' '
	conf old &&
	! "$APP_BIN" -c old.conf --supervise --listen "$TRASH/old.sock" 2>old.err &&
	grep -F "cms-fcgi: database '\''$DB_NAME'\'' has schema version 1, this cms-fcgi needs version $SCHEMA_VERSION: upgrade it with \`cms-fcgi -c FILE --setup-db\`" old.err
'

test_expect_success '--setup-db recognises version 1 by its tables and applies 0002 and every later migration, one line a step' '
	conf setup &&
	"$APP_BIN" -c setup.conf --setup-db </dev/null >setup.1.out 2>setup.1.err &&
	cat >expect.out <<-EOF &&
	database '\''$DB_NAME'\'' is at schema version 1: upgrading to $SCHEMA_VERSION
	$(ran_migrations 1)
	EOF
	grep -q "^ran $TOP/sql/migrations/0002-login-failure-by-address.sql: now at version 2$" expect.out &&
	diff -u expect.out setup.1.out
'

test_expect_success 'the database records the version of the last migration' '
	expect_db "SELECT version FROM cms_schema_version" "$SCHEMA_VERSION"
'

test_expect_success 'released schema + migrations is exactly the schema of a fresh install' '
	dump_schema >schema.actual &&
	diff -u schema.expected schema.actual
'

test_expect_success 'every user, group, grant, book, log and file row is kept, key columns and all' '
	snapshot >after.txt &&
	diff -u before.txt after.txt
'

test_expect_success 'every token of before the upgrade ends: each user'"'"'s credential version rose by one (0005)' '
	db_exec "SELECT id, credential_version FROM lin_user ORDER BY id" >versions.actual &&
	diff -u versions.expected versions.actual
'

test_expect_success 'the login failures of the old shape are gone (they cannot be split by address)' '
	expect_db "SELECT COUNT(*) FROM cms_login_failure" 0
'

test_expect_success 'a second run changes nothing and says so' '
	dump_db >before.sql &&
	"$APP_BIN" -c setup.conf --setup-db </dev/null >setup.2.out 2>setup.2.err &&
	echo "database '\''$DB_NAME'\'' is at schema version $SCHEMA_VERSION: nothing to do" >expect.out &&
	diff -u expect.out setup.2.out &&
	dump_db >after.sql &&
	diff -u before.sql after.sql
'

start_app
start_nginx

test_expect_success 'root logs in with its password after the upgrade' '
	login root "$ROOT_PASSWORD"
'

test_expect_success 'alice logs in with hers and is user 2' '
	login alice Alice_pass1 &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .id 2
'

test_expect_success 'bob logs in with his' '
	login bob Bob_pass22
'

test_expect_success 'a wrong password is counted in the new cms_login_failure, under bob'"'"'s id' '
	TOKEN= &&
	http POST /cms/user/login "{\"username\":\"bob\",\"password\":\"wrong_pass1\"}" &&
	expect_status 401 &&
	expect_db "SELECT username, address FROM cms_login_failure" \
		"$(printf "(the account of user id %s)\t127.0.0.1" "$(db_exec "SELECT id FROM lin_user WHERE username = \"bob\"")")"
'

test_expect_success 'from version 7, 0008 forgets a failure recorded under a name as typed and keeps those under a user'"'"'s id' '
	db_exec "INSERT INTO cms_login_failure (username, address) VALUES (\"Hunter2-typed\", \"127.0.0.9\")" &&
	db_exec "UPDATE cms_schema_version SET version = 7" &&
	"$APP_BIN" -c setup.conf --setup-db </dev/null >setup.8.out 2>setup.8.err &&
	grep -q "^ran $TOP/sql/migrations/0008-login-failure-keyed.sql: now at version 8$" setup.8.out &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure WHERE username = \"Hunter2-typed\"" 0 &&
	expect_db "SELECT COUNT(*) FROM cms_login_failure WHERE username LIKE \"(the account of user id %)\"" 1
'

test_expect_success 'a file row of the released schema keeps no SHA-256, and a new upload of its content is that row' '
	expect_db "SELECT COUNT(*) FROM lin_file WHERE sha256 IS NULL" 1 &&
	login root "$ROOT_PASSWORD" &&
	printf "\211PNG\r\n\032\na" >a.png &&
	http POST /cms/file "" -F file=@a.png &&
	expect_status 200 &&
	expect_json ".[0].id" 1 &&
	expect_db "SELECT COUNT(*) FROM lin_file" 1
'

test_expect_success 'a keyed POST is recorded in the new cms_idempotency' '
	login root "$ROOT_PASSWORD" &&
	http POST /v1/book "{\"title\":\"Upgraded\",\"author\":\"A\",\"summary\":\"S\"}" -H "Idempotency-Key: after-upgrade" &&
	expect_status 201 &&
	expect_db "SELECT user_id, status FROM cms_idempotency WHERE idem_key = \"after-upgrade\"" "$(printf "1\t201")"
'

test_expect_success 'the live book is served, the deleted one is not' '
	TOKEN= &&
	http GET /v1/book &&
	expect_status 200 &&
	expect_json "map(.title) | join(\",\")" "深入理解计算机系统,Upgraded"
'

test_done
