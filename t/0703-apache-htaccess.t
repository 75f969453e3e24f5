#!/bin/sh
test_description='shared hosting without root: the shipped apache/htaccess-*.example files, their paths replaced and nothing else, make an Apache with AllowOverride All serve the app as CGI and through mod_fcgid, and the uploads'
TEST_WEB=apache-htaccess
. "$(dirname "$0")/lib.sh"

# The example paths and the ones of this run.
EXAMPLE_CONF=/home/me/cms/etc/cms-fcgi/cms.conf
EXAMPLE_FCGI=/home/me/public_html/api/cms.fcgi
DOCROOT=$TRASH/public_html

start_db
start_app max_body_bytes=4096 file_store_dir="$DOCROOT/assets"

# What an operator does by hand: the binary copied next to each .htaccess, the examples copied
# with their paths replaced. The document root serves the CGI; fapi/ the mod_fcgid variant.
mkdir -p "$DOCROOT/assets" "$DOCROOT/fapi" &&
cp "$APP_BIN" "$DOCROOT/cms.cgi" &&
cp "$APP_BIN" "$DOCROOT/fapi/cms.fcgi" &&
sed "s|$EXAMPLE_CONF|$TRASH/cms.conf|" "$TOP/apache/htaccess-cgi.example" >"$DOCROOT/.htaccess" &&
sed -e "s|$EXAMPLE_CONF|$TRASH/cms.conf|" -e "s|$EXAMPLE_FCGI|$DOCROOT/fapi/cms.fcgi|" \
	"$TOP/apache/htaccess-fcgid.example" >"$DOCROOT/fapi/.htaccess" &&
cp "$TOP/apache/htaccess-assets.example" "$DOCROOT/assets/.htaccess" ||
	bail_out "cannot fill $DOCROOT"

start_web

test_expect_success 'setup: each .htaccess differs from its example in the path lines only' '
	test "$(diff "$TOP/apache/htaccess-cgi.example" public_html/.htaccess | grep -c "^>")" -eq 1 &&
	test "$(diff "$TOP/apache/htaccess-fcgid.example" public_html/fapi/.htaccess | grep -c "^>")" -eq 1 &&
	cmp "$TOP/apache/htaccess-assets.example" public_html/assets/.htaccess
'

. "$TOP/t/web-front-subset.sh"

test_expect_success 'below the CGI directory the envelope request has no script prefix (SCRIPT_NAME /cms.cgi)' '
	http GET /v1/book/999 &&
	expect_json .request "GET /v1/book/999"
'

test_expect_success 'the mod_fcgid .htaccess serves GET /fapi/v1/book/7' '
	http GET /fapi/v1/book/7 &&
	expect_status 200 &&
	expect_json .id 7
'

test_expect_success 'through the mod_fcgid .htaccess the 404 envelope has request "GET /v1/book/999"' '
	http GET /fapi/v1/book/999 &&
	expect_status 404 &&
	expect_json .request "GET /v1/book/999"
'

test_expect_success 'through the mod_fcgid .htaccess the token reaches the app' '
	TOKEN=$(cat token) &&
	http GET /fapi/cms/user/information &&
	expect_status 200 &&
	expect_json .username root
'

test_expect_success 'through the mod_fcgid .htaccess a POST with the token creates a book' '
	TOKEN=$(cat token) &&
	http POST /fapi/v1/book "{\"title\":\"Fcgid book\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 201 &&
	expect_db "SELECT COUNT(*) FROM book WHERE title = \"Fcgid book\"" 1
'

test_expect_success 'the mod_fcgid process was started by the wrapper line, with -c and without --supervise' '
	# The process that served the request just made, while it still runs: mod_fcgid may have
	# replaced an earlier one, so a pid from an earlier test can be gone (it was, once, in CI).
	for try in 1 2 3; do
		http GET /fapi/v1/book/7 &&
		pid=$(grep "path=/v1/book/7 " app.log | tail -n 1 | sed "s/.* pid=\([0-9]*\) .*/\1/") &&
		tr "\0" " " 2>/dev/null <"/proc/$pid/cmdline" >cmdline && break
	done &&
	grep -q "cms.fcgi -c $TRASH/cms.conf" cmdline &&
	! grep -q -- --supervise cmdline
'

test_expect_success 'the binary itself is not served: GET /cms.cgi runs it (an envelope), never sends its bytes' '
	http GET /cms.cgi &&
	expect_header Content-Type "^application/json" &&
	! cmp -s body "$APP_BIN"
'

test_done
