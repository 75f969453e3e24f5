#!/bin/sh
test_description='the schema has one source: the migrations are the only table definitions, and the last one'"'"'s number is the only schema version'
. "$(dirname "$0")/lib.sh"

# The files of the tree a second copy could hide in: everything but the test trash, build
# products and the test fixtures that stand for foreign databases (t/fixtures: what a Lin CMS
# backend creates, not our schema).
tree_files () {
	(cd "$TOP" && find . \( -name .git -o -name 'trash.*' -o -name fixtures -o -name var \
		-o -name out -o -name build -o -name html \) -prune -o -type f \
		\( -name '*.sql' -o -name '*.cpp' -o -name '*.h' -o -name '*.sh' -o -name '*.t' \
		-o -name '*.md' -o -name '*.in' -o -name '*.example' -o -name Makefile \
		-o -path './scripts/*' -o -path './bench/run' -o -path './battery/run' \) -print) |
		sed 's|^\./||' | sort
}

test_expect_success 'setup: the files to search, and the migrations' '
	tree_files >files &&
	grep -qx src/db/schema.cpp files &&
	grep -qx sql/migrate/lin-cms.sql files &&
	ls "$TOP/sql/migrations" >migrations &&
	test -s migrations
'

test_expect_success 'no table of ours is created outside sql/migrations/ (sql/schema.sql is gone)' '
	test ! -e "$TOP/sql/schema.sql" &&
	(cd "$TOP" && grep -n -i -E "create +table +(if +not +exists +)?\`?(book|lin_[a-z_]+|cms_[a-z_]+)\b" \
		$(grep -v -e "^sql/migrations/" -e "^t/unit/test_dump_scan.cpp$" -e "^t/0507-" "$TRASH/files")) >defined ;
	cat defined &&
	! test -s defined
'

test_expect_success 'sql/migrate/lin-cms.sql creates no table: it converts, and reads 0001 for the missing ones' '
	! grep -i -E "^ *create +table" "$TOP/sql/migrate/lin-cms.sql" &&
	grep -x "source sql/migrations/0001-released.sql" "$TOP/sql/migrate/lin-cms.sql"
'

test_expect_success 'every migration is NNNN-what.sql, numbered 1, 2, 3, ... without a gap' '
	n=0 &&
	for f in $(cat migrations); do
		n=$((n + 1)) &&
		case $f in
		$(printf "%04d" "$n")-*.sql) ;;
		*) echo "expected migration $n, found $f" && exit 1 ;;
		esac
	done
'

test_expect_success 'every table a migration creates is one src/db/schema.cpp knows as ours (it refuses others)' '
	(cd "$TOP/sql/migrations" && sed -n "s/^ *CREATE TABLE *\(IF NOT EXISTS *\)\{0,1\}\([a-z_]*\).*/\2/ip" *.sql) |
		sort -u >created &&
	grep -qx lin_user created && grep -qx cms_captcha_spent created &&
	for t in $(cat created); do
		grep -q "\"$t\"" "$TOP/src/db/schema.cpp" || { echo "$t is not in schema.cpp" && exit 1; }
	done
'

test_expect_success 'no SQL file records a schema version: --setup-db records the number of each migration it ran' '
	(cd "$TOP" && grep -n -i -E "(insert|replace|update).*cms_schema_version" \
		$(grep "\.sql$" "$TRASH/files")) >recorded ;
	cat recorded &&
	! test -s recorded
'

test_expect_success 'the binary'"'"'s schema version is not written in the source: the Makefile gives the last migration'"'"'s number' '
	! grep -n -E "k_version *= *[0-9]" "$TOP/src/db/schema.h" "$TOP/src/db/schema.cpp" &&
	grep -q "k_version = CMS_SCHEMA_VERSION;" "$TOP/src/db/schema.cpp" &&
	last=$(sed -n "s/^0*\([0-9][0-9]*\)-.*\.sql$/\1/p" migrations | tail -n 1) &&
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP" --no-print-directory \
		--eval "print-schema-version: ; @echo \$(SCHEMA_VERSION)" print-schema-version >make.out &&
	echo "$last" >expect.out &&
	diff -u expect.out make.out
'

test_done
