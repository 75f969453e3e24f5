#!/bin/sh
test_description='admin user routes: the paged list, regrouping, password reset and soft deletion'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

USER_PASSWORD=User_pass1
NEW_PASSWORD=New_pass2

# new_user NAME [GROUP_IDS]: root registers NAME (password $USER_PASSWORD) in GROUP_IDS (JSON).
new_user () {
	as root &&
	http POST /cms/user/register "$(jq -nc --arg u "$1" --arg p "$USER_PASSWORD" --argjson g "${2:-[]}" \
		'{username: $u, password: $p, confirm_password: $p, group_ids: $g}')" &&
	expect_status 201
}

# uid NAME / gid NAME: id of the live user / group NAME.
uid () {
	db_exec "SELECT id FROM lin_user WHERE username = '$1' AND delete_time IS NULL"
}
gid () {
	db_exec "SELECT id FROM lin_group WHERE name = '$1' AND delete_time IS NULL"
}

# links NAME: the names of the groups user NAME is linked to, by id, comma-separated.
links () {
	db_exec "SELECT GROUP_CONCAT(g.name ORDER BY g.id) FROM lin_user_group ug
		JOIN lin_group g ON g.id = ug.group_id WHERE ug.user_id = $(uid "$1")"
}

test_expect_success 'setup: root creates the groups editors and spare' '
	remember root "$ROOT_PASSWORD" &&
	http POST /cms/admin/group "{\"name\":\"editors\",\"info\":\"write\"}" &&
	expect_status 201 &&
	http POST /cms/admin/group "{\"name\":\"spare\"}" &&
	expect_status 201
'

test_expect_success 'setup: root registers ann, ben, cat and dan' '
	new_user ann &&
	new_user ben "[$(gid editors)]" &&
	new_user cat "[$(gid editors),$(gid guest)]" &&
	new_user dan &&
	db_exec "UPDATE lin_user SET avatar = \"a/ann.png\", email = \"ann@example.com\",
		nickname = \"Annie\" WHERE username = \"ann\""
'

test_expect_success 'GET /cms/admin/users lists every live user but root, by id' '
	as root &&
	http GET /cms/admin/users &&
	expect_status 200 &&
	expect_json "[.items[].username] | join(\",\")" ann,ben,cat,dan
'

test_expect_success 'the user page has total, page 0 and count 10 by default' '
	as root &&
	http GET /cms/admin/users &&
	expect_json .total 4 &&
	expect_json .page 0 &&
	expect_json .count 10
'

test_expect_success 'each user item has exactly id, username, nickname, avatar, email, groups' '
	as root &&
	http GET /cms/admin/users &&
	expect_json "[.items[] | keys | join(\",\")] | unique | join(\";\")" \
		"avatar,email,groups,id,nickname,username"
'

test_expect_success 'a user item carries the stored fields; the avatar is the raw stored path' '
	as root &&
	http GET /cms/admin/users &&
	expect_json ".items[0].id" "$(uid ann)" &&
	expect_json ".items[0].nickname" Annie &&
	expect_json ".items[0].email" ann@example.com &&
	expect_json ".items[0].avatar" a/ann.png
'

test_expect_success 'unset nickname, avatar and e-mail are null in a user item' '
	as root &&
	http GET /cms/admin/users &&
	expect_json "[.items[1] | .nickname, .avatar, .email] | map(tostring) | join(\",\")" null,null,null
'

test_expect_success 'a user item lists its groups with their levels, by id' '
	as root &&
	http GET /cms/admin/users &&
	expect_json "[.items[2].groups[] | \"\(.name):\(.level)\"] | join(\",\")" guest:GUEST,editors:USER
'

test_expect_success 'group_id filters to the members of that group' '
	as root &&
	http GET "/cms/admin/users?group_id=$(gid editors)" &&
	expect_status 200 &&
	expect_json .total 2 &&
	expect_json "[.items[].username] | join(\",\")" ben,cat
'

test_expect_success 'group_id of the root group gives an empty page' '
	as root &&
	http GET "/cms/admin/users?group_id=1" &&
	expect_status 200 &&
	expect_json .total 0 &&
	expect_json .items "[]"
'

test_expect_success 'group_id of a nonexistent group gives an empty page' '
	as root &&
	http GET "/cms/admin/users?group_id=999" &&
	expect_status 200 &&
	expect_json .total 0 &&
	expect_json ".items | length" 0
'

test_expect_success 'group_id 0 is a 400 on field group_id' '
	as root &&
	http GET "/cms/admin/users?group_id=0" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.group_id 分组id必须为正整数
'

test_expect_success 'count=0 is a 400 on field count' '
	as root &&
	http GET "/cms/admin/users?count=0" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json_true ".message | has(\"count\")"
'

test_expect_success 'count=31 is a 400 on field count' '
	as root &&
	http GET "/cms/admin/users?count=31" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json_true ".message | has(\"count\")"
'

test_expect_success 'count=30 is accepted' '
	as root &&
	http GET "/cms/admin/users?count=30" &&
	expect_status 200 &&
	expect_json .count 30
'

test_expect_success 'page=-1 is a 400 on field page' '
	as root &&
	http GET "/cms/admin/users?page=-1" &&
	expect_status 400 &&
	expect_json_true ".message | has(\"page\")"
'

test_expect_success 'page 1 of count 3 holds the fourth user and the real total' '
	as root &&
	http GET "/cms/admin/users?page=1&count=3" &&
	expect_status 200 &&
	expect_json "[.items[].username] | join(\",\")" dan &&
	expect_json .total 4 &&
	expect_json .page 1 &&
	expect_json .count 3
'

test_expect_success 'a page past the end has items [] and the real total' '
	as root &&
	http GET "/cms/admin/users?page=5&count=2" &&
	expect_status 200 &&
	expect_json ".items | length" 0 &&
	expect_json .total 4 &&
	expect_json .page 5
'

test_expect_success 'PUT /cms/admin/user/{id} answers 200 with the code 6 envelope' '
	as root &&
	id=$(uid ann) &&
	http PUT /cms/admin/user/$id "{\"group_ids\":[$(gid editors),$(gid spare)]}" &&
	expect_status 200 &&
	expect_json .code 6 &&
	expect_json .message 更新用户成功 &&
	expect_json .request "PUT /cms/admin/user/$id"
'

test_expect_success 'the user is linked to exactly the given groups (guest link replaced)' '
	test "$(links ann)" = editors,spare
'

test_expect_success 'a shorter list removes the groups left out' '
	as root &&
	http PUT /cms/admin/user/$(uid ann) "{\"group_ids\":[$(gid spare)]}" &&
	expect_status 200 &&
	test "$(links ann)" = spare
'

test_expect_success 'a repeated id in group_ids gives one link' '
	as root &&
	http PUT /cms/admin/user/$(uid ann) "{\"group_ids\":[$(gid spare),$(gid spare)]}" &&
	expect_status 200 &&
	expect_db "SELECT COUNT(*) FROM lin_user_group WHERE user_id = $(uid ann)" 1
'

test_expect_success 'an email sent along with group_ids (as the web client does) is ignored' '
	as root &&
	http PUT /cms/admin/user/$(uid ann) "{\"group_ids\":[$(gid spare)],\"email\":\"new@example.com\"}" &&
	expect_status 200 &&
	expect_db "SELECT email FROM lin_user WHERE username = \"ann\"" ann@example.com
'

test_expect_success 'an empty group_ids is a 400 (至少选择一个分组)' '
	as root &&
	http PUT /cms/admin/user/$(uid ann) "{\"group_ids\":[]}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.group_ids 至少选择一个分组
'

test_expect_success 'a missing group_ids is a 400 on field group_ids' '
	as root &&
	http PUT /cms/admin/user/$(uid ann) "{\"email\":\"x@example.com\"}" &&
	expect_status 400 &&
	expect_json_true ".message | has(\"group_ids\")"
'

test_expect_success 'a group id 0 in group_ids is a 400 on field group_ids' '
	as root &&
	http PUT /cms/admin/user/$(uid ann) "{\"group_ids\":[0]}" &&
	expect_status 400 &&
	expect_json_true ".message | has(\"group_ids\")"
'

test_expect_success 'a nonexistent user is a 404 with code 10021' '
	as root &&
	http PUT /cms/admin/user/999 "{\"group_ids\":[$(gid guest)]}" &&
	expect_status 404 &&
	expect_json .code 10021 &&
	expect_json .message 用户不存在
'

test_expect_success 'regrouping the root user is refused with 403 10078' '
	as root &&
	http PUT /cms/admin/user/1 "{\"group_ids\":[$(gid guest)]}" &&
	expect_status 403 &&
	expect_json .code 10078 &&
	expect_json .message 不可修改root用户的分组
'

test_expect_success 'the root user kept its root group link' '
	expect_db "SELECT group_id FROM lin_user_group WHERE user_id = 1" 1
'

test_expect_success 'the root group in group_ids is refused with 403 10073' '
	as root &&
	http PUT /cms/admin/user/$(uid ann) "{\"group_ids\":[$(gid editors),1]}" &&
	expect_status 403 &&
	expect_json .code 10073 &&
	expect_json .message root分组不可添加用户
'

test_expect_success 'the refused root-group request left the links as they were' '
	test "$(links ann)" = spare
'

test_expect_success 'a nonexistent group in group_ids is refused with 403 10077' '
	as root &&
	http PUT /cms/admin/user/$(uid ann) "{\"group_ids\":[$(gid editors),999]}" &&
	expect_status 403 &&
	expect_json .code 10077 &&
	expect_json .message 不可将用户分配给不存在的分组
'

test_expect_success 'the refused request changed nothing: the old links are all there' '
	test "$(links ann)" = spare
'

test_expect_success 'setup: a regroup target group is deleted' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"gone\"}" &&
	expect_status 201 &&
	echo $(gid gone) >gone.id &&
	http DELETE /cms/admin/group/$(cat gone.id) &&
	expect_status 200
'

test_expect_success 'a soft-deleted group in group_ids counts as nonexistent (403 10077)' '
	as root &&
	http PUT /cms/admin/user/$(uid ann) "{\"group_ids\":[$(cat gone.id)]}" &&
	expect_status 403 &&
	expect_json .code 10077 &&
	test "$(links ann)" = spare
'

test_expect_success 'setup: ben logs in and keeps his tokens' '
	remember ben "$USER_PASSWORD" &&
	keep ben_refresh "$REFRESH_TOKEN"
'

test_expect_success 'PUT /cms/admin/user/{id}/password answers 200 with the code 4 envelope' '
	as root &&
	id=$(uid ben) &&
	http PUT /cms/admin/user/$id/password \
		"{\"new_password\":\"$NEW_PASSWORD\",\"confirm_password\":\"$NEW_PASSWORD\"}" &&
	expect_status 200 &&
	expect_json .code 4 &&
	expect_json .message 密码修改成功 &&
	expect_json .request "PUT /cms/admin/user/$id/password"
'

test_expect_success 'the access token issued before the reset is refused with 401 10041' '
	as ben &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'the refresh token issued before the reset is refused with 401 10042' '
	as ben_refresh &&
	http GET /cms/user/refresh &&
	expect_status 401 &&
	expect_json .code 10042
'

test_expect_success 'the old password no longer logs in' '
	http POST /cms/user/login "{\"username\":\"ben\",\"password\":\"$USER_PASSWORD\"}" &&
	expect_status 401 &&
	expect_json .code 10031
'

test_expect_success 'the new password logs in and its token works' '
	login ben "$NEW_PASSWORD" &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .username ben
'

test_expect_success 'a password reset for a nonexistent user is a 404 with code 10021' '
	as root &&
	http PUT /cms/admin/user/999/password \
		"{\"new_password\":\"$NEW_PASSWORD\",\"confirm_password\":\"$NEW_PASSWORD\"}" &&
	expect_status 404 &&
	expect_json .code 10021
'

test_expect_success 'a reset whose confirmation differs is a 400 on field confirm_password' '
	as root &&
	http PUT /cms/admin/user/$(uid ben)/password \
		"{\"new_password\":\"$NEW_PASSWORD\",\"confirm_password\":\"Other_pass3\"}" &&
	expect_status 400 &&
	expect_json .message.confirm_password 两次输入密码不一致
'

test_expect_success 'a reset to a five-character password is a 400 on field new_password' '
	as root &&
	http PUT /cms/admin/user/$(uid ben)/password \
		"{\"new_password\":\"Ab_12\",\"confirm_password\":\"Ab_12\"}" &&
	expect_status 400 &&
	expect_json_true ".message | has(\"new_password\")"
'

test_expect_success 'setup: dan logs in and keeps his token; his id is noted' '
	remember dan "$USER_PASSWORD" &&
	uid dan >dan.id
'

test_expect_success 'DELETE /cms/admin/user/{id} answers 200 with the code 5 envelope' '
	as root &&
	http DELETE /cms/admin/user/$(cat dan.id) &&
	expect_status 200 &&
	expect_json .code 5 &&
	expect_json .message 删除用户成功 &&
	expect_json .request "DELETE /cms/admin/user/$(cat dan.id)"
'

test_expect_success 'the deleted user row is kept with delete_time set' '
	expect_db "SELECT COUNT(*) FROM lin_user WHERE id = $(cat dan.id) AND delete_time IS NOT NULL" 1
'

test_expect_success 'the identities of the deleted user are kept with delete_time set' '
	expect_db "SELECT COUNT(*), COUNT(delete_time) FROM lin_user_identity
		WHERE user_id = $(cat dan.id)" "1	1"
'

test_expect_success 'the group links of the deleted user are removed' '
	expect_db "SELECT COUNT(*) FROM lin_user_group WHERE user_id = $(cat dan.id)" 0
'

test_expect_success 'the token of the deleted user is refused with 401 10041' '
	as dan &&
	http GET /cms/user/information &&
	expect_status 401 &&
	expect_json .code 10041
'

test_expect_success 'the deleted user cannot log in' '
	http POST /cms/user/login "{\"username\":\"dan\",\"password\":\"$USER_PASSWORD\"}" &&
	expect_status 401 &&
	expect_json .code 10031
'

test_expect_success 'the deleted user is no longer listed' '
	as root &&
	http GET /cms/admin/users &&
	expect_json .total 3 &&
	expect_json "[.items[].username] | join(\",\")" ann,ben,cat
'

test_expect_success 'deleting the deleted user again is a 404 with code 10021' '
	as root &&
	http DELETE /cms/admin/user/$(cat dan.id) &&
	expect_status 404 &&
	expect_json .code 10021
'

test_expect_success 'regrouping a deleted user is a 404 with code 10021' '
	as root &&
	http PUT /cms/admin/user/$(cat dan.id) "{\"group_ids\":[$(gid guest)]}" &&
	expect_status 404 &&
	expect_json .code 10021
'

test_expect_success 'deleting a nonexistent user is a 404 with code 10021' '
	as root &&
	http DELETE /cms/admin/user/999 &&
	expect_status 404 &&
	expect_json .code 10021
'

test_expect_success 'deleting the root user is refused with 403 10079' '
	as root &&
	http DELETE /cms/admin/user/1 &&
	expect_status 403 &&
	expect_json .code 10079 &&
	expect_json .message root分组的用户不可删除
'

test_expect_success 'the root user is still live after the refusal' '
	expect_db "SELECT COUNT(*) FROM lin_user WHERE id = 1 AND delete_time IS NULL" 1
'

test_expect_success 'a path id 0 is a 400 on field id' '
	as root &&
	http DELETE /cms/admin/user/0 &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json_true ".message | has(\"id\")"
'

test_expect_success 'a live user may take the name of the deleted user with PUT /cms/user' '
	login cat "$USER_PASSWORD" &&
	http PUT /cms/user "{\"username\":\"dan\"}" &&
	expect_status 200 &&
	http PUT /cms/user "{\"username\":\"cat\"}" &&
	expect_status 200 &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username = \"cat\" AND delete_time IS NULL" 1
'

test_expect_success 'the name of the deleted user can be registered again' '
	new_user dan &&
	expect_db "SELECT COUNT(*), COUNT(delete_time) FROM lin_user WHERE username = \"dan\"" "2	1"
'

test_expect_success 'the new user of that name logs in and is a different id' '
	login dan "$USER_PASSWORD" &&
	http GET /cms/user/information &&
	expect_status 200 &&
	test "$(jq -r .id body)" != "$(cat dan.id)"
'

test_expect_success 'setup: eve is also linked to oldroot, a soft-deleted group of level 1' '
	new_user eve "[$(gid guest)]" &&
	db_exec "INSERT INTO lin_group (name, level, delete_time) VALUES (\"oldroot\", 1, NOW(3))" &&
	db_exec "INSERT INTO lin_user_group (user_id, group_id)
		SELECT $(uid eve), id FROM lin_group WHERE name = \"oldroot\"" &&
	test "$(links eve)" = guest,oldroot
'

test_expect_success 'a member of a soft-deleted level-1 group is still listed' '
	as root &&
	http GET /cms/admin/users &&
	expect_status 200 &&
	expect_json_true "any(.items[]; .username == \"eve\")"
'

test_expect_success 'setup: fay is a second member of the root group, as a migrated database may have' '
	new_user fay &&
	db_exec "INSERT INTO lin_user_group (user_id, group_id) VALUES ($(uid fay), 1)" &&
	remember fay "$USER_PASSWORD" &&
	http GET /cms/user/permissions &&
	expect_json .admin true
'

test_expect_success 'root resetting the password of fay, another admin, is refused with 403 10070' '
	as root &&
	http PUT /cms/admin/user/$(uid fay)/password \
		"{\"new_password\":\"$NEW_PASSWORD\",\"confirm_password\":\"$NEW_PASSWORD\"}" &&
	expect_status 403 &&
	expect_json .code 10070
'

test_expect_success 'the token of fay still works: her credential did not change' '
	as fay &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .username fay
'

test_expect_success 'fay resetting the password of root is refused with 403 10070 禁止操作' '
	as fay &&
	http PUT /cms/admin/user/1/password \
		"{\"new_password\":\"$NEW_PASSWORD\",\"confirm_password\":\"$NEW_PASSWORD\"}" &&
	expect_status 403 &&
	expect_json .code 10070 &&
	expect_json .message 禁止操作 &&
	expect_json .request "PUT /cms/admin/user/1/password"
'

test_expect_success 'the refused reset left the password of root: the old one still logs in' '
	login root "$ROOT_PASSWORD"
'

test_done
