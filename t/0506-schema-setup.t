#!/bin/sh
test_description='cms-fcgi --setup-db creates an empty database, and refuses one that is not ours or newer than it knows'
. "$(dirname "$0")/lib.sh"
. "$TOP/t/fixtures/migrate/helpers.sh"

allow_app_errors

start_db
empty_db

# conf NAME [DB]: $TRASH/NAME.conf for database DB ($DB_NAME by default).
conf () {
	{
		echo "db_socket = $DB_SOCKET"
		echo "db_user = $svc_db_admin"
		echo "db_name = ${2:-$DB_NAME}"
		echo "sql_dir = $TOP/sql"
		echo "jwt_secret = $(svc_random_hex 32)"
		echo "message_file = $TOP/conf/code-message.properties"
		echo "log_file = $TRASH/$1.log"
	} >"$TRASH/$1.conf"
}

test_expect_success 'a database holding a table that is not ours is refused, unchanged' '
	conf setup &&
	db_exec "CREATE TABLE wp_posts (id int PRIMARY KEY)" &&
	! "$APP_BIN" -c setup.conf --setup-db </dev/null >refused.out 2>refused.err &&
	grep -F "refusing to change database '\''$DB_NAME'\'': tables that are not cms-fcgi'\''s: wp_posts" refused.err &&
	expect_db "SELECT GROUP_CONCAT(TABLE_NAME) FROM information_schema.TABLES
		WHERE TABLE_SCHEMA = DATABASE()" wp_posts
'

test_expect_success 'a Lin CMS backend database is refused, pointing at sql/migrate' '
	db_exec "DROP TABLE wp_posts" &&
	load_lin_cms spring-boot &&
	! "$APP_BIN" -c setup.conf --setup-db </dev/null >refused.out 2>refused.err &&
	grep -F "no cms_login_failure" refused.err &&
	grep -F "converted by sql/migrate first" refused.err
'

test_expect_success 'setup: the database is empty again' '
	svc_sql "$DB_SOCKET" -e "DROP DATABASE \`$DB_NAME\`; CREATE DATABASE \`$DB_NAME\`
		CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci"
'

test_expect_success 'an empty database gets every migration in order and the seed, root the password of stdin' '
	printf "%s\n" "$ROOT_PASSWORD" | "$APP_BIN" -c setup.conf --setup-db >setup.out 2>setup.err &&
	cat >expect.out <<-EOF &&
	database '\''$DB_NAME'\'' is empty: creating schema version $SCHEMA_VERSION
	$(ran_migrations 0)
	ran $TOP/sql/seed.sql
	set root'\''s password from standard input
	EOF
	grep -q "^ran $TOP/sql/migrations/0001-released.sql: now at version 1$" expect.out &&
	diff -u expect.out setup.out
'

test_expect_success 'the created schema is that of start_db'"'"'s fresh install, at the last migration'"'"'s version' '
	dump_schema >schema.actual &&
	diff -u schema.expected schema.actual &&
	expect_db "SELECT version FROM cms_schema_version" "$SCHEMA_VERSION"
'

test_expect_success 'an empty stdin gets root a generated password, printed' '
	svc_sql "$DB_SOCKET" -e "CREATE DATABASE gen_$$" &&
	conf gen "gen_$$" &&
	"$APP_BIN" -c gen.conf --setup-db </dev/null >gen.out 2>gen.err &&
	svc_sql "$DB_SOCKET" -e "DROP DATABASE gen_$$" &&
	grep -E "^set root'\''s password to a generated one: [A-Za-z0-9]{16}\$" gen.out
'

start_app
start_nginx

test_expect_success 'root logs in with the password given on stdin' '
	login root "$ROOT_PASSWORD"
'

stop_app

test_expect_success 'a database newer than this cms-fcgi is refused by --setup-db, unchanged' '
	newer=$((SCHEMA_VERSION + 1)) &&
	db_exec "UPDATE cms_schema_version SET version = $newer" &&
	dump_db >before.sql &&
	! "$APP_BIN" -c setup.conf --setup-db </dev/null >newer.out 2>newer.err &&
	grep -F "refusing to change database '\''$DB_NAME'\'': its schema version $newer is newer than this cms-fcgi knows ($SCHEMA_VERSION)" newer.err &&
	dump_db >after.sql &&
	diff -u before.sql after.sql
'

test_expect_success 'the pool refuses to start on the newer schema, naming both versions' '
	conf newer &&
	! "$APP_BIN" -c newer.conf --supervise --listen "$TRASH/newer.sock" 2>newer-pool.err &&
	grep -F "has schema version $((SCHEMA_VERSION + 1)), this cms-fcgi needs version $SCHEMA_VERSION" newer-pool.err
'

test_done
