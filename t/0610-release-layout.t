#!/bin/sh
test_description='an unpacked tree (sbin/ beside share/cms-fcgi/, as make install and the release tarball lay it out) finds its migrations and message table relative to the binary, through a symlink, from any working directory; beside the config file first, an absolute path as it is, and never in the working directory; the release'"'"'s THIRD-PARTY notice (scripts/third-party) holds each library of BUILDINFO with its licence text and how to rebuild, and refuses a library it has no notice for'
. "$(dirname "$0")/lib.sh"

# ~/cms-0.2.0 as the release tarball holds it, and ~/cms a symlink to it.
test_expect_success 'setup: a tree cms-0.2.0 and a symlink cms to it, away from the checkout' '
	mkdir -p home/cms-0.2.0/sbin home/cms-0.2.0/share/cms-fcgi elsewhere &&
	cp "$APP_BIN" home/cms-0.2.0/sbin/cms-fcgi &&
	cp -r "$TOP/sql" home/cms-0.2.0/share/cms-fcgi/sql &&
	cp "$TOP"/conf/code-message*.properties home/cms-0.2.0/share/cms-fcgi/ &&
	ln -s cms-0.2.0 home/cms &&
	printf "jwt_secret = %s\n" "$(svc_random_hex 32)" >cms.conf
'

# from_elsewhere ARGS...: the tree's binary, by its symlink, run from a directory with no sql/ and
# no conf/ in it.
from_elsewhere () {
	(cd "$TRASH/elsewhere" && "$TRASH/home/cms/sbin/cms-fcgi" -c "$TRASH/cms.conf" "$@")
}

test_expect_success 'the default sql_dir is the tree'"'"'s share/cms-fcgi/sql, the symlink resolved' '
	test "$(from_elsewhere --get sql_dir)" = "$TRASH/home/cms-0.2.0/share/cms-fcgi/sql"
'

test_expect_success 'the default message_file (conf/code-message.properties) is the tree'"'"'s, conf/ dropped' '
	test "$(from_elsewhere --get message_file)" = "$TRASH/home/cms-0.2.0/share/cms-fcgi/code-message.properties"
'

test_expect_success 'a relative message_file of the config is taken from the tree too' '
	test "$(CMS_MESSAGE_FILE=conf/code-message.en.properties from_elsewhere --get message_file)" = \
		"$TRASH/home/cms-0.2.0/share/cms-fcgi/code-message.en.properties"
'

test_expect_success '-t reads the tree'"'"'s message table from anywhere' '
	from_elsewhere -t 2>check.err &&
	grep -q "is ok" check.err
'

test_expect_success 'an absolute path wins over the tree' '
	test "$(CMS_SQL_DIR=/nonexistent/sql from_elsewhere --get sql_dir)" = /nonexistent/sql
'

# Another user's directory, as root's working directory: its sql/ would run its seed with
# --setup-db, its conf/ would give every client its texts.
test_expect_success 'setup: a working directory with a planted sql/ and conf/' '
	mkdir -p elsewhere/sql/migrations elsewhere/conf &&
	echo "UPDATE lin_user SET nickname = '"'"'owned'"'"'" >elsewhere/sql/seed.sql &&
	echo "not a properties line" >elsewhere/conf/code-message.properties
'

test_expect_success 'a relative sql_dir is never the working directory'"'"'s: the tree'"'"'s wins' '
	test "$(from_elsewhere --get sql_dir)" = "$TRASH/home/cms-0.2.0/share/cms-fcgi/sql"
'

test_expect_success 'a relative message_file is never the working directory'"'"'s: -t reads the tree'"'"'s' '
	test "$(from_elsewhere --get message_file)" = "$TRASH/home/cms-0.2.0/share/cms-fcgi/code-message.properties" &&
	from_elsewhere -t 2>planted.err &&
	grep -q "is ok" planted.err
'

test_expect_success 'a relative path beside the config file wins over the tree' '
	mkdir -p conf-dir/sql &&
	cp cms.conf conf-dir/cms.conf &&
	test "$( (cd elsewhere && "$TRASH/home/cms/sbin/cms-fcgi" -c "$TRASH/conf-dir/cms.conf" --get sql_dir))" = \
		"$TRASH/conf-dir/sql"
'

test_expect_success 'a relative path found nowhere names the config file'"'"'s directory, never the working one (and -t names it)' '
	test "$(CMS_MESSAGE_FILE=conf/none.properties from_elsewhere --get message_file)" = "$TRASH/conf/none.properties" &&
	! CMS_MESSAGE_FILE=conf/none.properties from_elsewhere -t 2>none.err &&
	grep -q "$TRASH/conf/none.properties" none.err
'

# The notice of the release tarball, made here from this build's BUILDINFO and the host's packages
# as scripts/release makes it from the chroot's.
test_expect_success 'setup: BUILDINFO of this build, its packages installed here; THIRD-PARTY made from it' '
	"$APP_BIN" --version --verbose >BUILDINFO &&
	sed -n "s/^packages: //p" BUILDINFO | sed "s/, /\n/g" >packages &&
	test "$(wc -l <packages)" -ge 8 &&
	grep -q "^libssl-dev " packages &&
	"$TOP/scripts/third-party" --package libc6-dev BUILDINFO >THIRD-PARTY
'

test_expect_success 'THIRD-PARTY holds each package of BUILDINFO at its version, with its copyright file'"'"'s text' '
	echo "libc6-dev $(dpkg-query -W -f="\${Version}" libc6-dev)" >>packages &&
	while read -r pkg version; do
		c=/usr/share/doc/$pkg/copyright &&
		grep -q "^$pkg $version (source [^ ]* [^ ]*): $c$" THIRD-PARTY &&
		grep -qxF "$(grep . "$c" | tail -n 1)" THIRD-PARTY || {
			echo "no notice of $pkg $version" >&2
			return 1
		}
	done <packages
'

test_expect_success 'THIRD-PARTY says how to rebuild: the make dist tarball of the version, the source packages, make release' '
	version=$(sed -n "1s/^cms-fcgi //p" BUILDINFO) &&
	grep -q "^Third-party software in cms-fcgi $version " THIRD-PARTY &&
	grep -q "make dist.* cms-fcgi-$version.tar.gz" THIRD-PARTY &&
	grep -q "apt-get source SOURCE=VERSION" THIRD-PARTY &&
	grep -q "^libssl-dev  *[^ ]*  *source openssl " THIRD-PARTY &&
	grep -q "make release" THIRD-PARTY &&
	grep -q "./configure --enable-static-binary=release" THIRD-PARTY
'

test_expect_success 'a library built from its source package (jsoncpp) is in it with that source'"'"'s copyright' '
	printf "Files: *\nLicense: MIT or public domain, jsoncpp test\n" >jsoncpp-copyright &&
	"$TOP/scripts/third-party" --source libjsoncpp 1.9.5-4 jsoncpp-copyright BUILDINFO >with-source &&
	grep -q "^libjsoncpp 1.9.5-4 (source libjsoncpp 1.9.5-4): jsoncpp-copyright$" with-source &&
	grep -qx "License: MIT or public domain, jsoncpp test" with-source
'

test_expect_success 'a package of BUILDINFO without a copyright file here: it fails, names it, and writes nothing' '
	sed "s/^packages: /packages: libnothere-dev 1.0, /" BUILDINFO >BUILDINFO.unknown &&
	! "$TOP/scripts/third-party" BUILDINFO.unknown >notice.out 2>notice.err &&
	grep -q "no licence notice for libnothere-dev" notice.err &&
	! test -s notice.out
'

test_expect_success 'a package installed here at another version than BUILDINFO'"'"'s: it fails' '
	sed "s/\(libssl-dev [^,]*\)/\1+other/" BUILDINFO >BUILDINFO.other &&
	! "$TOP/scripts/third-party" BUILDINFO.other >other.out 2>other.err &&
	grep -q "no licence notice for libssl-dev .*+other" other.err
'

test_expect_success 'a source library whose copyright file is missing, or a BUILDINFO without packages: it fails' '
	! "$TOP/scripts/third-party" --source libjsoncpp 1.9.5-4 none BUILDINFO >/dev/null 2>none.err &&
	grep -q "no licence notice for libjsoncpp" none.err &&
	sed "/^packages: /d" BUILDINFO >BUILDINFO.none &&
	! "$TOP/scripts/third-party" BUILDINFO.none >/dev/null 2>nopackages.err &&
	grep -q "names no packages" nopackages.err
'

test_done
