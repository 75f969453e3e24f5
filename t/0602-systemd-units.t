#!/bin/sh
test_description='the systemd units pass systemd-analyze verify, score OK in systemd-analyze security, and agree with the first cms.conf and the logrotate snippet'
. "$(dirname "$0")/lib.sh"

for _tool in systemd-analyze man; do
	command -v "$_tool" >/dev/null 2>&1 || skip_all "$_tool is not installed (scripts/install-deps)"
done

# verify needs ExecStart's binary and Documentation's man page to exist: install with a PREFIX
# in the trash (no DESTDIR), so that the units name paths that exist on this machine.
P=$TRASH/p
UNITDIR=$P/lib/systemd/system

env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$TOP" --no-print-directory install PREFIX="$P" \
	>>"$TRASH/fixture.log" 2>&1 || bail_out "make install PREFIX=$P failed"

# unit_value UNIT KEY: the value of KEY= in the installed UNIT (the first, if there are several).
unit_value () {
	sed -n "s/^$2=//p" "$UNITDIR/$1" | head -n 1
}

for unit in cms-fcgi.service cms-fcgi.socket cms-fcgi-activated.service cms-fcgi-backup.service \
	cms-fcgi-backup.timer; do
	test_expect_success "systemd-analyze verify accepts $unit without a warning" '
		MANPATH=$P/share/man systemd-analyze verify "$UNITDIR/'"$unit"'" >verify.out 2>&1 ||
			{ cat verify.out; false; } &&
		{ ! test -s verify.out || { cat verify.out; false; }; }
	'
done

for unit in cms-fcgi.service cms-fcgi-activated.service cms-fcgi-backup.service; do
	test_expect_success "systemd-analyze security gives $unit an exposure of 2.0 or less" '
		systemd-analyze security --offline=true --threshold=20 "$UNITDIR/'"$unit"'" >security.out 2>&1 ||
			{ grep -E "^(✗|→)" security.out; false; }
	'
done

test_expect_success 'cms-fcgi-activated.service has the hardening block of cms-fcgi.service' '
	sed -n "/^# Hardening/,/^\$/p" "$UNITDIR/cms-fcgi.service" | sed "/^\$/d" >main.block &&
	sed -n "/^# Hardening/,/^\$/p" "$UNITDIR/cms-fcgi-activated.service" | sed "/^\$/d" >activated.block &&
	grep -q "^NoNewPrivileges=yes\$" main.block &&
	diff -u main.block activated.block
'

test_expect_success 'cms-fcgi.socket listens on the path cms-fcgi.service gives to --listen' '
	listen=$(unit_value cms-fcgi.service ExecStart | sed -n "s/.* --listen \([^ ]*\).*/\1/p") &&
	test -n "$listen" &&
	test "$(unit_value cms-fcgi.socket ListenStream)" = "$listen"
'

test_expect_success 'the first cms.conf stores uploads in the StateDirectory of both services' '
	store=$("$APP_BIN" -c "$P/etc/cms-fcgi/cms.conf" --get file_store_dir) &&
	for unit in cms-fcgi.service cms-fcgi-activated.service; do
		state=$(unit_value $unit StateDirectory | cut -d" " -f1) &&
		case $store in "/var/lib/$state/"*) ;; *) false ;; esac || return 1
	done
'

test_expect_success 'the first cms.conf logs into the LogsDirectory of both services' '
	log=$("$APP_BIN" -c "$P/etc/cms-fcgi/cms.conf" --get log_file) &&
	for unit in cms-fcgi.service cms-fcgi-activated.service; do
		test "$(dirname "$log")" = "/var/log/$(unit_value $unit LogsDirectory)" || return 1
	done
'

test_expect_success 'the first cms.conf writes backups into a StateDirectory of cms-fcgi-backup.service' '
	dir=$("$APP_BIN" -c "$P/etc/cms-fcgi/cms.conf" --get backup_dir) &&
	unit_value cms-fcgi-backup.service StateDirectory | tr " " "\n" | sed "s|^|/var/lib/|" >dirs &&
	grep -qx "$dir" dirs
'

test_expect_success 'cms-fcgi-backup.timer starts the backup daily, at a randomised moment, and catches up' '
	test "$(unit_value cms-fcgi-backup.timer OnCalendar)" = daily &&
	test -n "$(unit_value cms-fcgi-backup.timer RandomizedDelaySec)" &&
	test "$(unit_value cms-fcgi-backup.timer Persistent)" = true &&
	unit_value cms-fcgi-backup.service ExecStart | grep -q -- " --backup\$"
'

test_expect_success 'the logrotate snippet rotates the log_file of the first cms.conf' '
	log=$("$APP_BIN" -c "$P/etc/cms-fcgi/cms.conf" --get log_file) &&
	pattern=$(sed -n "s/^\(\/[^ ]*\) {\$/\1/p" "$P/etc/logrotate.d/cms-fcgi") &&
	test -n "$pattern" &&
	case $log in $pattern) ;; *) false ;; esac
'

test_done
