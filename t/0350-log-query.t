#!/bin/sh
test_description='GET /cms/log, /cms/log/search and /cms/log/users: pages, filters, time, permissions'
. "$(dirname "$0")/lib.sh"

start_db
start_app
start_nginx

USER_PASSWORD=User_pass1

# messages: the messages of the page in the body, joined with |.
messages () {
	jq -r '[.items[].message] | join("|")' "$TRASH/body"
}

# expect_messages TEXT: the messages of the page are TEXT (see messages).
expect_messages () {
	local got
	got=$(messages) && [ "$got" = "$1" ] && return 0
	printf '%s\n' "expected the messages '$1', got '$got'" >&2
	return 1
}

# A time-ordered history written before anyone logs in, so that ids follow the times; the
# deleted row must never show. Root's login (the newest row) comes after it.
test_expect_success 'setup: seven log rows, one of them deleted, then root logs in' '
	db_exec "INSERT INTO lin_log (message, user_id, username, status_code, method, path,
			permission, create_time, delete_time) VALUES
		(\"alice登录成功获取了令牌\", 2, \"alice\", 200, \"POST\", \"/cms/user/login\", \"\",
			\"2024-01-01 10:00:00\", NULL),
		(\"bob修改了自己的密码\", 3, \"bob\", 200, \"PUT\", \"/cms/user/change_password\", \"\",
			\"2024-01-02 10:00:00\", NULL),
		(\"100% done\", 2, \"alice\", 200, \"GET\", \"/x\", \"\", \"2024-01-03 10:00:00\", NULL),
		(\"a_b literal\", 3, \"bob\", 200, \"GET\", \"/x\", \"\", \"2024-01-04 10:00:00\", NULL),
		(\"axb plain\", 4, \"carol\", 200, \"GET\", \"/x\", \"\", \"2024-01-05 10:00:00\", NULL),
		(\"c:\\\\temp\", 2, \"alice\", 200, \"GET\", \"/x\", \"\", \"2024-01-06 10:00:00\", NULL),
		(\"deleted 100% a_b\", 5, \"dave\", 200, \"GET\", \"/x\", \"\", \"2024-01-07 10:00:00\",
			\"2024-02-01 00:00:00\")" &&
	remember root "$ROOT_PASSWORD" &&
	expect_db "SELECT COUNT(*) FROM lin_log" 8
'

test_expect_success 'GET /cms/log pages the live rows newest first' '
	as root &&
	http GET /cms/log &&
	expect_status 200 &&
	expect_messages "root登录成功获取了令牌|c:\\temp|axb plain|a_b literal|100% done|bob修改了自己的密码|alice登录成功获取了令牌"
'

test_expect_success 'the log page has total 7, page 0 and count 10 by default' '
	as root &&
	http GET /cms/log &&
	expect_json .total 7 &&
	expect_json .page 0 &&
	expect_json .count 10
'

test_expect_success 'a log item has exactly the Lin CMS log keys plus time' '
	as root &&
	http GET /cms/log &&
	expect_json "[.items[] | keys | join(\",\")] | unique | join(\";\")" \
		id,message,method,path,permission,status_code,time,user_id,username
'

test_expect_success 'every log item has a time of the form YYYY-MM-DD HH:MM:SS' '
	as root &&
	http GET /cms/log &&
	expect_json_true "[.items[].time | test(\"^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$\")] | all" &&
	expect_json_true ".items | length == 7"
'

test_expect_success 'the time of a log item is its create_time, to the second' '
	as root &&
	http GET /cms/log &&
	expect_json ".items[6].time" "2024-01-01 10:00:00"
'

test_expect_success 'a log item carries the stored columns' '
	as root &&
	http GET /cms/log &&
	expect_json ".items[5] | [.user_id, .username, .status_code, .method, .path, .permission] | map(tostring) | join(\",\")" \
		"3,bob,200,PUT,/cms/user/change_password,"
'

test_expect_success 'page 1 of count 2 holds the third and fourth newest, with the real total' '
	as root &&
	http GET "/cms/log?count=2&page=1" &&
	expect_status 200 &&
	expect_messages "axb plain|a_b literal" &&
	expect_json .total 7 &&
	expect_json .page 1 &&
	expect_json .count 2
'

test_expect_success 'a log page past the end has items [] and the real total' '
	as root &&
	http GET "/cms/log?page=10" &&
	expect_status 200 &&
	expect_json ".items | length" 0 &&
	expect_json .total 7
'

test_expect_success 'name filters on the exact username' '
	as root &&
	http GET "/cms/log?name=alice" &&
	expect_status 200 &&
	expect_messages "c:\\temp|100% done|alice登录成功获取了令牌" &&
	expect_json .total 3
'

test_expect_success 'name is not a prefix match' '
	as root &&
	http GET "/cms/log?name=ali" &&
	expect_status 200 &&
	expect_json .total 0
'

test_expect_success 'an empty name means no filter' '
	as root &&
	http GET "/cms/log?name=" &&
	expect_status 200 &&
	expect_json .total 7
'

test_expect_success 'start and end filter on create_time, both ends inclusive' '
	as root &&
	http GET "/cms/log?start=2024-01-02%2010:00:00&end=2024-01-04%2010:00:00" &&
	expect_status 200 &&
	expect_messages "a_b literal|100% done|bob修改了自己的密码"
'

test_expect_success 'start alone filters too (from start on)' '
	as root &&
	http GET "/cms/log?start=2024-01-05%2010:00:00" &&
	expect_status 200 &&
	expect_messages "root登录成功获取了令牌|c:\\temp|axb plain"
'

test_expect_success 'end alone filters too (up to end)' '
	as root &&
	http GET "/cms/log?end=2024-01-01%2010:00:00" &&
	expect_status 200 &&
	expect_messages "alice登录成功获取了令牌"
'

test_expect_success 'name and a time range combine' '
	as root &&
	http GET "/cms/log?name=alice&start=2024-01-02%2000:00:00&end=2024-01-05%2000:00:00" &&
	expect_status 200 &&
	expect_messages "100% done"
'

test_expect_success 'a start that is only a date is a 400 on field start' '
	as root &&
	http GET "/cms/log?start=2024-01-02" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json_true ".message | has(\"start\")"
'

test_expect_success 'a garbage end is a 400 on field end' '
	as root &&
	http GET "/cms/log?end=yesterday" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json_true ".message | has(\"end\")"
'

test_expect_success 'a start with month 13 and day 45 is a 400 on field start' '
	as root &&
	http GET "/cms/log?start=2024-13-45%2010:00:00" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json_true ".message | has(\"start\")"
'

test_expect_success 'an end on February 30 is a 400 on field end' '
	as root &&
	http GET "/cms/log?end=2024-02-30%2010:00:00" &&
	expect_status 400 &&
	expect_json_true ".message | has(\"end\")"
'

test_expect_success 'an end at 25:61:61 is a 400 on field end' '
	as root &&
	http GET "/cms/log?end=2024-01-01%2025:61:61" &&
	expect_status 400 &&
	expect_json_true ".message | has(\"end\")"
'

test_expect_success 'GET /cms/log/search without keyword or name filters nothing' '
	as root &&
	http GET /cms/log/search &&
	expect_status 200 &&
	expect_json .total 7
'

test_expect_success 'search with empty keyword and name (as the web client sends) filters nothing' '
	as root &&
	http GET "/cms/log/search?keyword=&name=" &&
	expect_status 200 &&
	expect_json .total 7
'

test_expect_success 'keyword matches a part of the message' '
	as root &&
	http GET "/cms/log/search?keyword=%E7%99%BB%E5%BD%95" &&
	expect_status 200 &&
	expect_messages "root登录成功获取了令牌|alice登录成功获取了令牌"
'

test_expect_success 'keyword=% matches only the messages containing %' '
	as root &&
	http GET "/cms/log/search?keyword=%25" &&
	expect_status 200 &&
	expect_messages "100% done"
'

test_expect_success 'keyword=_ matches only the messages containing _' '
	as root &&
	http GET "/cms/log/search?keyword=_" &&
	expect_status 200 &&
	expect_messages "a_b literal"
'

test_expect_success 'keyword=a_b does not match axb' '
	as root &&
	http GET "/cms/log/search?keyword=a_b" &&
	expect_status 200 &&
	expect_messages "a_b literal"
'

test_expect_success 'a backslash in keyword matches itself' '
	as root &&
	http GET "/cms/log/search?keyword=%5C" &&
	expect_status 200 &&
	expect_messages "c:\\temp"
'

test_expect_success 'keyword and name combine' '
	as root &&
	http GET "/cms/log/search?keyword=done&name=bob" &&
	expect_status 200 &&
	expect_json .total 0 &&
	http GET "/cms/log/search?keyword=done&name=alice" &&
	expect_messages "100% done"
'

test_expect_success 'search applies the time range as well' '
	as root &&
	http GET "/cms/log/search?keyword=%E7%99%BB%E5%BD%95&end=2024-12-31%2000:00:00" &&
	expect_status 200 &&
	expect_messages "alice登录成功获取了令牌"
'

test_expect_success 'GET /cms/log/users pages the distinct usernames of live rows as strings' '
	as root &&
	http GET /cms/log/users &&
	expect_status 200 &&
	expect_json "[.items[] | type] | unique | join(\",\")" string &&
	expect_json ".items | sort | join(\",\")" alice,bob,carol,root &&
	expect_json .total 4 &&
	expect_json .page 0 &&
	expect_json .count 10
'

test_expect_success 'the usernames page of count 3 page 1 holds the rest with the real total' '
	as root &&
	http GET "/cms/log/users?count=3&page=1" &&
	expect_status 200 &&
	expect_json ".items | length" 1 &&
	expect_json .total 4
'

test_expect_success 'the usernames pages hold every name once' '
	as root &&
	http GET "/cms/log/users?count=2&page=0" &&
	jq -r ".items[]" body >names &&
	http GET "/cms/log/users?count=2&page=1" &&
	jq -r ".items[]" body >>names &&
	test "$(sort names | tr "\n" ,)" = alice,bob,carol,root,
'

test_expect_success 'usernames count=0 is a 400 on field count' '
	as root &&
	http GET "/cms/log/users?count=0" &&
	expect_status 400 &&
	expect_json_true ".message | has(\"count\")"
'

test_expect_success 'an older row imported later still sorts by its time' '
	db_exec "INSERT INTO lin_log (message, user_id, username, status_code, method, path,
		permission, create_time) VALUES (\"imported\", 2, \"alice\", 200, \"GET\", \"/x\", \"\",
		\"2023-06-01 00:00:00\")" &&
	as root &&
	http GET "/cms/log?name=alice" &&
	expect_messages "c:\\temp|100% done|alice登录成功获取了令牌|imported"
'

test_expect_success 'setup: searcher holds only 搜索日志 and logs in' '
	as root &&
	http POST /cms/admin/group "{\"name\":\"searchers\",\"permission_ids\":[$(db_exec "SELECT id
		FROM lin_permission WHERE name = \"搜索日志\"")]}" &&
	expect_status 201 &&
	http POST /cms/user/register "{\"username\":\"searcher\",\"password\":\"$USER_PASSWORD\",
		\"confirm_password\":\"$USER_PASSWORD\",\"group_ids\":[$(db_exec "SELECT id FROM lin_group
		WHERE name = \"searchers\"")]}" &&
	expect_status 201 &&
	remember searcher "$USER_PASSWORD"
'

test_expect_success 'holding only 搜索日志: GET /cms/log is a 403 with code 10001' '
	as searcher &&
	http GET /cms/log &&
	expect_status 403 &&
	expect_json .code 10001
'

test_expect_success 'holding only 搜索日志: GET /cms/log/search answers 200' '
	as searcher &&
	http GET "/cms/log/search?keyword=done" &&
	expect_status 200 &&
	expect_messages "100% done"
'

test_expect_success 'holding only 搜索日志: GET /cms/log/users is a 403' '
	as searcher &&
	http GET /cms/log/users &&
	expect_status 403 &&
	expect_json .code 10001
'

test_done
