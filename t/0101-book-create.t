#!/bin/sh
test_description='POST /v1/book: 201 envelope without the id, the row written, every body rule at its boundary in CJK and 4-byte characters'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

# $2 copies of the string $1 (awk concatenates bytes, so any UTF-8 text works).
rep () {
	awk -v s="$1" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}

# A valid book body with field $1 set to the string $2.
body_with () {
	jq -nc --arg f "$1" --arg v "$2" '{title: "T", author: "A", summary: "S"} + {($f): $v}'
}

# Upper-case hex of the bytes of $1, as MariaDB's HEX() prints them.
hex_of () {
	printf '%s' "$1" | od -An -v -tx1 | tr -d ' \n' | tr a-f A-F
}

# The same for the bytes of file $1.
hex_file () {
	od -An -v -tx1 <"$1" | tr -d ' \n' | tr a-f A-F
}

book_count () {
	db_exec "SELECT COUNT(*) FROM book"
}

newest_id () {
	db_exec "SELECT MAX(id) FROM book"
}

test_expect_success 'setup: root logs in' '
	remember root "$ROOT_PASSWORD"
'

test_expect_success 'a valid body answers 201 with code 1, 新建图书成功 and request "POST /v1/book"' '
	as root &&
	http POST /v1/book "{\"title\":\"Dune\",\"author\":\"Herbert\",\"summary\":\"Spice\",\"image\":\"https://i.example/d.png\"}" &&
	expect_status 201 &&
	printf "%s" "{\"code\":1,\"message\":\"新建图书成功\",\"request\":\"POST /v1/book\"}" >expected &&
	expect_body_file expected
'

test_expect_success 'the created envelope carries no id' '
	as root &&
	http POST /v1/book "{\"title\":\"NoId\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 201 &&
	expect_json_true "has(\"id\") | not"
'

test_expect_success 'the created book is one row with the four given fields' '
	expect_db "SELECT title, author, summary, image FROM book WHERE title = \"Dune\"" \
		"$(printf "Dune\tHerbert\tSpice\thttps://i.example/d.png")"
'

test_expect_success 'the created row has create_time and update_time set and delete_time NULL' '
	expect_db "SELECT create_time IS NOT NULL, update_time IS NOT NULL, delete_time IS NULL
		FROM book WHERE title = \"Dune\"" "$(printf "1\t1\t1")"
'

test_expect_success 'the created book is served by GET /v1/book/{id}' '
	id=$(db_exec "SELECT id FROM book WHERE title = \"Dune\"") &&
	http GET /v1/book/$id &&
	expect_status 200 &&
	expect_json .author Herbert
'

test_expect_success 'a body without image stores image NULL' '
	expect_db "SELECT image IS NULL FROM book WHERE title = \"NoId\"" 1
'

test_expect_success 'an empty image is accepted (0 characters) and stored empty' '
	as root &&
	http POST /v1/book "{\"title\":\"EmptyImage\",\"author\":\"A\",\"summary\":\"S\",\"image\":\"\"}" &&
	expect_status 201 &&
	expect_db "SELECT CONCAT(\"[\", image, \"]\") FROM book WHERE title = \"EmptyImage\"" "[]"
'

test_expect_success 'a null image is accepted and stored NULL' '
	as root &&
	http POST /v1/book "{\"title\":\"NullImage\",\"author\":\"A\",\"summary\":\"S\",\"image\":null}" &&
	expect_status 201 &&
	expect_db "SELECT image IS NULL FROM book WHERE title = \"NullImage\"" 1
'

test_expect_success 'without a token POST answers 401 with code 10012' '
	http POST /v1/book "{\"title\":\"Anon\",\"author\":\"A\",\"summary\":\"S\"}" &&
	expect_status 401 &&
	expect_json .code 10012 &&
	expect_json .message 请传入认证头字段 &&
	expect_json .request "POST /v1/book"
'

test_expect_success 'a POST refused for want of a token writes no row' '
	expect_db "SELECT COUNT(*) FROM book WHERE title = \"Anon\"" 0
'

# Each length rule at its boundary, in 3-byte (CJK) and 4-byte (emoji) characters, and the URL
# rule in ASCII too.
for rule in "title 50 图书名不能超过50字符 书😀" "author 30 图书作者名不能超过30字符 书😀" \
	"summary 1000 图书综述不能超过1000字符 书😀" "image 100 图书插图的url长度必须在0~100之间 书😀x"; do
	set -- $rule
	field=$1 max=$2 text=$3 chars=$4
	for ch in 书 😀 x; do
		case $chars in *$ch*) ;; *) continue ;; esac
		test_expect_success "$field of $max × $ch answers 201" '
			as root &&
			body_with $field "$(rep "$ch" $max)" >body.json &&
			http POST /v1/book @body.json &&
			expect_status 201
		'
		test_expect_success "$field of $max × $ch is stored whole, byte for byte" '
			expect_db "SELECT CHAR_LENGTH($field), HEX($field) FROM book WHERE id = $(newest_id)" \
				"$(printf "%s\t%s" $max "$(hex_of "$(rep "$ch" $max)")")"
		'
		test_expect_success "$field of $((max + 1)) × $ch answers 400 {\"$field\":\"$text\"}" '
			as root &&
			body_with $field "$(rep "$ch" $((max + 1)))" >body.json &&
			http POST /v1/book @body.json &&
			expect_status 400 &&
			expect_json .code 10030 &&
			expect_json ".message | tojson" "{\"$field\":\"$text\"}" &&
			expect_json .request "POST /v1/book"
		'
	done
	test_expect_success "one character too many in $field writes no row" '
		as root &&
		before=$(book_count) &&
		body_with $field "$(rep 😀 $((max + 1)))" >body.json &&
		http POST /v1/book @body.json &&
		expect_status 400 &&
		expect_db "SELECT COUNT(*) FROM book" "$before"
	'
done

# Lengths are code points: a decomposed é is two, a family emoji joined by ZWJ is five.
test_expect_success 'a title of 25 decomposed é (50 code points) is accepted' '
	as root &&
	body_with title "$(rep "$(printf "e\314\201")" 25)" >body.json &&
	http POST /v1/book @body.json &&
	expect_status 201
'

test_expect_success 'a title of 25 decomposed é and one x (51 code points) is refused' '
	as root &&
	body_with title "$(rep "$(printf "e\314\201")" 25)x" >body.json &&
	http POST /v1/book @body.json &&
	expect_status 400 &&
	expect_json ".message | tojson" "{\"title\":\"图书名不能超过50字符\"}"
'

test_expect_success 'an author of 6 ZWJ family emoji (30 code points, 108 bytes) is accepted and stored whole' '
	as root &&
	body_with author "$(rep "👨‍👩‍👧" 6)" >body.json &&
	http POST /v1/book @body.json &&
	expect_status 201 &&
	expect_db "SELECT CHAR_LENGTH(author), LENGTH(author) FROM book WHERE id = $(newest_id)" "$(printf "30\t108")"
'

test_expect_success 'an author of 6 ZWJ family emoji and one more letter (31 code points) is refused' '
	as root &&
	body_with author "$(rep "👨‍👩‍👧" 6)a" >body.json &&
	http POST /v1/book @body.json &&
	expect_status 400 &&
	expect_json ".message | tojson" "{\"author\":\"图书作者名不能超过30字符\"}"
'

for rule in "title 必须传入图书名" "author 必须传入图书作者" "summary 必须传入图书综述"; do
	set -- $rule
	field=$1 text=$2
	test_expect_success "a body without $field answers 400 {\"$field\":\"$text\"}" '
		as root &&
		jq -nc --arg f $field "{title: \"T\", author: \"A\", summary: \"S\"} | del(.[\$f])" >body.json &&
		http POST /v1/book @body.json &&
		expect_status 400 &&
		expect_json .code 10030 &&
		expect_json ".message | tojson" "{\"$field\":\"$text\"}"
	'
	test_expect_success "an empty $field answers 400 {\"$field\":\"$text\"}" '
		as root &&
		body_with $field "" >body.json &&
		http POST /v1/book @body.json &&
		expect_status 400 &&
		expect_json ".message | tojson" "{\"$field\":\"$text\"}"
	'
	test_expect_success "a null $field answers 400 {\"$field\":\"$text\"}" '
		as root &&
		jq -nc --arg f $field "{title: \"T\", author: \"A\", summary: \"S\"} + {(\$f): null}" >body.json &&
		http POST /v1/book @body.json &&
		expect_status 400 &&
		expect_json ".message | tojson" "{\"$field\":\"$text\"}"
	'
	test_expect_success "a $field of one character is accepted" '
		as root &&
		body_with $field "书" >body.json &&
		http POST /v1/book @body.json &&
		expect_status 201
	'
done

test_expect_success 'an empty object reports title, author and summary together' '
	as root &&
	http POST /v1/book "{}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json_true ".message == {\"title\":\"必须传入图书名\",\"author\":\"必须传入图书作者\",\"summary\":\"必须传入图书综述\"}"
'

test_expect_success 'a too long title, a missing author and a too long image are reported together' '
	as root &&
	jq -nc --arg t "$(rep 书 51)" --arg i "$(rep x 101)" "{title: \$t, summary: \"S\", image: \$i}" >body.json &&
	http POST /v1/book @body.json &&
	expect_status 400 &&
	expect_json_true ".message == {\"title\":\"图书名不能超过50字符\",\"author\":\"必须传入图书作者\",\"image\":\"图书插图的url长度必须在0~100之间\"}"
'

test_expect_success 'a body failing several rules writes no row' '
	as root &&
	before=$(book_count) &&
	http POST /v1/book "{\"title\":\"\",\"author\":\"$(rep a 31)\",\"summary\":\"S\"}" &&
	expect_status 400 &&
	expect_db "SELECT COUNT(*) FROM book" "$before"
'

test_expect_success 'unknown fields are ignored: 201' '
	as root &&
	http POST /v1/book "{\"title\":\"Extra\",\"author\":\"A\",\"summary\":\"S\",\"id\":999,\"delete_time\":\"2020-01-01\",\"colour\":[1,{\"x\":null}]}" &&
	expect_status 201
'

test_expect_success 'an id in the body is not used as the new id' '
	expect_db "SELECT COUNT(*) FROM book WHERE id = 999" 0 &&
	expect_db "SELECT COUNT(*) FROM book WHERE title = \"Extra\"" 1
'

test_expect_success 'a delete_time in the body does not make the new book deleted' '
	expect_db "SELECT delete_time IS NULL FROM book WHERE title = \"Extra\"" 1
'

for wrong in 123 true "[\"T\"]" "{\"a\":\"T\"}"; do
	for field in title author summary image; do
		test_expect_success "$field given as $wrong answers 400 code 10030 naming $field" '
			as root &&
			jq -nc --arg f $field --argjson v "$wrong" "{title: \"WrongType\", author: \"A\", summary: \"S\"} + {(\$f): \$v}" >body.json &&
			http POST /v1/book @body.json &&
			expect_status 400 &&
			expect_json .code 10030 &&
			expect_json_true ".message | if type == \"object\" then has(\"$field\") else contains(\"$field\") end"
		'
	done
done

test_expect_success 'a field of the wrong type writes no row' '
	expect_db "SELECT COUNT(*) FROM book WHERE title = \"WrongType\"" 0
'

test_expect_success 'setup: a book whose texts hold line breaks, tabs, quotes and 4-byte characters' '
	as root &&
	printf "行一\n😀 \"q\" \\\\ 𠜎\n" >title.txt &&
	printf "第一行\n第二行\r\n\t😀🀄 end\n\n" >summary.txt &&
	printf "作者\n🐉" >author.txt &&
	printf "https://i.example/😀/𠜎.png" >image.txt &&
	jq -nc --rawfile t title.txt --rawfile a author.txt --rawfile s summary.txt --rawfile i image.txt \
		"{title: \$t, author: \$a, summary: \$s, image: \$i}" >body.json &&
	http POST /v1/book @body.json &&
	expect_status 201 &&
	newest_id >round_id
'

for field in title author summary image; do
	test_expect_success "GET returns the $field byte for byte as sent" '
		http GET /v1/book/$(cat round_id) &&
		expect_status 200 &&
		jq -j .$field body >got.txt &&
		cmp $field.txt got.txt
	'
	test_expect_success "the database holds the $field byte for byte as sent" '
		expect_db "SELECT HEX($field) FROM book WHERE id = $(cat round_id)" "$(hex_file $field.txt)"
	'
done

test_expect_success 'non-ASCII text is sent as UTF-8 bytes, not \u escapes' '
	http GET /v1/book/$(cat round_id) &&
	grep -q "😀" body &&
	! grep -q "\\\\u" body
'

test_done
