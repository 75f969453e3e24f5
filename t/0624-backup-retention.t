#!/bin/sh
test_description='cms-fcgi --backup names its archive after its database and removes only the oldest archives of that database beyond backup_keep: never the archive just written, never a file named by hand, another database'"'"'s archive, an older cms-fcgi'"'"'s name or one dated in the future'
. "$(dirname "$0")/lib.sh"

command -v mariadb-dump >/dev/null 2>&1 || skip_all "mariadb-dump is not installed (scripts/install-deps)"

start_db
start_app

# backup DIR KEEP: one backup into $TRASH/DIR with backup_keep = KEEP; the path it prints in
# DIR.path, what it logs in DIR.err. Each test has a directory of its own: no two backups of one
# directory need to fall in different seconds.
backup () {
	CMS_BACKUP_KEEP=$2 "$APP_BIN" -c "$TRASH/cms.conf" --backup "$TRASH/$1" \
		>"$TRASH/$1.path" 2>"$TRASH/$1.err" &&
	test -s "$(cat "$TRASH/$1.path")"
}

# files DIR NAME...: makes DIR holding a small file of each NAME (none of them a real archive:
# retention goes by the name, and a name is all the test needs).
files () {
	local dir=$TRASH/$1 name
	shift
	mkdir -p "$dir" &&
	for name in "$@"; do
		echo "$name" >"$dir/$name" || return 1
	done
}

# left DIR NAME...: DIR holds exactly the archive of DIR.path and each NAME.
left () {
	local dir=$1
	shift
	{ basename "$(cat "$TRASH/$dir.path")"; printf '%s\n' "$@"; } | sort >"$TRASH/$dir.expected" &&
	ls -A "$TRASH/$dir" | sort >"$TRASH/$dir.left" &&
	diff -u "$TRASH/$dir.expected" "$TRASH/$dir.left"
}

OURS=cms-backup-$DB_NAME

test_expect_success 'the archive is named after the database and the UTC time it was taken' '
	backup named 7 &&
	basename "$(cat named.path)" | grep -E -x "$OURS-[0-9]{8}-[0-9]{6}\.tar"
'

# Issue 25: "wrote ...", then "removed ..." of the same archive, and exit 0.
test_expect_success 'with two archives named by hand and backup_keep = 2, the archive just written and both stay' '
	files by-hand cms-backup-before-upgrade.tar cms-backup-manual.tar &&
	backup by-hand 2 &&
	left by-hand cms-backup-before-upgrade.tar cms-backup-manual.tar &&
	! grep "removed" by-hand.err
'

test_expect_success 'with an archive dated 2099 and backup_keep = 1, the archive just written stays; the 2099 one is kept with a warning' '
	files future "$OURS-20991231-000000.tar" "$OURS-20000101-000000.tar" cms-backup-20991231-000000.tar &&
	backup future 1 &&
	left future "$OURS-20991231-000000.tar" cms-backup-20991231-000000.tar &&
	grep -q "$OURS-20991231-000000.tar. is dated after the archive just written" future.err &&
	grep -q "removed .*$OURS-20000101-000000.tar" future.err
'

test_expect_success 'another database'"'"'s archives, an older cms-fcgi'"'"'s names and near misses are neither counted nor removed' '
	files others "cms-backup-other_db-20000101-000000.tar" "cms-backup-${DB_NAME}x-20000101-000000.tar" \
		cms-backup-20000101-000000.tar "$OURS-2000010x-000000.tar" "$OURS-20000101-000000.tar.partial" \
		"$OURS-20000101-000000.tar" "$OURS-20000102-000000.tar" "$OURS-20000103-000000.tar" &&
	mkdir "others/$OURS-19990101-000000.tar" &&
	ln -s "$TRASH/others/$OURS-20000103-000000.tar" "others/$OURS-19990102-000000.tar" &&
	backup others 2 &&
	left others "cms-backup-other_db-20000101-000000.tar" "cms-backup-${DB_NAME}x-20000101-000000.tar" \
		cms-backup-20000101-000000.tar "$OURS-2000010x-000000.tar" "$OURS-20000101-000000.tar.partial" \
		"$OURS-20000103-000000.tar" "$OURS-19990101-000000.tar" "$OURS-19990102-000000.tar"
'

test_expect_success 'backup_keep = 0 removes nothing' '
	files keep-all "$OURS-20000101-000000.tar" "$OURS-20000102-000000.tar" &&
	backup keep-all 0 &&
	left keep-all "$OURS-20000101-000000.tar" "$OURS-20000102-000000.tar"
'

test_done
