#!/bin/sh
test_description='PUT /cms/user edits the own profile, /cms/user/information shows it, captcha is off'
. "$(dirname "$0")/lib.sh"

start_db
start_app file_public_url=http://files.example/assets/
start_nginx

USER_PASSWORD=User_pass1

# new_user NAME [EMAIL]: root registers NAME (password $USER_PASSWORD, group guest).
new_user () {
	as root &&
	http POST /cms/user/register "$(jq -nc --arg u "$1" --arg e "${2:-}" --arg p "$USER_PASSWORD" \
		'{username: $u, password: $p, confirm_password: $p, email: $e}')" &&
	expect_status 201
}

# column COLUMN NAME: COLUMN of the live user NAME.
column () {
	db_exec "SELECT $1 FROM lin_user WHERE username = '$2' AND delete_time IS NULL"
}

test_expect_success 'setup: root registers alice and bob with their e-mails' '
	remember root "$ROOT_PASSWORD" &&
	new_user alice alice@example.com &&
	new_user bob bob@example.com &&
	remember alice "$USER_PASSWORD" &&
	remember bob "$USER_PASSWORD" &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE delete_time IS NULL" 3
'

test_expect_success 'PUT /cms/user without a token is refused with 401 10012' '
	TOKEN= &&
	http PUT /cms/user "{\"nickname\":\"nobody\"}" &&
	expect_status 401 &&
	expect_json .code 10012
'

test_expect_success 'a new nickname answers 200 with the code 6 envelope' '
	as alice &&
	http PUT /cms/user "{\"nickname\":\"Alice A\"}" &&
	expect_status 200 &&
	expect_json .code 6 &&
	expect_json .message 更新用户成功 &&
	expect_json .request "PUT /cms/user"
'

test_expect_success 'the new nickname is stored' '
	test "$(column nickname alice)" = "Alice A"
'

test_expect_success 'a trailing slash reaches the same route' '
	as alice &&
	http PUT /cms/user/ "{\"nickname\":\"Alice B\"}" &&
	expect_status 200 &&
	test "$(column nickname alice)" = "Alice B"
'

test_expect_success 'a one-character nickname is a 400 on field nickname' '
	as alice &&
	http PUT /cms/user "{\"nickname\":\"A\"}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.nickname 昵称长度必须在2~10之间
'

test_expect_success 'an eleven-character nickname is a 400 on field nickname' '
	as alice &&
	http PUT /cms/user "{\"nickname\":\"ABCDEFGHIJK\"}" &&
	expect_status 400 &&
	expect_json .message.nickname 昵称长度必须在2~10之间
'

test_expect_success 'a ten-character CJK nickname passes: lengths count characters' '
	as alice &&
	http PUT /cms/user "{\"nickname\":\"一二三四五六七八九十\"}" &&
	expect_status 200 &&
	test "$(column nickname alice)" = 一二三四五六七八九十
'

test_expect_success 'a one-character username is a 400 on field username' '
	as alice &&
	http PUT /cms/user "{\"username\":\"a\"}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.username 用户名长度必须在2~10之间
'

test_expect_success 'an eleven-character username is a 400 on field username' '
	as alice &&
	http PUT /cms/user "{\"username\":\"abcdefghijk\"}" &&
	expect_status 400 &&
	expect_json .message.username 用户名长度必须在2~10之间
'

test_expect_success 'a malformed e-mail is a 400 on field email' '
	as alice &&
	http PUT /cms/user "{\"email\":\"not-an-address\"}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json_true ".message | has(\"email\")"
'

test_expect_success 'an avatar of 501 characters is a 400 on field avatar' '
	as alice &&
	long=$(printf "%0501d" 0) &&
	http PUT /cms/user "{\"avatar\":\"$long\"}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json_true ".message | has(\"avatar\")"
'

test_expect_success 'an avatar of 500 characters is accepted and stored whole' '
	as alice &&
	long=$(printf "%0500d" 0) &&
	http PUT /cms/user "{\"avatar\":\"$long\"}" &&
	expect_status 200 &&
	test "$(column "CHAR_LENGTH(avatar)" alice)" = 500
'

test_expect_success 'a rejected body changes nothing, not even its valid fields' '
	as alice &&
	http PUT /cms/user "{\"nickname\":\"Changed\",\"username\":\"x\"}" &&
	expect_status 400 &&
	test "$(column nickname alice)" = 一二三四五六七八九十
'

test_expect_success 're-sending the own username is allowed (200), unlike Spring' '
	as alice &&
	http PUT /cms/user "{\"username\":\"alice\",\"nickname\":\"Alice C\"}" &&
	expect_status 200 &&
	expect_json .code 6 &&
	test "$(column nickname alice)" = "Alice C"
'

test_expect_success 're-sending the own e-mail is allowed (200)' '
	as alice &&
	http PUT /cms/user "{\"email\":\"alice@example.com\"}" &&
	expect_status 200
'

test_expect_success 'a username another live user has is refused with 409 10071' '
	as alice &&
	http PUT /cms/user "{\"username\":\"bob\"}" &&
	expect_status 409 &&
	expect_json .code 10071 &&
	expect_json .message 已经有用户使用了该名称，请重新输入新的用户名 &&
	expect_json .request "PUT /cms/user"
'

test_expect_success 'the refused username change left both users as they were' '
	expect_db "SELECT username FROM lin_user WHERE delete_time IS NULL ORDER BY id" "root
alice
bob"
'

test_expect_success 'an e-mail another live user has is refused with 409 10076' '
	as alice &&
	http PUT /cms/user "{\"email\":\"bob@example.com\"}" &&
	expect_status 409 &&
	expect_json .code 10076 &&
	expect_json .message 邮箱已被使用，请重新填入新的邮箱
'

test_expect_success 'the refused e-mail change left the e-mail as it was' '
	test "$(column email alice)" = alice@example.com
'

test_expect_success 'a 409 on the e-mail also drops the nickname sent with it' '
	as alice &&
	http PUT /cms/user "{\"email\":\"bob@example.com\",\"nickname\":\"Dropped\"}" &&
	expect_status 409 &&
	test "$(column nickname alice)" = "Alice C"
'

test_expect_success 'a free username is taken: 200 and the user row is renamed' '
	as alice &&
	http PUT /cms/user "{\"username\":\"alicia\"}" &&
	expect_status 200 &&
	expect_db "SELECT username FROM lin_user WHERE id = 2" alicia
'

test_expect_success 'the login identity follows the new username' '
	expect_db "SELECT identifier FROM lin_user_identity WHERE user_id = 2" alicia
'

test_expect_success 'the new username logs in with the old password' '
	remember alicia "$USER_PASSWORD"
'

test_expect_success 'the old username no longer logs in (401 10031)' '
	http POST /cms/user/login "{\"username\":\"alice\",\"password\":\"$USER_PASSWORD\"}" &&
	expect_status 401 &&
	expect_json .code 10031
'

test_expect_success 'the freed old username can be taken by another user' '
	as bob &&
	http PUT /cms/user "{\"username\":\"alice\"}" &&
	expect_status 200 &&
	expect_db "SELECT username FROM lin_user WHERE id = 3" alice
'

test_expect_success 'setup: alicia stores a relative avatar path' '
	as alicia &&
	http PUT /cms/user "{\"avatar\":\"2024/01/face.png\"}" &&
	expect_status 200
'

test_expect_success 'GET /cms/user/information has exactly the user item keys' '
	as alicia &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json "keys | join(\",\")" "avatar,email,groups,id,nickname,username"
'

test_expect_success 'information shows the avatar as file_public_url + the stored path' '
	as alicia &&
	http GET /cms/user/information &&
	expect_json .avatar http://files.example/assets/2024/01/face.png
'

test_expect_success 'information shows id, username, nickname and e-mail of the caller' '
	as alicia &&
	http GET /cms/user/information &&
	expect_json .id 2 &&
	expect_json .username alicia &&
	expect_json .nickname "Alice C" &&
	expect_json .email alice@example.com
'

test_expect_success 'information lists the guest group with its level' '
	as alicia &&
	http GET /cms/user/information &&
	expect_json "[.groups[] | \"\(.id) \(.name) \(.level)\"] | join(\",\")" "2 guest GUEST"
'

test_expect_success 'the absolute URL is only shown: the database keeps the relative path' '
	as alicia &&
	http PUT /cms/user "{\"nickname\":\"Alice D\"}" &&
	expect_status 200 &&
	test "$(column avatar alicia)" = 2024/01/face.png
'

test_expect_success 'GET /cms/user/permissions shows the same absolute avatar' '
	as alicia &&
	http GET /cms/user/permissions &&
	expect_status 200 &&
	expect_json .avatar http://files.example/assets/2024/01/face.png
'

test_expect_success 'a stored avatar starting with http is shown unchanged' '
	as alicia &&
	http PUT /cms/user "{\"avatar\":\"https://cdn.example/a.png\"}" &&
	expect_status 200 &&
	http GET /cms/user/information &&
	expect_json .avatar https://cdn.example/a.png
'

test_expect_success 'a user without an avatar gets avatar null' '
	as bob &&
	http GET /cms/user/information &&
	expect_json .avatar null
'

test_expect_success 'POST /cms/user/captcha is public and answers {"tag":null,"image":null}' '
	TOKEN= &&
	http POST /cms/user/captcha &&
	expect_status 200 &&
	echo "{\"tag\":null,\"image\":null}" >captcha.json &&
	expect_body_file captcha.json
'

test_done
