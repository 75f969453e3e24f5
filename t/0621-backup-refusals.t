#!/bin/sh
test_description='cms-fcgi --restore checks the whole archive before it writes anything: a flipped byte, a truncated archive, a missing member, a newer schema and a target that is not empty are refused with a reason and change nothing; --replace replaces; an archive of an older schema is restored and upgraded'
. "$(dirname "$0")/lib.sh"

command -v mariadb-dump >/dev/null 2>&1 || skip_all "mariadb-dump is not installed (scripts/install-deps)"

start_db --private
start_app
start_nginx

TARGET=target_$$

# The target: database $TARGET and file store $TRASH/target-assets, in restore.conf.
# Its own log: the refusals are error: lines, which the app's log must not have.
sed -e "s|^db_name = .*|db_name = $TARGET|" -e "s|^file_store_dir = .*|file_store_dir = $TRASH/target-assets|" \
	-e "s|^log_file = .*|log_file = $TRASH/restore.log|" "$TRASH/cms.conf" >"$TRASH/restore.conf"
echo "sql_dir = $TOP/sql" >>"$TRASH/restore.conf"

# restore ARCHIVE [OPTIONS...]: cms-fcgi --restore into the target, its output in restore.out.
restore () {
	"$APP_BIN" -c "$TRASH/restore.conf" --restore "$@" >"$TRASH/restore.out" 2>&1
}

# Everything a restore could change: the databases of the server, the target's tables and rows,
# and the files next to the file store and below it (names and contents).
state () {
	svc_sql "$DB_SOCKET" -N -B -e "SHOW DATABASES" &&
	mariadb-dump --no-defaults --socket="$DB_SOCKET" --user="$svc_db_admin" --skip-dump-date \
		--skip-comments --skip-extended-insert "$TARGET" 2>/dev/null &&
	(cd "$TRASH" && find . -maxdepth 1 -name ".cms-restore-*" &&
		{ [ ! -d target-assets ] || find target-assets -maxdepth 1 -name ".cms-restore-*"; }) &&
	(cd "$TRASH" && find target-assets -type f -exec sha256sum {} + 2>/dev/null | sort)
}

# refused ARCHIVE TEXT: the restore of ARCHIVE exits 1 saying TEXT, and nothing changed.
refused () {
	state >"$TRASH/before" &&
	{ ! restore "$1" || { echo "the restore of $1 did not fail" >&2; return 1; }; } &&
	grep -q "refusing to restore.*$2" "$TRASH/restore.out" || {
		echo "no 'refusing ... $2' in:" >&2
		cat "$TRASH/restore.out" >&2
		return 1
	}
	state >"$TRASH/after" &&
	cmp "$TRASH/before" "$TRASH/after"
}

# byte_at FILE OFFSET: flips one bit of the byte at OFFSET of FILE.
flip_byte () {
	python3 -c 'import sys
f = open(sys.argv[1], "r+b"); f.seek(int(sys.argv[2])); b = f.read(1); f.seek(int(sys.argv[2]))
f.write(bytes([b[0] ^ 1]))' "$1" "$2"
}

# The offset of the first data byte of member $2 of ustar archive $1.
member_offset () {
	python3 -c 'import sys, tarfile
t = tarfile.open(sys.argv[1])
print(next(m.offset_data for m in t.getmembers() if m.name == sys.argv[2]))' "$1" "$2"
}

test_expect_success 'setup: a backup of the seeded database with one uploaded file' '
	login root "$ROOT_PASSWORD" &&
	png "kept" >kept.png &&
	http POST /cms/file "" -F file=@kept.png &&
	expect_status 200 &&
	"$APP_BIN" -c "$TRASH/cms.conf" --backup "$TRASH/backups" >archive.path 2>backup.err &&
	cp "$(cat archive.path)" good.tar &&
	svc_sql "$DB_SOCKET" -e "CREATE DATABASE $TARGET"
'

test_expect_success 'one byte flipped in the dump is refused, nothing changed' '
	cp good.tar flipped.tar &&
	flip_byte flipped.tar $(($(member_offset good.tar db.sql) + 1000)) &&
	refused flipped.tar "db.sql.*does not match its SHA-256"
'

test_expect_success 'one byte flipped in an uploaded file is refused, nothing changed' '
	cp good.tar flipped-file.tar &&
	member=$(tar -tf good.tar | grep "^files/") &&
	flip_byte flipped-file.tar "$(member_offset good.tar "$member")" &&
	refused flipped-file.tar "does not match its SHA-256"
'

test_expect_success 'one byte flipped in the manifest is refused, nothing changed' '
	cp good.tar flipped-manifest.tar &&
	flip_byte flipped-manifest.tar "$(($(member_offset good.tar manifest.json) + 20))" &&
	refused flipped-manifest.tar "manifest.json does not match manifest.sha256"
'

test_expect_success 'one byte flipped in a member header is refused, nothing changed' '
	cp good.tar flipped-header.tar &&
	flip_byte flipped-header.tar 1 &&
	refused flipped-header.tar "checksum is wrong"
'

test_expect_success 'a truncated archive is refused, nothing changed' '
	head -c "$(($(stat -c %s good.tar) - 1536))" good.tar >truncated.tar &&
	refused truncated.tar "truncated" &&
	head -c "$(member_offset good.tar manifest.json)" good.tar >cut-before-manifest.tar &&
	refused cut-before-manifest.tar "truncated"
'

# Python's tarfile pads an archive with zeros to a whole record (10 KiB) after its end marker;
# cms-fcgi writes no such padding and refuses any byte there, so the copy ends at the marker.
test_expect_success 'an archive without one of its members is refused, nothing changed' '
	python3 -c "import os, tarfile
src = tarfile.open(\"good.tar\"); out = tarfile.open(\"missing.tar\", \"w\", format=tarfile.USTAR_FORMAT)
for m in src.getmembers():
    if not m.name.startswith(\"files/\"):
        out.addfile(m, src.extractfile(m))
out.close()
os.truncate(\"missing.tar\", out.offset)" &&
	refused missing.tar "member .files/.* is missing"
'

# rewritten SRC DEST CODE: archive DEST is SRC with the Python CODE run on data (member name to
# bytes) and manifest (the parsed manifest.json), and the manifest's sizes and SHA-256s made to
# match: what anyone who can write an archive can make.
rewritten () {
	python3 -c "import hashlib, io, json, sys, tarfile
src = tarfile.open(sys.argv[1]); out = tarfile.open(sys.argv[2], \"w\", format=tarfile.USTAR_FORMAT)
data = {m.name: src.extractfile(m).read() for m in src.getmembers()}
manifest = json.loads(data[\"manifest.json\"])
exec(sys.argv[3])
for name, member in manifest[\"members\"].items():
    member[\"size\"] = len(data[name]); member[\"sha256\"] = hashlib.sha256(data[name]).hexdigest()
data[\"manifest.json\"] = json.dumps(manifest).encode()
data[\"manifest.sha256\"] = (hashlib.sha256(data[\"manifest.json\"]).hexdigest() + \"  manifest.json\\n\").encode()
for name, bytes_ in data.items():
    m = tarfile.TarInfo(name); m.size = len(bytes_); m.mode = 0o600; out.addfile(m, io.BytesIO(bytes_))
end = out.offset; out.close(); open(sys.argv[2], \"r+b\").truncate(end + 1024)" "$1" "$2" "$3"
}

# An archive is checked for damage, not for tampering: its manifest can be rewritten to match.
test_expect_success 'a client command in the dump of a rewritten archive is not run (mariadb --sandbox)' '
	rewritten good.tar shell.tar "data[\"db.sql\"] = b\"\\\\! touch $TRASH/shell-ran\\n\" + data[\"db.sql\"]" &&
	tar -xOf shell.tar db.sql | head -n 1 | grep -q "^\\\\! touch " &&
	! restore shell.tar --replace &&
	grep -q "sandbox" restore.out &&
	test ! -e shell-ran
'

test_expect_success 'a binary-log file name that mariadb-binlog would take for an option is refused' '
	rewritten good.tar option.tar "manifest[\"binlog\"] = {\"file\": \"--result-file=$TRASH/written\", \"position\": 4, \"gtid\": \"\"}" &&
	state >before &&
	! restore option.tar --replace --until "2030-01-01 00:00:00" &&
	grep -q "refusing to restore.*binary-log position" restore.out &&
	state >after &&
	cmp before after &&
	test ! -e written
'

test_expect_success 'a member outside db.sql, files/ and the manifest is refused, even when listed' '
	rewritten good.tar extra.tar "data[\"x\"] = b\"1\"; manifest[\"members\"][\"x\"] = {}" &&
	refused extra.tar "member .x. is not a file the archive may hold"
'

# The store is served: a .htaccess there is obeyed by Apache, an x.php run where PHP is mapped
# server-wide (the store's SetHandler None loses to it).
for name in .htaccess x.php 2026/01/01/x.php 2026/01/01/.htaccess legacy/old.png; do
	test_expect_success "a files/ member outside the upload layout ($name) is refused, nothing written" '
		rewritten good.tar layout.tar "data[\"files/'"$name"'\"] = b\"1\"; manifest[\"members\"][\"files/'"$name"'\"] = {}" &&
		refused layout.tar "member .files/'"$name"'. is not a file the archive may hold"
	'
done

test_expect_success 'a manifest field of another type is refused with a message, not a crash' '
	rewritten good.tar types.tar "manifest[\"time\"] = 1; manifest[\"binlog\"] = \"x\"" &&
	refused types.tar "of another type"
'

test_expect_success 'an archive of a newer schema is refused, nothing changed' '
	db_exec "UPDATE cms_schema_version SET version = version + 1" &&
	"$APP_BIN" -c "$TRASH/cms.conf" --backup "$TRASH/backups-newer" >newer.path 2>>backup.err &&
	db_exec "UPDATE cms_schema_version SET version = version - 1" &&
	refused "$(cat newer.path)" "is newer than this cms-fcgi knows"
'

test_expect_success 'the good archive restores into the empty target' '
	restore good.tar &&
	test "$(svc_sql "$DB_SOCKET" -N -B "$TARGET" -e "SELECT COUNT(*) FROM lin_file")" = 1 &&
	cmp kept.png "target-assets/$(svc_sql "$DB_SOCKET" -N -B "$TARGET" -e "SELECT path FROM lin_file")"
'

# The file store is set aside for this one: the database alone must be enough to refuse.
test_expect_success 'a target database that is not empty is refused without --replace, nothing changed' '
	svc_sql "$DB_SOCKET" "$TARGET" -e "INSERT INTO book (title, author, summary, image) VALUES (\"mine\", \"a\", \"s\", \"i\")" &&
	mv target-assets target-assets.aside &&
	mkdir target-assets &&
	refused good.tar "database .$TARGET. is not empty" &&
	rmdir target-assets &&
	mv target-assets.aside target-assets
'

test_expect_success 'a file store that is not empty is refused without --replace, nothing changed' '
	svc_sql "$DB_SOCKET" -e "DROP DATABASE $TARGET; CREATE DATABASE $TARGET" &&
	refused good.tar "file store .*target-assets. is not empty"
'

test_expect_success 'a file store holding only hidden entries (.htaccess) is restored into without --replace, the entry kept' '
	svc_sql "$DB_SOCKET" -e "DROP DATABASE $TARGET; CREATE DATABASE $TARGET" &&
	rm -rf target-assets &&
	mkdir target-assets &&
	echo "Options -Indexes" >target-assets/.htaccess &&
	restore good.tar &&
	test "$(cat target-assets/.htaccess)" = "Options -Indexes" &&
	test "$(svc_sql "$DB_SOCKET" -N -B "$TARGET" -e "SELECT COUNT(*) FROM lin_file")" = 1
'

# A file beside the restored ones goes with the entry it is in; one that is no lin_file file (in
# an entry no row names) stays (t/0628 and t/0629 test the shared-hosting .htaccess).
test_expect_success 'with --replace the target is replaced by the archive'"'"'s database and files' '
	svc_sql "$DB_SOCKET" -e "DROP DATABASE $TARGET; CREATE DATABASE $TARGET" &&
	rm -rf target-assets &&
	restore good.tar &&
	svc_sql "$DB_SOCKET" "$TARGET" -e "INSERT INTO book (title, author, summary, image) VALUES (\"mine\", \"a\", \"s\", \"i\")" &&
	top=$(svc_sql "$DB_SOCKET" -N -B "$TARGET" -e "SELECT path FROM lin_file" | cut -d/ -f1) &&
	echo extra >"target-assets/$top/extra" &&
	echo mine >target-assets/robots.txt &&
	restore good.tar --replace &&
	test "$(svc_sql "$DB_SOCKET" -N -B "$TARGET" -e "SELECT COUNT(*) FROM book WHERE title = \"mine\"")" = 0 &&
	test ! -e "target-assets/$top/extra" &&
	test "$(cat target-assets/robots.txt)" = mine &&
	test -z "$(svc_sql "$DB_SOCKET" -N -B -e "SHOW DATABASES LIKE \"${TARGET}_%\"")"
'

test_expect_success 'a database of the restore'"'"'s own names that exists already is refused and kept' '
	for name in replaced restore; do
		svc_sql "$DB_SOCKET" -e "CREATE DATABASE ${TARGET}_$name; CREATE TABLE ${TARGET}_$name.kept (id INT)" &&
		state >before &&
		! restore good.tar --replace &&
		grep -q "refusing to restore.*database .${TARGET}_$name. exists" restore.out &&
		state >after &&
		cmp before after &&
		svc_sql "$DB_SOCKET" -e "DROP DATABASE ${TARGET}_$name" || return 1
	done
'

test_expect_success '--until is refused for an archive taken without the binary log, nothing changed' '
	state >before &&
	! restore good.tar --replace --until "2030-01-01 00:00:00" &&
	grep -q "without the binary log" restore.out &&
	state >after &&
	cmp before after
'

test_expect_success 'an archive of the released schema is restored, then upgraded through sql/migrations' '
	svc_sql "$DB_SOCKET" -e "CREATE DATABASE old_$$ CHARACTER SET utf8mb4" &&
	svc_sql "$DB_SOCKET" "old_$$" <"$TOP/sql/migrations/0001-released.sql" &&
	svc_sql "$DB_SOCKET" "old_$$" <"$TOP/sql/seed.sql" &&
	sed "s|^db_name = .*|db_name = old_$$|" cms.conf >old.conf &&
	"$APP_BIN" -c old.conf --backup "$TRASH/backups-old" >old.path 2>>backup.err &&
	test "$(tar -xOf "$(cat old.path)" manifest.json | jq .schema_version)" = 1 &&
	restore "$(cat old.path)" --replace &&
	grep -q "upgrading to" restore.out &&
	"$APP_BIN" -c restore.conf -t >/dev/null 2>&1 &&
	test "$(svc_sql "$DB_SOCKET" -N -B "$TARGET" -e "SELECT version FROM cms_schema_version")" = \
		"$(ls "$TOP/sql/migrations" | sed -n "s/^\([0-9]*\)-.*\.sql$/\1/p" | sort -n | tail -n 1 | sed "s/^0*//")"
'

test_expect_success 'a restore that fails half-way (its upgrade cannot read sql/migrations) changes nothing' '
	state >before &&
	sed "s|^sql_dir = .*|sql_dir = $TRASH/no-sql|" restore.conf >no-sql.conf &&
	! "$APP_BIN" -c no-sql.conf --restore "$(cat old.path)" --replace >failed-restore.out 2>&1 &&
	grep -q "loaded the dump" failed-restore.out &&
	grep -q "no-sql" failed-restore.out &&
	state >after &&
	cmp before after
'

test_expect_success 'a row whose file is missing is reported by the backup and by the restore, by name, and no file is made for it' '
	db_exec "INSERT INTO lin_file (path, type, name, extension, size, md5)
		VALUES (\"2020/01/01/gone.png\", \"LOCAL\", \"gone.png\", \".png\", 3, \"x\")" &&
	"$APP_BIN" -c "$TRASH/cms.conf" --backup "$TRASH/backups-gone" >gone.path 2>gone.err &&
	db_exec "DELETE FROM lin_file WHERE name = \"gone.png\"" &&
	grep -q "gone.png.*not in the file store" gone.err &&
	tar -xOf "$(cat gone.path)" manifest.json | jq -e ".missing_files[0].name == \"gone.png\"" &&
	restore "$(cat gone.path)" --replace &&
	grep -q "lin_file row [0-9]* (gone.png) names .2020/01/01/gone.png., which is neither in the archive nor in the file store" restore.out &&
	test ! -e target-assets/2020/01/01/gone.png
'

test_expect_success 'a row whose path is not of the upload layout is reported by the backup and not archived' '
	mkdir -p "$FILE_STORE_DIR/legacy" &&
	echo legacy >"$FILE_STORE_DIR/legacy/old.png" &&
	db_exec "INSERT INTO lin_file (path, type, name, extension, size, md5)
		VALUES (\"legacy/old.png\", \"LOCAL\", \"old.png\", \".png\", 7, \"x\")" &&
	"$APP_BIN" -c "$TRASH/cms.conf" --backup "$TRASH/backups-legacy" >legacy.path 2>legacy.err &&
	db_exec "DELETE FROM lin_file WHERE name = \"old.png\"" &&
	grep -q "names .legacy/old.png., which is not a name of the upload layout: not archived" legacy.err &&
	! tar -tf "$(cat legacy.path)" | grep -q legacy &&
	tar -xOf "$(cat legacy.path)" manifest.json | jq -e ".missing_files[0].name == \"old.png\""
'

test_expect_success 'a file that does not hold what its row'"'"'s SHA-256 says is archived, reported and listed' '
	path=$(db_exec "SELECT path FROM lin_file WHERE sha256 IS NOT NULL LIMIT 1") &&
	cp "$FILE_STORE_DIR/$path" saved.png &&
	echo damaged >>"$FILE_STORE_DIR/$path" &&
	"$APP_BIN" -c "$TRASH/cms.conf" --backup "$TRASH/backups-mismatch" >mismatch.path 2>mismatch.err &&
	cp saved.png "$FILE_STORE_DIR/$path" &&
	grep -q "$path.*does not hold what its row.s sha256 says" mismatch.err &&
	tar -xOf "$(cat mismatch.path)" manifest.json | jq -e ".mismatched_files[0].path == \"$path\""
'

test_expect_success 'a row naming a symbolic link in the file store, or a path through one, is not archived' '
	echo "outside-secret-$$" >outside.txt &&
	mkdir -p outside-dir "$FILE_STORE_DIR/2020/02/02" &&
	echo "outside-dir-secret-$$" >outside-dir/b.png &&
	ln -s "$TRASH/outside.txt" "$FILE_STORE_DIR/2020/02/02/a.png" &&
	ln -s "$TRASH/outside-dir" "$FILE_STORE_DIR/2020/02/03" &&
	db_exec "INSERT INTO lin_file (path, type, name, extension, size, md5) VALUES
		(\"2020/02/02/a.png\", \"LOCAL\", \"link.png\", \".png\", 3, \"x\"),
		(\"2020/02/03/b.png\", \"LOCAL\", \"through-link.png\", \".png\", 3, \"x\")" &&
	"$APP_BIN" -c "$TRASH/cms.conf" --backup "$TRASH/backups-links" >links.path 2>links.err &&
	db_exec "DELETE FROM lin_file WHERE name IN (\"link.png\", \"through-link.png\")" &&
	rm "$FILE_STORE_DIR/2020/02/02/a.png" "$FILE_STORE_DIR/2020/02/03" &&
	grep -q "link.png.*not in the file store" links.err &&
	grep -q "through-link.png.*not in the file store" links.err &&
	! grep -a -q "secret-$$" "$(cat links.path)"
'

test_expect_success 'the programs a backup runs get no CMS_ variable (the password would sit in their environment)' '
	mkdir tools &&
	printf "#!/bin/sh\nenv >\"%s\"\nexec \"%s\" \"\$@\"\n" "$TRASH/dump.env" "$(command -v mariadb-dump)" \
		>tools/mariadb-dump &&
	chmod +x tools/mariadb-dump &&
	PATH=$TRASH/tools:$PATH CMS_BACKUP_KEEP=7 \
		"$APP_BIN" -c "$TRASH/cms.conf" --backup "$TRASH/backups-env" >env.path 2>env.err &&
	test -s "$(cat env.path)" &&
	grep -q "^PATH=" dump.env &&
	! grep "^CMS_" dump.env
'

test_expect_success 'a failed backup exits 1 saying why, logs it, and leaves nothing in the directory' '
	sed -e "s|^db_name = .*|db_name = no_such_db_$$|" -e "s|^log_file = .*|log_file = $TRASH/failed.log|" \
		cms.conf >broken.conf &&
	mkdir failed &&
	! "$APP_BIN" -c broken.conf --backup "$TRASH/failed" >failed.out 2>failed.err &&
	grep -q "no_such_db_$$" failed.err &&
	grep -q "error: backup failed: .*no_such_db_$$" failed.log &&
	test -z "$(ls -A failed)" &&
	test ! -s failed.out
'

# Its archive grows past a file size limit once the dump is in it: written, then refused (EFBIG).
test_expect_success 'a backup that fails while it writes the archive leaves no partial archive, under any name' '
	mkdir -p "$FILE_STORE_DIR/2020/03/03" &&
	head -c 400000 /dev/urandom >"$FILE_STORE_DIR/2020/03/03/big.png" &&
	db_exec "INSERT INTO lin_file (path, type, name, extension, size, md5)
		VALUES (\"2020/03/03/big.png\", \"LOCAL\", \"big.png\", \".png\", 400000, \"x\")" &&
	"$APP_BIN" -c "$TRASH/cms.conf" --backup "$TRASH/backups-size" >size.path 2>size.err &&
	dump=$(tar -xOf "$(cat size.path)" manifest.json | jq ".members[\"db.sql\"].size") &&
	sed "s|^log_file = .*|log_file = $TRASH/limited.log|" cms.conf >limited.conf &&
	mkdir limited &&
	! (trap "" XFSZ && exec prlimit --fsize=$((dump + 8192)) "$APP_BIN" -c "$TRASH/limited.conf" \
		--backup "$TRASH/limited") >limited.out 2>limited.err &&
	db_exec "DELETE FROM lin_file WHERE name = \"big.png\"" &&
	grep -q "cannot write the archive" limited.err &&
	test -z "$(ls -A limited)" &&
	test ! -s limited.out
'

# Archives of earlier days made by hand, not by earlier backups: two backups in one second are
# refused ("one backup a second"), and waiting for the clock to turn is a race with time(2),
# whose coarse clock can still say the second before just after it turned.
test_expect_success 'after a backup the oldest archives beyond backup_keep are removed, the newest kept' '
	sed "s|^backup_keep = .*||" cms.conf >keep.conf &&
	echo "backup_keep = 2" >>keep.conf &&
	mkdir kept &&
	for day in 01 02 03; do
		cp good.tar "kept/cms-backup-$DB_NAME-202001$day-000000.tar" || exit 1
	done &&
	"$APP_BIN" -c keep.conf --backup "$TRASH/kept" >kept.path 2>kept.err &&
	ls kept >left &&
	{ echo "cms-backup-$DB_NAME-20200103-000000.tar"; basename "$(cat kept.path)"; } | sort >expected-left &&
	cmp expected-left left &&
	grep -q "removed .*cms-backup-$DB_NAME-20200101-000000.tar. (backup_keep = 2)" kept.err &&
	grep -q "removed .*cms-backup-$DB_NAME-20200102-000000.tar. (backup_keep = 2)" kept.err
'

test_done
