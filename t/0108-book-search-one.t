#!/bin/sh
test_description='GET /v1/book/search/one?q= (koa): the live book of lowest id whose title contains q literally, or 404 10022'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

test_expect_success 'setup: books 1..4, book 2 soft-deleted' '
	db_exec "INSERT INTO book (id, title, author, summary, image) VALUES
		(1, \"C程序设计语言\", \"K&R\", \"s1\", NULL),
		(2, \"深入理解计算机系统\", \"Bryant\", \"s2\", NULL),
		(3, \"深入理解计算机系统 第三版\", \"Bryant\", \"s3\", \"https://img/3.jpg\"),
		(4, \"100% 深入\", \"X\", \"s4\", NULL)" &&
	db_exec "UPDATE book SET delete_time = NOW(3) WHERE id = 2"
'

test_expect_success 'q contained in two live titles answers the one of lower id, as the book object' '
	http GET "/v1/book/search/one?q=%E6%B7%B1%E5%85%A5%E7%90%86%E8%A7%A3" &&
	expect_status 200 &&
	expect_json .id 3 &&
	expect_json .title "深入理解计算机系统 第三版" &&
	expect_json .image "https://img/3.jpg" &&
	expect_json "keys | join(\",\")" author,id,image,summary,title
'

test_expect_success 'a soft-deleted book is never the answer (book 2 matches first by id)' '
	http GET "/v1/book/search/one?q=%E8%AE%A1%E7%AE%97%E6%9C%BA%E7%B3%BB%E7%BB%9F" &&
	expect_status 200 &&
	expect_json .id 3
'

test_expect_success 'q=% matches only the title containing %' '
	http GET "/v1/book/search/one?q=%25" &&
	expect_status 200 &&
	expect_json .id 4
'

test_expect_success 'a q no live title contains answers 404 with code 10022' '
	http GET "/v1/book/search/one?q=nothing-like-this" &&
	expect_status 404 &&
	expect_json .code 10022 &&
	expect_json .message 未找到相关书籍 &&
	expect_json .request "GET /v1/book/search/one"
'

test_expect_success 'absent q matches every live title: the lowest id' '
	http GET /v1/book/search/one &&
	expect_status 200 &&
	expect_json .id 1
'

test_expect_success 'q that is not UTF-8 answers 400 with code 10030 naming q' '
	http GET "/v1/book/search/one?q=%FF" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json ".message | keys | join(\",\")" q
'

test_expect_success 'with every book deleted, the empty q answers 404 10022' '
	db_exec "UPDATE book SET delete_time = NOW(3) WHERE delete_time IS NULL" &&
	http GET /v1/book/search/one &&
	expect_status 404 &&
	expect_json .code 10022
'

test_done
