# The backup, change, restore --replace round trip of t/0628 (a store that is a mount point) and
# t/0629 (a store reached through a symlink); sourced after lib.sh, once start_db, start_app (on
# the store under test) and start_nginx have run. restore_round_trip runs up to the restore,
# with the pool stopped; the file then checks its store and calls restore_round_trip_after,
# which starts the pool again on the same configuration (the same JWT secret) and checks what
# it serves.

# store_files DIR: "PATH SHA256" of every file below DIR, a restore's scratch directory aside.
store_files () {
	(cd "$1" && find . -name '.cms-restore-*' -prune -o -type f -print | sort |
		while read -r f; do printf '%s %s\n' "${f#./}" "$(sha256sum <"$f" | cut -d" " -f1)"; done)
}

restore_round_trip () {
	test_expect_success 'setup: root logged in, two files uploaded, the recipe'"'"'s .htaccess in the store' '
		remember root "$ROOT_PASSWORD" &&
		as root &&
		png one >one.png &&
		http POST /cms/file "" -F file=@one.png &&
		expect_status 200 &&
		jq -r ".[0].url" body >one.url &&
		png two >two.png &&
		http POST /cms/file "" -F file=@two.png &&
		expect_status 200 &&
		cp "$TOP/apache/htaccess-assets.example" "$FILE_STORE_DIR/.htaccess" &&
		test "$(db_exec "SELECT COUNT(*) FROM lin_file")" = 2
	'

	test_expect_success 'setup: the backup' '
		"$APP_BIN" -c "$TRASH/cms.conf" --backup "$TRASH/backups" >archive.path 2>backup.err &&
		store_files "$FILE_STORE_DIR" >files-at-backup &&
		db_exec "SELECT path, sha256 FROM lin_file ORDER BY path" >rows-at-backup &&
		grep -q "^\.htaccess " files-at-backup &&
		test "$(wc -l <files-at-backup)" = 3
	'

	test_expect_success 'setup: after the backup a third file is uploaded and root changes its password' '
		as root &&
		png three >three.png &&
		http POST /cms/file "" -F file=@three.png &&
		expect_status 200 &&
		http PUT /cms/user/change_password \
			"{\"old_password\":\"$ROOT_PASSWORD\",\"new_password\":\"New_pass2\",\"confirm_password\":\"New_pass2\"}" &&
		expect_status 200 &&
		login root New_pass2 &&
		keep after_change &&
		as root &&
		http GET /cms/user/information &&
		expect_status 401
	'

	RESTORE_SECRET=$(sed -n 's/^jwt_secret = //p' "$TRASH/cms.conf")
	stop_app

	test_expect_success 'restore --replace of the archive succeeds' '
		cp cms.conf restore.conf &&
		echo "sql_dir = $TOP/sql" >>restore.conf &&
		"$APP_BIN" -c restore.conf --restore "$(cat archive.path)" --replace >restore.out 2>&1 &&
		grep -q "^restore: done" restore.out
	'

	test_expect_success 'the store holds the archive'"'"'s files and .htaccess, not the upload made after the backup' '
		store_files "$FILE_STORE_DIR" >files-restored &&
		cmp files-at-backup files-restored &&
		test "$(db_exec "SELECT path, sha256 FROM lin_file ORDER BY path")" = "$(cat rows-at-backup)"
	'

	test_expect_success 'the recipe'"'"'s .htaccess is kept byte for byte' '
		cmp "$TOP/apache/htaccess-assets.example" "$FILE_STORE_DIR/.htaccess"
	'

	test_expect_success 'no scratch directory of the restore is left in the store or beside it' '
		test -z "$(ls -A "$FILE_STORE_DIR" | grep "^\.cms-restore-")" &&
		test -z "$(ls -A "$FILE_STORE_DIR/.." | grep "^\.cms-restore-")"
	'
}

restore_round_trip_after () {
	start_app "file_store_dir=$FILE_STORE_DIR" "jwt_secret=$RESTORE_SECRET"

	test_expect_success 'a token revoked after the backup (by the password change) is refused after the restore' '
		as root &&
		http GET /cms/user/information &&
		expect_status 401 &&
		expect_json .code 10041
	'

	test_expect_success 'a token issued after the backup, before the restore, is refused after it' '
		as after_change &&
		http GET /cms/user/information &&
		expect_status 401 &&
		expect_json .code 10041
	'

	test_expect_success 'root logs in with the archive'"'"'s password, and that token is accepted' '
		login root "$ROOT_PASSWORD" &&
		http GET /cms/user/information &&
		expect_status 200
	'

	test_expect_success 'a file uploaded before the backup is served at its URL' '
		http GET "/$(sed "s|^http://[^/]*/||" one.url)" &&
		expect_status 200 &&
		cmp body one.png
	'
}
