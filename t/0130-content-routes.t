#!/bin/sh
test_description='a declared collection: its routes, every field type on the wire, validation, unique, soft delete, trash and restore'
. "$(dirname "$0")/lib.sh"

start_db
apply_content "$TOP/t/fixtures/content/blog.json" || bail_out "cannot apply blog.json"
start_app
start_nginx
use_served_openapi

test_expect_success 'setup: root logs in; the apply made both tables' '
	remember root "$ROOT_PASSWORD" &&
	grep -q "create the table of collection article" "$TRASH/apply.out" &&
	expect_db "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE()
		AND table_name IN (\"content_article\", \"content_category\")" 2
'

test_expect_success 'POST answers 201, the envelope, the new id and Location' '
	as root &&
	http POST /v1/category "{\"title\":\"科幻\"}" &&
	expect_status 201 &&
	expect_json .code 10400 &&
	expect_json .message "新建分类成功" &&
	expect_json .id 1 &&
	expect_header Location "^category/1\$"
'

test_expect_success 'every field type is stored and answered in its wire form' '
	as root &&
	http POST /v1/article "{\"title\":\"三体\",\"body\":\"长文\",\"views\":7,\"price\":12.5,
		\"pinned\":true,\"day\":\"2024-02-29\",\"published_at\":\"2024-01-02T08:04:05+08:00\",
		\"state\":\"published\",\"contact\":\"a@example.com\",\"link\":\"https://example.com/x\",
		\"category\":1,\"author\":1,\"secret\":\"s3\"}" &&
	expect_status 201 &&
	http GET /v1/article/1 &&
	expect_status 200 &&
	expect_json .title 三体 &&
	expect_json .views 7 &&
	expect_json .price 12.50 &&
	expect_json_true ".price | type == \"string\"" &&
	expect_json .pinned true &&
	expect_json .day 2024-02-29 &&
	expect_json .published_at 2024-01-02T00:04:05Z &&
	expect_json .state published &&
	expect_json .category 1 &&
	expect_json .author 1 &&
	expect_json .cover null &&
	expect_json_true "has(\"secret\") | not" &&
	expect_json_true ".create_time | test(\"^[0-9-]+T[0-9:.]+Z\$\")" &&
	expect_db "SELECT secret, price, published_at FROM content_article WHERE id = 1" \
		"$(printf "s3\t12.50\t2024-01-02 00:04:05.000")"
'

test_expect_success 'a decimal is never rounded through a double: digits beyond the scale are refused' '
	as root &&
	http POST /v1/article "{\"title\":\"Big\",\"body\":\"b\",\"price\":\"12345678.99\"}" &&
	expect_status 201 &&
	expect_db "SELECT price FROM content_article WHERE title = \"Big\"" 12345678.99 &&
	http POST /v1/article "{\"title\":\"Bigger\",\"body\":\"b\",\"price\":0.125}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json_true ".message.price | length > 0" &&
	http POST /v1/article "{\"title\":\"Biggest\",\"body\":\"b\",\"price\":123456789}" &&
	expect_status 400
'

test_expect_success 'defaults apply on create: views 0, pinned false, state draft' '
	expect_db "SELECT views, pinned, state FROM content_article WHERE title = \"Big\"" \
		"$(printf "0\t0\tdraft")"
'

test_expect_success 'every broken rule is one 400/10030 naming each field with its text' '
	as root &&
	http POST /v1/article "{\"title\":\"x\",\"views\":-1,\"day\":\"2023-02-29\",
		\"published_at\":\"2024-01-02 03:04\",\"state\":\"gone\",\"contact\":\"nope\",
		\"link\":\"ftp://x\",\"category\":99,\"author\":\"abc\",\"pinned\":\"yes\"}" &&
	expect_status 400 &&
	expect_json .code 10030 &&
	expect_json .message.title "title的长度必须在2~80个字符之间" &&
	expect_json .message.body "body不能为空" &&
	expect_json .message.views "views不能小于0" &&
	expect_json .message.day "day必须是YYYY-MM-DD格式的日期" &&
	expect_json_true ".message.published_at | test(\"RFC 3339\")" &&
	expect_json .message.state "state必须是以下之一：draft, published" &&
	expect_json_true ".message | has(\"contact\") and has(\"link\") and has(\"category\") and has(\"author\") and has(\"pinned\")" &&
	expect_db "SELECT COUNT(*) FROM content_article" 2
'

test_expect_success 'required: 0, false and "" are values; null is not' '
	as root &&
	http POST /v1/article "{\"title\":\"Zero\",\"body\":\"\",\"views\":0,\"pinned\":false}" &&
	expect_status 201 &&
	http POST /v1/article "{\"title\":\"Null\",\"body\":null}" &&
	expect_status 400 &&
	expect_json .message.body "body不能为空"
'

test_expect_success 'a taken unique value is 409/10405 naming the field; nothing is written' '
	as root &&
	http POST /v1/article "{\"title\":\"三体\",\"body\":\"again\"}" &&
	expect_status 409 &&
	expect_json .code 10405 &&
	expect_json .message.title "title已被占用" &&
	expect_db "SELECT COUNT(*) FROM content_article WHERE body = \"again\"" 0
'

test_expect_success 'PUT changes the fields sent and nothing else' '
	as root &&
	http PUT /v1/article/1 "{\"views\":8}" &&
	expect_status 200 &&
	expect_json .code 10401 &&
	http GET /v1/article/1 &&
	expect_json .views 8 &&
	expect_json .title 三体 &&
	expect_json .price 12.50
'

test_expect_success 'a body member that is not declared is ignored' '
	as root &&
	http PUT /v1/article/1 "{\"nope\":1,\"id\":77}" &&
	expect_status 200 &&
	expect_db "SELECT COUNT(*) FROM content_article WHERE id = 77" 0
'

test_expect_success 'a page: total, items, page, count; sort; filters; search' '
	http GET "/v1/article?count=2&sort=-views" &&
	expect_status 200 &&
	expect_json .total 3 &&
	expect_json ".items | length" 2 &&
	expect_json .items[0].title 三体 &&
	http GET "/v1/article?filter[state]=published" &&
	expect_json .total 1 &&
	http GET "/v1/article?filter[views][gte]=1&filter[pinned]=true" &&
	expect_json .total 1 &&
	http GET "/v1/article?filter[id][in]=1,3" &&
	expect_json "[.items[].id] | join(\",\")" 1,3 &&
	http GET "/v1/article?filter[price][gt]=100" &&
	expect_json .items[0].title Big &&
	http GET "/v1/article?filter[published_at][lt]=2024-01-02T01:00:00Z" &&
	expect_json .total 1 &&
	http GET "/v1/article?q=%E6%96%87" &&
	expect_json .total 1 &&
	http GET "/v1/article?q=%25" &&
	expect_json .total 0
'

test_expect_success 'a query it cannot read is 400/10030 naming the parameter' '
	http GET "/v1/article?nope=1" &&
	expect_status 400 &&
	expect_json .message.nope "nope不是这个列表的参数" &&
	http GET "/v1/article?filter[body]=x" &&
	expect_status 400 &&
	expect_json_true ".message | has(\"filter[body]\")" &&
	http GET "/v1/article?filter[views][gt]=abc" &&
	expect_status 400 &&
	http GET "/v1/article?filter[views][between]=1" &&
	expect_status 400 &&
	http GET "/v1/article?sort=title,views,published_at,id" &&
	expect_status 400 &&
	expect_json_true ".message | has(\"sort\")" &&
	http GET "/v1/article?filter[secret]=s3" &&
	expect_status 400 &&
	http GET "/v1/article?count=31" &&
	expect_status 400
'

test_expect_success 'DELETE is soft: 404/10404 afterwards, absent from the list, in the trash' '
	as root &&
	http DELETE /v1/article/3 &&
	expect_status 200 &&
	expect_json .code 10402 &&
	http GET /v1/article/3 &&
	expect_status 404 &&
	expect_json .code 10404 &&
	expect_json .message "文章不存在" &&
	http GET /v1/article &&
	expect_json .total 2 &&
	http GET /v1/article/trash &&
	expect_status 200 &&
	expect_json "[.items[].id] | join(\",\")" 3 &&
	expect_db "SELECT delete_time IS NOT NULL FROM content_article WHERE id = 3" 1
'

test_expect_success 'restore brings it back; a restore of a live row is 404' '
	as root &&
	http POST /v1/article/3/restore &&
	expect_status 200 &&
	expect_json .code 10403 &&
	http GET /v1/article/3 &&
	expect_status 200 &&
	http POST /v1/article/3/restore &&
	expect_status 404
'

test_expect_success 'restore is 409 when its unique value was taken meanwhile; the row stays deleted' '
	as root &&
	http DELETE /v1/category/1 &&
	expect_status 200 &&
	http POST /v1/category "{\"title\":\"科幻\"}" &&
	expect_status 201 &&
	http POST /v1/category/1/restore &&
	expect_status 409 &&
	expect_json .message.title "title已被占用" &&
	expect_db "SELECT delete_time IS NOT NULL FROM content_category WHERE id = 1" 1
'

test_expect_success 'a relation to a soft-deleted row is refused' '
	as root &&
	http POST /v1/article "{\"title\":\"Orphan\",\"body\":\"b\",\"category\":1}" &&
	expect_status 400 &&
	expect_json_true ".message | has(\"category\")"
'

test_expect_success 'the access rules: anyone lists, a guest cannot create or delete' '
	TOKEN= http GET /v1/article &&
	expect_status 200 &&
	TOKEN= http POST /v1/article "{\"title\":\"Anon\",\"body\":\"b\"}" &&
	expect_status 401 &&
	TOKEN= http GET /v1/article/trash &&
	expect_status 401
'

test_done
