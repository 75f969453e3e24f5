#!/bin/sh
test_description='shared hosting without root: the shipped apache/htaccess-*.example files, copied unchanged, make an Apache with AllowOverride All serve the app as CGI and through mod_fcgid, and the uploads'
TEST_WEB=apache-htaccess
. "$(dirname "$0")/lib.sh"

DOCROOT=$TRASH/public_html

start_db
start_app max_body_bytes=4096 file_store_dir="$DOCROOT/assets"

# What an operator does by hand: the binary copied next to each .htaccess, the examples copied
# as they are. The document root serves the CGI; fapi/ the mod_fcgid variant. This server runs
# the programs as its own user, without suexec, and gives them CMS_CONFIG (svc_apache_conf);
# t/0706 runs them under suexec.
mkdir -p "$DOCROOT/assets" "$DOCROOT/fapi" &&
cp "$APP_BIN" "$DOCROOT/cms.cgi" &&
cp "$APP_BIN" "$DOCROOT/fapi/cms.fcgi" &&
cp "$TOP/apache/htaccess-cgi.example" "$DOCROOT/.htaccess" &&
cp "$TOP/apache/htaccess-fcgid.example" "$DOCROOT/fapi/.htaccess" &&
cp "$TOP/apache/htaccess-assets.example" "$DOCROOT/assets/.htaccess" ||
	bail_out "cannot fill $DOCROOT"

start_web

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
	as root &&
	http GET /fapi/cms/user/information &&
	expect_status 200 &&
	expect_json .username root
'

test_expect_success 'through the mod_fcgid .htaccess a POST with the token creates a book' '
	as root &&
	http POST /fapi/v1/book "{\"title\":\"Fcgid book\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 201 &&
	expect_db "SELECT COUNT(*) FROM book WHERE title = \"Fcgid book\"" 1
'

test_expect_success 'the mod_fcgid process is the copied cms.fcgi, started without --supervise' '
	# The process that served the request just made, while it still runs: mod_fcgid may have
	# replaced an earlier one, so a pid from an earlier test can be gone (it was, once, in CI).
	for try in 1 2 3; do
		http GET /fapi/v1/book/7 &&
		pid=$(grep "path=/v1/book/7 " app.log | tail -n 1 | sed "s/.* pid=\([0-9]*\) .*/\1/") &&
		tr "\0" " " 2>/dev/null <"/proc/$pid/cmdline" >cmdline && break
	done &&
	grep -q "fapi/cms.fcgi" cmdline &&
	! grep -q -- --supervise cmdline
'

test_expect_success 'the binary itself is not served: GET /cms.cgi runs it (an envelope), never sends its bytes' '
	http GET /cms.cgi &&
	expect_header Content-Type "^application/json" &&
	! cmp -s body "$APP_BIN"
'

test_expect_success 'a body over mod_fcgid'"'"'s FcgidMaxRequestLen (128 KiB) answers the 500 JSON envelope of the .htaccess, with the message table'"'"'s text' '
	as root &&
	head -c 200000 /dev/zero >big.png &&
	http POST /fapi/cms/file "" -F file=@big.png &&
	expect_status 500 &&
	expect_header Content-Type "^application/json; charset=utf-8$" &&
	expect_json .code 9999 &&
	expect_json .message "$(sed -n "s/^code-message\[9999\]=//p" "$TOP/conf/code-message.properties")" &&
	expect_json .request "POST /cms/file"
'

test_expect_success 'after switching to mod_fcgid, a cms.cgi left next to the .htaccess is refused, never sent' '
	cp "$APP_BIN" public_html/fapi/cms.cgi &&
	http GET /fapi/cms.cgi &&
	expect_status 403 &&
	! cmp -s body "$APP_BIN"
'

test_done
