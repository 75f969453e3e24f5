#!/bin/sh
test_description='--setup-db --db-admin never takes over an account that holds rights outside db_name (another application'"'"'s): refused, naming the account and the grant, its password unchanged; an account with rights on db_name only is still given db_password'
. "$(dirname "$0")/lib.sh"

start_db

# Names unique on a shared server: the service's database, another application's database, and
# one account per kind of grant it may hold there.
K=g$$
D=${K}_cms
SHOP=${K}_shop
ROLE=${K}_role
test_atexit "svc_sql '$DB_SOCKET' -e \"DROP DATABASE IF EXISTS \\\`$D\\\`; DROP DATABASE IF EXISTS \\\`$SHOP\\\`;
	DROP USER IF EXISTS '${K}s'@'localhost', '${K}t'@'localhost', '${K}c'@'localhost', '${K}r'@'localhost',
		'${K}p'@'localhost', '${K}x'@'localhost', '${K}o'@'localhost', '${K}w'@'%', '${K}w'@'localhost', '${K}n'@'localhost', '${K}u'@'localhost';
	DROP ROLE IF EXISTS '$ROLE'\""

# setup_as USER [PASSWORD]: --setup-db --db-admin for db_user USER and db_name $D, with
# db_password PASSWORD (new-service-pass by default); its output in USER.out and USER.err.
setup_as () {
	CMS_DB_USER=$1 CMS_DB_NAME=$D CMS_DB_PASSWORD=${2:-new-service-pass} CMS_DB_SOCKET=$DB_SOCKET \
		CMS_SQL_DIR=$TOP/sql "$APP_BIN" -c /dev/null --setup-db --db-admin "$svc_db_admin" \
		</dev/null >"$1.out" 2>"$1.err"
}

# as_account USER PASSWORD SQL: runs SQL logged in as USER with PASSWORD.
as_account () {
	mariadb --no-defaults --socket="$DB_SOCKET" --user="$1" --password="$2" -N -e "$3"
}

# refused USER WHAT: setup_as USER failed, naming the account and what its grant is on (a fixed
# string: "ON `db`.*", "role 'name'"), made no database, and USER's own password still logs in.
refused () {
	! setup_as "$1" &&
	cat "$1.err" &&
	grep -qF "refusing to set the password of '$1'@'localhost': it holds " "$1.err" &&
	grep -qF "$2, beyond database '$D'" "$1.err" &&
	expect_db "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '$D'" 0 &&
	as_account "$1" "shop-pass-$1" "SELECT 1" >"$1.login" &&
	test "$(cat "$1.login")" = 1
}

test_expect_success 'setup: a shop database with a table and a procedure, and its accounts' '
	svc_sql "$DB_SOCKET" -e "CREATE DATABASE \`$SHOP\`;
		CREATE TABLE \`$SHOP\`.orders (id INT PRIMARY KEY, total INT);
		INSERT INTO \`$SHOP\`.orders VALUES (1, 42);
		CREATE PROCEDURE \`$SHOP\`.tally() SELECT COUNT(*) FROM \`$SHOP\`.orders;
		CREATE ROLE \`$ROLE\`;
		GRANT SELECT ON \`$SHOP\`.* TO \`$ROLE\`" &&
	for a in s t c r p x o n; do
		svc_sql "$DB_SOCKET" -e "CREATE USER '"'"'$K$a'"'"'@'"'"'localhost'"'"' IDENTIFIED BY '"'"'shop-pass-$K$a'"'"'" ||
		return 1
	done &&
	svc_sql "$DB_SOCKET" -e "GRANT ALL ON \`$SHOP\`.* TO '"'"'${K}s'"'"'@'"'"'localhost'"'"';
		GRANT SELECT, UPDATE ON \`$SHOP\`.orders TO '"'"'${K}t'"'"'@'"'"'localhost'"'"';
		GRANT SELECT (total) ON \`$SHOP\`.orders TO '"'"'${K}c'"'"'@'"'"'localhost'"'"';
		GRANT \`$ROLE\` TO '"'"'${K}r'"'"'@'"'"'localhost'"'"';
		GRANT EXECUTE ON PROCEDURE \`$SHOP\`.tally TO '"'"'${K}p'"'"'@'"'"'localhost'"'"';
		GRANT PROXY ON '"'"'${K}s'"'"'@'"'"'localhost'"'"' TO '"'"'${K}x'"'"'@'"'"'localhost'"'"';
		CREATE USER '"'"'${K}w'"'"'@'"'"'%'"'"' IDENTIFIED BY '"'"'shop-pass-${K}w'"'"';
		GRANT SELECT ON \`$SHOP\`.* TO '"'"'${K}w'"'"'@'"'"'%'"'"'" &&
	as_account "${K}s" "shop-pass-${K}s" "SELECT total FROM \`$SHOP\`.orders" >total &&
	test "$(cat total)" = 42
'

test_expect_success 'an account with ALL on another database (the shop'"'"'s) is refused, and the shop still logs in and reads its orders' '
	refused "${K}s" " ON \`$SHOP\`.*" &&
	as_account "${K}s" "shop-pass-${K}s" "SELECT total FROM \`$SHOP\`.orders" >total &&
	test "$(cat total)" = 42 &&
	! as_account "${K}s" new-service-pass "SELECT 1" 2>new.err
'

test_expect_success 'an account with a grant on a table of another database is refused, naming the table' '
	refused "${K}t" " ON \`$SHOP\`.\`orders\`" &&
	as_account "${K}t" "shop-pass-${K}t" "SELECT total FROM \`$SHOP\`.orders" >total &&
	test "$(cat total)" = 42
'

test_expect_success 'an account with a grant on a column of another database is refused, naming the column' '
	refused "${K}c" "it holds SELECT (\`total\`) ON \`$SHOP\`.\`orders\`" &&
	as_account "${K}c" "shop-pass-${K}c" "SELECT total FROM \`$SHOP\`.orders" >total &&
	test "$(cat total)" = 42
'

# Schema names are case-sensitive (they are directories): G1_CMS is not g1_cms, though
# information_schema compares them without case.
test_expect_success 'an account with ALL on the database'"'"'s name in upper case (another database) is refused' '
	DU=$(printf %s "$D" | tr a-z A-Z) &&
	svc_sql "$DB_SOCKET" -e "CREATE USER '"'"'${K}u'"'"'@'"'"'localhost'"'"' IDENTIFIED BY '"'"'shop-pass-${K}u'"'"';
		GRANT ALL ON \`$DU\`.* TO '"'"'${K}u'"'"'@'"'"'localhost'"'"'" &&
	refused "${K}u" " ON \`$DU\`.*"
'

test_expect_success 'an account that was granted a role is refused, naming the role' '
	refused "${K}r" "it holds role '"'"'$ROLE'"'"'"
'

test_expect_success 'an account with EXECUTE on a procedure of another database is refused, naming the procedure' '
	refused "${K}p" "it holds EXECUTE ON PROCEDURE \`$SHOP\`.\`tally\`" &&
	as_account "${K}p" "shop-pass-${K}p" "CALL \`$SHOP\`.tally()" >tally &&
	test "$(cat tally)" = 1
'

test_expect_success 'an account with a PROXY grant is refused, naming the account it may proxy' '
	refused "${K}x" "it holds PROXY ON '"'"'${K}s'"'"'@'"'"'localhost'"'"'"
'

test_expect_success 'a name that another host'"'"'s account holds is refused: a new name@localhost would take its local logins' '
	! setup_as "${K}w" &&
	cat "${K}w.err" &&
	grep -qF "refusing to create '"'"'${K}w'"'"'@'"'"'localhost'"'"': the account '"'"'${K}w'"'"'@'"'"'%'"'"' has that name" "${K}w.err" &&
	expect_db "SELECT COUNT(*) FROM mysql.user WHERE User = '"'"'${K}w'"'"' AND Host = '"'"'localhost'"'"'" 0 &&
	as_account "${K}w" "shop-pass-${K}w" "SELECT total FROM \`$SHOP\`.orders" >total &&
	test "$(cat total)" = 42
'

test_expect_success 'an existing account with rights on db_name only is given db_password and set up' '
	svc_sql "$DB_SOCKET" -e "GRANT SELECT ON \`$(printf %s "$D" | sed "s/_/\\\\_/g")\`.* TO '"'"'${K}o'"'"'@'"'"'localhost'"'"'" &&
	setup_as "${K}o" &&
	cat "${K}o.out" &&
	grep -q "^set root.s password to a generated one" "${K}o.out" &&
	as_account "${K}o" new-service-pass "SELECT COUNT(*) FROM \`$D\`.lin_user" >users &&
	test "$(cat users)" -ge 1 &&
	! as_account "${K}o" "shop-pass-${K}o" "SELECT 1" 2>old.err
'

test_expect_success 'with a table and a column grant on db_name added, it is given the next db_password' '
	svc_sql "$DB_SOCKET" -e "GRANT UPDATE ON \`$D\`.lin_user TO '"'"'${K}o'"'"'@'"'"'localhost'"'"';
		GRANT UPDATE (nickname) ON \`$D\`.lin_user TO '"'"'${K}o'"'"'@'"'"'localhost'"'"'" &&
	setup_as "${K}o" next-service-pass &&
	grep -q "nothing to do" "${K}o.out" &&
	as_account "${K}o" next-service-pass "SELECT COUNT(*) FROM \`$D\`.lin_user" >users &&
	test "$(cat users)" -ge 1
'

test_expect_success 'an existing account with no rights at all is given db_password too' '
	setup_as "${K}n" &&
	as_account "${K}n" new-service-pass "SELECT COUNT(*) FROM \`$D\`.lin_user" >users &&
	test "$(cat users)" -ge 1
'

test_done
