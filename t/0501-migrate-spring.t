#!/bin/sh
test_description='sql/migrate turns a Lin CMS Spring Boot database (is_deleted) into ours, in place'
. "$(dirname "$0")/lib.sh"
. "$TOP/t/fixtures/migrate/helpers.sh"

# The Spring Boot hash of 123456 (doc/lin-cms.md §5.5 a).
SPRING_HASH='pbkdf2sha256:64000:18:24:n:yUnDokcNRbwILZllmUOItIyo9MnI00QW:6ZcPf+sfzyoygOU8h/GSoirF'

start_db
empty_db

test_expect_success 'setup: the Spring Boot schema and seed, root / 123456 and the two books' '
	load_lin_cms spring-boot
'

test_expect_success 'setup: pat, deleted by Spring Boot (is_deleted = 1, delete_time NULL)' '
	db_exec "INSERT INTO lin_user (id, username, nickname, is_deleted, update_time)
		VALUES (2, \"pat\", \"pat\", 1, \"2021-03-04 05:06:07.890\")" &&
	db_exec "INSERT INTO lin_user_identity (id, user_id, identity_type, identifier, credential)
		VALUES (2, 2, \"USERNAME_PASSWORD\", \"pat\", \"$SPRING_HASH\")" &&
	db_exec "INSERT INTO lin_user_group (id, user_id, group_id) VALUES (2, 2, 2)"
'

test_expect_success 'setup: a second link of root to the root group' '
	db_exec "INSERT INTO lin_user_group (id, user_id, group_id) VALUES (3, 1, 1)"
'

test_expect_success 'the migration of the Spring Boot database succeeds' '
	migrate migrate.1.out
'

start_app
start_nginx

test_expect_success 'the migrated schema is the one of a fresh install' '
	dump_schema >schema.actual &&
	diff -u schema.expected schema.actual
'

test_expect_success 'no column is_deleted is left' '
	expect_db "SELECT COUNT(*) FROM information_schema.COLUMNS
		WHERE TABLE_SCHEMA = DATABASE() AND COLUMN_NAME = \"is_deleted\"" 0
'

test_expect_success 'root logs in with the Spring Boot password 123456' '
	login root 123456
'

test_expect_success 'the login replaced the Spring Boot hash of root by an Argon2id one' '
	expect_db "SELECT LEFT(credential, 10) FROM lin_user_identity WHERE id = 1" "\$argon2id\$"
'

test_expect_success 'pat has a delete_time: the last update Spring Boot made, the deletion' '
	expect_db "SELECT delete_time FROM lin_user WHERE id = 2" "2021-03-04 05:06:07.890"
'

test_expect_success 'the update_time of pat stays that of the deletion' '
	expect_db "SELECT update_time FROM lin_user WHERE id = 2" "2021-03-04 05:06:07.890"
'

test_expect_success 'pat cannot log in (401, code 10031)' '
	TOKEN= &&
	http POST /cms/user/login "{\"username\":\"pat\",\"password\":\"123456\"}" &&
	expect_status 401 &&
	expect_json .code 10031
'

test_expect_success 'pat is not among the users an admin lists' '
	login root 123456 &&
	http GET /cms/admin/users &&
	expect_status 200 &&
	expect_json "[.items[].username] | index(\"pat\")" null
'

test_expect_success 'GET /v1/book serves the two books Spring Boot seeded' '
	TOKEN= &&
	http GET /v1/book &&
	expect_status 200 &&
	expect_json "map(.title) | join(\",\")" "深入理解计算机系统,C程序设计语言" &&
	expect_json ".[1].author" "（美）Brian W. Kernighan"
'

test_expect_success 'the second link of root to the root group is gone, the first one kept' '
	expect_db "SELECT id FROM lin_user_group WHERE user_id = 1 ORDER BY id" 1
'

test_expect_success 'the migration listed the link it deleted and the one it kept' '
	grep -E "^\| lin_user_group +\| +3 \| deleted +\| +1 \| user 1 in group 1 +\|$" migrate.1.out
'

test_expect_success 'a second run succeeds and changes no row and no column' '
	dump_db >before.sql &&
	migrate migrate.2.out &&
	dump_db >after.sql &&
	diff -u before.sql after.sql
'

test_expect_success 'the second run resolved no duplicate' '
	! grep "duplicate in" migrate.2.out
'

test_expect_success 'root still logs in after the second run' '
	login root 123456
'

test_done
