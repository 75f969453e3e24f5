# Test library for the black-box tests t/NNNN-name.t: TAP output, a trash directory per file,
# fixtures (MariaDB, the FastCGI pool, nginx or Apache with the shipped config) on loopback ports
# derived from the file's number, HTTP and assertion helpers. Sourced by each t/*.t; POSIX sh plus
# `local`. Everything started here is stopped at exit by recorded PID, in reverse order.
#
# This file sets the file's variables, sources its parts, split by job as git splits its
# test-lib.sh, and makes the trash directory:
#   t/lib/tap.sh       the runner: TAP output, test_expect_success, test_done, poll_until
#   t/lib/fixtures.sh  the services: start_db, start_app, start_web, ... and their cleanup
#   t/lib/http.sh      http, check_openapi, the expect_* assertions, db_exec
#   t/lib/auth.sh      login, remember/keep and as/kept (tokens), JWTs, the captcha
#   t/lib/upgrade.sh   next_version_tree: the next version of this tree, for the upgrade tests
#   t/lib/locks.sh     hold and release: a second session's row locks, for the race tests
#
# TEST_WEB chooses the front of start_web: nginx (the default), apache (mod_proxy_fcgi to the
# pool), apache-cgi (mod_cgi runs the binary per request), apache-fcgid (mod_fcgid runs it as
# workers of its own) or apache-htaccess (a shared host's Apache serving $TRASH/public_html,
# which the test file fills first); with the last three start_app starts no pool.
#
# TEST_CLUSTER_DIR (set by scripts/check-cluster) names a running 3-node Galera cluster (see
# svc_galera_start): start_db makes the file's database there (on node 1), start_app starts two
# pools standing for two application hosts (pool 1 tries node 1 first, pool 2 node 2) and
# start_nginx one upstream over both, so consecutive requests alternate between them.

TEST_NAME=$(basename "$0" .t)
TEST_NUMBER=$(expr "$TEST_NAME" : '\([0-9]*\)')
TEST_NUMBER=$(expr "0$TEST_NUMBER" + 0)
TOP=$(cd "$(dirname "$0")/.." && pwd)
APP_BIN=${APP_BIN:-$TOP/src/cms-fcgi}
ROOT_PASSWORD=Root_pass1
TRASH=$TOP/t/trash.$TEST_NAME

. "$TOP/scripts/lib-services.sh"

# The developer's CMS_* variables would override the test configuration; the test decides.
for _v in $(env | sed -n 's/^\(CMS_[A-Za-z0-9_]*\)=.*/\1/p'); do
	unset "$_v"
done
unset _v

test_count=0
test_failed=0
test_done_ok=
app_started=
app_errors_allowed=
TOKEN=
REFRESH_TOKEN=
DB_PID=
DB_SHARED=
POOL_PID=
NGINX_PID=
APACHE_PID=
DB_ACCOUNT=
TEST_WEB=${TEST_WEB:-nginx}
FILE_STORE_DIR=
SOCK_DIR=
REACH_DIR=
POOL2_PID=
APP_SOCKET2=
[ -z "${TEST_CLUSTER_DIR:-}" ] || TEST_DB_SOCKET=$TEST_CLUSTER_DIR/node1/db.sock
VALIDATOR_PID=

# ---- The parts, by job ---------------------------------------------------------------------------

. "$TOP/t/lib/tap.sh"
. "$TOP/t/lib/fixtures.sh"
. "$TOP/t/lib/http.sh"
. "$TOP/t/lib/auth.sh"
. "$TOP/t/lib/upgrade.sh"
. "$TOP/t/lib/locks.sh"

# ---- On source ----------------------------------------------------------------------------------

_tools="mariadbd mariadb-install-db mariadb nginx spawn-fcgi curl jq"
case $TEST_WEB in apache*) _tools="$_tools apache2" ;; esac
for _tool in $_tools; do
	command -v "$_tool" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
	command -v "$_tool" >/dev/null 2>&1 || skip_all "$_tool is not installed (scripts/install-deps)"
done
unset _tool _tools

rm -rf "$TRASH"
mkdir -p "$TRASH" || bail_out "cannot create $TRASH"
: >"$TRASH/test.log"
cd "$TRASH" || bail_out "cannot enter $TRASH"
trap _cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# prove closes its end when another file bails out: leave through the EXIT trap, which stops the
# servers this file started, rather than die of SIGPIPE or SIGHUP with them still running.
trap 'exit 129' HUP
trap 'exit 141' PIPE
