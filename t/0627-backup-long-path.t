#!/bin/sh
test_description='a lin_file path too long for a ustar header (lin_file.path holds 500 characters, a ustar name about 255 bytes) is archived under a pax extended header, read by tar, and restored to the same path; a pax name that leaves the archive'"'"'s directories is refused by name'
. "$(dirname "$0")/lib.sh"

command -v mariadb-dump >/dev/null 2>&1 || skip_all "mariadb-dump is not installed (scripts/install-deps)"

start_db
start_app

TARGET=target_$$
# 265 bytes, of the upload layout (a restore writes no other name): a file name of 254 bytes, which
# no ustar header holds (100 bytes for the last component, 256 in all).
LONG=2020/01/01/$(printf 'f%.0s' $(seq 250)).png

# The target of the restores: database $TARGET and file store $TRASH/target-assets.
sed -e "s|^db_name = .*|db_name = $TARGET|" -e "s|^file_store_dir = .*|file_store_dir = $TRASH/target-assets|" \
	-e "s|^log_file = .*|log_file = $TRASH/restore.log|" "$TRASH/cms.conf" >"$TRASH/restore.conf"
echo "sql_dir = $TOP/sql" >>"$TRASH/restore.conf"

test_expect_success 'setup: a file in the store at a path of 265 bytes, and its lin_file row' '
	mkdir -p "$FILE_STORE_DIR/${LONG%/*}" &&
	png "long" >"$FILE_STORE_DIR/$LONG" &&
	sha=$(sha256sum <"$FILE_STORE_DIR/$LONG" | cut -d" " -f1) &&
	db_exec "INSERT INTO lin_file (path, type, name, extension, size, md5, sha256)
		VALUES (\"$LONG\", \"LOCAL\", \"long.png\", \".png\", $(stat -c %s "$FILE_STORE_DIR/$LONG"), \"x\", \"$sha\")" &&
	test "$(db_exec "SELECT LENGTH(path) FROM lin_file WHERE name = \"long.png\"")" = 265
'

test_expect_success 'the backup succeeds and archives the file under its whole path' '
	"$APP_BIN" -c cms.conf --backup "$TRASH/backups" >archive.path 2>backup.err &&
	tar -tf "$(cat archive.path)" >members &&
	grep -q -x -F "files/$LONG" members &&
	tar -xOf "$(cat archive.path)" "files/$LONG" | cmp - "$FILE_STORE_DIR/$LONG" &&
	! grep -q "not in the file store" backup.err
'

test_expect_success 'the archive restores the file to the same path, with the same bytes' '
	svc_sql "$DB_SOCKET" -e "CREATE DATABASE $TARGET" &&
	"$APP_BIN" -c restore.conf --restore "$(cat archive.path)" >restore.out 2>&1 &&
	cmp "$FILE_STORE_DIR/$LONG" "target-assets/$LONG" &&
	test "$(svc_sql "$DB_SOCKET" -N -B "$TARGET" -e "SELECT path FROM lin_file WHERE name = \"long.png\"")" = "$LONG"
'

# pax_archive NAME ARCHIVE: a pax archive (Python's tarfile) whose one member is named NAME,
# too long for ustar, so that its name is in a pax header.
pax_archive () {
	python3 -c 'import io, sys, tarfile
out = tarfile.open(sys.argv[2], "w", format=tarfile.PAX_FORMAT)
m = tarfile.TarInfo(sys.argv[1]); m.size = 1; out.addfile(m, io.BytesIO(b"x"))
end = out.offset; out.close(); open(sys.argv[2], "r+b").truncate(end + 1024)' "$1" "$2"
}

test_expect_success 'a pax name with .. parts is refused by that name, and nothing is written' '
	dirs=$(printf "d%.0s" $(seq 120)) &&
	pax_archive "files/$dirs/../../../../escaped.png" traversal.tar &&
	! "$APP_BIN" -c restore.conf --restore traversal.tar --replace >traversal.out 2>&1 &&
	grep -q "refusing to restore .*member .files/$dirs/\.\./\.\./\.\./\.\./escaped\.png. is not a file the archive may hold" traversal.out &&
	test -z "$(find "$TRASH" -name escaped.png)"
'

test_expect_success 'an absolute pax name is refused by that name' '
	pax_archive "/$(printf "a%.0s" $(seq 120))/etc-passwd" absolute.tar &&
	! "$APP_BIN" -c restore.conf --restore absolute.tar --replace >absolute.out 2>&1 &&
	grep -q "refusing to restore .*member ./a*/etc-passwd. is not a file the archive may hold" absolute.out
'

test_done
