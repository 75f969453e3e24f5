#!/bin/sh
test_description='cms-fcgi --version prints the version and exits 0; with --verbose, the compiler, the build and one "name: version" line for each library linked in'
. "$(dirname "$0")/lib.sh"

VERSION=$(sed -n 's/^AC_INIT(\[cms-fcgi\], \[\([^]]*\)\]).*/\1/p' "$TOP/configure.ac")

test_expect_success '--version prints "cms-fcgi VERSION" alone and exits 0' '
	"$APP_BIN" --version >out &&
	test "$(cat out)" = "cms-fcgi $VERSION"
'

test_expect_success '--version --verbose starts with the same line, then only "name: value" lines' '
	"$APP_BIN" --version --verbose >verbose &&
	test "$(head -n 1 verbose)" = "cms-fcgi $VERSION" &&
	tail -n +2 verbose >lines &&
	test -s lines &&
	! grep -vE "^[a-z0-9-]+: [^ ].*" lines
'

test_expect_success '--version --verbose names the compiler, the build and every library linked in' '
	for name in compiler build openssl mariadb-connector-c jsoncpp libgd libpng zlib argon2 \
		libfcgi cgicc packages; do
		grep -q "^$name: " verbose || { echo "no line $name"; return 1; }
	done
'

test_expect_success 'the versions are those of the libraries, asked at run time' '
	grep -qE "^openssl: OpenSSL [0-9]+\.[0-9]+\.[0-9]+" verbose &&
	grep -qE "^mariadb-connector-c: [0-9]+\.[0-9]+\.[0-9]+" verbose &&
	grep -qE "^jsoncpp: [0-9]+\.[0-9]+\.[0-9]+$" verbose &&
	grep -qE "^libgd: [0-9]+\.[0-9]+\.[0-9]+" verbose &&
	grep -qE "^libpng: [0-9]+\.[0-9]+\.[0-9]+$" verbose &&
	grep -qE "^zlib: [0-9]+\.[0-9]+" verbose
'

test_expect_success 'the packages line names the Debian packages of the libraries without a version call' '
	if command -v dpkg-query >/dev/null 2>&1; then
		grep -qE "^packages: .*libargon2-dev [^,]+" verbose &&
		grep -qE "^packages: .*libfcgi-dev [^,]+" verbose &&
		grep -qE "^packages: .*libcgicc-dev [^,]+" verbose
	fi
'

test_expect_success '--verbose --version answers the same; --verbose alone is a usage error (status 2)' '
	"$APP_BIN" --verbose --version >again &&
	cmp verbose again &&
	{ "$APP_BIN" --verbose >/dev/null 2>usage; test $? = 2; } &&
	grep -q "usage:" usage
'

test_done
