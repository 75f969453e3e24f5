#!/bin/sh
test_description='sql/migrate: what it refuses, and live duplicates resolved before the unique keys'
. "$(dirname "$0")/lib.sh"
. "$TOP/t/fixtures/migrate/helpers.sh"

# The Spring Boot hash of 123456 (doc/lin-cms.md §5.5 a).
SPRING_HASH='pbkdf2sha256:64000:18:24:n:yUnDokcNRbwILZllmUOItIyo9MnI00QW:6ZcPf+sfzyoygOU8h/GSoirF'

start_db
empty_db

test_expect_success 'a database without the Lin CMS tables is refused and left empty' '
	! migrate refused.1.out &&
	grep "not a Lin CMS (0.3 or later) database: no lin_group, lin_group_permission" refused.1.out &&
	expect_db "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE()" 0
'

test_expect_success 'setup: a Spring Boot database without book, with a unique key of its own' '
	load_lin_cms spring-boot &&
	db_exec "DROP TABLE book" &&
	db_exec "ALTER TABLE lin_user ADD UNIQUE KEY nickname_unique (nickname)"
'

test_expect_success 'an unknown unique key is refused by name before anything changes' '
	dump_db >before.sql &&
	! migrate refused.2.out &&
	grep "unknown unique keys, drop them first: lin_user.nickname_unique" refused.2.out &&
	dump_db >after.sql &&
	diff -u before.sql after.sql
'

test_expect_success 'setup: the operator drops that key' '
	db_exec "ALTER TABLE lin_user DROP KEY nickname_unique"
'

test_expect_success 'setup: live users sharing a username or an email, and a deleted namesake' '
	db_exec "INSERT INTO lin_user (id, username, email, is_deleted, update_time) VALUES
		(2, \"alice\", \"a@x.com\", 0, \"2021-01-01 00:00:00.000\"),
		(3, \"ALICE\", NULL, 0, \"2021-01-01 00:00:00.000\"),
		(4, \"alice\", NULL, 1, \"2020-12-24 18:00:00.000\"),
		(5, \"bob\", \"A@X.com\", 0, \"2021-01-01 00:00:00.000\"),
		(6, \"carl\", \"\", 0, \"2021-01-01 00:00:00.000\"),
		(7, \"dora\", \"\", 0, \"2021-01-01 00:00:00.000\"),
		(8, \"strasse\", NULL, 0, \"2021-01-01 00:00:00.000\"),
		(9, \"straße\", NULL, 0, \"2021-01-01 00:00:00.000\")" &&
	db_exec "INSERT INTO lin_user_identity (id, user_id, identity_type, identifier, credential)
		VALUES (2, 2, \"USERNAME_PASSWORD\", \"alice\", \"$SPRING_HASH\"),
		(3, 3, \"USERNAME_PASSWORD\", \"ALICE\", \"$SPRING_HASH\")"
'

test_expect_success 'setup: two live groups whose names differ in case only' '
	db_exec "INSERT INTO lin_group (id, name, level) VALUES (3, \"editors\", 3), (4, \"Editors\", 3)"
'

test_expect_success 'setup: a permission registered twice, each row granted to a group' '
	db_exec "INSERT INTO lin_permission (id, module, name) VALUES
		(1, \"日志\", \"查询所有日志\"), (2, \"日志\", \"查询所有日志\")" &&
	db_exec "INSERT INTO lin_group_permission (id, group_id, permission_id) VALUES
		(10, 3, 1), (11, 3, 2), (12, 2, 2)"
'

test_expect_success 'setup: two live files with one md5' '
	db_exec "INSERT INTO lin_file (id, path, name, md5) VALUES
		(1, \"a.png\", \"a.png\", \"0cc175b9c0f1b6a831c399e269772661\"),
		(2, \"b.png\", \"b.png\", \"0cc175b9c0f1b6a831c399e269772661\")"
'

test_expect_success 'the migration succeeds' '
	migrate migrate.1.out
'

start_app
start_nginx

test_expect_success 'the migrated schema is the one of a fresh install, book included' '
	dump_schema >schema.actual &&
	diff -u schema.expected schema.actual
'

test_expect_success 'of the live alice and ALICE, the lower id stays live' '
	expect_db "SELECT id, delete_time IS NULL FROM lin_user WHERE username = \"alice\" ORDER BY id" \
		"$(printf "2\t1\n3\t0\n4\t0")"
'

test_expect_success 'the alice Spring Boot deleted keeps her own deletion time' '
	expect_db "SELECT delete_time FROM lin_user WHERE id = 4" "2020-12-24 18:00:00.000"
'

test_expect_success 'alice logs in as user 2' '
	login alice 123456 &&
	http GET /cms/user/information &&
	expect_status 200 &&
	expect_json .id 2
'

test_expect_success 'bob, whose email differs from that of alice in case only, is soft-deleted' '
	expect_db "SELECT delete_time IS NOT NULL FROM lin_user WHERE id = 5" 1
'

test_expect_success 'straße, equal to strasse in the collation of our schema, is soft-deleted' '
	expect_db "SELECT id FROM lin_user WHERE id IN (8, 9) AND delete_time IS NULL" 8
'

test_expect_success 'empty emails became NULL and their users stay live' '
	expect_db "SELECT id FROM lin_user WHERE email IS NULL AND delete_time IS NULL
		AND id IN (6, 7) ORDER BY id" "$(printf "6\n7")"
'

test_expect_success 'of the groups editors and Editors, the lower id stays live' '
	expect_db "SELECT id FROM lin_group WHERE name = \"editors\" AND delete_time IS NULL" 3
'

test_expect_success 'the grants of the second permission row moved to the first, once each' '
	expect_db "SELECT id, group_id, permission_id FROM lin_group_permission ORDER BY id" \
		"$(printf "10\t3\t1\n12\t2\t1")"
'

test_expect_success 'the second permission row is soft-deleted' '
	expect_db "SELECT delete_time IS NOT NULL FROM lin_permission WHERE id = 2" 1
'

test_expect_success 'the service registered its permission on the kept row' '
	expect_db "SELECT id, mount FROM lin_permission
		WHERE module = \"日志\" AND name = \"查询所有日志\" AND delete_time IS NULL" \
		"$(printf "1\t1")"
'

test_expect_success 'of the two files with one md5, the lower id stays live' '
	expect_db "SELECT id FROM lin_file WHERE delete_time IS NULL" 1
'

test_expect_success 'the migration listed each row it resolved and the row it kept' '
	cat >expect.out <<-\EOF &&
	+----------------------+----+--------------+---------+--------------------------------------+
	| duplicate in         | id | action       | kept id | shared value                         |
	+----------------------+----+--------------+---------+--------------------------------------+
	| lin_file             |  2 | soft-deleted |       1 | md5 0cc175b9c0f1b6a831c399e269772661 |
	| lin_group            |  4 | soft-deleted |       3 | name Editors                         |
	| lin_group_permission | 11 | deleted      |      10 | group 3 has permission 1             |
	| lin_permission       |  2 | soft-deleted |       1 | 日志 / 查询所有日志                  |
	| lin_user             |  3 | soft-deleted |       2 | username ALICE                       |
	| lin_user             |  5 | soft-deleted |       2 | email A@X.com                        |
	| lin_user             |  9 | soft-deleted |       8 | username straße                      |
	+----------------------+----+--------------+---------+--------------------------------------+
	EOF
	diff -u expect.out migrate.1.out
'

test_expect_success 'GET /v1/book answers an empty list from the book table the migration made' '
	TOKEN= &&
	http GET /v1/book &&
	expect_status 200 &&
	expect_json length 0
'

test_expect_success 'a second run succeeds and changes no row and no column' '
	dump_db >before.sql &&
	migrate migrate.2.out &&
	dump_db >after.sql &&
	diff -u before.sql after.sql
'

test_done
