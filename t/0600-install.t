#!/bin/sh
test_description='make install DESTDIR=x PREFIX=/usr puts each file in its place, keeps an edited cms.conf, and make uninstall takes every file away again'
. "$(dirname "$0")/lib.sh"

X=$TRASH/x

# make_x TARGET: make TARGET in the checkout, staged into $X as a distribution package would be.
# MAKEFLAGS of an enclosing `make test` would bring its jobserver and its variables along.
make_x () {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -C "$TOP" --no-print-directory "$1" DESTDIR="$X" PREFIX=/usr
}

# The files install must put in $X: fixed ones, and each file of the directories it copies.
expected_files () {
	{
		printf '%s\n' /usr/sbin/cms-fcgi /usr/share/man/man8/cms-fcgi.8 \
			/etc/cms-fcgi/cms.conf /etc/cms-fcgi/cms.conf.example /etc/logrotate.d/cms-fcgi \
			/usr/lib/systemd/system/cms-fcgi.service /usr/lib/systemd/system/cms-fcgi.socket \
			/usr/lib/systemd/system/cms-fcgi-activated.service \
			/usr/lib/systemd/system/cms-fcgi-backup.service /usr/lib/systemd/system/cms-fcgi-backup.timer \
			/usr/share/cms-fcgi/sql/seed.sql \
			/usr/share/cms-fcgi/doc/openapi.yaml /usr/share/cms-fcgi/content.json
		(cd "$TOP/conf" && ls code-message*.properties) | sed "s|^|/usr/share/cms-fcgi/|"
		(cd "$TOP/conf" && find prometheus -type f) | sed "s|^|/usr/share/cms-fcgi/|"
		(cd "$TOP" && find nginx sql/migrate sql/migrations -type f) | sed "s|^|/usr/share/cms-fcgi/|"
		[ ! -d "$TOP/apache" ] || (cd "$TOP" && find apache -type f) | sed "s|^|/usr/share/cms-fcgi/|"
	} | sort
}

test_expect_success 'make install DESTDIR=x PREFIX=/usr installs exactly the expected files' '
	make_x install &&
	expected_files >expected &&
	(cd "$X" && find . ! -type d) | sed "s|^\.||" | sort >installed &&
	diff -u expected installed
'

test_expect_success 'the installed binary is the one built, and executable' '
	test -x "$X/usr/sbin/cms-fcgi" &&
	cmp "$TOP/src/cms-fcgi" "$X/usr/sbin/cms-fcgi"
'

test_expect_success 'no @name@ placeholder is left in the installed man page, units and logrotate snippet' '
	! grep -n "@[a-z]*@" "$X/usr/share/man/man8/cms-fcgi.8" "$X"/usr/lib/systemd/system/* \
		"$X/etc/logrotate.d/cms-fcgi"
'

test_expect_success 'the service unit runs the installed binary on the installed cms.conf' '
	grep -qx "ExecStart=/usr/sbin/cms-fcgi -c /etc/cms-fcgi/cms.conf --supervise --listen /run/cms-fcgi/cms-fcgi.sock" \
		"$X/usr/lib/systemd/system/cms-fcgi.service"
'

test_expect_success 'the first cms.conf is readable by its owner and group only' '
	test "$(stat -c %a "$X/etc/cms-fcgi/cms.conf")" = 640
'

test_expect_success 'the first cms.conf names the installed message table, /var/lib file store and /var/log log file' '
	conf=$X/etc/cms-fcgi/cms.conf &&
	test "$("$APP_BIN" -c "$conf" --get message_file)" = /usr/share/cms-fcgi/code-message.properties &&
	test "$("$APP_BIN" -c "$conf" --get file_store_dir)" = /var/lib/cms-fcgi/assets &&
	test "$("$APP_BIN" -c "$conf" --get log_file)" = /var/log/cms-fcgi/cms-fcgi.log
'

test_expect_success 'the first cms.conf names the installed sql/ and content declaration that --setup-db reads' '
	conf=$X/etc/cms-fcgi/cms.conf &&
	test "$("$APP_BIN" -c "$conf" --get sql_dir)" = /usr/share/cms-fcgi/sql &&
	test "$("$APP_BIN" -c "$conf" --get content_file)" = /usr/share/cms-fcgi/content.json &&
	test -s "$X/usr/share/cms-fcgi/sql/migrations/0002-login-failure-by-address.sql"
'

test_expect_success 'the first cms.conf passes -t with a secret from the environment' '
	CMS_JWT_SECRET=$(svc_random_hex 32) \
	CMS_MESSAGE_FILE=$X/usr/share/cms-fcgi/code-message.properties \
		"$X/usr/sbin/cms-fcgi" -c "$X/etc/cms-fcgi/cms.conf" -t
'

test_expect_success 'cms.conf.example is installed as it is in conf/' '
	cmp "$TOP/conf/cms.conf.example" "$X/etc/cms-fcgi/cms.conf.example"
'

test_expect_success 'make install again keeps an edited cms.conf' '
	sed -i "s/^workers = .*/workers = 9/" "$X/etc/cms-fcgi/cms.conf" &&
	cp "$X/etc/cms-fcgi/cms.conf" edited.conf &&
	make_x install &&
	cmp edited.conf "$X/etc/cms-fcgi/cms.conf" &&
	test "$("$APP_BIN" -c "$X/etc/cms-fcgi/cms.conf" --get workers)" = 9
'

test_expect_success 'make install again refreshes a changed cms.conf.example' '
	echo "workers = 9" >>"$X/etc/cms-fcgi/cms.conf.example" &&
	make_x install &&
	cmp "$TOP/conf/cms.conf.example" "$X/etc/cms-fcgi/cms.conf.example"
'

test_expect_success 'make uninstall DESTDIR=x PREFIX=/usr leaves no file in x' '
	make_x uninstall &&
	(cd "$X" && find . ! -type d) >left &&
	! test -s left
'

test_expect_success 'make uninstall removes the directories that are cms-fcgi'"'"'s own' '
	! test -e "$X/etc/cms-fcgi" &&
	! test -e "$X/usr/share/cms-fcgi"
'

test_done
