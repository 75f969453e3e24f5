#!/bin/sh
test_description='make dist: cms-fcgi-VERSION.tar.gz holds every tracked file and a configure, no generated file is tracked, and the unpacked tarball configures and builds without the autotools'
. "$(dirname "$0")/lib.sh"

command -v autoconf >/dev/null 2>&1 || skip_all "autoconf is not installed: make dist runs it (scripts/install-deps build)"
command -v aclocal >/dev/null 2>&1 || skip_all "aclocal is not installed: make dist runs it (scripts/install-deps build)"
command -v pkg-config >/dev/null 2>&1 || skip_all "pkg-config is not installed (scripts/install-deps build)"
command -v git >/dev/null 2>&1 || skip_all "git is not installed: make dist lists the tracked files with it"

# What `make distcheck` does beyond this file (CI runs it): a real build of the tarball, the unit
# and smoke tests there, and distclean back to the tarball's files. Here, nothing is compiled.

# The tarball's build is a user's, not part of the make that runs this file.
unset MAKEFLAGS MFLAGS MAKELEVEL

version=$(sed -n "s/^AC_INIT(\[cms-fcgi\], \[\([^]]*\)\]).*/\1/p" "$TOP/configure.ac")
name=cms-fcgi-$version

# The files the tarball must hold: git ls-files in a checkout; in a copy without .git (make
# mutants' scratch copy), those git would add there under .gitignore, found here without
# scripts/dist.
tracked_files () {
	if [ -e "$TOP/.git" ]; then
		git -C "$TOP" -c core.quotepath=off ls-files
	else
		rm -rf "$TRASH/repo" && git init -q "$TRASH/repo" &&
			(cd "$TOP" && git -c core.quotepath=off --git-dir="$TRASH/repo/.git" --work-tree=. \
				add --dry-run --ignore-missing .) | sed -n "s/^add '\(.*\)'$/\1/p"
	fi
}

# The regular files and links of tarball $1, without the cms-fcgi-VERSION/ before them.
packed_files () {
	tar -tzf "$1" | sed -n "s|^$name/||p" | grep -v "/$" | grep -v "^$" | LC_ALL=C sort
}

test_expect_success 'setup: make dist writes cms-fcgi-VERSION.tar.gz, VERSION being AC_INIT'"'"'s' '
	test -n "$version" &&
	make -C "$TOP" --no-print-directory dist DIST_DIR="$TRASH/out" >dist.out 2>&1 &&
	cat dist.out &&
	test "$(tail -n 1 dist.out)" = "$TRASH/out/$name.tar.gz" &&
	test -s "out/$name.tar.gz"
'

test_expect_success 'make print-version prints AC_INIT'"'"'s version, and nothing else' '
	make -C "$TOP" -s --no-print-directory print-version >printed &&
	echo "$version" >expect &&
	cmp expect printed
'

test_expect_success 'every tracked file is in the tarball, under cms-fcgi-VERSION/' '
	tracked_files | LC_ALL=C sort >tracked &&
	test "$(wc -l <tracked)" -gt 100 &&
	packed_files "out/$name.tar.gz" >packed &&
	LC_ALL=C comm -23 tracked packed >missing &&
	{ ! test -s missing || { echo "not in the tarball:"; cat missing; false; }; }
'

test_expect_success 'the tarball holds nothing but the tracked files and configure' '
	{ cat tracked && echo configure; } | LC_ALL=C sort >allowed &&
	LC_ALL=C comm -13 allowed packed >extra &&
	{ ! test -s extra || { echo "in the tarball but not tracked:"; cat extra; false; }; } &&
	! tar -tzf "out/$name.tar.gz" | grep -v "^$name/"
'

test_expect_success 'LICENSE, the MIT licence of the cms-fcgi developers, is at the top of the tarball' '
	tar -xzOf "out/$name.tar.gz" "$name/LICENSE" >LICENSE.packed &&
	cmp "$TOP/LICENSE" LICENSE.packed &&
	grep -qx "MIT License" LICENSE.packed &&
	grep -qx "Copyright (c) 2026 the cms-fcgi developers" LICENSE.packed
'

test_expect_success 'no tracked file is one that .gitignore names as generated' '
	if [ -e "$TOP/.git" ]; then
		git -C "$TOP" ls-files -ci --exclude-standard >generated &&
		{ ! test -s generated || { echo "tracked but generated:"; cat generated; false; }; }
	fi &&
	! grep -x -e configure -e aclocal.m4 -e config.mk -e config.status -e src/base/message_texts.inc tracked
'

# (Outside a checkout, e.g. in make mutants' scratch copy, whose log grows as the tests run, the
# same files.)
test_expect_success 'two runs of make dist make the same tarball' '
	make -C "$TOP" --no-print-directory dist DIST_DIR="$TRASH/again" >/dev/null 2>&1 &&
	if [ -e "$TOP/.git" ]; then
		cmp "out/$name.tar.gz" "again/$name.tar.gz"
	else
		packed_files "again/$name.tar.gz" | cmp packed -
	fi
'

# stub/: the autotools record their call and fail; apt-get, sudo and npm record theirs;
# dpkg-query finds no package, so install-deps asks apt-get for each one of its groups.
test_expect_success 'setup: the tarball unpacked, and stubs for the autotools and the installers' '
	tar -xzf "out/$name.tar.gz" &&
	test -x "$name/configure" &&
	mkdir stub &&
	for tool in autoconf autoreconf autoheader autom4te aclocal automake; do
		printf "#!/bin/sh\necho \"%s \$*\" >>\"%s/autotools\"\nexit 127\n" "$tool" "$TRASH" >stub/$tool &&
		chmod +x stub/$tool || return 1
	done &&
	for tool in apt-get sudo npm dpkg-query; do
		printf "#!/bin/sh\necho \"%s \$*\" >>\"%s/calls\"\n[ %s != dpkg-query ] || exit 1\n" \
			"$tool" "$TRASH" "$tool" >stub/$tool &&
		chmod +x stub/$tool || return 1
	done
'

test_expect_success 'make in the unpacked tarball runs its configure and no autotool' '
	(cd "$name" && PATH=$TRASH/stub:$PATH make -n >make.out 2>&1) ||
	{ tail -n 20 "$name/make.out"; false; } &&
	test -f "$name/config.mk" &&
	{ ! test -e autotools || { cat autotools; false; }; }
'

test_expect_success 'make in the unpacked tarball asks for the build packages, but not autoconf or automake' '
	sed -n "s/^apt-get install -y -q --no-install-recommends //p" calls | tr " " "\n" >asked &&
	grep -qx build-essential asked &&
	grep -qx libjsoncpp-dev asked &&
	! grep -x -e autoconf -e automake asked
'

test_expect_success 'the tarball'"'"'s make compiles the sources and generates the built-in texts' '
	grep -q -- "-c -o src/cli/main.o src/cli/main.cpp" "$name/make.out" &&
	grep -q "^scripts/message-texts conf/code-message.en.properties" "$name/make.out" &&
	! test -e "$name/src/base/message_texts.inc"
'

test_expect_success './configure again and make -n in the tarball call no autotool either' '
	(cd "$name" && PATH=$TRASH/stub:$PATH ./configure >configure.out 2>&1 &&
		PATH=$TRASH/stub:$PATH make -n all t/unit/unit-tests >make2.out 2>&1) &&
	{ ! test -e autotools || { cat autotools; false; }; }
'

test_expect_success 'make distclean in the tarball keeps its configure' '
	(cd "$name" && PATH=$TRASH/stub:$PATH make distclean >distclean.out 2>&1) &&
	test -x "$name/configure" &&
	! test -e "$name/config.mk"
'

test_done
