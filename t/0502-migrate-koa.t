#!/bin/sh
test_description='sql/migrate turns a Lin CMS Koa database (delete_time only) into ours, in place'
. "$(dirname "$0")/lib.sh"
. "$TOP/t/fixtures/migrate/helpers.sh"

# The Koa hash of 123456 (doc/lin-cms.md §5.5 b).
KOA_HASH='sha1$c419e500$1$84869e5560ebf3de26b6690386484929456d6c07'

start_db
empty_db

test_expect_success 'setup: the Koa schema and seed, root / 123456, no books' '
	load_lin_cms koa
'

test_expect_success 'setup: kim, deleted by Koa (delete_time set), and a live book' '
	db_exec "INSERT INTO lin_user (id, username, nickname, delete_time)
		VALUES (2, \"kim\", \"kim\", \"2022-01-02 03:04:05.678\")" &&
	db_exec "INSERT INTO lin_user_identity (id, user_id, identity_type, identifier, credential)
		VALUES (2, 2, \"USERNAME_PASSWORD\", \"kim\", \"$KOA_HASH\")" &&
	db_exec "INSERT INTO book (id, title, author, summary) VALUES (7, \"Dune\", \"Herbert\", \"sand\")"
'

test_expect_success 'the migration of the Koa database succeeds' '
	migrate migrate.1.out
'

start_app
start_nginx

test_expect_success 'the migrated schema is the one of a fresh install' '
	dump_schema >schema.actual &&
	diff -u schema.expected schema.actual
'

test_expect_success 'root logs in with the Koa password 123456' '
	login root 123456
'

test_expect_success 'the login replaced the Koa hash of root by an Argon2id one' '
	expect_db "SELECT LEFT(credential, 10) FROM lin_user_identity WHERE id = 1" "\$argon2id\$"
'

test_expect_success 'kim keeps the delete_time Koa gave her' '
	expect_db "SELECT delete_time FROM lin_user WHERE id = 2" "2022-01-02 03:04:05.678"
'

test_expect_success 'kim cannot log in (401, code 10031)' '
	TOKEN= &&
	http POST /cms/user/login "{\"username\":\"kim\",\"password\":\"123456\"}" &&
	expect_status 401 &&
	expect_json .code 10031
'

test_expect_success 'the Koa book is served with its id' '
	TOKEN= &&
	http GET /v1/book/7 &&
	expect_status 200 &&
	expect_json .title Dune
'

test_expect_success 'the name of kim, deleted, can be given to a new user' '
	login root 123456 &&
	http POST /cms/user/register \
		"{\"username\":\"kim\",\"password\":\"Kim_pass1\",\"confirm_password\":\"Kim_pass1\",\"group_ids\":[2]}" &&
	expect_status 201 &&
	expect_db "SELECT COUNT(*) FROM lin_user WHERE username = \"kim\"" 2
'

test_expect_success 'a second run succeeds and changes no row and no column' '
	dump_db >before.sql &&
	migrate migrate.2.out &&
	dump_db >after.sql &&
	diff -u before.sql after.sql
'

test_done
