#!/bin/sh
test_description='--restore --replace whose file swap fails at each of its renames (an LD_PRELOAD shim, t/rename-fault.c): it exits non-zero, the database is as before, every file of the replaced store is in its place or where the message says it is kept, nothing of it is deleted; an upload landing mid-swap is kept too'
. "$(dirname "$0")/lib.sh"
. "$TOP/t/lib/store-restore.sh"

command -v mariadb-dump >/dev/null 2>&1 || skip_all "mariadb-dump is not installed (scripts/install-deps)"
CC=${CC:-cc}
command -v "$CC" >/dev/null 2>&1 || skip_all "no C compiler ($CC) to build t/rename-fault.c"

start_db
start_app
start_nginx

# The target is the app's own database and store; the restore logs to a file of its own (its
# failures are error: lines).
sed -e "s|^log_file = .*|log_file = $TRASH/restore.log|" "$TRASH/cms.conf" >"$TRASH/restore.conf"
echo "sql_dir = $TOP/sql" >>"$TRASH/restore.conf"

# fault_restore AT [UPLOAD]: the restore of the archive with the renames numbered AT (1,2...)
# failing, and with UPLOAD ("N:PATH") a file written at PATH after rename N; its output in
# restore.out, each rename in renames.log.
fault_restore () {
	: >"$TRASH/renames.log" &&
	env LD_PRELOAD="$TRASH/rename-fault.so" RENAME_FAULT_MATCH=.cms-restore- \
		RENAME_FAULT_AT="$1" RENAME_FAULT_UPLOAD="${2:-}" RENAME_FAULT_LOG="$TRASH/renames.log" \
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		"$APP_BIN" -c "$TRASH/restore.conf" --restore "$(cat "$TRASH/archive.path")" --replace \
		>"$TRASH/restore.out" 2>&1
}

# The database, and those of its name the restore makes (_restore, _replaced): the server is
# shared with the files prove runs beside this one, whose databases come and go.
db_state () {
	mariadb-dump --no-defaults --socket="$DB_SOCKET" --user="$svc_db_admin" --skip-dump-date \
		--skip-comments --skip-extended-insert "$DB_NAME" 2>/dev/null &&
	svc_sql "$DB_SOCKET" -N -B -e "SHOW DATABASES" | grep "^$DB_NAME"
}

# "FROM TO" of each thing the restore says it could not put back and where it is kept.
kept_map () {
	sed -n "s/^restore: cannot put back '\(.*\)': it is kept at '\(.*\)' (.*)$/\1 \2/p" "$TRASH/restore.out"
}

# Every file of the original store, with its content, at its path, or below where restore.out
# says its entry is kept.
every_file_found () {
	kept_map >"$TRASH/kept" &&
	while read -r path sha; do
		full=$FILE_STORE_DIR/$path
		where=$full
		while read -r from to; do
			case $full in "$from"/*) where=$to/${full#"$from"/} ;; esac
			[ "$full" != "$from" ] || where=$to
		done <"$TRASH/kept"
		test "$(sha256sum <"$where" | cut -d" " -f1)" = "$sha" || {
			echo "$path: not found at $where" >&2
			return 1
		}
	done <"$TRASH/original"
}

# After a fault: it failed, said so, and left the database as before and every file findable.
failed_and_nothing_lost () {
	grep -q "cannot swap the restored files into '$FILE_STORE_DIR'" "$TRASH/restore.out" &&
	grep -q "the database is as it was" "$TRASH/restore.out" &&
	db_state >"$TRASH/db-after" &&
	cmp "$TRASH/db-before" "$TRASH/db-after" &&
	every_file_found
}

# What an operator does with what the message names: each kept entry moved back into its place
# (the restored one there removed), the scratch directory removed.
put_back () {
	kept_map | while read -r from to; do
		rm -rf "$from" && mv "$to" "$from" || exit 1
	done &&
	scratch=$(sed -n "s/^restore: '\(.*\)' is kept: move what it holds back by hand$/\1/p" "$TRASH/restore.out") &&
	test -n "$scratch" &&
	rm -rf "$scratch"
}

test_expect_success 'setup: the rename shim is built' '
	"$CC" -shared -fPIC -o rename-fault.so "$TOP/t/rename-fault.c" -ldl
'

# Two entries to swap: the date directory of the uploads, and 2019/ of a row written by hand
# (as a migrated database has them), whose file changes after the backup, so that the replaced
# one and the restored one differ.
test_expect_success 'setup: two uploads, a legacy row, the recipe .htaccess, the backup, then a third upload' '
	remember root "$ROOT_PASSWORD" &&
	as root &&
	png one >one.png &&
	http POST /cms/file "" -F file=@one.png &&
	expect_status 200 &&
	png two >two.png &&
	http POST /cms/file "" -F file=@two.png &&
	expect_status 200 &&
	mkdir -p "$FILE_STORE_DIR/2019/05/05" &&
	echo legacy >"$FILE_STORE_DIR/2019/05/05/old.png" &&
	db_exec "INSERT INTO lin_file (path, type, name, extension, size, md5, sha256)
		VALUES (\"2019/05/05/old.png\", \"LOCAL\", \"old.png\", \".png\", 7,
		\"$(md5sum <"$FILE_STORE_DIR/2019/05/05/old.png" | cut -d" " -f1)\",
		\"$(sha256sum <"$FILE_STORE_DIR/2019/05/05/old.png" | cut -d" " -f1)\")" &&
	cp "$TOP/apache/htaccess-assets.example" "$FILE_STORE_DIR/.htaccess" &&
	"$APP_BIN" -c cms.conf --backup "$TRASH/backups" >archive.path 2>backup.err &&
	echo changed >>"$FILE_STORE_DIR/2019/05/05/old.png" &&
	png three >three.png &&
	http POST /cms/file "" -F file=@three.png &&
	expect_status 200 &&
	store_files "$FILE_STORE_DIR" >original &&
	test "$(wc -l <original)" = 5 &&
	test "$(ls "$FILE_STORE_DIR" | wc -l)" = 2
'

stop_app

test_expect_success 'setup: the state of the database before the restores' '
	db_state >db-before
'

for at in 1 2 3 4; do
	test_expect_success "a fault at rename $at of the swap: exit 1, everything put back, nothing left" '
		! fault_restore '"$at"' &&
		grep -q "^'"$at"' .* Input/output error$" renames.log &&
		failed_and_nothing_lost &&
		grep -q "; the database is as it was, and so is the file store" restore.out &&
		test -z "$(kept_map)" &&
		store_files "$FILE_STORE_DIR" >now &&
		cmp original now &&
		test -z "$(ls -A "$FILE_STORE_DIR" | grep "^\.cms-restore-")"
	'
done

# The second fault is the first undo's: what it should have put back stays where it is.
for at in 2,3 3,4 4,5; do
	test_expect_success "faults at renames $at (the swap and its first undo): exit 1, what cannot go back is kept and named" '
		! fault_restore '"$at"' &&
		failed_and_nothing_lost &&
		test -n "$(kept_map)" &&
		grep -q "is kept: move what it holds back by hand" restore.out &&
		put_back &&
		store_files "$FILE_STORE_DIR" >now &&
		cmp original now &&
		test -z "$(ls -A "$FILE_STORE_DIR" | grep "^\.cms-restore-")"
	'
done

# The entries are swapped in the order of their names: 2019 (the legacy row's) first.
test_expect_success 'an upload landing in the store right after its entry was moved aside: exit 1, the replaced entry kept and named, the upload there' '
	top=2019 &&
	! fault_restore "" "1:$FILE_STORE_DIR/$top/new-upload.jpg" &&
	failed_and_nothing_lost &&
	grep -q "^restore: cannot put back .$FILE_STORE_DIR/$top.: it is kept at" restore.out &&
	grep -q "uploaded mid-swap" "$FILE_STORE_DIR/$top/new-upload.jpg" &&
	put_back &&
	store_files "$FILE_STORE_DIR" >now &&
	cmp original now
'

test_expect_success 'while a scratch directory kept by a failed swap is in the store, the next restore is refused and changes nothing' '
	! fault_restore 2,3 &&
	cp restore.out kept.out &&
	db_state >db-kept &&
	find "$FILE_STORE_DIR" | sort >tree-kept &&
	! fault_restore "" &&
	grep -q "refusing to restore.*$FILE_STORE_DIR/\.cms-restore-.* exists (left by an interrupted restore?)" restore.out &&
	db_state >db-now &&
	cmp db-kept db-now &&
	find "$FILE_STORE_DIR" | sort >tree-now &&
	cmp tree-kept tree-now &&
	cp kept.out restore.out &&
	put_back &&
	store_files "$FILE_STORE_DIR" >now &&
	cmp original now
'

test_expect_success 'without a fault the same restore swaps the two entries in four renames' '
	fault_restore "" &&
	grep -q "^restore: done" restore.out &&
	test "$(wc -l <renames.log)" = 4 &&
	! grep -v " ok$" renames.log
'

test_expect_success 'after it the store holds the archive'"'"'s files, .htaccess kept, no scratch directory' '
	cmp "$TOP/apache/htaccess-assets.example" "$FILE_STORE_DIR/.htaccess" &&
	test "$(cat "$FILE_STORE_DIR/2019/05/05/old.png")" = legacy &&
	test "$(find "$FILE_STORE_DIR" -type f | wc -l)" = 4 &&
	test -z "$(ls -A "$FILE_STORE_DIR" | grep "^\.cms-restore-")"
'

test_done
