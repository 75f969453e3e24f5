#!/bin/sh
test_description='no configured value reaches MariaDB'"'"'s programs as an option: a db_name that starts with "-" is refused at load with its file and line, mariadb-dump gets the name after "--", and a line break in the password stays inside the option file'"'"'s value'
. "$(dirname "$0")/lib.sh"

command -v mariadb-dump >/dev/null 2>&1 || skip_all "mariadb-dump is not installed (scripts/install-deps)"

start_db
start_app

# A mariadb-dump that writes its arguments to dump.args, one a line, then runs the real one.
test_expect_success 'setup: a mariadb-dump that records its arguments' '
	mkdir tools &&
	printf "#!/bin/sh\nprintf \"%%s\\\\n\" \"\$@\" >\"%s\"\nexec \"%s\" \"\$@\"\n" \
		"$TRASH/dump.args" "$(command -v mariadb-dump)" >tools/mariadb-dump &&
	chmod +x tools/mariadb-dump
'

test_expect_success 'a db_name that starts with "-" is refused at load, naming the file, the line and the key' '
	sed "s|^db_name = .*|db_name = --result-file=$TRASH/written|" cms.conf >dash.conf &&
	line=$(grep -n "^db_name = " dash.conf | cut -d: -f1) &&
	! PATH=$TRASH/tools:$PATH "$APP_BIN" -c dash.conf --backup "$TRASH/dash" >dash.out 2>dash.err &&
	grep -q "dash.conf. line $line: key .db_name.: .--result-file=" dash.err &&
	test ! -e dump.args &&
	test ! -e written &&
	test ! -e dash
'

test_expect_success 'CMS_DB_NAME that starts with "-" is refused, naming the variable' '
	! CMS_DB_NAME=-x "$APP_BIN" -c cms.conf -t >env.out 2>env.err &&
	grep -q "CMS_DB_NAME" env.err
'

test_expect_success 'mariadb-dump gets the database name as its last argument, after "--"' '
	PATH=$TRASH/tools:$PATH "$APP_BIN" -c cms.conf --backup "$TRASH/args" >args.path 2>args.err &&
	test -s "$(cat args.path)" &&
	tail -n 2 dump.args >last-two &&
	printf -- "--\n%s\n" "$DB_NAME" >expected-last-two &&
	cmp expected-last-two last-two
'

# The account authenticates by unix_socket, so the password is not checked: what matters is
# that the option file holds it as one value. Written raw, the break would end the value and
# make the next line an option of its own: here mariadb-dump's result-file, which would send the
# dump to a file of the password's choosing instead of the archive.
test_expect_success 'a password with a line break stays one value in the option file: no option comes of it' '
	CMS_DB_PASSWORD="$(printf "pw\nresult-file = %s" "$TRASH/injected")" \
		"$APP_BIN" -c cms.conf --backup "$TRASH/newline" >newline.path 2>newline.err &&
	test -s "$(cat newline.path)" &&
	test -z "$(ls | grep "^injected")"
'

test_done
