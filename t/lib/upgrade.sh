# The next version of this tree, for the tests that upgrade a release or a package to it (t/0617,
# t/0707), as a person would get it: the same code at a higher version, with a migration more.

# next_version_tree DIR: DIR made a git repository (one commit) of this checkout's files,
# committed or not, as `make release` and `make deb` take them, with configure.ac's AC_INIT raised
# to NEXT_VERSION (the last number of VERSION plus one) and one more migration, which changes
# nothing; its number, the next version's schema, is NEXT_SCHEMA. Sets VERSION, NEXT_VERSION and
# NEXT_SCHEMA in the caller.
next_version_tree () {
	local dir=$1 last
	VERSION=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$TOP" \
		print-version) &&
	NEXT_VERSION=$(echo "$VERSION" | awk -F. -v OFS=. '{ $NF = $NF + 1; print }') &&
	mkdir -p "$dir" &&
	# Without .git (make mutants' scratch copy), the files git would add there, as make dist takes.
	(cd "$TOP" && { if [ -e .git ]; then git ls-files -z --cached --others --exclude-standard;
		else scripts/dist --list | tr '\n' '\0'; fi; } |
		tar --null --ignore-failed-read -T - -cf -) | tar -C "$dir" -xf - &&
	sed -i "s/^AC_INIT(\[cms-fcgi\], \[$VERSION\])/AC_INIT([cms-fcgi], [$NEXT_VERSION])/" \
		"$dir/configure.ac" &&
	grep -q "^AC_INIT(\[cms-fcgi\], \[$NEXT_VERSION\])" "$dir/configure.ac" &&
	last=$(ls "$dir/sql/migrations" | sed -n 's/^0*\([0-9][0-9]*\)-.*/\1/p' | sort -n | tail -n 1) &&
	NEXT_SCHEMA=$((last + 1)) &&
	printf '%s\n' "-- Version $NEXT_SCHEMA: a test of the upgrade ($TEST_NAME); it changes nothing." \
		'ALTER TABLE book COMMENT = "books";' \
		>"$dir/sql/migrations/$(printf %04d "$NEXT_SCHEMA")-upgrade-test.sql" &&
	git -C "$dir" init -q &&
	git -C "$dir" add -A &&
	git -C "$dir" -c user.name=test -c user.email=test@example.invalid \
		commit -q -m "cms-fcgi $NEXT_VERSION, for $TEST_NAME"
}
