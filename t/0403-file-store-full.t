#!/bin/sh
test_description='POST /cms/file when the file system of file_store_dir fills up during the write: 507 with code 10306, no row and no file (not even part of one, nor an earlier part of the same request), and uploads work again once space is freed, with no restart'
. "$(dirname "$0")/lib.sh"

# A tmpfs of 1 MiB as the file store, ours: only root may mount one (or sudo without a password,
# as on CI runners).
as_root=
if [ "$(id -u)" -ne 0 ]; then
	sudo -n true 2>/dev/null || skip_all "mounting a small tmpfs as the file store needs root or sudo -n"
	as_root="sudo -n"
fi
mkdir -p "$TRASH/store"
$as_root mount -t tmpfs -o "size=1m,mode=0755,uid=$(id -u),gid=$(id -g)" cms-test-store "$TRASH/store" \
	2>>"$TRASH/fixture.log" || skip_all "cannot mount a tmpfs here (no CAP_SYS_ADMIN?)"
test_atexit "$as_root umount '$TRASH/store'"

start_db
start_app "file_store_dir=$TRASH/store"
start_nginx
# The failed writes are logged as errors, as they should be.
allow_app_errors

# $1 KiB: the PNG signature, then the letter $2.
bytes () {
	printf '\211PNG\r\n\032\n'
	head -c "$(($1 * 1024 - 8))" /dev/zero | tr "\0" "$2"
}

# Stored files, but for the filler.
stored () {
	find "$FILE_STORE_DIR" -type f ! -name filler | wc -l
}

test_expect_success 'setup: root logs in; the store is filled but for 256 KiB' '
	remember root "$ROOT_PASSWORD" &&
	bytes 100 a >small.png &&
	bytes 512 b >big.png &&
	{ dd if=/dev/zero of="$FILE_STORE_DIR/filler" bs=64k 2>/dev/null; true; } &&
	truncate -s -256K "$FILE_STORE_DIR/filler" &&
	df -k "$FILE_STORE_DIR"
'

test_expect_success 'a 512 KiB file into 256 KiB of room answers 507 with code 10306' '
	as root &&
	http POST /cms/file "" -F file=@big.png &&
	expect_status 507 &&
	expect_json .code 10306 &&
	expect_json .request "POST /cms/file"
'

test_expect_success 'and leaves no row, no file and no temporary file' '
	expect_db "SELECT COUNT(*) FROM lin_file" 0 &&
	test "$(stored)" -eq 0 &&
	test -z "$(find "$FILE_STORE_DIR" -name "*.tmp")"
'

test_expect_success 'a small file stored before a big one of the same request is removed with it' '
	as root &&
	http POST /cms/file "" -F one=@small.png -F two=@big.png &&
	expect_status 507 &&
	expect_json .code 10306 &&
	expect_db "SELECT COUNT(*) FROM lin_file" 0 &&
	test "$(stored)" -eq 0
'

test_expect_success 'the error is logged with the file system error' '
	grep -q "error: file store full: .*No space left on device" app.log
'

test_expect_success 'once space is freed, the same request stores both files, no restart needed' '
	as root &&
	rm "$FILE_STORE_DIR/filler" &&
	http POST /cms/file "" -F one=@small.png -F two=@big.png &&
	expect_status 200 &&
	expect_json_true "length == 2" &&
	expect_db "SELECT COUNT(*) FROM lin_file" 2 &&
	test "$(stored)" -eq 2 &&
	cmp big.png "$FILE_STORE_DIR/$(jq -r ".[1].path" body)"
'

test_done
