#!/bin/sh
test_description='the version has one place, configure.ac'"'"'s AC_INIT: make print-version, --version, /status'"'"'s build info, the installed man page and NEWS say it, and a new one rebuilds every object that embeds it'
. "$(dirname "$0")/lib.sh"

# (The tarballs' names: t/0614.)

# MAKEFLAGS of an enclosing `make test` would bring its jobserver and its variables along.
unset MAKEFLAGS MFLAGS MAKELEVEL

version=$(sed -n "s/^AC_INIT(\[cms-fcgi\], \[\([^]]*\)\]).*/\1/p" "$TOP/configure.ac")

start_db
start_app
start_nginx

test_expect_success 'configure.ac'"'"'s AC_INIT names a version' '
	echo "$version" | grep -Eq "^[0-9]+\.[0-9]+\.[0-9]+$"
'

test_expect_success 'make print-version prints it' '
	test "$(make -C "$TOP" -s --no-print-directory print-version)" = "$version"
'

test_expect_success 'cms-fcgi --version prints it' '
	test "$("$APP_BIN" --version)" = "cms-fcgi $version"
'

test_expect_success 'GET /status says it, as JSON and in cms_build_info' '
	http GET /status &&
	expect_status 200 &&
	expect_json .pool.version "$version" &&
	http GET /status "" -H "Accept: text/plain" &&
	expect_status 200 &&
	grep -q "^cms_build_info{version=\"$version\"," body
'

test_expect_success 'the man page make install writes names it in its title line' '
	make -C "$TOP" --no-print-directory install DESTDIR="$TRASH/x" PREFIX=/usr >install.out 2>&1 &&
	grep -x "\.TH CMS-FCGI 8 \"\" \"cms-fcgi $version\" \"System Administration\"" \
		x/usr/share/man/man8/cms-fcgi.8
'

test_expect_success 'NEWS has a section for it' '
	grep -q "^$version " "$TOP/NEWS"
'

# make -n with configure.ac taken as changed (-W) and config.mk as unchanged (-o): the objects
# make would compile again.
test_expect_success 'a changed configure.ac compiles again every source that names CMS_VERSION' '
	(cd "$TOP" && grep -l CMS_VERSION src/*/*.cpp) >embedding &&
	grep -qx src/cli/version.cpp embedding &&
	grep -qx src/metrics/status_page.cpp embedding &&
	make -C "$TOP" -n -W configure.ac -o config.mk src/cms-fcgi >rebuild.out 2>&1 &&
	for src in $(cat embedding); do
		grep -q -- "-c -o ${src%.cpp}.o $src" rebuild.out ||
			{ echo "not compiled again: $src"; return 1; }
	done
'

test_done
