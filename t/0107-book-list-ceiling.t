#!/bin/sh
test_description='list_max_rows: unpaged GET /v1/book and /v1/book/search answer at most that many live books, lowest ids first, and X-Total-Count of all that match'
. "$(dirname "$0")/lib.sh"

start_db
start_app list_max_rows=3
start_nginx

# The ids of the array in the body, comma-separated in body order.
ids () {
	jq -r '[.[].id] | map(tostring) | join(",")' "$TRASH/body"
}

expect_ids () {
	local got
	got=$(ids) && [ "$got" = "$1" ] && return 0
	echo "expected ids '$1', got '$got'" >&2
	return 1
}

test_expect_success 'setup: seven live books, titles x or y, and a soft-deleted one of low id' '
	db_exec "INSERT INTO book (id, title, author, summary) VALUES
		(8, \"y8\", \"A\", \"S\"), (1, \"x1\", \"A\", \"S\"), (2, \"y2\", \"A\", \"S\"),
		(7, \"x7\", \"A\", \"S\"), (4, \"x4\", \"A\", \"S\"), (5, \"y5\", \"A\", \"S\"),
		(6, \"x6\", \"A\", \"S\")" &&
	db_exec "INSERT INTO book (id, title, author, summary, delete_time)
		VALUES (3, \"x3\", \"A\", \"S\", CURRENT_TIMESTAMP(3))"
'

test_expect_success 'GET /v1/book answers a bare array of list_max_rows (3) books' '
	http GET /v1/book &&
	expect_status 200 &&
	expect_json type array &&
	expect_json length 3
'

test_expect_success 'the books kept are the live ones of lowest id, in id order' '
	http GET /v1/book &&
	expect_ids 1,2,4
'

test_expect_success 'X-Total-Count of GET /v1/book is the number of live books (7)' '
	http GET /v1/book &&
	expect_header X-Total-Count "^7$"
'

test_expect_success 'a search matching four books answers the three of lowest id' '
	http GET "/v1/book/search?q=x" &&
	expect_status 200 &&
	expect_json type array &&
	expect_ids 1,4,6
'

test_expect_success 'X-Total-Count of that search is the number of live matches (4)' '
	http GET "/v1/book/search?q=x" &&
	expect_header X-Total-Count "^4$"
'

test_expect_success 'a search matching exactly three books answers all three, X-Total-Count 3' '
	http GET "/v1/book/search?q=y" &&
	expect_ids 2,5,8 &&
	expect_header X-Total-Count "^3$"
'

test_expect_success 'a search matching nothing answers [] and X-Total-Count 0' '
	http GET "/v1/book/search?q=zzz" &&
	expect_json length 0 &&
	expect_header X-Total-Count "^0$"
'

test_expect_success 'pages are not cut by list_max_rows: page=0&count=5 answers five books' '
	http GET "/v1/book?page=0&count=5" &&
	expect_status 200 &&
	expect_json ".items | length" 5 &&
	expect_json .total 7
'

test_done
