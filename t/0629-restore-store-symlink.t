#!/bin/sh
test_description='--restore --replace into a file store reached through a symlink: the symlink stays a symlink to the same volume, which holds the archive'"'"'s files; the shared-hosting recipe'"'"'s .htaccess stays; tokens issued before the restore (one revoked since the backup) are refused after it'
. "$(dirname "$0")/lib.sh"
. "$TOP/t/lib/store-restore.sh"

command -v mariadb-dump >/dev/null 2>&1 || skip_all "mariadb-dump is not installed (scripts/install-deps)"
# The link's directory writable by no one else (whatever the umask): a restore follows no link
# that another user could have made or could change.
chmod go-w "$TRASH" && mkdir "$TRASH/volume" && ln -s volume "$TRASH/assets" ||
	bail_out "cannot make the symlinked store"

start_db
start_app "file_store_dir=$TRASH/assets"
start_nginx

restore_round_trip

test_expect_success 'the file store is still the symlink to the volume, and the files are in the volume' '
	test -L assets &&
	test "$(readlink assets)" = volume &&
	path=$(db_exec "SELECT path FROM lin_file ORDER BY id LIMIT 1") &&
	test -f "volume/$path" &&
	test -f volume/.htaccess
'

restore_round_trip_after

test_done
