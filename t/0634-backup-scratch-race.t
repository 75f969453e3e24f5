#!/bin/sh
test_description='root'"'"'s --backup and --restore, whose scratch directory is made in a directory the service account owns, never read an option file the account put there: a watcher that renames each new scratch directory, puts its own in its place and swaps client.cnf for one naming its socket, in a loop, reaches none of them'
. "$(dirname "$0")/lib.sh"

# As the attacker: root runs the commands, nobody owns the directories and races them.
[ "$(id -u)" = 0 ] || skip_all "racing as another user against root'\''s command needs root"
command -v runuser >/dev/null 2>&1 || skip_all "runuser is not installed (util-linux)"
command -v mariadb-dump >/dev/null 2>&1 || skip_all "mariadb-dump is not installed (scripts/install-deps)"

start_db
start_app

reachable_dir SVC svc
TARGET=target_$$

# race DIR PREFIX: as nobody, in the background (pid in racer.pid), until DIR/stop exists or
# for 120 s: each new DIR/PREFIX* is renamed away, a directory of nobody's made at its name, and
# a client.cnf written there, or swapped for root's as soon as root has written it.
race () {
	runuser -u nobody -- python3 -c 'import os, sys, time
d, prefix, evil = sys.argv[1], sys.argv[2], sys.argv[3]
seen, n, end = set(), 0, time.time() + 120
while time.time() < end and not os.path.exists(os.path.join(d, "stop")):
    for name in os.listdir(d):
        if not name.startswith(prefix) or name in seen:
            continue
        path = os.path.join(d, name)
        try:
            os.rename(path, os.path.join(d, "moved-%d" % n)); n += 1
            os.mkdir(path); os.chmod(path, 0o777); seen.add(name)
        except OSError:
            continue
        for _ in range(20000):
            try:
                with open(path + "/evil.new", "w") as f:
                    f.write(evil)
                os.rename(path + "/evil.new", path + "/client.cnf")
                if os.path.getsize(path + "/client.cnf") == len(evil):
                    break
            except OSError:
                pass' "$1" "$2" "$(printf "[client]\nsocket = %s\nuser = nobody\n" "$TRASH/attacker.sock")" &
	echo $! >"$TRASH/racer.pid"
}
# stop_race DIR: stops the racer of DIR and waits for it.
stop_race () {
	touch "$1/stop" && wait "$(cat "$TRASH/racer.pid")" && rm "$1/stop"
}

# MariaDB's tools, each started 0.3 s late: the window between the scratch directory made and
# its option file read, which a busy host can widen as much, made wide enough for the watcher.
slow_tool () {
	printf "#!/bin/sh\nsleep 0.3\nexec \"%s\" \"\$@\"\n" "$(command -v "$1")" >"$TRASH/tools/$1" &&
	chmod +x "$TRASH/tools/$1"
}

test_expect_success 'setup: the account'"'"'s backup directory, and slow tools' '
	mkdir tools && slow_tool mariadb-dump && slow_tool mariadb &&
	sed "s|^log_file = .*|log_file = $TRASH/backup.log|" cms.conf >backup.conf &&
	mkdir "$SVC/backups" && chown nobody:nogroup "$SVC" "$SVC/backups"
'

test_expect_success 'ten backups into it while the account races each scratch directory read no option file of the account'"'"'s' '
	race "$SVC/backups" .cms-backup- &&
	n=0 &&
	while [ $n -lt 10 ]; do
		next_second
		PATH=$TRASH/tools:$PATH "$APP_BIN" -c backup.conf --backup "$SVC/backups" >>backups.out 2>&1
		n=$((n + 1))
	done &&
	stop_race "$SVC/backups" &&
	ls -a "$SVC/backups" >listing &&
	grep -q "^moved-" listing &&
	! grep "attacker.sock" backups.out &&
	test "$(grep -c "^$SVC/backups/cms-backup-" backups.out)" -ge 1
'

test_expect_success 'five restores beside a store in the account'"'"'s directory, raced alike, read no option file of the account'"'"'s' '
	archive=$(grep "^$SVC/backups/cms-backup-" backups.out | tail -n 1) &&
	sed -e "s|^db_name = .*|db_name = $TARGET|" -e "s|^file_store_dir = .*|file_store_dir = $SVC/assets|" \
		-e "s|^log_file = .*|log_file = $TRASH/restore.log|" cms.conf >restore.conf &&
	echo "sql_dir = $TOP/sql" >>restore.conf &&
	race "$SVC" .cms-restore- &&
	n=0 &&
	while [ $n -lt 5 ]; do
		PATH=$TRASH/tools:$PATH "$APP_BIN" -c restore.conf --restore "$archive" --replace \
			>>restores.out 2>&1
		n=$((n + 1))
	done &&
	stop_race "$SVC" &&
	ls -a "$SVC" >listing &&
	grep -q "^moved-" listing &&
	! grep "attacker.sock" restores.out
'

test_done
