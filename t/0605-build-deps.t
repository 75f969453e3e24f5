#!/bin/sh
test_description='a fresh clone: make installs only what building and running need, make check everything, and ./configure && make nothing; configure names every missing library'
. "$(dirname "$0")/lib.sh"

command -v autoreconf >/dev/null 2>&1 || skip_all "autoconf is not installed (scripts/install-deps build)"
command -v pkg-config >/dev/null 2>&1 || skip_all "pkg-config is not installed (scripts/install-deps build)"
command -v git >/dev/null 2>&1 || skip_all "git is not installed: the test copies the checkout's tracked files"
[ -e "$TOP/.git" ] || skip_all "not a git checkout (an unpacked make dist tarball): a fresh clone's bootstrap is a checkout's"

# A user typing make in a fresh clone: nothing of the make that runs this file (make check's jobs,
# SANITIZE=1) reaches the clone's.
unset MAKEFLAGS MFLAGS MAKELEVEL

# A fresh clone of this checkout's tracked files in directory $1 (so that uncommitted changes are
# what is tested): no configure, no config.mk, no objects, no doc/node_modules. One tar reads the
# whole list: xargs would split a long one into several archives, and the reader stops at the
# end of the first.
fresh_clone () {
	mkdir "$1" &&
	git -C "$TOP" ls-files -z | tar -C "$TOP" --null -T - -cf - | tar -C "$1" -xf - &&
	test -f "$1/configure.ac" && ! test -e "$1/configure" && ! test -e "$1/config.mk"
}

# stub/ goes first on PATH: apt-get, apt, sudo, npm and dpkg-query record their arguments in
# calls and do nothing. dpkg-query finds no package installed, so install-deps asks apt-get for
# every package of the groups it was given.
test_expect_success 'setup: stubs that record what would be installed' '
	mkdir stub &&
	for tool in apt-get apt sudo npm dpkg-query; do
		printf "#!/bin/sh\necho \"%s \$*\" >>\"%s/calls\"\n[ %s != dpkg-query ] || exit 1\n" \
			"$tool" "$TRASH" "$tool" >stub/$tool &&
		chmod +x stub/$tool || return 1
	done &&
	PATH=$TRASH/stub:$PATH apt-get probe &&
	grep -qx "apt-get probe" calls &&
	rm calls
'

# What "apt-get install" was asked for, one package a line, sorted.
installed () {
	sed -n "s/^apt-get install -y -q --no-install-recommends //p" calls | tr " " "\n" | sed "/^$/d" |
		sort
}

test_expect_success 'make on a fresh clone asks only for the build and runtime packages, and no npm' '
	fresh_clone prod &&
	(cd prod && PATH=$TRASH/stub:$PATH make -n >make.out 2>&1) &&
	test -f prod/config.mk &&
	installed >asked &&
	cat asked &&
	for p in build-essential autoconf pkg-config libfcgi-dev libmariadb-dev libargon2-dev \
		libgd-dev mariadb-server nginx-light logrotate openssl; do
		grep -qx "$p" asked || { echo "not asked for: $p"; return 1; }
	done &&
	for p in apache2 apache2-suexec-pristine libapache2-mod-fcgid galera-4 wrk clang-14 \
		prometheus libcppunit-dev nodejs npm curl jq; do
		! grep -qx "$p" asked || { echo "asked for a test package: $p"; return 1; }
	done &&
	! grep "^npm " calls
'

test_expect_success 'make check on a fresh clone asks for the test packages too, and runs npm install' '
	rm -f calls &&
	fresh_clone dev &&
	(cd dev && PATH=$TRASH/stub:$PATH make -n check >make.out 2>&1) &&
	installed >asked &&
	for p in build-essential libgd-dev mariadb-server logrotate apache2 apache2-suexec-pristine \
		galera-4 wrk clang-14 prometheus libcppunit-dev curl; do
		grep -qx "$p" asked || { echo "not asked for: $p"; return 1; }
	done &&
	grep "^npm install" calls
'

test_expect_success 'configure names every library it cannot find, with its Debian package' '
	rm -f calls &&
	fresh_clone build &&
	(cd build && PATH=$TRASH/stub:$PATH autoreconf -i >autoreconf.out 2>&1) &&
	mkdir pc &&
	for dir in $(pkg-config --variable pc_path pkg-config | tr : " "); do
		for pc in "$dir"/*.pc; do
			[ -e "$pc" ] && [ ! -e "pc/${pc##*/}" ] || continue
			case ${pc##*/} in jsoncpp.pc | libargon2.pc) continue ;; esac
			ln -s "$pc" "pc/${pc##*/}" || return 1
		done
	done &&
	! (cd build && PATH=$TRASH/stub:$PATH PKG_CONFIG_LIBDIR=$TRASH/pc ./configure >hidden.out 2>&1) &&
	tail -n 5 build/hidden.out &&
	grep -q "^  jsoncpp (jsoncpp.pc): install libjsoncpp-dev$" build/hidden.out &&
	grep -q "^  libargon2 (libargon2.pc): install libargon2-dev$" build/hidden.out &&
	! test -e build/config.mk
'

# configure reads (dpkg-query -W) the versions of the -dev packages for --version --verbose; that
# installs nothing, and install-deps would call apt-get for every package besides.
test_expect_success './configure && make builds the binary without apt-get, sudo or npm, and dpkg-query only to read versions' '
	(cd build && PATH=$TRASH/stub:$PATH ./configure >configure.out 2>&1) &&
	(cd build && PATH=$TRASH/stub:$PATH nice make -j2 >make.out 2>&1) &&
	build/src/cms-fcgi -h 2>&1 | grep -q "^usage: cms-fcgi" &&
	(cd build && PATH=$TRASH/stub:$PATH make install DESTDIR=$TRASH/stage PREFIX=/usr >install.out 2>&1) &&
	test -x stage/usr/sbin/cms-fcgi &&
	{ ! test -e calls || ! grep -v "^dpkg-query -W " calls; }
'

test_done
