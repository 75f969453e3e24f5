#!/bin/sh
test_description='cms-fcgi(8) renders cleanly and has an item for every option of cms-fcgi -h and every key of conf/cms.conf.example'
. "$(dirname "$0")/lib.sh"

command -v groff >/dev/null 2>&1 || skip_all "groff is not installed (scripts/install-deps)"

# Items are the tag lines of .TP: indented by 7 columns in groff's plain-text rendering.
test_expect_success 'setup: the man page renders to plain text without a groff warning' '
	LC_ALL=C groff -man -Tascii -ww -P-cbou "$TOP/man/cms-fcgi.8.in" >man.txt 2>groff.err &&
	test -s man.txt &&
	! test -s groff.err
'

test_expect_success 'every key of conf/cms.conf.example is an item of cms-fcgi(8)' '
	sed -n "s/^\([a-z_][a-z0-9_]*\) *=.*/\1/p" "$TOP/conf/cms.conf.example" >keys &&
	test -s keys &&
	missing= &&
	for key in $(cat keys); do
		grep -qE "^ {7}$key =( |\$)" man.txt || missing="$missing $key"
	done &&
	{ [ -z "$missing" ] || { echo "keys without an item in cms-fcgi(8):$missing"; false; }; }
'

test_expect_success 'cms-fcgi(8) has no item for a key that conf/cms.conf.example lacks' '
	sed -n "s/^ \{7\}\([a-z_][a-z0-9_]*\) =.*/\1/p" man.txt >man-keys &&
	test -s man-keys &&
	stale= &&
	for key in $(cat man-keys); do
		grep -q "^$key *=" "$TOP/conf/cms.conf.example" || stale="$stale $key"
	done &&
	{ [ -z "$stale" ] || { echo "items for keys conf/cms.conf.example does not have:$stale"; false; }; }
'

test_expect_success 'every option that cms-fcgi -h prints is an item of cms-fcgi(8)' '
	"$APP_BIN" -h >usage 2>&1 &&
	grep -oE -- "(^|[[ |])--?[a-z][a-z-]*" usage | sed "s/^[[ |]//" | sort -u >options &&
	grep -qx -- -t options &&
	missing= &&
	for opt in $(cat options); do
		grep -qE -- "^ {7}(-[^ ]*, )*$opt( |,|\$)" man.txt || missing="$missing $opt"
	done &&
	{ [ -z "$missing" ] || { echo "options without an item in cms-fcgi(8):$missing"; false; }; }
'

test_done
