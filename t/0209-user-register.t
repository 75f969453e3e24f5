#!/bin/sh
test_description='POST /cms/user/register (admin): 201 code 11, taken names and emails, root and missing groups, guest by default'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

# register_body USERNAME [EMAIL [GROUP_IDS_JSON]]: a valid registration body (password Pass_word1).
register_body () {
	jq -nc --arg u "$1" --arg e "${2-}" --argjson g "${3-null}" \
		'{username: $u, password: "Pass_word1", confirm_password: "Pass_word1"}
		 + (if $e == "" then {} else {email: $e} end)
		 + (if $g == null then {} else {group_ids: $g} end)'
}

# groups_of USERNAME: the group ids of a live user, ascending, comma-separated.
groups_of () {
	db_exec "SELECT GROUP_CONCAT(ug.group_id ORDER BY ug.group_id) FROM lin_user_group ug
		JOIN lin_user u ON u.id = ug.user_id WHERE u.username = \"$1\" AND u.delete_time IS NULL"
}

test_expect_success 'setup: root logs in and creates group editors' '
	remember root "$ROOT_PASSWORD" &&
	http POST /cms/admin/group "{\"name\":\"editors\"}" &&
	expect_status 201 &&
	db_exec "SELECT id FROM lin_group WHERE name = \"editors\"" >editors &&
	test -s editors
'

test_expect_success 'register answers 201 {"code":11,"message":"注册成功","request":"POST /cms/user/register"}' '
	cat >expected.json <<-\EOF &&
	{"code":11,"message":"注册成功","request":"POST /cms/user/register"}
	EOF
	as root &&
	http POST /cms/user/register "$(register_body bob bob@example.com "[$(cat editors)]")" &&
	expect_status 201 &&
	expect_body_file expected.json
'

test_expect_success 'the registered user is stored with the email and only the given group' '
	expect_db "SELECT email FROM lin_user WHERE username = \"bob\"" bob@example.com &&
	expect_db "SELECT nickname IS NULL FROM lin_user WHERE username = \"bob\"" 1 &&
	test "$(groups_of bob)" = "$(cat editors)"
'

test_expect_success 'the registered user has a USERNAME_PASSWORD identity with an Argon2id hash' '
	expect_db "SELECT i.identifier, LEFT(i.credential, 10) FROM lin_user_identity i JOIN lin_user u ON u.id = i.user_id WHERE u.username = \"bob\" AND i.identity_type = \"USERNAME_PASSWORD\"" "bob	\$argon2id\$"
'

test_expect_success 'the registered user logs in with the given password' '
	login bob Pass_word1 &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .username bob &&
	expect_json ".groups | map(.name) | join(\",\")" editors
'

test_expect_success 'a taken username answers 409 10071 with its text and adds no user' '
	as root &&
	http POST /cms/user/register "$(register_body bob other@example.com)" &&
	expect_status 409 &&
	expect_json .code 10071 &&
	expect_json .message "已经有用户使用了该名称，请重新输入新的用户名" &&
	expect_json .request "POST /cms/user/register" &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username = \"bob\"" 1
'

test_expect_success 'a taken email answers 409 10076 with its text and adds no user' '
	as root &&
	http POST /cms/user/register "$(register_body carol bob@example.com)" &&
	expect_status 409 &&
	expect_json .code 10076 &&
	expect_json .message "邮箱已被使用，请重新填入新的邮箱" &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username = \"carol\"" 0
'

test_expect_success 'the root group id in group_ids answers 403 10073 and adds no user' '
	as root &&
	http POST /cms/user/register "$(register_body dave "" "[1]")" &&
	expect_status 403 &&
	expect_json .code 10073 &&
	expect_json .message "root分组不可添加用户" &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username = \"dave\"" 0
'

test_expect_success 'the root group id beside a valid one answers 403 10073 and adds no user' '
	as root &&
	http POST /cms/user/register "$(register_body dave "" "[$(cat editors),1]")" &&
	expect_status 403 &&
	expect_json .code 10073 &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username = \"dave\"" 0
'

test_expect_success 'a missing group answers 404 10023 and adds no user, identity or link' '
	as root &&
	db_exec "SELECT COUNT(*) FROM lin_user_identity" >identities_before &&
	db_exec "SELECT COUNT(*) FROM lin_user_group" >links_before &&
	http POST /cms/user/register "$(register_body erin "" "[$(cat editors),99999]")" &&
	expect_status 404 &&
	expect_json .code 10023 &&
	expect_json .message "分组不存在，无法新建用户" &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username = \"erin\"" 0 &&
	expect_db "SELECT COUNT(*) FROM lin_user_identity" "$(cat identities_before)" &&
	expect_db "SELECT COUNT(*) FROM lin_user_group" "$(cat links_before)"
'

test_expect_success 'a registration without group_ids puts the user in guest' '
	as root &&
	http POST /cms/user/register "$(register_body frank)" &&
	expect_status 201 &&
	expect_json .code 11 &&
	test "$(groups_of frank)" = 2
'

test_expect_success 'a registration with an empty group_ids puts the user in guest' '
	as root &&
	http POST /cms/user/register "$(register_body gina "" "[]")" &&
	expect_status 201 &&
	test "$(groups_of gina)" = 2
'

test_expect_success 'a user registered in guest sees the guest group in /cms/user/information' '
	login frank Pass_word1 &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json ".groups | map(.name) | join(\",\")" guest &&
	expect_json ".groups[0].level" GUEST
'

test_expect_success 'an empty email is stored as NULL, so two users may both leave it empty' '
	as root &&
	http POST /cms/user/register "{\"username\":\"hank\",\"password\":\"Pass_word1\",\"confirm_password\":\"Pass_word1\",\"email\":\"\"}" &&
	expect_status 201 &&
	http POST /cms/user/register "{\"username\":\"ivan\",\"password\":\"Pass_word1\",\"confirm_password\":\"Pass_word1\",\"email\":\"\"}" &&
	expect_status 201 &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username IN (\"hank\", \"ivan\") AND email IS NULL" 2
'

test_expect_success 'a username of two CJK characters is accepted' '
	as root &&
	http POST /cms/user/register "$(register_body 张三)" &&
	expect_status 201 &&
	login 张三 Pass_word1
'

test_expect_success 'a body without username answers 400 10030 with 用户名不可为空' '
	as root &&
	http POST /cms/user/register "{\"password\":\"Pass_word1\",\"confirm_password\":\"Pass_word1\"}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.username "用户名不可为空"
'

test_expect_success 'a username of 1 or 11 characters answers 400 10030 with the length text' '
	as root &&
	http POST /cms/user/register "$(register_body j)" &&
	expect_status 400 &&
	expect_json .message.username "用户名长度必须在2~10之间" &&
	http POST /cms/user/register "$(register_body abcdefghijk)" &&
	expect_status 400 &&
	expect_json .message.username "用户名长度必须在2~10之间" &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username IN (\"j\", \"abcdefghijk\")" 0
'

test_expect_success 'a password outside ^[A-Za-z0-9_*&$#@]{6,22}$ answers 400 10030 naming password' '
	as root &&
	http POST /cms/user/register "{\"username\":\"kate\",\"password\":\"short\",\"confirm_password\":\"short\"}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.password "密码长度必须在6~22位之间，包含字符、数字和 _" &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username = \"kate\"" 0
'

test_expect_success 'a confirm_password that differs answers 400 10030 naming confirm_password' '
	as root &&
	http POST /cms/user/register "{\"username\":\"kate\",\"password\":\"Pass_word1\",\"confirm_password\":\"Pass_word2\"}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.confirm_password "两次输入密码不一致"
'

test_expect_success 'a malformed email answers 400 10030 naming email' '
	as root &&
	http POST /cms/user/register "$(register_body kate not-an-email)" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.email "电子邮箱不符合规范，请输入正确的邮箱"
'

test_expect_success 'the username of a deleted user can be registered again' '
	as root &&
	id=$(db_exec "SELECT id FROM lin_user WHERE username = \"frank\"") &&
	http DELETE /cms/admin/user/$id &&
	expect_status 200 &&
	http POST /cms/user/register "$(register_body frank)" &&
	expect_status 201 &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username = \"frank\" AND delete_time IS NULL" 1
'

test_expect_success 'anonymous POST /cms/user/register answers 401 10012 and adds no user' '
	http POST /cms/user/register "$(register_body lena)" &&
	expect_status 401 &&
	expect_json .code 10012 &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username = \"lena\"" 0
'

test_done
