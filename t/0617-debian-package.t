#!/bin/sh
test_description='make deb in a clean Debian 12 chroot, lintian-clean; in a fresh one, apt install, README.Debian followed literally, served by nginx, upgraded to the next version, removed and purged'
. "$(dirname "$0")/lib.sh"

# The unit tests are make check's: the builds here skip them (nocheck).
[ "$(id -u)" = 0 ] || skip_all 'needs root: debootstrap, chroot and mount'

# VERSION, and the same tree at NEXT with a migration more (t/lib/upgrade.sh).
next_version_tree "$TRASH/next" >>"$TRASH/fixture.log" 2>&1 ||
	bail_out "cannot make the next version's tree"
NEXT=$NEXT_VERSION
R=$TRASH/root
HTTP_PORT=$(test_port 1)
DEBS=$TRASH/debs
mkdir -p "$DEBS"

# in_root CMD...: CMD in the installed system, as root, with a clean environment and no terminal.
in_root () {
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
		chroot "$R" "$@" </dev/null
}

# The steps of README.Debian, as installed: the command lines of step $1 (indented by five).
readme_step () {
	awk -v n="$1" '/^[0-9]\. / { step = $1 + 0 } /^[A-Z]/ && !/^[0-9]/ { step = 0 }
		step == n && /^     [^ ]/ { sub(/^ +/, ""); print }' "$R/usr/share/doc/cms-fcgi/README.Debian"
}

# run_line LINE: one line of README.Debian in the installed system. Where systemd would act, the
# test does what the unit says: this chroot has no systemd running.
run_line () {
	case $1 in
	editor*) edit_site_and_conf ;;
	"systemctl enable --now cms-fcgi.service") start_pool ;;
	# What the timer starts, cms-fcgi-backup.service, has a test of its own below.
	"systemctl enable --now cms-fcgi-backup.timer") ;;
	*"systemctl reload nginx") in_root sh -c "${1%%systemctl reload nginx*} nginx" ;;
	*) in_root sh -c "$1" ;;
	esac
}

# What the administrator edits in step 2: the site's name and port (this machine's port 80 is
# not the test's), and the address the client loads uploads from.
edit_site_and_conf () {
	sed -i -e "s/listen 80 default_server;/listen 127.0.0.1:$HTTP_PORT default_server;/" \
		-e '/listen \[::\]:80/d' -e 's/server_name .*/server_name cms.example.org;/' \
		"$R/etc/nginx/sites-available/cms-fcgi" &&
	sed -i "s|^#* *file_public_url *=.*|file_public_url = http://127.0.0.1:$HTTP_PORT/assets/|" \
		"$R/etc/cms-fcgi/cms.conf" &&
	grep -q "^file_public_url = http://127.0.0.1:$HTTP_PORT/assets/" "$R/etc/cms-fcgi/cms.conf"
}

# unit_key UNIT KEY: the value of KEY= in the installed unit.
unit_key () {
	sed -n "s/^$2=//p" "$R/lib/systemd/system/$1"
}

# run_unit UNIT [&]: the unit's ExecStart, as its User= and Group= with its supplementary groups,
# its UMask= and the environment of its EnvironmentFile=, its RuntimeDirectory= made first, and
# its StateDirectory= and LogsDirectory= made (when missing) and given to User= with their modes.
run_unit () {
	local unit=$1 exec user group umask env_file runtime dir
	exec=$(unit_key "$unit" ExecStart) && user=$(unit_key "$unit" User) &&
	group=$(unit_key "$unit" Group) && umask=$(unit_key "$unit" UMask) &&
	env_file=$(unit_key "$unit" EnvironmentFile) && runtime=$(unit_key "$unit" RuntimeDirectory) &&
	[ -n "$exec" ] && [ -n "$user" ] || { echo "$unit: no ExecStart= or User=" >&2; return 1; }
	[ -z "$runtime" ] || in_root install -d -o "$user" -g "$group" -m 0750 "/run/$runtime"
	for dir in $(unit_key "$unit" StateDirectory); do
		in_root install -d -o "$user" -g "$group" -m "$(unit_key "$unit" StateDirectoryMode)" \
			"/var/lib/$dir" || return 1
	done
	for dir in $(unit_key "$unit" LogsDirectory); do
		in_root install -d -o "$user" -g "$group" -m "$(unit_key "$unit" LogsDirectoryMode)" \
			"/var/log/$dir" || return 1
	done
	in_root sh -c "set -a; [ ! -f '${env_file#-}' ] || . '${env_file#-}'; set +a;
		exec setpriv --reuid='$user' --regid='$group' --init-groups sh -c 'umask ${umask:-0022}; exec $exec'"
}

start_pool () {
	run_unit cms-fcgi.service >>"$TRASH/pool.log" 2>&1 &
	poll_until 100 ready
}

ready () {
	curl -s -o /dev/null --max-time 2 -w '%{http_code}' "http://127.0.0.1:$HTTP_PORT/readyz" | grep -qx 200
}

# By what runs in the installed system: start_pool ran in a test's subshell, which kept no PID.
stop_pool () {
	local pid ppid
	# TERM to the master alone, as the unit's KillMode=mixed does: the cms-fcgi whose parent is not.
	for pid in $(root_pids); do
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" = cms-fcgi ] || continue
		ppid=$(awk '/^PPid:/ { print $2 }' "/proc/$pid/status" 2>/dev/null)
		[ "$(cat "/proc/$ppid/comm" 2>/dev/null)" = cms-fcgi ] || kill -TERM "$pid" 2>/dev/null
	done
	poll_until 100 no_pool
}

no_pool () {
	for pid in $(root_pids); do
		[ "$(cat "/proc/$pid/comm" 2>/dev/null)" != cms-fcgi ] || return 1
	done
}

# The processes whose root is the installed system, the holder's sleep among them.
root_pids () {
	local p real
	real=$(cd "$R" && pwd -P)
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$real" ] && echo "${p#/proc/}"
	done
	return 0
}

# Everything that runs in the installed system ends with the file; then the holder, whose
# scripts/chroot run unmounts /proc and /dev.
stop_root () {
	local pid
	for pid in $(root_pids); do
		[ "$pid" = "$HOLDER_SLEEP" ] || kill -KILL "$pid" 2>/dev/null
	done
	[ -z "${HOLDER:-}" ] || { kill -TERM "$HOLDER_SLEEP" 2>/dev/null; wait "$HOLDER" 2>/dev/null; }
	return 0
}
test_atexit stop_root

test_expect_success "make deb builds cms-fcgi_${VERSION}_amd64.deb in a clean chroot, and lintian --pedantic finds nothing" '
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL DEB_BUILD_OPTIONS=nocheck \
		make -C "$TOP" --no-print-directory deb >deb.log 2>&1 ||
		{ tail -n 40 deb.log; false; } &&
	grep -q "^deb: wrote dist/cms-fcgi_${VERSION}_amd64.deb" deb.log &&
	cp "$TOP/dist/cms-fcgi_${VERSION}_amd64.deb" "$DEBS/"
'

test_expect_success 'the package links the Debian libraries shared, hardened, and holds no static copy of them' '
	dpkg-deb -x "$DEBS/cms-fcgi_${VERSION}_amd64.deb" x &&
	readelf -d x/usr/sbin/cms-fcgi >dynamic &&
	for lib in libjsoncpp libmariadb libgd libcrypto libargon2 libfcgi libcgicc; do
		grep -q "NEEDED.*$lib" dynamic || { echo "not linked shared: $lib" >&2; exit 1; }
	done &&
	grep -q "BIND_NOW" dynamic &&
	readelf -h x/usr/sbin/cms-fcgi | grep -q "DYN (Position-Independent Executable file)"
'

# The package links nothing static (above): its copyright file has only the project's licence.
test_expect_success 'its copyright file is machine-readable and covers the project with LICENSE'"'"'s MIT (Expat) text' '
	c=x/usr/share/doc/cms-fcgi/copyright &&
	test "$(head -n 1 "$c")" = "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/" &&
	grep -qx "Files: \*" "$c" &&
	grep -qx "Copyright: 2026 the cms-fcgi developers" "$c" &&
	test "$(grep -c "^License:" "$c")" = 1 &&
	grep -qx "License: Expat" "$c" &&
	sed -n "/^License: Expat/,\$p" "$c" | sed -e 1d -e "s/^ //" -e "s/^\.$//" >licence-text &&
	sed -n "/^Permission/,\$p" "$TOP/LICENSE" | cmp - licence-text &&
	! grep -qi "not yet chosen" "$c"
'

test_expect_success "the same tree at version $NEXT, with a migration more, builds too" '
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL DEB_BUILD_OPTIONS=nocheck \
		make -C next --no-print-directory deb >next.log 2>&1 ||
		{ tail -n 40 next.log; false; } &&
	cp "next/dist/cms-fcgi_${NEXT}_amd64.deb" "$DEBS/"
'

test_expect_success 'a fresh Debian 12 with nginx and MariaDB, the packages at hand in /debs' '
	"$TOP/scripts/chroot" unpack "$R" bookworm nginx mariadb-server systemd man-db curl >chroot.log 2>&1 ||
		{ tail -n 20 chroot.log; false; }
'

HOLDER=
HOLDER_SLEEP=
test_expect_success 'its /proc and /dev stay mounted while the test runs' '
	mkdir -p "$R/debs" &&
	{ "$TOP/scripts/chroot" run -b "$DEBS:/debs" "$R" sleep 100000 >holder.log 2>&1 & } &&
	echo $! >holder.pid &&
	poll_until 100 test -f "$R/proc/self/status" &&
	poll_until 100 test -f "$R/debs/cms-fcgi_${VERSION}_amd64.deb"
'
HOLDER=$(cat "$TRASH/holder.pid" 2>/dev/null)
HOLDER_SLEEP=$(root_pids | head -n 1)

test_expect_success 'apt install ./cms-fcgi_*.deb takes its dependencies from the mirror and asks nothing' '
	in_root apt-get install -y -q "/debs/cms-fcgi_${VERSION}_amd64.deb" >install.log 2>&1 ||
		{ tail -n 30 install.log; false; } &&
	in_root dpkg-query -W -f "\${Status} \${Version}\n" cms-fcgi >status &&
	test "$(cat status)" = "install ok installed $VERSION"
'

test_expect_success 'a system user cms-fcgi, and the web server in its group' '
	in_root getent passwd cms-fcgi >passwd &&
	test "$(cut -d: -f7 passwd)" = /usr/sbin/nologin &&
	test "$(cut -d: -f3 passwd)" -lt 1000 &&
	in_root id -nG www-data | grep -qw cms-fcgi
'

test_expect_success 'cms.conf is root:cms-fcgi 0640; cms.env root 0600 holds two generated secrets' '
	test "$(in_root stat -c "%U:%G %a" /etc/cms-fcgi/cms.conf)" = "root:cms-fcgi 640" &&
	test "$(in_root stat -c "%U:%G %a" /etc/cms-fcgi/cms.env)" = "root:root 600" &&
	grep -Eq "^CMS_JWT_SECRET=[0-9a-f]{64}$" "$R/etc/cms-fcgi/cms.env" &&
	grep -Eq "^CMS_DB_PASSWORD=[0-9a-f]{32}$" "$R/etc/cms-fcgi/cms.env" &&
	cp "$R/etc/cms-fcgi/cms.env" env.first
'

test_expect_success 'the conffiles: cms.conf, the message tables, the content declaration, the nginx site and snippets, logrotate' '
	in_root dpkg-query -W -f "\${Conffiles}\n" cms-fcgi | awk "NF { print \$1 }" | sort >conffiles &&
	for f in /etc/cms-fcgi/cms.conf /etc/cms-fcgi/code-message.properties \
		/etc/cms-fcgi/code-message.en.properties /etc/cms-fcgi/content.json \
		/etc/nginx/sites-available/cms-fcgi /etc/nginx/cms-fcgi.conf \
		/etc/nginx/cms-fcgi-params.conf /etc/logrotate.d/cms-fcgi; do
		grep -qx "$f" conffiles || { echo "not a conffile: $f" >&2; exit 1; }
	done &&
	! grep -q cms.env conffiles &&
	grep -qx "message_file = /etc/cms-fcgi/code-message.properties" "$R/etc/cms-fcgi/cms.conf" &&
	grep -qx "content_file = /etc/cms-fcgi/content.json" "$R/etc/cms-fcgi/cms.conf" &&
	test ! -e "$R/etc/nginx/sites-enabled/cms-fcgi"
'

test_expect_success 'the units are installed, known to systemd, and neither enabled nor started' '
	for u in cms-fcgi.service cms-fcgi.socket cms-fcgi-activated.service cms-fcgi-backup.service \
		cms-fcgi-backup.timer; do
		test -f "$R/lib/systemd/system/$u" || { echo "no $u" >&2; exit 1; }
	done &&
	test "$(in_root systemctl is-enabled cms-fcgi.service)" = disabled &&
	test "$(in_root systemctl is-enabled cms-fcgi-backup.timer)" = disabled &&
	no_pool
'

test_expect_success 'systemd-analyze verify finds nothing wrong with the installed units' '
	in_root systemd-analyze verify /lib/systemd/system/cms-fcgi.service \
		/lib/systemd/system/cms-fcgi-activated.service /lib/systemd/system/cms-fcgi.socket \
		/lib/systemd/system/cms-fcgi-backup.service /lib/systemd/system/cms-fcgi-backup.timer \
		>verify.log 2>&1 || { cat verify.log; false; }
'

test_expect_success 'MariaDB runs in the installed system (on its socket only)' '
	in_root install -d -o mysql -g mysql /run/mysqld &&
	{ in_root setpriv --reuid=mysql --regid=mysql --init-groups mariadbd --skip-networking \
		--socket=/run/mysqld/mysqld.sock >mariadb.log 2>&1 & } &&
	poll_until 300 in_root mariadb-admin --socket=/run/mysqld/mysqld.sock ping
'

test_expect_success 'README.Debian step 1 sets up the database and prints root'"'"'s password' '
	readme_step 1 >step1 &&
	test "$(wc -l <step1)" = 1 &&
	in_root sh -c "$(cat step1)" >step1.out 2>&1 || { cat step1.out; false; } &&
	sed -n "s/^set root.s password to a generated one: //p" step1.out >root-password &&
	test -s root-password
'

test_expect_success 'README.Debian step 2 enables the nginx site, step 3 starts the pool' '
	readme_step 2 >step2 && grep -q "ln -s ../sites-available/cms-fcgi" step2 &&
	while read -r line; do run_line "$line" || exit 1; done <step2 &&
	readme_step 3 >step3 && grep -q "enable --now cms-fcgi.service" step3 &&
	while read -r line; do run_line "$line" || exit 1; done <step3
'

test_expect_success 'step 4: /readyz through nginx' '
	http GET /readyz && expect_status 200
'

test_expect_success 'root logs in with the printed password; an admin route answers' '
	login root "$(cat root-password)" &&
	echo "$TOKEN" >root.token &&
	http GET /cms/admin/users && expect_status 200
'

test_expect_success 'a book is created and read back' '
	TOKEN=$(cat root.token) &&
	http POST /v1/book "{\"title\":\"Packaged\",\"author\":\"apt\",\"summary\":\"s\",\"image\":\"i\"}" &&
	expect_status 201 &&
	http GET /v1/book/search/one?q=Packaged && expect_status 200 &&
	jq -r .id body >book-id && http GET "/v1/book/$(cat book-id)" && expect_json .title Packaged
'

test_expect_success 'an upload is stored in /var/lib/cms-fcgi/assets and served back by nginx byte for byte' '
	TOKEN=$(cat root.token) &&
	png "packaged" >up.png &&
	http POST /cms/file "" -F file=@up.png && expect_status 200 &&
	jq -r ".[0].path" body >upload-path &&
	cmp up.png "$R/var/lib/cms-fcgi/assets/$(cat upload-path)" &&
	curl -s --max-time 5 -o served.png "http://127.0.0.1:$HTTP_PORT/assets/$(cat upload-path)" &&
	cmp up.png served.png
'

test_expect_success 'the backup unit, run as it says, writes an archive into /var/lib/cms-fcgi/backups' '
	run_unit cms-fcgi-backup.service >backup.out 2>&1 || { cat backup.out; false; } &&
	ls "$R"/var/lib/cms-fcgi/backups/cms-backup-*.tar >archives &&
	test "$(wc -l <archives)" = 1
'

test_expect_success "upgrading to $NEXT keeps an edited cms.conf without asking, and the secrets" '
	stop_pool &&
	echo "# kept across upgrades (t/0617)" >>"$R/etc/cms-fcgi/cms.conf" &&
	in_root apt-get install -y -q "/debs/cms-fcgi_${NEXT}_amd64.deb" >upgrade.log 2>&1 ||
		{ tail -n 30 upgrade.log; false; } &&
	test "$(in_root dpkg-query -W -f "\${Version}" cms-fcgi)" = "$NEXT" &&
	grep -q "^# kept across upgrades (t/0617)" "$R/etc/cms-fcgi/cms.conf" &&
	test "$(in_root stat -c "%U:%G %a" /etc/cms-fcgi/cms.conf)" = "root:cms-fcgi 640" &&
	cmp env.first "$R/etc/cms-fcgi/cms.env" &&
	! test -e "$R/etc/cms-fcgi/cms.conf.dpkg-new"
'

test_expect_success 'the new pool refuses the old schema with exit 78, which the unit does not restart' '
	test "$(unit_key cms-fcgi.service RestartPreventExitStatus)" = 78 &&
	{ run_unit cms-fcgi.service >refused.out 2>&1; echo $? >refused.status; } &&
	test "$(cat refused.status)" = 78 &&
	grep -q "upgrade it with .cms-fcgi -c FILE --setup-db" refused.out
'

test_expect_success 'README.Debian'"'"'s upgrade step (step 1 again) brings the schema up to date' '
	grep -q "step 1.s command again" "$R/usr/share/doc/cms-fcgi/README.Debian" &&
	in_root sh -c "$(readme_step 1)" >step1-again.out 2>&1 || { cat step1-again.out; false; } &&
	test "$(in_root mariadb -N -e "SELECT version FROM cms.cms_schema_version")" = "$NEXT_SCHEMA"
'

test_expect_success 'after the upgrade the data, the upload and root'"'"'s password are all there' '
	start_pool &&
	login root "$(cat root-password)" &&
	http GET "/v1/book/$(cat book-id)" && expect_json .title Packaged &&
	curl -s --max-time 5 -o served-again.png "http://127.0.0.1:$HTTP_PORT/assets/$(cat upload-path)" &&
	cmp up.png served-again.png
'

# as_service CMD...: CMD in the installed system as the service account, which owns what is in
# /var/lib/cms-fcgi and so may replace assets/ and backups/ by links.
as_service () {
	in_root setpriv --reuid=cms-fcgi --regid=cms-fcgi --init-groups "$@"
}

test_expect_success 'setup: the service account replaces assets/ and backups/ by links to /etc and to a directory of root'"'"'s' '
	stop_pool &&
	as_service mv /var/lib/cms-fcgi/assets /var/lib/cms-fcgi/assets.real &&
	as_service mv /var/lib/cms-fcgi/backups /var/lib/cms-fcgi/backups.real &&
	as_service ln -s /etc /var/lib/cms-fcgi/assets &&
	as_service ln -s /usr/share/doc/cms-fcgi /var/lib/cms-fcgi/backups &&
	in_root stat -c "%n %U:%G %a" /etc /usr/share/doc/cms-fcgi /var/lib/cms-fcgi /var/log/cms-fcgi \
		>owners.before &&
	grep -qx "/etc root:root 755" owners.before
'

test_expect_success 'dpkg-reconfigure cms-fcgi (an upgrade'"'"'s configure) gives neither /etc nor root'"'"'s directory away, and changes no owner' '
	in_root dpkg-reconfigure cms-fcgi >reconfigure.log 2>&1 || { tail -n 30 reconfigure.log; false; } &&
	in_root stat -c "%n %U:%G %a" /etc /usr/share/doc/cms-fcgi /var/lib/cms-fcgi /var/log/cms-fcgi \
		>owners.after &&
	diff -u owners.before owners.after
'

test_expect_success 'setup: the account puts assets/ and backups/ back' '
	as_service rm /var/lib/cms-fcgi/assets /var/lib/cms-fcgi/backups &&
	as_service mv /var/lib/cms-fcgi/assets.real /var/lib/cms-fcgi/assets &&
	as_service mv /var/lib/cms-fcgi/backups.real /var/lib/cms-fcgi/backups
'

test_expect_success 'apt remove keeps the configuration, the secrets and the data' '
	stop_pool &&
	in_root apt-get remove -y -q cms-fcgi >remove.log 2>&1 || { tail -n 30 remove.log; false; } &&
	test ! -e "$R/usr/sbin/cms-fcgi" &&
	cmp env.first "$R/etc/cms-fcgi/cms.env" &&
	grep -q "^# kept across upgrades (t/0617)" "$R/etc/cms-fcgi/cms.conf" &&
	test -f "$R/var/lib/cms-fcgi/assets/$(cat upload-path)"
'

test_expect_success 'apt purge removes configuration, secrets, logs and the site link, keeps the data, and says how to drop it' '
	in_root apt-get purge -y -q cms-fcgi >purge.log 2>&1 || { tail -n 30 purge.log; false; } &&
	test ! -e "$R/etc/cms-fcgi" &&
	test ! -e "$R/var/log/cms-fcgi" &&
	test ! -e "$R/etc/nginx/sites-enabled/cms-fcgi" &&
	test ! -e "$R/etc/nginx/cms-fcgi-texts.conf" &&
	in_root nginx -t >nginx-t.log 2>&1 &&
	test -f "$R/var/lib/cms-fcgi/assets/$(cat upload-path)" &&
	test "$(in_root mariadb -N -e "SELECT title FROM cms.book WHERE id = $(cat book-id)")" = Packaged &&
	grep -q "DROP DATABASE" purge.log &&
	grep -q "rm -r /var/lib/cms-fcgi" purge.log &&
	! in_root dpkg-statoverride --list /etc/cms-fcgi/cms.conf
'

test_done
