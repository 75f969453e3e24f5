#!/bin/sh
test_description='doc/deploy-nginx.md steps 2 to 4, each in a shell of its own: the database, an account with the password of cms.env, root'"'"'s password, a pool that logs in'
. "$(dirname "$0")/lib.sh"

start_db

# doc/deploy-nginx.md's database and account names, made unique on a shared server.
D=${DB_NAME}_d
U=${DB_NAME}_u
# A database whose name matches D's with a wildcard _: never the account's.
OTHER=${DB_NAME}xd
test_atexit "svc_sql '$DB_SOCKET' -e \"DROP DATABASE IF EXISTS \\\`$D\\\`; DROP DATABASE IF EXISTS \\\`$OTHER\\\`; DROP USER IF EXISTS '$U'@'localhost'\""

# The commands of doc/deploy-nginx.md's step $1 (the sh block of "N. ..."), with /etc/cms-fcgi
# moved to $TRASH/etc and MariaDB's root to this server's administrator; what only a real
# host does (chgrp, editor, systemctl) is left out.
readme_step () {
	sed -n "/^### nginx + systemd/,/^### /p" "$TOP/doc/deploy-nginx.md" |
		sed -n "/^$1\\. /,/^$(($1 + 1))\\. /p" |
		sed -n '/^   ```sh$/,/^   ```$/p' | sed -e '/```/d' -e 's/^   //' |
		sed -e '/^chgrp /d' -e '/^editor /d' -e '/^systemctl /d' \
			-e "s|/etc/cms-fcgi|$TRASH/etc|g" -e "s|--db-admin root|--db-admin $svc_db_admin|"
}

# Runs the commands of file $1 in a new shell with nothing of this one's environment but PATH,
# where `cms-fcgi` is the binary under test; stdin is no terminal (no password given).
new_shell () {
	env -i PATH="$TRASH/bin:$PATH" HOME="$TRASH" sh -eu "$1" </dev/null
}

test_expect_success 'setup: cms-fcgi on PATH; cms.conf of make install, for this database server' '
	mkdir -p bin etc &&
	ln -s "$APP_BIN" bin/cms-fcgi &&
	sed -e "s|^db_name *=.*|db_name = $D|" -e "s|^db_user *=.*|db_user = $U|" \
		-e "s|^sql_dir *=.*|sql_dir = $TOP/sql|" \
		-e "s|^message_file *=.*|message_file = $TOP/conf/code-message.properties|" \
		-e "s|^log_file *=.*|log_file = $TRASH/app.log|" \
		-e "s|^file_store_dir *=.*|file_store_dir = $TRASH/assets|" \
		-e "s|^db_socket *=.*|db_socket = $DB_SOCKET|" \
		"$TOP/conf/cms.conf.example" >etc/cms.conf &&
	grep -q "^db_name = $D$" etc/cms.conf &&
	grep -q "^db_user = $U$" etc/cms.conf
'

test_expect_success 'step 2 in a shell of its own writes cms.env (0600) with a database password' '
	readme_step 2 >step2.sh &&
	cat step2.sh &&
	new_shell step2.sh &&
	test "$(stat -c %a etc/cms.env)" = 600 &&
	grep -Eq "^CMS_DB_PASSWORD=[0-9a-f]{32}$" etc/cms.env &&
	grep -Eq "^CMS_JWT_SECRET=[0-9a-f]{64}$" etc/cms.env
'

test_expect_success 'step 3 in another shell creates the database, the account and root'"'"'s password' '
	readme_step 3 >step3.sh &&
	cat step3.sh &&
	grep -q -- "--setup-db" step3.sh &&
	new_shell step3.sh >step3.out &&
	cat step3.out &&
	grep -q "^set root'"'"'s password to a generated one: [A-Za-z0-9]\{16\}$" step3.out &&
	expect_db "SELECT COUNT(*) FROM \`$D\`.cms_schema_version" 1
'

test_expect_success 'the account has a password, the one of cms.env, and only the service'"'"'s rights' '
	expect_db "SELECT COUNT(*) FROM mysql.user WHERE User = '"'"'$U'"'"' AND Host = '"'"'localhost'"'"'
		AND authentication_string <> '"'"''"'"'" 1 &&
	password=$(sed -n "s/^CMS_DB_PASSWORD=//p" etc/cms.env) &&
	mariadb --no-defaults --socket="$DB_SOCKET" --user="$U" --password="$password" \
		-N -e "SELECT COUNT(*) FROM lin_user" "$D" >count &&
	test "$(cat count)" -ge 1 &&
	! mariadb --no-defaults --socket="$DB_SOCKET" --user="$U" --skip-password \
		-e "SELECT 1" "$D" 2>nopass.err &&
	svc_sql "$DB_SOCKET" -N -r -e "SHOW GRANTS FOR '"'"'$U'"'"'@'"'"'localhost'"'"'" >grants &&
	cat grants &&
	grep -qF "GRANT SELECT, INSERT, UPDATE, DELETE ON \`$(printf %s "$D" | sed "s/_/\\\\_/g")\`.* TO" grants
'

test_expect_success 'the grant is on that database only: _ in its name is no wildcard' '
	svc_sql "$DB_SOCKET" -e "CREATE DATABASE \`$OTHER\`" &&
	password=$(sed -n "s/^CMS_DB_PASSWORD=//p" etc/cms.env) &&
	! mariadb --no-defaults --socket="$DB_SOCKET" --user="$U" --password="$password" \
		-e "SELECT 1" "$OTHER" 2>other.err &&
	cat other.err &&
	grep -q "Access denied" other.err
'

test_expect_success 'step 3 again changes nothing, and gives an account made without a password its password' '
	svc_sql "$DB_SOCKET" -e "ALTER USER '"'"'$U'"'"'@'"'"'localhost'"'"' IDENTIFIED BY '"'"''"'"'" &&
	new_shell step3.sh >again.out &&
	cat again.out &&
	grep -q "is at schema version [0-9][0-9]*: nothing to do" again.out &&
	expect_db "SELECT COUNT(*) FROM mysql.user WHERE User = '"'"'$U'"'"'
		AND authentication_string <> '"'"''"'"'" 1
'

test_expect_success 'an empty CMS_DB_PASSWORD is refused before anything is made' '
	sed "s/^CMS_DB_PASSWORD=.*/CMS_DB_PASSWORD=/" etc/cms.env >etc/empty.env &&
	sed -e "s|cms.env|empty.env|" -e "s|^db_name *=.*|db_name = ${D}x|" step3.sh >empty.sh &&
	sed "s|^db_name *=.*|db_name = ${D}x|" etc/cms.conf >etc/other.conf &&
	sed -i "s|cms.conf|other.conf|" empty.sh &&
	! new_shell empty.sh >empty.out 2>empty.err &&
	cat empty.err &&
	grep -q "db_password is empty: refusing to create the account" empty.err &&
	expect_db "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '"'"'${D}x'"'"'" 0
'

test_expect_success 'db_user naming an administrator (here --db-admin itself) is refused: no password given it, no database made' '
	sed -e "s|^db_name *=.*|db_name = ${D}y|" -e "s|^db_user *=.*|db_user = $svc_db_admin|" \
		etc/cms.conf >etc/admin.conf &&
	sed "s|cms.conf|admin.conf|" step3.sh >admin.sh &&
	! new_shell admin.sh >admin.out 2>admin.err &&
	cat admin.err &&
	grep -q "refusing to set the password of .*: it has rights beyond one database" admin.err &&
	expect_db "SELECT COUNT(*) FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = '"'"'${D}y'"'"'" 0 &&
	svc_sql "$DB_SOCKET" -N -e "SELECT 1" >still &&
	test "$(cat still)" = 1
'

test_expect_success 'step 4 in another shell: the configuration as the service reads it is ok' '
	readme_step 4 >step4.sh &&
	cat step4.sh &&
	new_shell step4.sh
'

# The service as systemd starts it: cms.env in its environment, nothing else.
app_started=1
set_socket_path APP_SOCKET pool.sock
POOL_PID=$(set -a && . "$TRASH/etc/cms.env" && set +a &&
	svc_pool_start "$APP_BIN" "$TRASH/etc/cms.conf" "$APP_SOCKET" 2 "$TRASH/app.log" "$TRASH" \
		"$TRASH/pool.pid" 2>>"$TRASH/fixture.log") || bail_out "the pool did not start"
FILE_STORE_DIR=$TRASH/assets
start_nginx

test_expect_success 'the pool logs in with the password of cms.env: /readyz is 200' '
	http GET /readyz &&
	expect_status 200
'

test_expect_success 'root logs in with the password step 3 printed' '
	password=$(sed -n "s/^set root.s password to a generated one: //p" step3.out) &&
	login root "$password"
'

test_done
