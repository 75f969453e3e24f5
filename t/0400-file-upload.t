#!/bin/sh
test_description='POST /cms/file: the stored file, its row and its URL served by nginx, MD5 de-duplication, part keys, random names whatever the client file name, and every refusal with default limits'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

files_on_disk () {
	find "$FILE_STORE_DIR" -type f | wc -l
}

file_rows () {
	db_exec "SELECT COUNT(*) FROM lin_file"
}

# The id the next lin_file insert gets; an insert that fails on a duplicate key uses one up too.
next_file_id () {
	db_exec "SELECT AUTO_INCREMENT FROM information_schema.TABLES
		WHERE table_schema = DATABASE() AND table_name = \"lin_file\""
}

# upload_raw FILE: POSTs FILE as a multipart body whose boundary is XyZ (for bodies that curl -F
# cannot write, such as a file name with a NUL or a CR).
upload_raw () {
	http POST /cms/file "" --data-binary "@$1" -H "Content-Type: multipart/form-data; boundary=XyZ"
}

# multipart_part FIELD FILENAME CONTENT: one part of a XyZ body (FILENAME may hold any bytes,
# given as printf escapes).
multipart_part () {
	printf -- "--XyZ\r\nContent-Disposition: form-data; name=\"%s\"; filename=\"$2\"\r\nContent-Type: image/png\r\n\r\n%s\r\n" "$1" "$3"
}

test_expect_success 'setup: root logs in and makes one.png, two.png and three.png' '
	remember root "$ROOT_PASSWORD" &&
	png one >one.png &&
	png two >two.png &&
	png three >three.png
'

test_expect_success 'one png part answers 200 with one item {id, key, path, url}' '
	as root &&
	http POST /cms/file "" -F file=@one.png &&
	expect_status 200 &&
	expect_header Content-Type "^application/json" &&
	cp body first.json &&
	expect_json_true "length == 1" &&
	expect_json_true ".[0] | keys == [\"id\", \"key\", \"path\", \"url\"]"
'

test_expect_success 'the item key is the part field name' '
	jq -e ".[0].key == \"file\"" first.json
'

test_expect_success 'the item id is a positive number' '
	jq -e ".[0].id | type == \"number\" and . > 0" first.json
'

test_expect_success 'the item path is yyyy/mm/dd/<32 hex>.png' '
	jq -r ".[0].path" first.json >path &&
	grep -Eq "^[0-9]{4}/[0-9]{2}/[0-9]{2}/[0-9a-f]{32}\.png$" path
'

test_expect_success 'the item url is file_public_url followed by the path' '
	jq -e --arg base "http://127.0.0.1:$HTTP_PORT/assets/" ".[0].url == \$base + .[0].path" first.json
'

test_expect_success 'the stored file below file_store_dir has the uploaded bytes' '
	cmp one.png "$FILE_STORE_DIR/$(cat path)"
'

test_expect_success 'the stored file is mode 644 and its date directories 755' '
	p=$(cat path) &&
	test "$(stat -c %a "$FILE_STORE_DIR/$p")" = 644 &&
	test "$(stat -c %a "$FILE_STORE_DIR/${p%%/*}")" = 755 &&
	test "$(stat -c %a "$FILE_STORE_DIR/${p%/*/*}")" = 755 &&
	test "$(stat -c %a "$FILE_STORE_DIR/${p%/*}")" = 755
'

test_expect_success 'no temporary file is left next to the stored file' '
	test "$(find "$FILE_STORE_DIR" -name ".*" | wc -l)" -eq 0
'

test_expect_success 'nginx serves the stored file at the item url with the same bytes' '
	url=$(jq -r ".[0].url" first.json) &&
	curl --silent --show-error --max-time 5 --output served.png --write-out "%{http_code}\n" "$url" >served.status &&
	test "$(cat served.status)" = 200 &&
	cmp one.png served.png
'

test_expect_success 'nginx serves it as image/png with nosniff' '
	http GET "/assets/$(cat path)" &&
	expect_status 200 &&
	expect_header Content-Type "^image/png$" &&
	expect_header X-Content-Type-Options "^nosniff$"
'

test_expect_success 'the lin_file row holds path, LOCAL, the stored name, .png, the size and the MD5' '
	id=$(jq -r ".[0].id" first.json) &&
	p=$(cat path) &&
	expect_db "SELECT path, type, name, extension, size, md5 FROM lin_file WHERE id = $id" \
		"$(printf "%s\tLOCAL\t%s\t.png\t%s\t%s" "$p" "${p##*/}" "$(wc -c <one.png)" \
			"$(md5sum one.png | cut -d" " -f1)")"
'

test_expect_success 'the upload is one row and one file' '
	test "$(file_rows)" -eq 1 &&
	test "$(files_on_disk)" -eq 1
'

test_expect_success 'the same content again answers the same id and path' '
	as root &&
	cp one.png again.png &&
	http POST /cms/file "" -F image=@again.png &&
	expect_status 200 &&
	expect_json ".[0].id" "$(jq -r ".[0].id" first.json)" &&
	expect_json ".[0].path" "$(cat path)" &&
	expect_json ".[0].key" image
'

test_expect_success 'the same content again adds no row and no file' '
	test "$(file_rows)" -eq 1 &&
	test "$(files_on_disk)" -eq 1
'

test_expect_success 'the same content again touches neither the date directory nor AUTO_INCREMENT' '
	as root &&
	dir=$FILE_STORE_DIR/$(dirname "$(cat path)") &&
	mtime=$(stat -c %y "$dir") &&
	next_id=$(next_file_id) &&
	http POST /cms/file "" -F file=@one.png &&
	expect_status 200 &&
	test "$(stat -c %y "$dir")" = "$mtime" &&
	test "$(next_file_id)" = "$next_id"
'

test_expect_success 'a soft-deleted row of the same content is not reused' '
	as root &&
	png deleted >deleted.png &&
	http POST /cms/file "" -F file=@deleted.png &&
	expect_status 200 &&
	old=$(jq -r ".[0].id" body) &&
	db_exec "UPDATE lin_file SET delete_time = NOW() WHERE id = $old" &&
	http POST /cms/file "" -F file=@deleted.png &&
	expect_status 200 &&
	expect_json_true ".[0].id != $old" &&
	test -f "$FILE_STORE_DIR/$(jq -r ".[0].path" body)"
'

test_expect_success 'parts file_0 and file_1 answer two items with those keys, in part order' '
	as root &&
	http POST /cms/file "" -F file_0=@two.png -F file_1=@three.png &&
	expect_status 200 &&
	expect_json_true "length == 2" &&
	expect_json ".[0].key" file_0 &&
	expect_json ".[1].key" file_1 &&
	cp body pair.json
'

test_expect_success 'the two parts are two rows with their own contents' '
	cmp two.png "$FILE_STORE_DIR/$(jq -r ".[0].path" pair.json)" &&
	cmp three.png "$FILE_STORE_DIR/$(jq -r ".[1].path" pair.json)" &&
	test "$(jq -r ".[0].id" pair.json)" != "$(jq -r ".[1].id" pair.json)"
'

test_expect_success 'the same new content in two parts is stored once and answered twice' '
	as root &&
	png twice >twice.png &&
	before=$(files_on_disk) &&
	http POST /cms/file "" -F a=@twice.png -F b=@twice.png &&
	expect_status 200 &&
	expect_json_true "length == 2 and .[0].id == .[1].id and .[0].key == \"a\" and .[1].key == \"b\"" &&
	test "$(files_on_disk)" -eq $((before + 1)) &&
	expect_db "SELECT COUNT(*) FROM lin_file WHERE md5 = \"$(md5sum twice.png | cut -d" " -f1)\"" 1
'

test_expect_success 'an upper-case .PNG is accepted and stored as .png' '
	as root &&
	png upper >upper.PNG &&
	http POST /cms/file "" -F file=@upper.PNG &&
	expect_status 200 &&
	expect_json_true ".[0].path | endswith(\".png\")" &&
	expect_db "SELECT extension FROM lin_file WHERE id = $(jq -r ".[0].id" body)" .png
'

test_expect_success 'a ../../etc/passwd.png file name is stored under file_store_dir with a random name' '
	as root &&
	png traversal >t.png &&
	http POST /cms/file "" -F "file=@t.png;filename=../../etc/passwd.png" &&
	expect_status 200 &&
	p=$(jq -r ".[0].path" body) &&
	echo "$p" | grep -Eq "^[0-9]{4}/[0-9]{2}/[0-9]{2}/[0-9a-f]{32}\.png$" &&
	cmp t.png "$FILE_STORE_DIR/$p" &&
	test ! -e "$TRASH/etc" &&
	test ! -e "$FILE_STORE_DIR/../etc"
'

test_expect_success 'an a/b.png file name is stored with a random name and no b.png appears' '
	as root &&
	png slash >s.png &&
	http POST /cms/file "" -F "file=@s.png;filename=a/b.png" &&
	expect_status 200 &&
	p=$(jq -r ".[0].path" body) &&
	echo "$p" | grep -Eq "^[0-9]{4}/[0-9]{2}/[0-9]{2}/[0-9a-f]{32}\.png$" &&
	cmp s.png "$FILE_STORE_DIR/$p" &&
	test "$(find "$TRASH" -name "b.png" | wc -l)" -eq 0
'

test_expect_success 'a percent-encoded ..%2f file name is stored with a random name' '
	as root &&
	multipart_part file "..%%2f..%%2fpct.png" "$(png percent)" >pct.body &&
	printf -- "--XyZ--\r\n" >>pct.body &&
	upload_raw pct.body &&
	expect_status 200 &&
	expect_json_true ".[0].path | test(\"^[0-9]{4}/[0-9]{2}/[0-9]{2}/[0-9a-f]{32}[.]png$\")" &&
	test "$(find "$TRASH" -name "pct.png" | wc -l)" -eq 0
'

test_expect_success 'a file name with a NUL and a CR is stored with a random name' '
	as root &&
	multipart_part file "x\\000y\\rz.png" "$(png control)" >ctl.body &&
	printf -- "--XyZ--\r\n" >>ctl.body &&
	test "$(tr -cd "\000" <ctl.body | wc -c)" -eq 1 &&
	upload_raw ctl.body &&
	expect_status 200 &&
	p=$(jq -r ".[0].path" body) &&
	echo "$p" | grep -Eq "^[0-9]{4}/[0-9]{2}/[0-9]{2}/[0-9a-f]{32}\.png$" &&
	test "$(cat "$FILE_STORE_DIR/$p")" = "$(png control)"
'

test_expect_success 'every file on disk has a random name in a date directory' '
	(cd "$FILE_STORE_DIR" && find . -type f) >all-files &&
	test -s all-files &&
	! grep -Ev "^\./[0-9]{4}/[0-9]{2}/[0-9]{2}/[0-9a-f]{32}\.png$" all-files
'

test_expect_success 'a .exe part answers 406 with code 10130 and writes nothing' '
	as root &&
	printf "MZ" >tool.exe &&
	before=$(files_on_disk) &&
	http POST /cms/file "" -F file=@tool.exe &&
	expect_status 406 &&
	expect_json .code 10130 &&
	expect_json .request "POST /cms/file" &&
	test "$(files_on_disk)" -eq "$before"
'

test_expect_success 'a PNG named without a dot is taken by its content, as .png' '
	as root &&
	http POST /cms/file "" -F "file=@one.png;filename=png" &&
	expect_status 200 &&
	expect_json ".[0].path" "$(cat path)"
'

test_expect_success 'a good part and a .exe part answer 406 and store neither' '
	as root &&
	png good-before-bad >good.png &&
	rows=$(file_rows) &&
	files=$(files_on_disk) &&
	http POST /cms/file "" -F file_0=@good.png -F file_1=@tool.exe &&
	expect_status 406 &&
	test "$(file_rows)" -eq "$rows" &&
	test "$(files_on_disk)" -eq "$files"
'

test_expect_success 'a body with only a text field answers 404 with code 10026 未找到文件' '
	as root &&
	http POST /cms/file "" -F "name=value" &&
	expect_status 404 &&
	expect_json .code 10026 &&
	expect_json .message 未找到文件 &&
	expect_json .request "POST /cms/file"
'

test_expect_success 'an empty file part answers 404 with code 10026' '
	as root &&
	: >empty.png &&
	http POST /cms/file "" -F file=@empty.png &&
	expect_status 404 &&
	expect_json .code 10026
'

test_expect_success 'a multipart content type with an empty body answers 404 with code 10026' '
	as root &&
	http POST /cms/file "" -H "Content-Type: multipart/form-data; boundary=XyZ" &&
	expect_status 404 &&
	expect_json .code 10026
'

test_expect_success 'a part whose headers never end answers 400 with code 10030 and the multipart text' '
	as root &&
	printf -- "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.png\"\r\n--XyZ--\r\n" >broken.body &&
	upload_raw broken.body &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message "multipart 请求体无法解析"
'

test_expect_success 'multipart/form-data without a boundary answers 400 with code 10030' '
	as root &&
	http POST /cms/file "" --data-binary @one.png -H "Content-Type: multipart/form-data" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message "multipart 请求体无法解析"
'

test_expect_success 'a quoted boundary (RFC 2046) is understood' '
	as root &&
	png quoted >quoted.png &&
	{
		printf -- "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"q.png\"\r\n" &&
		printf "Content-Type: image/png\r\n\r\n" && cat quoted.png && printf "\r\n--XyZ--\r\n"
	} >quoted.body &&
	http POST /cms/file "" --data-binary @quoted.body \
		-H "Content-Type: multipart/form-data; boundary=\"XyZ\"" &&
	expect_status 200 &&
	expect_json ".[0].key" file
'

test_expect_success 'a JSON body answers 415 with code 10304 (multipart required)' '
	as root &&
	http POST /cms/file "{}" &&
	expect_status 415 &&
	expect_json .code 10304 &&
	expect_json .message "请求体须为 multipart/form-data" &&
	expect_json .request "POST /cms/file"
'

test_expect_success 'a urlencoded form answers 415 with code 10304' '
	as root &&
	http POST /cms/file "" --data "file=one.png" &&
	expect_status 415 &&
	expect_json .code 10304
'

test_expect_success 'an anonymous upload answers 401 with code 10012 and writes nothing' '
	TOKEN= &&
	png anonymous >anon.png &&
	files=$(files_on_disk) &&
	http POST /cms/file "" -F file=@anon.png &&
	expect_status 401 &&
	expect_json .code 10012 &&
	test "$(files_on_disk)" -eq "$files"
'

test_expect_success 'a 3 MiB part passes nginx and answers the app 413 with code 10110' '
	as root &&
	head -c 3145728 /dev/zero >three-mib.png &&
	http POST /cms/file "" -F file=@three-mib.png &&
	expect_status 413 &&
	expect_header Content-Type "^application/json" &&
	expect_json .code 10110
'

test_expect_success 'an 11 MiB body passes nginx and answers the app 413 envelope with code 10300' '
	as root &&
	head -c 11534336 /dev/zero >eleven-mib.png &&
	http POST /cms/file "" -F file=@eleven-mib.png &&
	expect_status 413 &&
	expect_header Content-Type "^application/json" &&
	expect_json .code 10300 &&
	expect_json .request "POST /cms/file"
'

test_expect_success 'an anonymous 11 MiB upload answers 401 10012, authorized before its body is read, not 413' '
	TOKEN= &&
	head -c 11534336 /dev/zero >anonymous-eleven-mib.png &&
	http POST /cms/file "" -F file=@anonymous-eleven-mib.png &&
	expect_status 401 &&
	expect_json .code 10012 &&
	expect_json .request "POST /cms/file"
'

test_expect_success 'a 3 MiB JSON body on another route still gets nginx 413, not the upload cap' '
	as root &&
	head -c 3145728 /dev/zero | tr "\0" a >big.json &&
	http POST /v1/book @big.json &&
	expect_status 413 &&
	grep "client intended to send too large body: 3145728 bytes" nginx/error.log
'

test_expect_success 'GET /assets/ of a missing file answers 404' '
	http GET /assets/2000/01/01/00000000000000000000000000000000.png &&
	expect_status 404
'

test_done
