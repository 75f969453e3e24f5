#!/bin/sh
test_description='shared hosting as Debian ships it: Apache started as root with User www-data, mod_userdir with its default options (MultiViews among them) and the AllowOverride doc/deploy-apache-shared-hosting.md names, suexec, mod_cgid and mod_fcgid; an ordinary user made for the test follows that recipe in its home, and the app answers below ~user/api/ as a CGI program, then through mod_fcgid'
. "$(dirname "$0")/lib.sh"

# Needs root: it makes a user, and suexec runs programs only for an Apache started as root.
[ "$(id -u)" -eq 0 ] || skip_all "needs root (a user made for the test, and suexec)"
for _tool in apache2 useradd userdel setpriv; do
	command -v "$_tool" >/dev/null 2>&1 || skip_all "$_tool is not installed"
done
SUEXEC=/usr/lib/apache2/suexec
DEBIAN_MODS=/etc/apache2/mods-available
[ -x "$SUEXEC" ] || skip_all "no $SUEXEC (apache2-suexec-pristine: scripts/install-deps)"
[ -e "$DEBIAN_MODS/userdir.conf" ] || skip_all "no $DEBIAN_MODS/userdir.conf (apache2)"
[ -e "$svc_apache_modules/mod_fcgid.so" ] || skip_all "no mod_fcgid (libapache2-mod-fcgid)"
getent passwd www-data >/dev/null || skip_all "no user www-data"
# suexec logs every program it runs there, and runs none when it cannot.
[ -d /var/log/apache2 ] || skip_all "no /var/log/apache2 for suexec's log"

# What doc/deploy-apache-shared-hosting.md asks of the host, and no more (t/lib/fixtures.sh).
ALLOW_OVERRIDE=$SHARED_HOST_ALLOW_OVERRIDE
SITE_USER=cmst$$
SITE_HOME=/home/$SITE_USER
HTTP_PORT=$(test_port 1)
DB_PORT=$(test_port 2)
API=/~$SITE_USER/api
for _port in $HTTP_PORT $DB_PORT; do
	svc_port_free "$_port" || bail_out "port $_port is already in use"
done
! getent passwd "$SITE_USER" >/dev/null && [ ! -e "$SITE_HOME" ] ||
	bail_out "user $SITE_USER or $SITE_HOME exists already"

# Apache's own directory (configuration, logs, sockets): the checkout may be private to root (CI
# runs it from a mode 0700 directory), and www-data must reach the sockets of mod_cgid and
# mod_fcgid.
APACHE_DIR=$(mktemp -d /tmp/cms-t.XXXXXX) || bail_out "mktemp failed"
# Run at exit, the last given first: Apache stops (and with it the user's mod_fcgid processes)
# before the user goes.
test_atexit 'userdel --force --remove "$SITE_USER" 2>/dev/null; rm -rf "$APACHE_DIR"'
test_atexit 'svc_apache_stop "$APACHE_DIR"; cp "$APACHE_DIR/error.log" "$TRASH/apache-error.log"'

# as_site_user SCRIPT: runs the shell commands SCRIPT as the site user in its home, with the
# environment a login would give (and nothing of the test's).
as_site_user () {
	(cd / && setpriv --reuid="$SITE_USER" --regid="$SITE_USER" --init-groups \
		env -i HOME="$SITE_HOME" USER="$SITE_USER" LOGNAME="$SITE_USER" SHELL=/bin/sh \
		PATH=/usr/local/bin:/usr/bin:/bin sh -ec "cd && $1")
}

# The host: a MariaDB on TCP with an empty database and its account, as a provider gives them.
start_site_db "$DB_PORT"

# The host: an ordinary user, and Apache as Debian configures it, with the modules a shared host
# adds (userdir, suexec, cgid, fcgid, rewrite, headers) and userdir.conf's AllowOverride set to
# the recipe's; of Debian's apache2.conf, the lines that matter here.
useradd --create-home --home-dir "$SITE_HOME" --shell /bin/sh --user-group "$SITE_USER" \
	2>>"$TRASH/fixture.log" || bail_out "cannot create user $SITE_USER"
shared_host_apache "" "$APACHE_DIR" "$HTTP_PORT"
apache2 -d "$APACHE_DIR" -f "$APACHE_DIR/httpd.conf" -t >>"$TRASH/fixture.log" 2>&1 ||
	bail_out "apache2 rejects $APACHE_DIR/httpd.conf"
# Not APACHE_PID, whose checks at test_done are those of start_apache's server.
HOST_APACHE_PID=$(svc_spawn "$APACHE_DIR/apache2.pid" "$APACHE_DIR/error.log" \
	"$(command -v apache2)" -d "$APACHE_DIR" -f "$APACHE_DIR/httpd.conf" -DFOREGROUND \
	2>>"$TRASH/fixture.log") || bail_out "apache2 did not start"
svc_wait_http_200 "http://127.0.0.1:$HTTP_PORT/up" 100 "$HOST_APACHE_PID" 2>>"$TRASH/fixture.log" ||
	bail_out "apache2 did not answer"

# Built on a machine of one's own and staged for the host's path (the recipe's step 1), then uploaded.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$TOP" --no-print-directory install \
	DESTDIR="$TRASH/stage" PREFIX="$SITE_HOME/cms" >>"$TRASH/fixture.log" 2>&1 ||
	bail_out "make install DESTDIR=... PREFIX=$SITE_HOME/cms failed"
tar -C "$TRASH/stage$SITE_HOME/cms" -cf "$APACHE_DIR/upload.tar" . && chmod 644 "$APACHE_DIR/upload.tar" ||
	bail_out "cannot pack the staged tree"

test_expect_success 'setup: the host is Debian'"'"'s userdir (MultiViews on, PUT and DELETE not allowed) with suexec on' '
	grep -Eq "^[[:space:]]*Options .*MultiViews" "$APACHE_DIR/userdir.conf" &&
	test "$(grep -c "AllowOverride $ALLOW_OVERRIDE\$" "$APACHE_DIR/userdir.conf")" = 1 &&
	grep -q "suEXEC mechanism enabled" "$APACHE_DIR/error.log"
'

test_expect_success 'setup: the recipe and both .htaccess examples name the AllowOverride of this host' '
	grep -qF "AllowOverride $ALLOW_OVERRIDE" "$TOP/doc/deploy-apache-shared-hosting.md" &&
	grep -qF "AllowOverride $ALLOW_OVERRIDE" "$TOP/apache/htaccess-cgi.example" &&
	grep -qF "AllowOverride $ALLOW_OVERRIDE" "$TOP/apache/htaccess-fcgid.example"
'

# The recipe's steps 2 and 3, as the user, the editor's part done by sed.
test_expect_success 'the user installs into its home, writes ~/.config/cms-fcgi/cms.conf and sets up the database' '
	as_site_user "
		chmod 711 ~
		mkdir cms && tar -xf $APACHE_DIR/upload.tar -C cms
		! ldd ~/cms/sbin/cms-fcgi | grep \"not found\"
		mkdir -p ~/.config/cms-fcgi
		mv ~/cms/etc/cms-fcgi/cms.conf ~/.config/cms-fcgi/cms.conf
		chmod 600 ~/.config/cms-fcgi/cms.conf
		sed -i -e \"s|^db_host =.*|db_host = 127.0.0.1|\" -e \"s|^db_port =.*|db_port = $DB_PORT|\" \
			-e \"s|^db_user =.*|db_user = site|\" -e \"s|^db_password =.*|db_password = $DB_USER_PASSWORD|\" \
			-e \"s|^db_name =.*|db_name = site|\" -e \"s|^jwt_secret =.*|jwt_secret = \$(openssl rand -hex 32)|\" \
			-e \"s|^file_store_dir =.*|file_store_dir = \$HOME/public_html/api/assets|\" \
			-e \"s|^file_public_url =.*|file_public_url = http://127.0.0.1:$HTTP_PORT$API/assets/|\" \
			-e \"s|^log_file =.*|log_file = \$HOME/cms/cms-fcgi.log|\" ~/.config/cms-fcgi/cms.conf
		printf \"%s\\n\" $ROOT_PASSWORD | ~/cms/sbin/cms-fcgi --setup-db
		~/cms/sbin/cms-fcgi -t
	" >steps.out 2>&1 &&
	test "$(stat -c %a "$SITE_HOME/.config/cms-fcgi/cms.conf")" = 600 &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE id = 1" 1
'

test_expect_success 'the user fills ~/public_html/api: the binary as cms.cgi, the two examples as they are' '
	as_site_user "
		mkdir -p ~/public_html/api/assets
		cp ~/cms/sbin/cms-fcgi ~/public_html/api/cms.cgi
		cp ~/cms/share/cms-fcgi/apache/htaccess-cgi.example ~/public_html/api/.htaccess
		cp ~/cms/share/cms-fcgi/apache/htaccess-assets.example ~/public_html/api/assets/.htaccess
	" &&
	cmp "$TOP/apache/htaccess-cgi.example" "$SITE_HOME/public_html/api/.htaccess"
'

# site_login: logs root in through the site, keeps the token for `as root`.
site_login () {
	TOKEN= &&
	http POST "$API/cms/user/login" "{\"username\":\"root\",\"password\":\"$ROOT_PASSWORD\"}" &&
	expect_status 200 &&
	expect_header Content-Type "^application/json" &&
	keep root "$(jq -r .access_token "$TRASH/body")" &&
	test -n "$(kept root)"
}

# The checks the brief of the recipe promises, for the recipe $MODE (cgi or fcgid).
site_checks () {
	test_expect_success "$MODE: GET $API/readyz answers 200: the program found its config" '
		http GET "$API/readyz" &&
		expect_status 200
	'

	test_expect_success "$MODE: root logs in at $API/cms/user/login (MultiViews does not take /cms)" '
		site_login
	'

	test_expect_success "$MODE: POST $API/v1/book with the token answers 201: Authorization arrives" '
		as root &&
		http POST "$API/v1/book" "{\"title\":\"$MODE book\",\"author\":\"A\",\"summary\":\"S\"}" &&
		expect_status 201 &&
		expect_db "SELECT COUNT(*) FROM book WHERE title = \"$MODE book\"" 1
	'

	test_expect_success "$MODE: an admin route: POST $API/cms/admin/group, then PUT it (userdir allows no PUT)" '
		as root &&
		http POST "$API/cms/admin/group" "{\"name\":\"$MODE group\",\"info\":\"i\"}" &&
		expect_status 201 &&
		id=$(db_exec "SELECT id FROM lin_group WHERE name = \"$MODE group\"") &&
		http PUT "$API/cms/admin/group/$id" "{\"name\":\"$MODE group 2\",\"info\":\"i\"}" &&
		expect_status 200 &&
		expect_db "SELECT COUNT(*) FROM lin_group WHERE name = \"$MODE group 2\"" 1
	'

	test_expect_success "$MODE: an upload answers 200; its URL serves the bytes, stored by the user (suexec)" '
		as root &&
		printf "\211PNG\r\n\032\n$MODE" >one.png &&
		http POST "$API/cms/file" "" -F file=@one.png &&
		expect_status 200 &&
		url=$(jq -r ".[0].url" body) &&
		case $url in "http://127.0.0.1:$HTTP_PORT$API/assets/"*) ;; *) false ;; esac &&
		TOKEN= &&
		http GET "${url#http://127.0.0.1:$HTTP_PORT}" &&
		expect_status 200 &&
		cmp one.png body &&
		expect_header Content-Type "^image/png$" &&
		test "$(stat -c %U "$SITE_HOME/public_html/api/assets/${url##*/assets/}")" = "$SITE_USER"
	'

	test_expect_success "$MODE: a malformed body answers 400 with the JSON envelope" '
		as root &&
		http POST "$API/v1/book" "{\"title\":" &&
		expect_status 400 &&
		expect_header Content-Type "^application/json" &&
		expect_json .code 10030 &&
		expect_json .request "POST /v1/book"
	'
}

MODE=cgi
site_checks

test_expect_success 'cgi: a program suexec refuses (group-writable) answers Apache'"'"'s 500 as the JSON envelope' '
	as_site_user "chmod g+w ~/public_html/api/cms.cgi" &&
	http GET "$API/v1/book" &&
	as_site_user "chmod g-w ~/public_html/api/cms.cgi" &&
	expect_status 500 &&
	expect_header Content-Type "^application/json; charset=utf-8$" &&
	expect_json .code 9999 &&
	expect_json .request "GET /v1/book"
'

# The recipe: "With mod_fcgid instead". cms.cgi stays, as a user who skips the rm leaves it.
test_expect_success 'the user switches to mod_fcgid: the binary as cms.fcgi, the fcgid example as it is' '
	as_site_user "
		cp ~/cms/sbin/cms-fcgi ~/public_html/api/cms.fcgi
		cp ~/cms/share/cms-fcgi/apache/htaccess-fcgid.example ~/public_html/api/.htaccess
	" &&
	cmp "$TOP/apache/htaccess-fcgid.example" "$SITE_HOME/public_html/api/.htaccess"
'

MODE=fcgid
site_checks

test_expect_success 'fcgid: the process that answers is cms.fcgi, kept running, as the user' '
	http GET "$API/v1/book/1" &&
	pid=$(grep "path=/v1/book/1 " "$SITE_HOME/cms/cms-fcgi.log" | tail -n 1 | sed "s/.* pid=\([0-9]*\) .*/\1/") &&
	test "$(readlink "/proc/$pid/exe")" = "$SITE_HOME/public_html/api/cms.fcgi" &&
	tr "\0" " " <"/proc/$pid/cmdline" >cmdline &&
	! grep -q -- --supervise cmdline &&
	test "$(stat -c %U "/proc/$pid")" = "$SITE_USER"
'

test_expect_success 'fcgid: the cms.cgi left from the CGI recipe is refused, never sent' '
	http GET "$API/cms.cgi" &&
	expect_status 403 &&
	! cmp -s body "$APP_BIN"
'

test_expect_success 'fcgid: a body over FcgidMaxRequestLen (128 KiB here) answers 500 with the JSON envelope' '
	as root &&
	head -c 200000 /dev/zero >big.png &&
	http POST "$API/cms/file" "" -F file=@big.png &&
	expect_status 500 &&
	expect_header Content-Type "^application/json; charset=utf-8$" &&
	expect_json .code 9999 &&
	expect_json .request "POST /cms/file"
'

test_expect_success 'the app log of the site has no error: lines' '
	test -s "$SITE_HOME/cms/cms-fcgi.log" &&
	! grep -n "error:" "$SITE_HOME/cms/cms-fcgi.log"
'

test_expect_success 'apache error.log has no alert, crit or emerg lines' '
	! grep -nE ":(alert|crit|emerg)\]" "$APACHE_DIR/error.log"
'

# allow_override LIST: userdir.conf's AllowOverride set to LIST, and Apache told to reload it
# (a graceful restart: its children finish their requests and are replaced).
allow_override () {
	sed -i "s/^\([[:space:]]*AllowOverride\)[[:space:]].*/\1 $1/" "$APACHE_DIR/userdir.conf" &&
	kill -s USR1 "$HOST_APACHE_PID"
}

# readyz_answers STATUS: GET $API/readyz answers STATUS.
readyz_answers () {
	http GET "$API/readyz" 2>/dev/null && [ "$(cat "$TRASH/status")" = "$1" ]
}

# Last: Apache logs each refused .htaccess line as an alert.
test_expect_success 'each part of the recipe'"'"'s AllowOverride is needed: without it the site answers 500' '
	for less in "AuthConfig Options=ExecCGI,Indexes,MultiViews" \
		"FileInfo Options=ExecCGI,Indexes,MultiViews" "FileInfo AuthConfig Options=Indexes,MultiViews" \
		"FileInfo AuthConfig Options=ExecCGI,MultiViews" "FileInfo AuthConfig Options=ExecCGI,Indexes"; do
		allow_override "$less" &&
		poll_until 100 readyz_answers 500 || { echo "still served with AllowOverride $less"; false; } || return 1
	done &&
	allow_override "$ALLOW_OVERRIDE" &&
	poll_until 100 readyz_answers 200
'

test_done
