#!/bin/sh
test_description='POST /cms/file: the stored extension and the served type follow the content (PNG, JPEG or GIF signature), not the file name; other content is refused with 406 10130'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

files_on_disk () {
	find "$FILE_STORE_DIR" -type f | wc -l
}

# upload FILE NAME: POSTs FILE as the part "file" named NAME; keeps the path in $TRASH/path.
upload () {
	http POST /cms/file "" -F "file=@$1;filename=$2" &&
	expect_status 200 &&
	jq -r ".[0].path" "$TRASH/body" >"$TRASH/path"
}

test_expect_success 'setup: root logs in and makes a PNG, a JPEG, a GIF and a text file' '
	remember root "$ROOT_PASSWORD" &&
	printf "\211PNG\r\n\032\nthe cropper" >cropped &&
	printf "\377\330\377\340 a jpeg" >photo &&
	printf "GIF89a a gif" >anim &&
	printf "just text" >notes
'

test_expect_success 'PNG bytes named avatar.jpg (the client cropper) are stored as .png' '
	as root &&
	upload cropped avatar.jpg &&
	grep -Eq "^[0-9]{4}/[0-9]{2}/[0-9]{2}/[0-9a-f]{32}\.png$" path &&
	expect_db "SELECT extension FROM lin_file WHERE path = \"$(cat path)\"" .png
'

test_expect_success 'nginx serves the cropped avatar as image/png' '
	http GET "/assets/$(cat path)" &&
	expect_status 200 &&
	expect_header Content-Type "^image/png$"
'

test_expect_success 'JPEG bytes named photo.png are stored as .jpg and served as image/jpeg' '
	as root &&
	upload photo photo.png &&
	grep -Eq "\.jpg$" path &&
	expect_db "SELECT extension FROM lin_file WHERE path = \"$(cat path)\"" .jpg &&
	http GET "/assets/$(cat path)" &&
	expect_header Content-Type "^image/jpeg$"
'

test_expect_success 'GIF bytes named anim.txt are stored as .gif and served as image/gif' '
	as root &&
	upload anim anim.txt &&
	grep -Eq "\.gif$" path &&
	http GET "/assets/$(cat path)" &&
	expect_header Content-Type "^image/gif$"
'

test_expect_success 'text named notes.png is refused with 406 10130 and writes nothing' '
	as root &&
	before=$(files_on_disk) &&
	http POST /cms/file "" -F "file=@notes;filename=notes.png" &&
	expect_status 406 &&
	expect_json .code 10130 &&
	expect_json .message 文件扩展名不符合规范 &&
	test "$(files_on_disk)" -eq "$before"
'

test_expect_success 'one file that is no image refuses the whole upload' '
	as root &&
	before=$(files_on_disk) &&
	http POST /cms/file "" -F "a=@cropped;filename=a.png" -F "b=@notes;filename=b.jpg" &&
	expect_status 406 &&
	test "$(files_on_disk)" -eq "$before"
'

test_done
