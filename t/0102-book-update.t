#!/bin/sh
test_description='PUT /v1/book/{id}: login required, 200 code 13, 404 for a missing or deleted book, the body rules of create'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

# $2 copies of the string $1.
rep () {
	awk -v s="$1" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}

# A valid book body with field $1 set to the string $2.
body_with () {
	jq -nc --arg f "$1" --arg v "$2" '{title: "New", author: "NewA", summary: "NewS"} + {($f): $v}'
}

# Book 5 as the setup wrote it, to prove a refused update changed nothing.
row5 () {
	db_exec "SELECT title, author, summary, image, update_time FROM book WHERE id = 5"
}

test_expect_success 'setup: root logs in; book 5 is live, book 6 is soft-deleted' '
	remember root "$ROOT_PASSWORD" &&
	db_exec "INSERT INTO book (id, title, author, summary, image, create_time, update_time)
		VALUES (5, \"Old\", \"OldA\", \"OldS\", \"old.png\",
			\"2020-01-01 00:00:00.000\", \"2020-01-01 00:00:00.000\")" &&
	db_exec "INSERT INTO book (id, title, author, summary, delete_time)
		VALUES (6, \"Gone\", \"GoneA\", \"GoneS\", \"2021-01-01 00:00:00.000\")" &&
	row5 >row5.before
'

test_expect_success 'without a token PUT answers 401 with code 10012' '
	http PUT /v1/book/5 "{\"title\":\"Anon\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 401 &&
	expect_json .code 10012 &&
	expect_json .request "PUT /v1/book/5"
'

test_expect_success 'a PUT refused for want of a token changes nothing' '
	row5 >row5.now &&
	cmp row5.before row5.now
'

test_expect_success 'a title of 51 characters answers 400 {"title":"图书名不能超过50字符"}' '
	as root &&
	body_with title "$(rep 😀 51)" >body.json &&
	http PUT /v1/book/5 @body.json &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json ".message | tojson" "{\"title\":\"图书名不能超过50字符\"}" &&
	expect_json .request "PUT /v1/book/5"
'

test_expect_success 'an author of 31 characters answers 400 {"author":"图书作者名不能超过30字符"}' '
	as root &&
	body_with author "$(rep 书 31)" >body.json &&
	http PUT /v1/book/5 @body.json &&
	expect_status 400 &&
	expect_json ".message | tojson" "{\"author\":\"图书作者名不能超过30字符\"}"
'

test_expect_success 'a summary of 1001 characters answers 400 {"summary":"图书综述不能超过1000字符"}' '
	as root &&
	body_with summary "$(rep 😀 1001)" >body.json &&
	http PUT /v1/book/5 @body.json &&
	expect_status 400 &&
	expect_json ".message | tojson" "{\"summary\":\"图书综述不能超过1000字符\"}"
'

test_expect_success 'an image of 101 characters answers 400 {"image":"图书插图的url长度必须在0~100之间"}' '
	as root &&
	body_with image "$(rep 书 101)" >body.json &&
	http PUT /v1/book/5 @body.json &&
	expect_status 400 &&
	expect_json ".message | tojson" "{\"image\":\"图书插图的url长度必须在0~100之间\"}"
'

test_expect_success 'an empty object answers 400 naming title, author and summary together' '
	as root &&
	http PUT /v1/book/5 "{}" &&
	expect_status 400 &&
	expect_json_true ".message == {\"title\":\"必须传入图书名\",\"author\":\"必须传入图书作者\",\"summary\":\"必须传入图书综述\"}"
'

test_expect_success 'an empty title answers 400 {"title":"必须传入图书名"}' '
	as root &&
	body_with title "" >body.json &&
	http PUT /v1/book/5 @body.json &&
	expect_status 400 &&
	expect_json ".message | tojson" "{\"title\":\"必须传入图书名\"}"
'

test_expect_success 'a title given as a number answers 400 code 10030 naming title' '
	as root &&
	http PUT /v1/book/5 "{\"title\":5,\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json_true ".message | if type == \"object\" then has(\"title\") else contains(\"title\") end"
'

test_expect_success 'the refused updates changed nothing in book 5' '
	row5 >row5.now &&
	cmp row5.before row5.now
'

test_expect_success 'a valid PUT answers 200 {"code":13,"message":"更新图书成功","request":"PUT /v1/book/5"}' '
	as root &&
	http PUT /v1/book/5 "{\"title\":\"New\",\"author\":\"NewA\",\"summary\":\"NewS\",\"image\":\"new.png\"}" &&
	expect_status 200 &&
	printf "%s" "{\"code\":13,\"message\":\"更新图书成功\",\"request\":\"PUT /v1/book/5\"}" >expected &&
	expect_body_file expected
'

test_expect_success 'the update is stored in the row' '
	expect_db "SELECT title, author, summary, image FROM book WHERE id = 5" \
		"$(printf "New\tNewA\tNewS\tnew.png")"
'

test_expect_success 'the update moves update_time and keeps create_time' '
	expect_db "SELECT update_time > \"2020-01-01\", create_time FROM book WHERE id = 5" \
		"$(printf "1\t2020-01-01 00:00:00.000")"
'

test_expect_success 'GET shows the updated book' '
	http GET /v1/book/5 &&
	expect_status 200 &&
	expect_json .title New &&
	expect_json .image new.png
'

test_expect_success 'the same PUT again (nothing changes) still answers 200 code 13' '
	as root &&
	http PUT /v1/book/5 "{\"title\":\"New\",\"author\":\"NewA\",\"summary\":\"NewS\",\"image\":\"new.png\"}" &&
	expect_status 200 &&
	expect_json .code 13
'

test_expect_success 'fields at their limits in 4-byte characters are accepted and stored whole' '
	as root &&
	jq -nc --arg t "$(rep 😀 50)" --arg a "$(rep 😀 30)" --arg s "$(rep 😀 1000)" --arg i "$(rep 😀 100)" \
		"{title: \$t, author: \$a, summary: \$s, image: \$i}" >body.json &&
	http PUT /v1/book/5 @body.json &&
	expect_status 200 &&
	expect_db "SELECT CHAR_LENGTH(title), CHAR_LENGTH(author), CHAR_LENGTH(summary), CHAR_LENGTH(image)
		FROM book WHERE id = 5" "$(printf "50\t30\t1000\t100")"
'

test_expect_success 'line breaks and 4-byte characters round-trip through PUT byte for byte' '
	as root &&
	printf "一\r\n二\n🐉\t\"x\"\n" >summary.txt &&
	jq -nc --rawfile s summary.txt "{title: \"RT\", author: \"A\", summary: \$s}" >body.json &&
	http PUT /v1/book/5 @body.json &&
	expect_status 200 &&
	http GET /v1/book/5 &&
	jq -j .summary body >got.txt &&
	cmp summary.txt got.txt
'

test_expect_success 'unknown fields and an id in the body are ignored' '
	as root &&
	http PUT /v1/book/5 "{\"id\":77,\"title\":\"Extra\",\"author\":\"A\",\"summary\":\"S\",\"x\":{}}" &&
	expect_status 200 &&
	expect_db "SELECT COUNT(*) FROM book WHERE id = 77" 0 &&
	expect_db "SELECT title FROM book WHERE id = 5" Extra
'

test_expect_success 'PUT on a missing id answers 404 with code 10022 and its request' '
	as root &&
	http PUT /v1/book/404404 "{\"title\":\"T\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 404 &&
	expect_json .code 10022 &&
	expect_json .message 未找到相关书籍 &&
	expect_json .request "PUT /v1/book/404404"
'

test_expect_success 'PUT on a missing id creates no row' '
	expect_db "SELECT COUNT(*) FROM book WHERE id = 404404 OR title = \"T\"" 0
'

test_expect_success 'PUT on a soft-deleted book answers 404 with code 10022' '
	as root &&
	http PUT /v1/book/6 "{\"title\":\"Back\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 404 &&
	expect_json .code 10022
'

test_expect_success 'PUT on a soft-deleted book leaves it unchanged and deleted' '
	expect_db "SELECT title, delete_time FROM book WHERE id = 6" \
		"$(printf "Gone\t2021-01-01 00:00:00.000")"
'

for bad in 0 -1 abc 4294967296; do
	test_expect_success "PUT on id $bad answers 400 {\"id\":\"id必须为正整数\"}" '
		as root &&
		http PUT /v1/book/$bad "{\"title\":\"T\",\"author\":\"A\",\"summary\":\"S\"}" &&
		expect_status 400 &&
		expect_json .code 10030 &&
		expect_json ".message | tojson" "{\"id\":\"id必须为正整数\"}"
	'
done

test_done
