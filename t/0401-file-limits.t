#!/bin/sh
test_description='POST /cms/file limits at their boundaries (file_single_limit, file_max_count, file_total_limit, file_extensions): each refusal writes no file and no row'
. "$(dirname "$0")/lib.sh"

start_db
start_app file_single_limit=1024 file_max_count=2 file_total_limit=8192 'file_extensions=.png .JPG'
start_nginx

files_on_disk () {
	find "$FILE_STORE_DIR" -type f 2>/dev/null | wc -l
}

file_rows () {
	db_exec "SELECT COUNT(*) FROM lin_file"
}

# $1 bytes: the PNG signature, then the letter $2.
bytes () {
	printf '\211PNG\r\n\032\n'
	head -c "$(($1 - 8))" /dev/zero | tr "\0" "$2"
}

test_expect_success 'setup: root logs in' '
	remember root "$ROOT_PASSWORD"
'

test_expect_success 'a part of exactly file_single_limit bytes is stored' '
	as root &&
	bytes 1024 a >max.png &&
	http POST /cms/file "" -F file=@max.png &&
	expect_status 200 &&
	expect_json_true "length == 1"
'

test_expect_success 'a part one byte over file_single_limit answers 413 with code 10110' '
	as root &&
	bytes 1025 b >over.png &&
	http POST /cms/file "" -F file=@over.png &&
	expect_status 413 &&
	expect_json .code 10110 &&
	expect_json .message 文件体积过大 &&
	expect_json .request "POST /cms/file"
'

test_expect_success 'a part over file_single_limit after a good one stores neither' '
	as root &&
	bytes 10 c >small.png &&
	rows=$(file_rows) &&
	files=$(files_on_disk) &&
	http POST /cms/file "" -F file_0=@small.png -F file_1=@over.png &&
	expect_status 413 &&
	expect_json .code 10110 &&
	test "$(file_rows)" -eq "$rows" &&
	test "$(files_on_disk)" -eq "$files"
'

test_expect_success 'file_max_count parts are stored' '
	as root &&
	bytes 20 d >d.png &&
	bytes 20 e >e.png &&
	http POST /cms/file "" -F file_0=@d.png -F file_1=@e.png &&
	expect_status 200 &&
	expect_json_true "length == 2"
'

test_expect_success 'one part over file_max_count answers 413 with code 10121 and stores nothing' '
	as root &&
	bytes 30 f >f.png &&
	bytes 30 g >g.png &&
	bytes 30 h >h.png &&
	rows=$(file_rows) &&
	files=$(files_on_disk) &&
	http POST /cms/file "" -F file_0=@f.png -F file_1=@g.png -F file_2=@h.png &&
	expect_status 413 &&
	expect_json .code 10121 &&
	expect_json .message 文件太多，文件总数超过限制 &&
	test "$(file_rows)" -eq "$rows" &&
	test "$(files_on_disk)" -eq "$files"
'

test_expect_success 'empty parts do not count towards file_max_count' '
	as root &&
	: >empty.png &&
	bytes 40 i >i.png &&
	http POST /cms/file "" -F file_0=@empty.png -F file_1=@i.png -F file_2=@empty.png &&
	expect_status 200 &&
	expect_json_true "length == 1 and .[0].key == \"file_1\""
'

test_expect_success 'a body over file_total_limit answers the 413 envelope with code 10300' '
	as root &&
	bytes 9000 j >big.png &&
	http POST /cms/file "" -F file=@big.png &&
	expect_status 413 &&
	expect_header Content-Type "^application/json" &&
	expect_json .code 10300 &&
	expect_json .request "POST /cms/file"
'

test_expect_success 'a body over file_total_limit made of parts under file_single_limit stores nothing' '
	as root &&
	bytes 1000 m >m.png &&
	rows=$(file_rows) &&
	files=$(files_on_disk) &&
	set -- &&
	for i in 0 1 2 3 4 5 6 7 8; do set -- "$@" -F "file_$i=@m.png"; done &&
	http POST /cms/file "" "$@" &&
	expect_status 413 &&
	expect_json .code 10300 &&
	test "$(file_rows)" -eq "$rows" &&
	test "$(files_on_disk)" -eq "$files"
'

test_expect_success 'an extension listed in upper case in file_extensions accepts a JPEG as .jpg' '
	as root &&
	printf "\377\330\377\340 a jpeg" >photo.jpg &&
	http POST /cms/file "" -F file=@photo.jpg &&
	expect_status 200 &&
	expect_json_true ".[0].path | endswith(\".jpg\")"
'

test_expect_success 'a type of the default list left out of file_extensions answers 406' '
	as root &&
	printf "GIF89a a gif" >anim.gif &&
	http POST /cms/file "" -F file=@anim.gif &&
	expect_status 406 &&
	expect_json .code 10130 &&
	expect_json .message 文件扩展名不符合规范
'

test_done
