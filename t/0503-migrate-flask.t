#!/bin/sh
test_description='sql/migrate turns a Lin CMS Flask database into ours, also after a failed run'
. "$(dirname "$0")/lib.sh"
. "$TOP/t/fixtures/migrate/helpers.sh"

# The werkzeug hash of 123456 (doc/lin-cms.md §5.5 c).
FLASK_HASH='pbkdf2:sha256:260000$LinCmsTestSalt16$06a1f4626f0a24d07f14b74ba910bfb3e911cf93fed90abafbd6aadfbd5a8e3c'

start_db
empty_db

test_expect_success 'setup: the Flask schema (utf8mb3) and seed, Root / Guest, root / 123456' '
	load_lin_cms flask
'

test_expect_success 'setup: ann, live, and fay, deleted by Flask, both without identifier' '
	db_exec "INSERT INTO lin_user (id, username, nickname, is_deleted) VALUES (2, \"ann\", \"ann\", 0)" &&
	db_exec "INSERT INTO lin_user (id, username, nickname, is_deleted, update_time, delete_time)
		VALUES (3, \"fay\", \"fay\", 1, \"2023-06-01 00:00:00\", \"2023-05-06 07:08:09\")" &&
	db_exec "INSERT INTO lin_user_identity
		(id, user_id, identity_type, identifier, credential, is_deleted) VALUES
		(2, 2, \"USERNAME_PASSWORD\", NULL, \"$FLASK_HASH\", 0),
		(3, 3, \"USERNAME_PASSWORD\", NULL, \"$FLASK_HASH\", 0)" &&
	db_exec "INSERT INTO lin_user_group (id, user_id, group_id) VALUES (2, 2, 2), (3, 3, 2)"
'

test_expect_success 'setup: a log row whose user id our unsigned type refuses' '
	db_exec "INSERT INTO lin_log (id, message, user_id, is_deleted) VALUES (1, \"odd\", -1, 0)"
'

test_expect_success 'a run stops at that row with an error and a non-zero status' '
	! migrate migrate.1.out &&
	grep "ERROR.*user_id" migrate.1.out
'

test_expect_success 'the stopped run dropped is_deleted of lin_user and fay is still deleted' '
	expect_db "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE()
		AND TABLE_NAME = \"lin_user\" AND COLUMN_NAME = \"is_deleted\"" 0 &&
	expect_db "SELECT delete_time IS NOT NULL FROM lin_user WHERE id = 3" 1
'

test_expect_success 'setup: the operator corrects the log row' '
	db_exec "UPDATE lin_log SET user_id = 1 WHERE id = 1"
'

test_expect_success 'the next run finishes the migration' '
	migrate migrate.2.out
'

start_app
start_nginx

test_expect_success 'the migrated schema is the one of a fresh install' '
	dump_schema >schema.actual &&
	diff -u schema.expected schema.actual
'

test_expect_success 'root logs in with the Flask password 123456' '
	login root 123456
'

test_expect_success 'the login replaced the Flask hash of root by an Argon2id one' '
	expect_db "SELECT LEFT(credential, 10) FROM lin_user_identity WHERE id = 1" "\$argon2id\$"
'

test_expect_success 'ann logs in with the Flask password 123456' '
	login ann 123456
'

test_expect_success 'each identity without identifier got its user'"'"'s username' '
	expect_db "SELECT GROUP_CONCAT(identifier ORDER BY id) FROM lin_user_identity" "root,ann,fay"
'

test_expect_success 'fay keeps the delete_time Flask gave her' '
	expect_db "SELECT delete_time FROM lin_user WHERE id = 3" "2023-05-06 07:08:09.000"
'

test_expect_success 'fay cannot log in (401, code 10031)' '
	TOKEN= &&
	http POST /cms/user/login "{\"username\":\"fay\",\"password\":\"123456\"}" &&
	expect_status 401 &&
	expect_json .code 10031
'

test_expect_success 'Chinese text written as utf8mb3 is served unchanged' '
	login root 123456 &&
	http GET /cms/admin/group/2 &&
	expect_status 200 &&
	expect_json .name Guest &&
	expect_json .info 游客组
'

test_expect_success 'a third run succeeds and changes no row and no column' '
	dump_db >before.sql &&
	migrate migrate.3.out &&
	dump_db >after.sql &&
	diff -u before.sql after.sql
'

test_done
