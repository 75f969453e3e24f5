#!/bin/sh
test_description='GET /status: every status of the label set, from a real answer, is counted under its own label in JSON, Prometheus and OpenMetrics (the 503 of a stopped database, which CmsHigh5xxRate alerts on, among them)'
. "$(dirname "$0")/lib.sh"

start_db --private
start_app workers=1 login_captcha=off login_max_failures=1 file_single_limit=1024
start_nginx
# The 500 and the 503 below are logged as errors.
allow_app_errors

# pages NAME: the status page in its three formats, as NAME.json, NAME.prom and NAME.om.
pages () {
	http GET /status && expect_status 200 && cp body "$1.json" &&
	http GET "/status?format=prometheus" && expect_status 200 && cp body "$1.prom" &&
	http GET "/status?format=openmetrics" && expect_status 200 && cp body "$1.om"
}

# counted NAME ROUTE METHOD STATUS: the requests that page NAME counts under these labels, in
# JSON, Prometheus and OpenMetrics, on one line (0 where the page has no such sample).
counted () {
	local sample="cms_requests_total{route=\"$2\",method=\"$3\",status=\"$4\"}" f
	jq -r --arg r "$2" --arg m "$3" --arg s "$4" \
		"[.requests[] | select(.route == \$r and .method == \$m and .status == \$s) | .count] | add // 0" \
		"$1.json" | tr "\n" " " &&
	for f in prom om; do
		awk -v s="$sample" '$1 == s { n = $2 } END { printf "%d ", n }' "$1.$f" || return 1
	done &&
	echo
}

# one_more ROUTE METHOD STATUS: each format of page after counts one request more under these
# labels than the same format of page before.
one_more () {
	local was now
	was=$(counted before "$@") && now=$(counted after "$@") &&
	set -- $was &&
	test "$now" = "$(($1 + 1)) $(($2 + 1)) $(($3 + 1)) " || {
		echo "counted (json prometheus openmetrics): $was before, $now after" >&2
		return 1
	}
}

test_expect_success 'setup: root logs in, registers alice in no group, alice logs in; a book exists' '
	remember root "$ROOT_PASSWORD" &&
	http POST /cms/user/register "{\"username\":\"alice\",\"password\":\"Alice_pass1\",\"confirm_password\":\"Alice_pass1\"}" &&
	expect_status 201 &&
	remember alice Alice_pass1 &&
	db_exec "INSERT INTO book (title, author) VALUES (\"Dune\", \"Herbert\")" &&
	db_exec "SELECT id FROM book" >book_id
'

test_expect_success 'setup: a trigger makes the insert of a book titled Refused fail' '
	db_exec "CREATE TRIGGER book_refuse BEFORE INSERT ON book FOR EACH ROW
		SET NEW.title = IF(NEW.title = \"Refused\", NULL, NEW.title)"
'

test_expect_success '200 (GET /healthz) is counted under status 200' '
	pages before &&
	http GET /healthz && expect_status 200 &&
	pages after &&
	one_more /healthz GET 200
'

test_expect_success '201 (a book created) is counted under status 201' '
	pages before &&
	as root &&
	http POST /v1/book "{\"title\":\"Emma\",\"author\":\"Austen\",\"summary\":\"S\"}" &&
	expect_status 201 &&
	pages after &&
	one_more /v1/book POST 201
'

test_expect_success '204 (a CORS preflight) is counted under status 204' '
	pages before &&
	http OPTIONS /v1/book "" -H "Origin: https://any.example" -H "Access-Control-Request-Method: POST" &&
	expect_status 204 &&
	pages after &&
	one_more /v1/book OPTIONS 204
'

test_expect_success '400 (a malformed JSON body) is counted under status 400' '
	pages before &&
	as root &&
	http POST /v1/book "{\"title\":" &&
	expect_status 400 &&
	pages after &&
	one_more /v1/book POST 400
'

test_expect_success '401 (no token on a login route) is counted under status 401' '
	pages before &&
	http GET /cms/user/information &&
	expect_status 401 &&
	pages after &&
	one_more /cms/user/information GET 401
'

test_expect_success '403 (a user outside the root group on an admin route) is counted under status 403' '
	pages before &&
	as alice &&
	http GET /cms/admin/group/all &&
	expect_status 403 &&
	pages after &&
	one_more /cms/admin/group/all GET 403
'

test_expect_success '404 (a path of no route) is counted under status 404' '
	pages before &&
	http GET /nowhere &&
	expect_status 404 &&
	pages after &&
	one_more unmatched GET 404
'

test_expect_success '405 (a method the path does not allow, no route: unmatched) is counted under status 405' '
	pages before &&
	as root &&
	http DELETE /v1/book &&
	expect_status 405 &&
	pages after &&
	one_more unmatched DELETE 405
'

test_expect_success '409 (a taken username) is counted under status 409' '
	pages before &&
	as root &&
	http POST /cms/user/register "{\"username\":\"alice\",\"password\":\"Alice_pass1\",\"confirm_password\":\"Alice_pass1\"}" &&
	expect_status 409 &&
	pages after &&
	one_more /cms/user/register POST 409
'

test_expect_success '413 (a file over file_single_limit) is counted under status 413' '
	pages before &&
	as root &&
	head -c 1025 /dev/zero >over.png &&
	http POST /cms/file "" -F file=@over.png &&
	expect_status 413 &&
	pages after &&
	one_more /cms/file POST 413
'

test_expect_success '415 (a body that is not JSON) is counted under status 415' '
	pages before &&
	as root &&
	http POST /v1/book "" -H "Content-Type: text/plain" --data-raw "title=Plain" &&
	expect_status 415 &&
	pages after &&
	one_more /v1/book POST 415
'

test_expect_success '422 (an Idempotency-Key reused for another body) is counted under status 422' '
	as root &&
	http POST /v1/book "{\"title\":\"Kept\",\"author\":\"A\",\"summary\":\"S\"}" -H "Idempotency-Key: labels-1" &&
	expect_status 201 &&
	pages before &&
	http POST /v1/book "{\"title\":\"Other\",\"author\":\"A\",\"summary\":\"S\"}" -H "Idempotency-Key: labels-1" &&
	expect_status 422 &&
	pages after &&
	one_more /v1/book POST 422
'

test_expect_success '429 (a login after login_max_failures) is counted under status 429' '
	http POST /cms/user/login "{\"username\":\"alice\",\"password\":\"Wrong_pass1\"}" &&
	expect_status 401 &&
	pages before &&
	http POST /cms/user/login "{\"username\":\"alice\",\"password\":\"Alice_pass1\"}" &&
	expect_status 429 &&
	pages after &&
	one_more /cms/user/login POST 429
'

test_expect_success '500 (an insert the database refuses) is counted under status 500' '
	pages before &&
	as root &&
	http POST /v1/book "{\"title\":\"Refused\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 500 &&
	pages after &&
	one_more /v1/book POST 500
'

test_expect_success 'a status outside the label set (406, a file type not allowed) is counted under "other"' '
	pages before &&
	as root &&
	printf "plain text" >notes.txt &&
	http POST /cms/file "" -F file=@notes.txt &&
	expect_status 406 &&
	pages after &&
	one_more /cms/file POST other
'

stop_db

test_expect_success '503 (a book read while the database is stopped) is counted under status 503' '
	pages before &&
	http GET "/v1/book/$(cat book_id)" &&
	expect_status 503 &&
	pages after &&
	one_more "/v1/book/{id}" GET 503
'

# The label set as the scoreboard declares it, 0 being "other": a status added there without a
# test above fails here.
test_expect_success 'every status of the label set in src/metrics/scoreboard.h was counted above, in each format' '
	sed -n "/k_statuses\[\] = {/,/};/p" "$TOP/src/metrics/scoreboard.h" |
		grep -o "[0-9][0-9]*" | sed "s/^0$/other/" >labels &&
	test "$(wc -l <labels)" -ge 16 &&
	pages final &&
	while read -r s; do
		jq -e --arg s "$s" "any(.requests[]; .status == \$s)" final.json >/dev/null &&
		grep -q "^cms_requests_total{.*,status=\"$s\"} [1-9]" final.prom &&
		grep -q "^cms_requests_total{.*,status=\"$s\"} [1-9]" final.om || {
			echo "status $s is not counted" >&2
			return 1
		}
	done <labels
'

test_done
