#!/bin/sh
test_description='GET /v1/book (array, or page with page/count) and GET /v1/book/search?q= (title contains q literally)'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

# The ids of the array in the body (or of .items), comma-separated in body order.
ids () {
	jq -r "[${1:-.}[].id] | map(tostring) | join(\",\")" "$TRASH/body"
}

expect_ids () {
	local got
	got=$(ids "${2:-}") && [ "$got" = "$1" ] && return 0
	echo "expected ids '$1', got '$got'" >&2
	return 1
}

test_expect_success 'an empty table lists as an empty array' '
	http GET /v1/book &&
	expect_status 200 &&
	expect_json type array &&
	expect_json length 0
'

test_expect_success 'an empty table pages as total 0 and no items' '
	http GET "/v1/book?page=0&count=5" &&
	expect_status 200 &&
	expect_json .total 0 &&
	expect_json ".items | length" 0
'

test_expect_success 'setup: twelve live books with wildcard characters in some titles, one soft-deleted' '
	db_exec "INSERT INTO book (id, title, author, summary) VALUES
		(1, \"100% pure\", \"A\", \"S\"), (2, \"snake_case\", \"A\", \"S\"),
		(3, \"abc\", \"A\", \"S\"), (4, \"a1c\", \"A\", \"S\"),
		(5, \"plain\", \"A\", \"S\"), (6, \"back\\\\slash\", \"A\", \"S\"),
		(7, \"三体\", \"A\", \"S\"), (8, \"三体 II 😀\", \"A\", \"S\"),
		(9, \"x9\", \"A\", \"S\"), (10, \"x10\", \"A\", \"S\"),
		(11, \"x11\", \"A\", \"S\"), (12, \"x12\", \"A\", \"S\")" &&
	db_exec "INSERT INTO book (id, title, author, summary, delete_time)
		VALUES (13, \"deleted 100%_\", \"A\", \"S\", CURRENT_TIMESTAMP(3))" &&
	expect_db "SELECT title FROM book WHERE id = 6" "back\\\\slash"
'

test_expect_success 'GET /v1/book without page or count answers a bare array of every live book' '
	http GET /v1/book &&
	expect_status 200 &&
	expect_json type array &&
	expect_ids 1,2,3,4,5,6,7,8,9,10,11,12
'

test_expect_success 'each listed book has exactly the keys id, title, author, summary and image' '
	http GET /v1/book &&
	expect_json "map(keys | join(\",\")) | unique | join(\";\")" author,id,image,summary,title
'

test_expect_success 'page=0&count=5 answers exactly the keys total, items, page and count' '
	http GET "/v1/book?page=0&count=5" &&
	expect_status 200 &&
	expect_json "keys | join(\",\")" count,items,page,total
'

test_expect_success 'page=0&count=5 answers the first five books, total 12, page 0, count 5' '
	http GET "/v1/book?page=0&count=5" &&
	expect_json .total 12 &&
	expect_json .page 0 &&
	expect_json .count 5 &&
	expect_ids 1,2,3,4,5 .items
'

test_expect_success 'page=1&count=5 answers the next five books' '
	http GET "/v1/book?page=1&count=5" &&
	expect_json .page 1 &&
	expect_ids 6,7,8,9,10 .items
'

test_expect_success 'the last page answers the remaining two books and the real total' '
	http GET "/v1/book?page=2&count=5" &&
	expect_json .total 12 &&
	expect_ids 11,12 .items
'

test_expect_success 'a page past the end answers empty items with the real total' '
	http GET "/v1/book?page=3&count=5" &&
	expect_status 200 &&
	expect_json .total 12 &&
	expect_json ".items | type" array &&
	expect_json ".items | length" 0 &&
	expect_json .page 3
'

test_expect_success 'a page far past the end answers empty items with the real total' '
	http GET "/v1/book?page=1000000&count=30" &&
	expect_status 200 &&
	expect_json .total 12 &&
	expect_json ".items | length" 0
'

test_expect_success 'page items have exactly the book keys' '
	http GET "/v1/book?page=0&count=3" &&
	expect_json ".items | map(keys | join(\",\")) | unique | join(\";\")" author,id,image,summary,title
'

test_expect_success 'count alone answers a page: page defaults to 0' '
	http GET "/v1/book?count=2" &&
	expect_status 200 &&
	expect_json .page 0 &&
	expect_json .count 2 &&
	expect_ids 1,2 .items
'

test_expect_success 'page alone answers a page: count defaults to 10' '
	http GET "/v1/book?page=1" &&
	expect_status 200 &&
	expect_json .count 10 &&
	expect_json .total 12 &&
	expect_ids 11,12 .items
'

test_expect_success 'count=1 (the smallest) is accepted' '
	http GET "/v1/book?page=0&count=1" &&
	expect_status 200 &&
	expect_ids 1 .items
'

test_expect_success 'count=30 (the largest) is accepted' '
	http GET "/v1/book?page=0&count=30" &&
	expect_status 200 &&
	expect_json .count 30 &&
	expect_json ".items | length" 12
'

for bad in 0 31 -1 abc 1.5; do
	test_expect_success "count=$bad answers 400 with code 10030 naming count" '
		http GET "/v1/book?page=0&count=$bad" &&
		expect_status 400 &&
		expect_json .code 10030 &&
		expect_json ".message | keys | join(\",\")" count &&
		expect_json .request "GET /v1/book"
	'
done

for bad in -1 abc 1.5; do
	test_expect_success "page=$bad answers 400 with code 10030 naming page" '
		http GET "/v1/book?page=$bad&count=5" &&
		expect_status 400 &&
		expect_json .code 10030 &&
		expect_json ".message | keys | join(\",\")" page
	'
done

test_expect_success 'search answers a bare array of the books whose title contains q' '
	http GET "/v1/book/search?q=x1" &&
	expect_status 200 &&
	expect_json type array &&
	expect_ids 10,11,12
'

test_expect_success 'search items have exactly the book keys' '
	http GET "/v1/book/search?q=x1" &&
	expect_json "map(keys | join(\",\")) | unique | join(\";\")" author,id,image,summary,title
'

test_expect_success 'q=% matches only the titles containing %' '
	http GET "/v1/book/search?q=%25" &&
	expect_status 200 &&
	expect_ids 1
'

test_expect_success 'q=_ matches only the titles containing _' '
	http GET "/v1/book/search?q=_" &&
	expect_status 200 &&
	expect_ids 2
'

test_expect_success 'q=a_c matches a_c literally, not abc nor a1c' '
	http GET "/v1/book/search?q=a_c" &&
	expect_status 200 &&
	expect_json length 0
'

test_expect_success 'q=a%c matches a%c literally, not abc' '
	http GET "/v1/book/search?q=a%25c" &&
	expect_status 200 &&
	expect_json length 0
'

test_expect_success 'q=\ matches only the titles containing a backslash' '
	http GET "/v1/book/search?q=%5C" &&
	expect_status 200 &&
	expect_ids 6
'

test_expect_success 'a CJK q matches the titles containing it' '
	http GET "/v1/book/search?q=%E4%B8%89%E4%BD%93" &&
	expect_status 200 &&
	expect_ids 7,8
'

test_expect_success 'a 4-byte q matches the titles containing it' '
	http GET "/v1/book/search?q=%F0%9F%98%80" &&
	expect_status 200 &&
	expect_ids 8
'

test_expect_success 'a q contained in no title answers an empty array' '
	http GET "/v1/book/search?q=nothing-like-this" &&
	expect_status 200 &&
	expect_json type array &&
	expect_json length 0
'

test_expect_success 'search never finds a soft-deleted book' '
	http GET "/v1/book/search?q=deleted" &&
	expect_status 200 &&
	expect_json length 0
'

for bad in %FF %C3 %ED%A0%80 %00; do
	test_expect_success "q=$bad (not UTF-8 text) answers 400 with code 10030 naming q, not 500" '
		http GET "/v1/book/search?q=$bad" &&
		expect_status 400 &&
		expect_json .code 10030 &&
		expect_json ".message | keys | join(\",\")" q &&
		expect_json .request "GET /v1/book/search"
	'
done

test_expect_success 'q empty matches every live title' '
	http GET "/v1/book/search?q=" &&
	expect_status 200 &&
	expect_ids 1,2,3,4,5,6,7,8,9,10,11,12
'

test_done
