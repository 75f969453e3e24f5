#!/bin/sh
test_description='a declaration changed on a database holding rows: add, retire, re-add (values back), rename, a refused tightening and type change (nothing changed), an apply cut short and finished, two at once, a collection retired and back'
. "$(dirname "$0")/lib.sh"

# The article collection: its fields ($1, a JSON array's members), its name ($2, default article).
declaration () {
	cat <<-EOF
	{"collections": [{"id": "article", "name": "${2:-article}", "label": "文章",
	  "fields": [$1],
	  "access": {"list": "everyone", "view": "everyone", "create": "admin", "update": "admin",
	             "delete": {"permission": "删除文章"}, "restore": "admin"}}]}
	EOF
}

title='{"id": "title", "name": "title", "type": "string", "max": 80, "required": true, "unique": true}'
views='{"id": "views", "name": "views", "type": "integer", "min": 0, "default": 0, "filter": true}'
summary='{"id": "summary", "name": "summary", "type": "string", "max": 200}'
declaration "$title, $views" >"$TRASH/v1.json"
declaration "$title, $views, $summary" >"$TRASH/v2.json"
declaration "$title, $summary" >"$TRASH/v3.json"
declaration "$(echo "$title" | sed 's/"name": "title"/"name": "headline"/'), $views, $summary" post \
	>"$TRASH/v4.json"

start_db
apply_content "$TRASH/v1.json" || bail_out "cannot apply v1.json"
start_app
start_nginx
use_served_openapi

# The declaration the database has applied.
applied () {
	db_exec "SELECT declaration FROM cms_content WHERE id = 1"
}

test_expect_success 'setup: three articles' '
	remember root "$ROOT_PASSWORD" &&
	as root &&
	for t in "Alpha" "Beta" "Gamma longer than three"; do
		http POST /v1/article "{\"title\":\"$t\",\"views\":5}" &&
		expect_status 201 || return 1
	done
'

test_expect_success 'a new field is one ADD COLUMN, online; the rows answer it as null' '
	apply_content "$TRASH/v2.json" &&
	grep -q "^content: add field summary to collection article" apply.out &&
	reload_app &&
	http GET /v1/article/1 &&
	expect_json .summary null &&
	expect_json .views 5 &&
	as root &&
	http PUT /v1/article/1 "{\"summary\":\"first\"}" &&
	expect_status 200
'

test_expect_success 'the same file applied again changes nothing and says nothing' '
	applied >before &&
	apply_content "$TRASH/v2.json" &&
	! grep -q "^content" apply.out &&
	applied >after &&
	cmp before after
'

test_expect_success 'a field the file drops is retired: not served, not filtered, its column and values kept' '
	apply_content "$TRASH/v3.json" &&
	grep -q "field views: retired" apply.out &&
	reload_app &&
	http GET /v1/article/1 &&
	expect_json_true "has(\"views\") | not" &&
	http GET "/v1/article?filter[views]=5" &&
	expect_status 400 &&
	expect_db "SELECT SUM(views) FROM content_article" 15 &&
	! grep -q "\"views\"" served-openapi.json
'

test_expect_success 'a new row leaves the retired column alone (its default)' '
	as root &&
	http POST /v1/article "{\"title\":\"Delta\"}" &&
	expect_status 201 &&
	expect_db "SELECT views IS NULL FROM content_article WHERE title = \"Delta\"" 1
'

test_expect_success 'the same id declared again brings its values back' '
	apply_content "$TRASH/v2.json" &&
	grep -q "field views: re-added" apply.out &&
	reload_app &&
	http GET /v1/article/2 &&
	expect_json .views 5
'

test_expect_success 'a rename (same ids, new names) runs no DDL: the routes and members follow' '
	apply_content "$TRASH/v4.json" &&
	! grep -q "^content: .*table\|^content: add\|^content: index" apply.out &&
	grep -q "renamed from article to post" apply.out &&
	grep -q "renamed from title to headline" apply.out &&
	reload_app &&
	http GET /v1/post/1 &&
	expect_status 200 &&
	expect_json .headline Alpha &&
	expect_json .summary first &&
	http GET /v1/article/1 &&
	expect_status 404 &&
	expect_db "SELECT COUNT(*) FROM content_article" 4
'

test_expect_success 'a tightened max that rows break is refused with the count and the ids; nothing changes' '
	sed "s/\"max\": 80/\"max\": 10/" "$TRASH/v4.json" >tight.json &&
	applied >before &&
	! apply_content tight.json 2>err &&
	grep -q "max 80 -> 10: 1 row(s) break it, first ids 3" apply.out &&
	grep -q "nothing was changed" apply.out &&
	applied >after &&
	cmp before after &&
	expect_db "SELECT CHARACTER_MAXIMUM_LENGTH FROM information_schema.columns
		WHERE table_schema = DATABASE() AND table_name = \"content_article\" AND column_name = \"title\"" 80
'

test_expect_success 'a tightened max that no row breaks is applied by the engine; the column is not narrowed' '
	sed "s/\"max\": 80/\"max\": 40/" "$TRASH/v4.json" >shorter.json &&
	apply_content shorter.json &&
	! grep -q MODIFY apply.out &&
	reload_app &&
	expect_db "SELECT CHARACTER_MAXIMUM_LENGTH FROM information_schema.columns
		WHERE table_schema = DATABASE() AND table_name = \"content_article\" AND column_name = \"title\"" 80 &&
	as root &&
	http PUT /v1/post/1 "{\"headline\":\"$(printf "%041d" 0)\"}" &&
	expect_status 400 &&
	expect_json_true ".message | has(\"headline\")"
'

test_expect_success 'a max made larger again widens the column only past what it holds' '
	sed "s/\"max\": 80/\"max\": 120/" "$TRASH/v4.json" >longer.json &&
	apply_content longer.json &&
	grep -q "widen field title of collection article to 120" apply.out &&
	expect_db "SELECT CHARACTER_MAXIMUM_LENGTH FROM information_schema.columns
		WHERE table_schema = DATABASE() AND table_name = \"content_article\" AND column_name = \"title\"" 120 &&
	apply_content shorter.json &&
	! grep -q "widen" apply.out
'

test_expect_success 'required added while a row has no value is refused, naming it' '
	sed "s/\"max\": 200}/\"max\": 200, \"required\": true}/" shorter.json >required.json &&
	! apply_content required.json 2>err &&
	grep -q "required: 3 row(s) break it, first ids 2, 3, 4" apply.out
'

test_expect_success 'unique added while two live rows share a value is refused, naming the first' '
	db_exec "UPDATE content_article SET summary = \"same\" WHERE id IN (2, 3)" &&
	sed "s/\"max\": 200}/\"max\": 200, \"unique\": true}/" shorter.json >unique.json &&
	! apply_content unique.json 2>err &&
	grep -q "unique: live values held by more than one row: 1 value(s) held by more than one row, first ids 2" apply.out &&
	expect_db "SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = DATABASE()
		AND table_name = \"content_article\" AND index_name = \"u_summary\"" 0 &&
	db_exec "UPDATE content_article SET summary = NULL WHERE id IN (2, 3)"
'

test_expect_success 'a type change is refused with the expand-and-contract steps; nothing changes' '
	sed "s/\"type\": \"integer\", \"min\": 0, \"default\": 0/\"type\": \"string\"/" shorter.json >retyped.json &&
	applied >before &&
	! apply_content retyped.json 2>err &&
	grep -q "cannot change from integer to string in place: add a field with a new id" apply.out &&
	applied >after &&
	cmp before after
'

test_expect_success 'an apply cut short after its DDL is finished by the next one' '
	sed "s/\"max\": 200}/\"max\": 200}, {\"id\": \"note\", \"name\": \"note\", \"type\": \"text\"}/" \
		shorter.json >note.json &&
	db_exec "ALTER TABLE content_article ADD COLUMN note mediumtext DEFAULT NULL" &&
	apply_content note.json &&
	grep -q "content declaration applied" apply.out &&
	applied | grep -q "\"note\""
'

test_expect_success 'one cut short with its target pending is finished before another file is planned' '
	applied | jq -c ".collections[0].fields += [{id: \"memo\", name: \"memo\", type: \"string\", max: 30}]" >pending.json &&
	db_exec "ALTER TABLE content_article ADD COLUMN memo varchar(30) DEFAULT NULL" &&
	db_exec "INSERT INTO cms_content (id, declaration) VALUES (2, $(sed "s/\\\\/\\\\\\\\/g; s/\"/\\\\\"/g; s/^/\"/; s/$/\"/" pending.json))" &&
	sed "s/\"type\": \"text\"}/\"type\": \"text\"}, {\"id\": \"memo\", \"name\": \"memo\", \"type\": \"integer\"}/" \
		note.json >memo-integer.json &&
	! apply_content memo-integer.json 2>err &&
	grep -q "finishing the apply that was cut short" apply.out &&
	grep -q "field memo: cannot change from string to integer" apply.out &&
	expect_db "SELECT COUNT(*) FROM cms_content WHERE id = 2" 0 &&
	applied | jq -e ".collections[0].fields[] | select(.id == \"memo\") | .type == \"string\"" &&
	apply_content note.json &&
	grep -q "field memo: retired" apply.out
'

test_expect_success 'setup: a file that adds a field tag' '
	sed "s/\"type\": \"text\"}/\"type\": \"text\"}, {\"id\": \"tag\", \"name\": \"tag\", \"type\": \"string\", \"max\": 20, \"filter\": true}/" \
		note.json >tag.json &&
	grep -q "\"tag\"" tag.json
'

# Started together: no && before the first & (it would put the whole list in the background).
test_expect_success 'two applies at once: both end, the column is made once, one declaration is stored' '
	(apply_content tag.json >one.out 2>&1; echo $? >one.rc) &
	(CMS_DB_SOCKET=$DB_SOCKET CMS_DB_USER=$svc_db_admin CMS_DB_PASSWORD= \
		CMS_DB_NAME=$DB_NAME CMS_SQL_DIR=$TOP/sql CMS_CONTENT_FILE=$PWD/tag.json \
		"$APP_BIN" -c /dev/null --setup-db </dev/null >two.out 2>&1; echo $? >two.rc) &
	wait &&
	test "$(cat one.rc)" = 0 &&
	test "$(cat two.rc)" = 0 &&
	expect_db "SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = DATABASE()
		AND table_name = \"content_article\" AND index_name = \"k_tag\"" 1 &&
	applied | grep -q "\"tag\""
'

test_expect_success 'a collection the file drops is retired: 404, its table, rows and grants kept' '
	as root &&
	g=$(db_exec "SELECT id FROM lin_group WHERE name = \"guest\"") &&
	p=$(db_exec "SELECT id FROM lin_permission WHERE module = \"文章\" AND name = \"删除文章\"") &&
	test -n "$p" &&
	http POST /cms/admin/permission/dispatch "{\"group_id\":$g,\"permission_id\":$p}" &&
	expect_status 201 &&
	echo "{\"collections\": []}" >none.json &&
	apply_content none.json &&
	grep -q "collection article: retired" apply.out &&
	reload_app &&
	http GET /v1/post/1 &&
	expect_status 404 &&
	expect_db "SELECT COUNT(*) FROM content_article" 4 &&
	expect_db "SELECT mount FROM lin_permission WHERE id = $p" 0 &&
	expect_db "SELECT COUNT(*) FROM lin_group_permission WHERE permission_id = $p" 1
'

test_expect_success 'declared again, the collection is back with its rows and its grant mounted' '
	p=$(db_exec "SELECT id FROM lin_permission WHERE module = \"文章\" AND name = \"删除文章\"") &&
	apply_content tag.json &&
	grep -q "collection article: re-added" apply.out &&
	reload_app &&
	http GET /v1/post &&
	expect_json .total 4 &&
	expect_db "SELECT mount FROM lin_permission WHERE id = $p" 1
'

test_expect_success 'a pool refuses to start (78) on an applied declaration this binary cannot serve' '
	db_exec "UPDATE cms_content SET declaration = REPLACE(declaration, \"\\\"integer\\\"\", \"\\\"geo\\\"\")" &&
	set_socket_path other_sock other.sock &&
	{ timeout 10 "$APP_BIN" -c "$TRASH/cms.conf" --listen "$other_sock" >refused.out 2>&1; rc=$?; } &&
	test "$rc" = 78 &&
	grep -q "content declaration applied in the database is not one this cms-fcgi can serve" refused.out &&
	grep -q "type: must be one of" refused.out
'

test_done
