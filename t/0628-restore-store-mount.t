#!/bin/sh
test_description='--restore --replace into a file store that is a mount point (a tmpfs, mounted when run as root): the restore swaps the store'"'"'s contents, not the store, so the mount stays and holds the archive'"'"'s files; the shared-hosting recipe'"'"'s .htaccess stays; tokens issued before the restore are refused after it'
. "$(dirname "$0")/lib.sh"
. "$TOP/t/lib/store-restore.sh"

command -v mariadb-dump >/dev/null 2>&1 || skip_all "mariadb-dump is not installed (scripts/install-deps)"
[ "$(id -u)" = 0 ] || skip_all "mounting a tmpfs as the file store needs root"
mkdir "$TRASH/volume" || bail_out "cannot make $TRASH/volume"
mount -t tmpfs -o size=16m,mode=0755 cms-fcgi-test "$TRASH/volume" 2>>"$TRASH/fixture.log" ||
	skip_all "cannot mount a tmpfs (no CAP_SYS_ADMIN here?)"
test_atexit 'umount -l "$TRASH/volume"'
STORE_DEVICE=$(stat -c %d "$TRASH/volume")
[ "$STORE_DEVICE" != "$(stat -c %d "$TRASH")" ] || bail_out "the tmpfs is not a mount of its own"

start_db
start_app "file_store_dir=$TRASH/volume"
start_nginx

restore_round_trip

test_expect_success 'the file store is still the tmpfs mount, and the files are on it' '
	test "$(stat -c %d volume)" = "$STORE_DEVICE" &&
	path=$(db_exec "SELECT path FROM lin_file ORDER BY id LIMIT 1") &&
	test "$(stat -c %d "volume/$path")" = "$STORE_DEVICE"
'

restore_round_trip_after

test_done
