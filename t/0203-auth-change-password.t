#!/bin/sh
test_description='PUT /cms/user/change_password: code 4, older tokens revoked at once, newer ones valid, field rules'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

# change_body OLD NEW [CONFIRM]: the JSON body of a password change.
change_body () {
	jq -nc --arg o "$1" --arg n "$2" --arg c "${3-$2}" \
		'{old_password: $o, new_password: $n, confirm_password: $c}'
}

test_expect_success 'setup: root logs in and keeps both tokens' '
	login root "$ROOT_PASSWORD" &&
	keep before_access &&
	keep before_refresh "$REFRESH_TOKEN" &&
	printf "%s\n" "$ROOT_PASSWORD" >password
'

test_expect_success 'PUT /cms/user/change_password answers 200 with code 4 and its text' '
	as before_access &&
	http PUT /cms/user/change_password "$(change_body "$ROOT_PASSWORD" New_pass2)" &&
	expect_status 200 &&
	expect_json .code 4 &&
	expect_json .message "密码修改成功" &&
	expect_json .request "PUT /cms/user/change_password" &&
	echo New_pass2 >password
'

test_expect_success 'the access token issued before the change is refused with 401 10041' '
	as before_access &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'the refresh token issued before the change is refused with 401 10042' '
	as before_refresh &&
	http GET /cms/user/refresh &&
	expect_status 401 &&
	expect_json .code 10042
'

test_expect_success 'the old password no longer logs in (401 10031)' '
	http POST /cms/user/login "{\"username\":\"root\",\"password\":\"$ROOT_PASSWORD\"}" &&
	expect_status 401 &&
	expect_json .code 10031
'

test_expect_success 'the new password logs in and its access token is accepted at once' '
	login root New_pass2 &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .username root
'

test_expect_success 'the refresh token of a login after the change is accepted by /refresh' '
	login root New_pass2 &&
	TOKEN=$REFRESH_TOKEN &&
	http GET /cms/user/refresh &&
	expect_status 200
'

test_expect_success 'a token issued in the same second as the new one, before the change, is refused' '
	cur=$(cat password) &&
	next=Same_second1 &&
	login root "$cur" &&
	keep old &&
	http PUT /cms/user/change_password "$(change_body "$cur" "$next")" &&
	expect_status 200 &&
	echo "$next" >password &&
	login root "$next" &&
	keep new &&
	old_ver=$(jwt_payload "$(kept old)" | jq .ver) &&
	new_ver=$(jwt_payload "$(kept new)" | jq .ver) &&
	test "$new_ver" -gt "$old_ver" &&
	secret=$("$APP_BIN" -c "$TRASH/cms.conf" --get jwt_secret) &&
	TOKEN=$(jwt_payload "$(kept new)" | jq -c --argjson v "$old_ver" ".ver = \$v" |
		jwt_sign "$secret") &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041 &&
	as new &&
	http GET /cms/user/information &&
	expect_status 200
'

test_expect_success 'setup: root logs in with the current password' '
	login root "$(cat password)" &&
	keep access
'

test_expect_success 'a wrong old password answers 400 10032 with its text' '
	as access &&
	http PUT /cms/user/change_password "$(change_body Wrong_old9 Other_pass3)" &&
	expect_status 400 &&
	expect_json .code 10032 &&
	expect_json .message "请输入正确的密码" &&
	expect_json .request "PUT /cms/user/change_password"
'

test_expect_success 'after a refused change the password and the token are unchanged' '
	as access &&
	http GET /cms/user/information &&
	expect_status 200 &&
	login root "$(cat password)"
'

test_expect_success 'a new password of 5 characters answers 400 10030 naming new_password' '
	as access &&
	http PUT /cms/user/change_password "$(change_body "$(cat password)" Abc12)" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.new_password "密码长度必须在6~22位之间，包含字符、数字和 _"
'

test_expect_success 'a new password of 23 characters answers 400 10030 naming new_password' '
	as access &&
	http PUT /cms/user/change_password "$(change_body "$(cat password)" Abcdefghij_1234567890AB)" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.new_password "密码长度必须在6~22位之间，包含字符、数字和 _"
'

test_expect_success 'a new password with a space or a dash answers 400 10030 naming new_password' '
	as access &&
	http PUT /cms/user/change_password "$(change_body "$(cat password)" "pass word1")" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.new_password "密码长度必须在6~22位之间，包含字符、数字和 _" &&
	http PUT /cms/user/change_password "$(change_body "$(cat password)" pass-word1)" &&
	expect_status 400 &&
	expect_json .message.new_password "密码长度必须在6~22位之间，包含字符、数字和 _"
'

test_expect_success 'a new password using every allowed symbol _*&$#@ is accepted (22 characters)' '
	as access &&
	http PUT /cms/user/change_password "$(change_body "$(cat password)" "Ab_*&\$#@0123456789xyzW")" &&
	expect_status 200 &&
	expect_json .code 4 &&
	login root "Ab_*&\$#@0123456789xyzW" &&
	echo "Ab_*&\$#@0123456789xyzW" >password &&
	keep access
'

test_expect_success 'a confirmation that differs answers 400 10030 naming confirm_password' '
	as access &&
	http PUT /cms/user/change_password "$(change_body "$(cat password)" Other_pass3 Other_pass4)" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.confirm_password "两次输入密码不一致"
'

test_expect_success 'a body without any field answers 400 10030 naming all three fields' '
	as access &&
	http PUT /cms/user/change_password "{}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.old_password "旧密码不可为空" &&
	expect_json .message.new_password "密码不可为空" &&
	expect_json .message.confirm_password "确认密码不可为空"
'

test_expect_success 'none of the refused changes changed the password' '
	login root "$(cat password)"
'

test_expect_success 'PUT /cms/user/change_password without a token answers 401 10012' '
	http PUT /cms/user/change_password "$(change_body "$(cat password)" Other_pass3)" &&
	expect_status 401 &&
	expect_json .code 10012
'

test_done
