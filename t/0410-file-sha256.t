#!/bin/sh
test_description='POST /cms/file de-duplicates by SHA-256: the row records it beside the MD5; a row without one (stored before schema version 3) is found by its MD5; an MD5 alone never matches a row that has a SHA-256'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

file_rows () {
	db_exec "SELECT COUNT(*) FROM lin_file"
}

test_expect_success 'setup: root logs in' '
	remember root "$ROOT_PASSWORD"
'

test_expect_success 'a new upload records the SHA-256 and the MD5 of its content' '
	as root &&
	png fresh >fresh.png &&
	http POST /cms/file "" -F file=@fresh.png &&
	expect_status 200 &&
	id=$(jq -r ".[0].id" body) &&
	expect_db "SELECT sha256, md5 FROM lin_file WHERE id = $id" \
		"$(printf "%s\t%s" "$(sha256sum fresh.png | cut -d" " -f1)" "$(md5sum fresh.png | cut -d" " -f1)")"
'

test_expect_success 'the same content again answers the row of the same SHA-256' '
	as root &&
	n=$(file_rows) &&
	http POST /cms/file "" -F file=@fresh.png &&
	expect_status 200 &&
	expect_json ".[0].id" "$(db_exec "SELECT id FROM lin_file WHERE sha256 = \"$(sha256sum fresh.png | cut -d" " -f1)\"")" &&
	test "$(file_rows)" -eq "$n"
'

test_expect_success 'a row stored before version 3 (no SHA-256) is found by its MD5' '
	as root &&
	png legacy >legacy.png &&
	mkdir -p "$FILE_STORE_DIR/2020/01/01" &&
	cp legacy.png "$FILE_STORE_DIR/2020/01/01/legacy.png" &&
	db_exec "INSERT INTO lin_file (path, name, extension, size, md5) VALUES
		(\"2020/01/01/legacy.png\", \"legacy.png\", \".png\", 14, \"$(md5sum legacy.png | cut -d" " -f1)\")" &&
	n=$(file_rows) &&
	http POST /cms/file "" -F file=@legacy.png &&
	expect_status 200 &&
	expect_json ".[0].path" 2020/01/01/legacy.png &&
	test "$(file_rows)" -eq "$n"
'

# Deleting a file soft-deletes its row and may remove its file: a pre-version-3 row found by MD5
# must be a live one, or the upload gets a path whose file is gone.
test_expect_success 'a soft-deleted row stored before version 3 is not reused: stored anew, on disk' '
	as root &&
	png deleted >deleted.png &&
	db_exec "INSERT INTO lin_file (path, name, extension, size, md5, delete_time) VALUES
		(\"2020/01/01/deleted.png\", \"deleted.png\", \".png\", 15,
		\"$(md5sum deleted.png | cut -d" " -f1)\", NOW(3))" &&
	n=$(file_rows) &&
	http POST /cms/file "" -F file=@deleted.png &&
	expect_status 200 &&
	path=$(jq -r ".[0].path" body) &&
	test "$path" != 2020/01/01/deleted.png &&
	test "$(file_rows)" -eq $((n + 1)) &&
	cmp deleted.png "$FILE_STORE_DIR/$path"
'

# The row claims this content's MD5 but another SHA-256: another content, as a crafted MD5
# collision would be. Keyed on MD5, the upload would get that row's file.
test_expect_success 'an MD5 match with another SHA-256 is another content: stored anew' '
	as root &&
	png collide >collide.png &&
	db_exec "INSERT INTO lin_file (path, name, extension, size, md5, sha256) VALUES
		(\"2020/01/01/other.png\", \"other.png\", \".png\", 15,
		\"$(md5sum collide.png | cut -d" " -f1)\", \"$(printf other | sha256sum | cut -d" " -f1)\")" &&
	n=$(file_rows) &&
	http POST /cms/file "" -F file=@collide.png &&
	expect_status 200 &&
	test "$(jq -r ".[0].path" body)" != 2020/01/01/other.png &&
	test "$(file_rows)" -eq $((n + 1)) &&
	expect_db "SELECT COUNT(*) FROM lin_file WHERE md5 = \"$(md5sum collide.png | cut -d" " -f1)\"" 2
'

test_done
