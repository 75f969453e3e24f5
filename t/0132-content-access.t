#!/bin/sh
test_description='a declared collection'"'"'s access rules (everyone, login, admin, a permission, own rows), a file field answered as its URL, Idempotency-Key and the behaviour log on its writes, and --check-content with and without a database'
. "$(dirname "$0")/lib.sh"

start_db
apply_content "$TOP/t/fixtures/content/blog.json" || bail_out "cannot apply blog.json"
start_app
start_nginx
use_served_openapi

test_expect_success 'setup: root; alice and bob in group writers; the permission 删除文章 is registered' '
	remember root "$ROOT_PASSWORD" &&
	as root &&
	http POST /cms/admin/group "{\"name\":\"writers\",\"info\":\"w\"}" &&
	expect_status 201 &&
	g=$(db_exec "SELECT id FROM lin_group WHERE name = \"writers\"") &&
	for u in alice bob; do
		http POST /cms/user/register "{\"username\":\"$u\",\"password\":\"Pass_${u}1\",\"confirm_password\":\"Pass_${u}1\",\"group_ids\":[$g]}" &&
		expect_status 201 || return 1
	done &&
	remember alice Pass_alice1 &&
	remember bob Pass_bob1 &&
	as root &&
	http GET /cms/admin/permission &&
	expect_json_true ".[\"文章\"] | map(.name) == [\"删除文章\"]"
'

test_expect_success 'create: login — a token is needed, and the row is the creator'"'"'s' '
	TOKEN= http POST /v1/article "{\"title\":\"Anon\",\"body\":\"b\"}" &&
	expect_status 401 &&
	as alice &&
	http POST /v1/article "{\"title\":\"Alice one\",\"body\":\"b\"}" &&
	expect_status 201 &&
	as bob &&
	http POST /v1/article "{\"title\":\"Bob one\",\"body\":\"b\"}" &&
	expect_status 201 &&
	expect_db "SELECT create_user_id FROM content_article ORDER BY id" "$(printf "2\n3")"
'

test_expect_success 'update with own: a user changes the rows they created, not another'"'"'s (403/10001)' '
	as alice &&
	http PUT /v1/article/1 "{\"views\":1}" &&
	expect_status 200 &&
	http PUT /v1/article/2 "{\"views\":1}" &&
	expect_status 403 &&
	expect_json .code 10001 &&
	expect_db "SELECT views FROM content_article WHERE id = 2" 0
'

test_expect_success 'update with own: the root group changes any row' '
	as root &&
	http PUT /v1/article/2 "{\"views\":9}" &&
	expect_status 200
'

test_expect_success 'delete by a permission: 403 without it, 200 once the group holds it' '
	as bob &&
	http DELETE /v1/article/1 &&
	expect_status 403 &&
	as root &&
	p=$(db_exec "SELECT id FROM lin_permission WHERE module = \"文章\" AND name = \"删除文章\"") &&
	g=$(db_exec "SELECT id FROM lin_group WHERE name = \"writers\"") &&
	http POST /cms/admin/permission/dispatch "{\"group_id\":$g,\"permission_id\":$p}" &&
	expect_status 201 &&
	as bob &&
	http DELETE /v1/article/1 &&
	expect_status 200
'

test_expect_success 'restore: admin — a writer is refused, the trash too; root restores' '
	as bob &&
	http POST /v1/article/1/restore &&
	expect_status 403 &&
	http GET /v1/article/trash &&
	expect_status 403 &&
	as root &&
	http POST /v1/article/1/restore &&
	expect_status 200
'

test_expect_success 'a file field takes an upload'"'"'s id and answers its URL; an id of no file is refused' '
	as alice &&
	png cover >cover.png &&
	http POST /cms/file "" -F file=@cover.png &&
	expect_status 200 &&
	id=$(jq -r ".[0].id" body) &&
	url=$(jq -r ".[0].url" body) &&
	http PUT /v1/article/1 "{\"cover\":$id}" &&
	expect_status 200 &&
	http GET /v1/article/1 &&
	expect_json .cover "$url" &&
	http PUT /v1/article/1 "{\"cover\":99999}" &&
	expect_status 400 &&
	expect_json .message.cover "cover必须是一个已上传文件的id"
'

test_expect_success 'a create sent again with its Idempotency-Key answers the first answer and writes one row' '
	as alice &&
	http POST /v1/article "{\"title\":\"Once\",\"body\":\"b\"}" -H "Idempotency-Key: k-once-1" &&
	expect_status 201 &&
	cp body first &&
	http POST /v1/article "{\"title\":\"Once\",\"body\":\"b\"}" -H "Idempotency-Key: k-once-1" &&
	expect_status 201 &&
	cmp first body &&
	expect_db "SELECT COUNT(*) FROM content_article WHERE title = \"Once\"" 1
'

test_expect_success 'each write is a behaviour-log row naming the user and the label' '
	expect_db "SELECT COUNT(*) FROM lin_log WHERE message = \"bob删除了文章\"" 1 &&
	expect_db "SELECT COUNT(*) FROM lin_log WHERE message = \"root恢复了文章\"" 1 &&
	test "$(db_exec "SELECT COUNT(*) FROM lin_log WHERE message = \"alice新建了文章\"")" -ge 2
'

test_expect_success 'the status page counts the collection'"'"'s routes under their own templates' '
	http GET "/status" &&
	expect_status 200 &&
	expect_json_true "[.requests[] | select(.route == \"/v1/article/{id}\" and .method == \"PUT\" and .status == \"403\")] | length == 1" &&
	expect_json_true "[.requests[] | select(.route == \"/v1/article/{id}/restore\" and .status == \"200\")] | length == 1" &&
	expect_json_true "[.requests[] | select(.route == \"/v1/article\" and .method == \"POST\" and .status == \"201\")] | length == 1"
'

test_expect_success '--check-content: the worked example of doc/content.md passes' '
	awk "/^\`\`\`json/ { on = 1; next } /^\`\`\`/ { if (on) exit } on" "$TOP/doc/content.md" >example.json &&
	test -s example.json &&
	"$APP_BIN" --check-content example.json >check.out 2>&1 &&
	grep -q "is ok: 3 collection(s)" check.out
'

test_expect_success '--check-content: every broken rule, each with its JSON pointer; status 1' '
	jq ".collections[1].fields[0].max = 769 | .collections[1].fields[0].type = \"strng\"" \
		example.json >broken.json &&
	! "$APP_BIN" --check-content broken.json >check.out 2>&1 &&
	grep -q "^/collections/1/fields/0/type: must be one of" check.out
'

test_expect_success '--check-content with a configuration: the plan, and nothing changes' '
	db_exec "SELECT declaration FROM cms_content" >before &&
	"$APP_BIN" -c "$TRASH/cms.conf" --check-content example.json >plan.out 2>&1 &&
	grep -q "^would create the table of collection post" plan.out &&
	grep -q "CREATE TABLE IF NOT EXISTS \`content_post\`" plan.out &&
	grep -q "collection article: retired" plan.out &&
	grep -q "nothing was changed" plan.out &&
	db_exec "SELECT declaration FROM cms_content" >after &&
	cmp before after &&
	expect_db "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE()
		AND table_name = \"content_post\"" 0
'

test_expect_success '--check-content refuses a collection named book or labelled 图书: the service'"'"'s own' '
	jq ".collections[0].name = \"book\" | .collections[1].label = \"图书\"" example.json >ours.json &&
	! "$APP_BIN" --check-content ours.json >check.out 2>&1 &&
	grep -q "^/collections/0/name: is a resource of the service" check.out &&
	grep -q "^/collections/1/label: is the permission module of the service" check.out
'

test_expect_success 'setup: a guestbook anyone may write to, its writers'"'"' own rows theirs to change' '
	jq ".collections += [{id: \"guestbook\", name: \"guestbook\", label: \"留言\",
		fields: [{id: \"text\", name: \"text\", type: \"text\", required: true}],
		access: {list: \"everyone\", view: \"everyone\", create: \"everyone\",
			update: {level: \"login\", own: true}, delete: \"admin\", restore: \"admin\"}}]" \
		"$TOP/t/fixtures/content/blog.json" >guestbook.json &&
	apply_content guestbook.json &&
	reload_app
'

test_expect_success 'an everyone create: anonymous is 201 with no owner and no log row; with a token, the caller owns it' '
	TOKEN= http POST /v1/guestbook "{\"text\":\"hello\"}" &&
	expect_status 201 &&
	as alice &&
	http POST /v1/guestbook "{\"text\":\"alice was here\"}" &&
	expect_status 201 &&
	expect_db "SELECT COALESCE(create_user_id, 0) FROM content_guestbook ORDER BY id" "$(printf "0\n2")" &&
	expect_db "SELECT COUNT(*) FROM lin_log WHERE message LIKE \"%新建了留言\"" 1
'

test_expect_success 'an everyone write with a bad token is 401, not anonymous' '
	TOKEN=not.a.token http POST /v1/guestbook "{\"text\":\"forged\"}" &&
	expect_status 401 &&
	expect_db "SELECT COUNT(*) FROM content_guestbook WHERE text = \"forged\"" 0
'

test_expect_success 'own rows of an everyone collection: alice changes hers, bob may not' '
	as alice &&
	http PUT /v1/guestbook/2 "{\"text\":\"edited\"}" &&
	expect_status 200 &&
	as bob &&
	http PUT /v1/guestbook/2 "{\"text\":\"bob\"}" &&
	expect_status 403 &&
	http PUT /v1/guestbook/1 "{\"text\":\"bob\"}" &&
	expect_status 403
'

test_done
