#!/bin/sh
test_description='root'"'"'s --restore --replace touches nothing outside the service account'"'"'s file store: a store the account replaced by a link to a directory of root'"'"'s is refused; a row of the replaced database naming a file of root'"'"'s (important.conf) is not swapped, through a link root made'
. "$(dirname "$0")/lib.sh"
. "$TOP/t/lib/store-restore.sh"

# As the attacker: root restores, nobody owns the store's directory and plants its entries.
[ "$(id -u)" = 0 ] || skip_all "planting as another user against root'\''s command needs root"
command -v runuser >/dev/null 2>&1 || skip_all "runuser is not installed (util-linux)"
command -v mariadb-dump >/dev/null 2>&1 || skip_all "mariadb-dump is not installed (scripts/install-deps)"

start_db
start_app
start_nginx

TARGET=target_$$
reachable_dir SVC svc
# restore_into STORE [OPTIONS...]: root's restore of the archive into $TARGET with file_store_dir
# STORE; its output in restore.out.
restore_into () {
	store=$1 && shift &&
	sed "s|^file_store_dir = .*|file_store_dir = $store|" "$TRASH/restore.conf" >"$TRASH/into.conf" &&
	"$APP_BIN" -c "$TRASH/into.conf" --restore "$(cat "$TRASH/archive.path")" "$@" \
		>"$TRASH/restore.out" 2>&1
}
as_account () {
	runuser -u nobody -- "$@"
}

sed -e "s|^db_name = .*|db_name = $TARGET|" -e "s|^log_file = .*|log_file = $TRASH/restore.log|" \
	"$TRASH/cms.conf" >"$TRASH/restore.conf"
echo "sql_dir = $TOP/sql" >>"$TRASH/restore.conf"

test_expect_success 'setup: an upload, the backup, the account'"'"'s directory, and a directory of root'"'"'s' '
	remember root "$ROOT_PASSWORD" &&
	as root &&
	png one >one.png &&
	http POST /cms/file "" -F file=@one.png &&
	expect_status 200 &&
	"$APP_BIN" -c cms.conf --backup "$TRASH/backups" >archive.path 2>backup.err &&
	chown nobody:nogroup "$SVC" &&
	mkdir rootdir && echo "secret = 1" >rootdir/important.conf &&
	find rootdir -exec stat -c "%n %U %a" {} + | sort >rootdir.before &&
	sha256sum rootdir/important.conf >important.sum
'

test_expect_success 'a store the account replaced by a link to root'"'"'s directory is refused, and the directory is untouched' '
	as_account ln -s "$TRASH/rootdir" "$SVC/assets" &&
	! restore_into "$SVC/assets" --replace &&
	grep -q "refusing the file store .*/svc/assets.: .*is a symbolic link that another user could have made" restore.out &&
	find rootdir -exec stat -c "%n %U %a" {} + | sort >rootdir.after &&
	cmp rootdir.before rootdir.after
'

test_expect_success 'setup: the target restored into a store of its own, then a row naming important.conf' '
	restore_into "$TRASH/own-assets" --replace &&
	svc_sql "$DB_SOCKET" "$TARGET" -e "INSERT INTO lin_file (path, type, name, extension, size, md5)
		VALUES (\"important.conf\", \"LOCAL\", \"x.png\", \".png\", 1, \"x\")"
'

# The pool's own database account can write that row; root's link is root's choice.
test_expect_success 'through a link root made, a row of the replaced database naming root'"'"'s file does not move it' '
	ln -s rootdir root-link &&
	restore_into "$TRASH/root-link" --replace &&
	grep -q "^restore: done" restore.out &&
	sha256sum -c important.sum &&
	test -n "$(find rootdir -name "*.png")"
'

test_done
