#!/bin/sh
test_description='the release tarball on an older shared host: a Debian 11 chroot (scripts/chroot, cached) with Apache 2.4, Debian'"'"'s userdir, suexec, mod_cgid and mod_fcgid, and no compiler, no libjsoncpp, no MariaDB client library; an ordinary user runs the shell blocks of doc/deploy-apache-shared-hosting.md as they are written, from the tarball, and the app answers below ~user/api/ as a CGI program, then through mod_fcgid'
. "$(dirname "$0")/lib.sh"

# Needs root: a chroot, a user in it, and suexec, which runs programs only for an Apache started as
# root. The tarball is dist/'s when there (CI makes it once with make release), else made here.
[ "$(id -u)" -eq 0 ] || skip_all "needs root (a chroot, a user made for the test, and suexec)"
for _tool in debootstrap chroot mount setpriv flock; do
	command -v "$_tool" >/dev/null 2>&1 || skip_all "$_tool is not installed (scripts/install-deps chroot)"
done

SUITE=bullseye
PACKAGES="apache2 libapache2-mod-fcgid apache2-suexec-pristine"
DOC=$TOP/doc/deploy-apache-shared-hosting.md
VERSION=$(sed -n 's/^AC_INIT(\[cms-fcgi\], \[\([^]]*\)\]).*/\1/p' "$TOP/configure.ac")
TARBALL=${TEST_RELEASE_TARBALL:-$TOP/dist/cms-fcgi-$VERSION-linux-x86_64.tar.gz}
SITE_USER=cmsr$$
SITE_HOME=/home/$SITE_USER
SITE_ROOT_PASSWORD=Root_password1 # the doc's
HTTP_PORT=$(test_port 1)
DB_PORT=$(test_port 2)
API=/~$SITE_USER/api
for _port in $HTTP_PORT $DB_PORT; do
	svc_port_free "$_port" || bail_out "port $_port is already in use"
done

if [ ! -f "$TARBALL" ]; then
	"$TOP/scripts/release" >>"$TRASH/fixture.log" 2>&1 || bail_out "make release failed: see fixture.log"
fi
[ -f "$TARBALL.sha256" ] || bail_out "no $TARBALL.sha256"

# The host: Debian 11 from the cache, in a directory of its own (not the checkout: it is big).
CHROOT_DIR=$(mktemp -d /tmp/cms-t0707.XXXXXX) || bail_out "mktemp failed"
ROOT=$CHROOT_DIR/root
test_atexit '"$TOP/scripts/chroot" remove "$CHROOT_DIR"'
"$TOP/scripts/chroot" unpack "$ROOT" $SUITE $PACKAGES >>"$TRASH/fixture.log" 2>&1 ||
	bail_out "scripts/chroot unpack $SUITE failed: see fixture.log"
in_root () {
	"$TOP/scripts/chroot" run "$ROOT" "$@"
}

# The host's database: a MariaDB on TCP with an empty database and its account, as a provider gives
# them. Loopback is shared with the chroot.
start_site_db "$DB_PORT"

# The user, and Apache as Debian configures it with what a shared host adds, inside the chroot:
# the modules of t/0706, userdir.conf's AllowOverride set to the recipe's.
in_root useradd --create-home --shell /bin/sh --user-group "$SITE_USER" 2>>"$TRASH/fixture.log" ||
	bail_out "cannot create user $SITE_USER in the chroot"
APACHE=/srv/apache
shared_host_apache "$ROOT" "$APACHE" "$HTTP_PORT"
in_root apache2 -d "$APACHE" -f "$APACHE/httpd.conf" -t >>"$TRASH/fixture.log" 2>&1 ||
	bail_out "apache2 rejects httpd.conf"
# The launcher is scripts/chroot (it unmounts when Apache ends); Apache itself is stopped by its
# own PID file.
LAUNCHER_PID=$(svc_spawn "$TRASH/launcher.pid" "$TRASH/launcher.log" "$TOP/scripts/chroot" run "$ROOT" \
	apache2 -d "$APACHE" -f "$APACHE/httpd.conf" -DFOREGROUND 2>>"$TRASH/fixture.log") ||
	bail_out "apache2 did not start"
stop_chroot_apache () {
	local pid
	read -r pid <"$ROOT$APACHE/httpd.pid" 2>/dev/null && svc_kill "$pid" TERM 100
	svc_wait_gone "$LAUNCHER_PID" 100
	cp "$ROOT$APACHE/error.log" "$TRASH/apache-error.log" 2>/dev/null
}
test_atexit stop_chroot_apache
svc_wait_http_200 "http://127.0.0.1:$HTTP_PORT/up" 300 "$LAUNCHER_PID" 2>>"$TRASH/fixture.log" ||
	bail_out "apache2 in the chroot did not answer"

# as_site_user SCRIPT: SCRIPT run by sh -e as the site user in its home inside the chroot, with the
# environment a login gives.
as_site_user () {
	in_root setpriv --reuid="$SITE_USER" --regid="$SITE_USER" --init-groups \
		env -i HOME="$SITE_HOME" USER="$SITE_USER" LOGNAME="$SITE_USER" SHELL=/bin/sh \
		PATH=/usr/local/bin:/usr/bin:/bin sh -ec "cd && $1"
}

# doc_block N: the Nth shell block of the recipe (the tarball's steps), as written, less the
# indentation of its list item.
doc_block () {
	awk -v want="$1" '
		/^The recipe installs the release tarball/ { on = 1 }
		/^### / { on = 0 }
		on && /^ *```sh$/ { n++; inside = 1; next }
		on && inside && /^ *```$/ { inside = 0; next }
		inside && n == want { sub(/^   /, ""); print }
	' "$DOC"
}

# The parts of the recipe a person fills in: the version (recipe_step N [VERSION]), the editor's
# work (done by sed), the site's address. The check with curl is the test's own, from outside.
JWT_SECRET=$(svc_random_hex 32)
EDITOR_FN="editor () { sed -i -e 's|^db_host =.*|db_host = 127.0.0.1|' -e 's|^db_port =.*|db_port = $DB_PORT|' \
	-e 's|^db_user =.*|db_user = site|' -e 's|^db_password =.*|db_password = $DB_USER_PASSWORD|' \
	-e 's|^db_name =.*|db_name = site|' -e 's|^jwt_secret =.*|jwt_secret = $JWT_SECRET|' \
	-e 's|^file_store_dir =.*|file_store_dir = $SITE_HOME/public_html/api/assets|' \
	-e 's|^file_public_url =.*|file_public_url = http://127.0.0.1:$HTTP_PORT$API/assets/|' \
	-e 's|^log_file =.*|log_file = $SITE_HOME/cms-fcgi.log|' \"\$1\"; }"
recipe_step () {
	doc_block "$1" | sed -e "s/^v=.*/v=${2:-$VERSION}/" -e '/^curl /d'
}

test_expect_success 'setup: the host is Debian 11 with Apache, and has no compiler, no libjsoncpp and no MariaDB client library' '
	case $(cat "$ROOT/etc/debian_version") in 11.*) ;; *) false ;; esac &&
	test -x "$ROOT/usr/lib/apache2/suexec" &&
	test -e "$ROOT/usr/lib/apache2/modules/mod_fcgid.so" &&
	! ls "$ROOT"/usr/bin/gcc* "$ROOT"/usr/bin/g++* "$ROOT"/usr/bin/cc 2>/dev/null &&
	! ls "$ROOT"/usr/lib/x86_64-linux-gnu/libjsoncpp* "$ROOT"/usr/lib/x86_64-linux-gnu/libmariadb* 2>/dev/null &&
	grep -q "suEXEC mechanism enabled" "$ROOT$APACHE/error.log"
'

test_expect_success 'setup: the tarball section of the recipe has five shell blocks (steps 1 to 3, mod_fcgid, the upgrade)' '
	for n in 1 2 3 4 5; do test -n "$(doc_block $n)" || return 1; done &&
	test -z "$(doc_block 6)"
'

test_expect_success 'the user uploads the tarball and follows step 1: checked, unpacked beside a symlink' '
	cp "$TARBALL" "$TARBALL.sha256" "$ROOT$SITE_HOME/" &&
	in_root chown "$SITE_USER:" "$SITE_HOME/${TARBALL##*/}" "$SITE_HOME/${TARBALL##*/}.sha256" &&
	as_site_user "$(recipe_step 1)" >step1.out 2>&1 &&
	test "$(readlink "$ROOT$SITE_HOME/cms")" = "cms-fcgi-$VERSION" &&
	grep -q "^openssl: OpenSSL " step1.out
'

# section PACKAGE FILE: the text under PACKAGE's heading in the notice FILE, up to the next heading.
section () {
	awk -v p="$1 " 'index($0, p) == 1 && / \(source [^ ]* [^ ]*\): / { on = 1; next }
		on && / \(source [^ ]* [^ ]*\): / { on = 0 } on' "$2"
}

test_expect_success 'the tree holds LICENSE, and THIRD-PARTY with each library of BUILDINFO, jsoncpp and the C and C++ runtimes, each with its licence text' '
	tree=$ROOT$SITE_HOME/cms-fcgi-$VERSION &&
	cmp "$TOP/LICENSE" "$tree/LICENSE" &&
	sed -n "s/^packages: //p" "$tree/BUILDINFO" | sed "s/, /\n/g" >packages &&
	test "$(wc -l <packages)" -ge 8 &&
	echo "libjsoncpp $(sed -n "s/^jsoncpp_version=//p" "$TOP/scripts/release")" >>packages &&
	while read -r pkg version; do
		grep -q "^$pkg $version (source " "$tree/THIRD-PARTY" &&
		section "$pkg" "$tree/THIRD-PARTY" | grep -qi "licen[cs]e" || {
			echo "no notice of $pkg $version" >&2
			return 1
		}
	done <packages &&
	for pkg in libc6-dev libstdc++-12-dev; do
		section "$pkg" "$tree/THIRD-PARTY" | grep -qi "licen[cs]e" || return 1
	done
'

test_expect_success 'THIRD-PARTY says how to rebuild: the make dist tarball of this version, the source packages, make release' '
	tree=$ROOT$SITE_HOME/cms-fcgi-$VERSION &&
	grep -q "make dist.* cms-fcgi-$VERSION.tar.gz" "$tree/THIRD-PARTY" &&
	grep -q "apt-get source SOURCE=VERSION" "$tree/THIRD-PARTY" &&
	grep -q "^libssl-dev  *[^ ]*  *source openssl " "$tree/THIRD-PARTY" &&
	grep -q "make release" "$tree/THIRD-PARTY" &&
	grep -q "THIRD-PARTY" "$tree/INSTALL"
'

test_expect_success 'step 2: the configuration in ~/.config, --setup-db and -t, as the user' '
	as_site_user "$EDITOR_FN
$(recipe_step 2)" >step2.out 2>&1 &&
	test "$(stat -c %a "$ROOT$SITE_HOME/.config/cms-fcgi/cms.conf")" = 600 &&
	grep -q "is ok" step2.out &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE id = 1" 1
'

# What a static binary does without the host's NSS modules: the C library inside reads
# /etc/hosts itself (step 2 found the user's home through /etc/passwd the same way).
test_expect_success 'db_host as a name of /etc/hosts: --setup-db reaches the database by it' '
	echo "127.0.0.1 db.cms-test.invalid" >>"$ROOT/etc/hosts" &&
	as_site_user "CMS_DB_HOST=db.cms-test.invalid ~/cms/sbin/cms-fcgi --setup-db </dev/null" >byname.out 2>&1
'

test_expect_success 'step 3: ~/public_html/api with cms.cgi and the two examples as they are' '
	as_site_user "$(recipe_step 3)" >step3.out 2>&1 &&
	cmp "$TOP/apache/htaccess-cgi.example" "$ROOT$SITE_HOME/public_html/api/.htaccess"
'

site_login () {
	TOKEN= &&
	http POST "$API/cms/user/login" "{\"username\":\"root\",\"password\":\"$SITE_ROOT_PASSWORD\"}" &&
	expect_status 200 &&
	keep root "$(jq -r .access_token "$TRASH/body")" &&
	test -n "$(kept root)"
}

# median_ms PATH: the median of 20 sequential GETs of PATH, in milliseconds (printed, not checked).
median_ms () {
	local i=0
	: >times
	while [ $i -lt 20 ]; do
		curl -s -o /dev/null -w "%{time_total}\n" "http://127.0.0.1:$HTTP_PORT$1" >>times || return 1
		i=$((i + 1))
	done
	sort -n times | awk '{ t[NR] = $1 } END { printf "%.1f\n", (t[10] + t[11]) / 2 * 1000 }'
}

site_checks () {
	test_expect_success "$MODE: GET $API/healthz answers 200" '
		http GET "$API/healthz" &&
		expect_status 200
	'

	test_expect_success "$MODE: root logs in with the recipe's password" '
		site_login
	'

	test_expect_success "$MODE: POST $API/v1/book answers 201, and GET reads it back" '
		as root &&
		http POST "$API/v1/book" "{\"title\":\"$MODE book\",\"author\":\"A\",\"summary\":\"S\"}" &&
		expect_status 201 &&
		id=$(db_exec "SELECT id FROM book WHERE title = \"$MODE book\"") &&
		http GET "$API/v1/book/$id" &&
		expect_status 200 &&
		expect_json .title "$MODE book"
	'

	test_expect_success "$MODE: an admin route: POST $API/cms/admin/group, then PUT it" '
		as root &&
		http POST "$API/cms/admin/group" "{\"name\":\"$MODE group\",\"info\":\"i\"}" &&
		expect_status 201 &&
		id=$(db_exec "SELECT id FROM lin_group WHERE name = \"$MODE group\"") &&
		http PUT "$API/cms/admin/group/$id" "{\"name\":\"$MODE group 2\",\"info\":\"i\"}" &&
		expect_status 200
	'

	test_expect_success "$MODE: an upload is served back byte for byte" '
		as root &&
		{ printf "\211PNG\r\n\032\n" && head -c 3000 /dev/urandom; } >one.png &&
		http POST "$API/cms/file" "" -F file=@one.png &&
		expect_status 200 &&
		url=$(jq -r ".[0].url" body) &&
		TOKEN= &&
		http GET "${url#http://127.0.0.1:$HTTP_PORT}" &&
		expect_status 200 &&
		cmp one.png body &&
		echo "${url#http://127.0.0.1:$HTTP_PORT}" >"upload-$MODE.path" &&
		cp one.png "upload-$MODE.png"
	'

	test_expect_success "$MODE: a malformed body answers 400 with the JSON envelope" '
		as root &&
		http POST "$API/v1/book" "{\"title\":" &&
		expect_status 400 &&
		expect_header Content-Type "^application/json" &&
		expect_json .code 10030
	'

	test_expect_success "$MODE: 20 sequential GETs of $API/v1/book answer; their median is printed" '
		median_ms "$API/v1/book" >"median-$MODE" &&
		test -s "median-$MODE"
	'
	[ ! -s "$TRASH/median-$MODE" ] || echo "$MODE: the median of 20 sequential GET $API/v1/book" \
		"on the Debian 11 host: $(cat "$TRASH/median-$MODE") ms" | say_diag
}

MODE=cgi
site_checks

test_expect_success 'step 3, with mod_fcgid instead: cms.fcgi and the fcgid example' '
	as_site_user "$(recipe_step 4)" >step4.out 2>&1 &&
	cmp "$TOP/apache/htaccess-fcgid.example" "$ROOT$SITE_HOME/public_html/api/.htaccess" &&
	test ! -e "$ROOT$SITE_HOME/public_html/api/cms.cgi"
'

MODE=fcgid
site_checks

# Step 4: a second release on top. It is this tree at the next version with a migration more
# (t/lib/upgrade.sh), built as make release builds (the compiler cache makes it mostly a link).
next_version_tree "$TRASH/next" >>"$TRASH/fixture.log" 2>&1 ||
	bail_out "cannot make the next version's tree"
NEXT_TARBALL=$TRASH/next/dist/cms-fcgi-$NEXT_VERSION-linux-x86_64.tar.gz
SITE_API=$ROOT$SITE_HOME/public_html/api

test_expect_success "release $NEXT_VERSION, the same tree with a migration more, is built" '
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$TRASH/next/scripts/release" >next-release.log 2>&1 ||
		{ tail -n 40 next-release.log; false; } &&
	test -f "$NEXT_TARBALL.sha256"
'

# The step as written, with the parts a person fills in: the version, and the served file, which is
# cms.fcgi here (the site has served mod_fcgid since step 3's second block).
test_expect_success "step 4 as written, serving cms.fcgi: $NEXT_VERSION beside $VERSION, the schema migrated" '
	cp "$ROOT$SITE_HOME/.config/cms-fcgi/cms.conf" conf-before &&
	db_exec "SELECT COUNT(*) FROM book WHERE delete_time IS NULL" >books-before &&
	cp "$NEXT_TARBALL" "$NEXT_TARBALL.sha256" "$ROOT$SITE_HOME/" &&
	in_root chown "$SITE_USER:" "$SITE_HOME/${NEXT_TARBALL##*/}" "$SITE_HOME/${NEXT_TARBALL##*/}.sha256" &&
	as_site_user "$(recipe_step 5 "$NEXT_VERSION" | sed "s/^s=.*/s=cms.fcgi/")" >step5.out 2>&1 &&
	grep -q "OK$" step5.out &&
	test "$(readlink "$ROOT$SITE_HOME/cms")" = "cms-fcgi-$NEXT_VERSION" &&
	test "$(as_site_user "~/cms/sbin/cms-fcgi --version")" = "cms-fcgi $NEXT_VERSION" &&
	cmp "$ROOT$SITE_HOME/cms/sbin/cms-fcgi" "$SITE_API/cms.fcgi" &&
	test ! -e "$SITE_API/cms.fcgi.new" &&
	expect_db "SELECT version FROM cms_schema_version" "$NEXT_SCHEMA" &&
	expect_db "SELECT table_comment FROM information_schema.tables
		WHERE table_schema = \"site\" AND table_name = \"book\"" books
'

test_expect_success "the configuration is as it was; the old tree stays, and refuses the migrated schema, as step 4 says" '
	cmp conf-before "$ROOT$SITE_HOME/.config/cms-fcgi/cms.conf" &&
	test "$(stat -c %a "$ROOT$SITE_HOME/.config/cms-fcgi/cms.conf")" = 600 &&
	test "$(as_site_user "~/cms-fcgi-$VERSION/sbin/cms-fcgi --version")" = "cms-fcgi $VERSION" &&
	! as_site_user "~/cms-fcgi-$VERSION/sbin/cms-fcgi --setup-db </dev/null" >old-setup.out 2>&1 &&
	grep -q "is newer than this cms-fcgi knows" old-setup.out &&
	expect_db "SELECT version FROM cms_schema_version" "$NEXT_SCHEMA"
'

test_expect_success "after the upgrade: root's password, the books and the uploads are all there" '
	site_login &&
	as root &&
	http GET "$API/v1/book" &&
	expect_status 200 &&
	test "$(jq length body)" = "$(cat books-before)" &&
	TOKEN= &&
	for mode in cgi fcgid; do
		http GET "$(cat "upload-$mode.path")" &&
		expect_status 200 &&
		cmp "upload-$mode.png" body || return 1
	done &&
	as root &&
	http POST "$API/v1/book" "{\"title\":" &&
	expect_status 400 &&
	expect_json .code 10030
'

# mod_fcgid tells programs apart by inode: the renamed file is a new one.
test_expect_success "the requests after it were answered by processes of the new cms.fcgi" '
	for p in /proc/[0-9]*; do readlink "$p/exe" || :; done 2>/dev/null >exes &&
	grep -qx "$SITE_API/cms.fcgi" exes
'

test_expect_success 'the app log of the site has no error: lines' '
	test -s "$ROOT$SITE_HOME/cms-fcgi.log" &&
	! grep -n "error:" "$ROOT$SITE_HOME/cms-fcgi.log"
'

test_expect_success 'apache error.log in the chroot has no alert, crit or emerg lines' '
	! grep -nE ":(alert|crit|emerg)\]" "$ROOT$APACHE/error.log"
'

test_done
