-- Migrates, in place, a MariaDB database written by lin-cms-spring-boot, lin-cms-koa or
-- lin-cms-flask to version 1 of cms-fcgi's schema (sql/migrations/0001-released.sql), keeping
-- every row; `cms-fcgi --setup-db` then applies the later migrations, as to any version 1
-- database. It creates no table of its own: 0001 creates the ones the database lacks, and the
-- ALTERs below give the others the columns and keys of 0001 (t/0501..t/0504 compare the result
-- with a fresh install). One script for the three: what differs between them (is_deleted or
-- not, key names, Flask's types and NULL identifiers) is read from the database itself. How to
-- run it, what it changes and the duplicate rule: README.md here. Run it from the top of the
-- tree (or of the installed share directory): step 2 reads sql/migrations/0001-released.sql.
--
-- Every step is idempotent and each one leaves a state the next run starts from: MariaDB commits
-- each DDL statement on its own, so the data changes a DDL step depends on are committed before
-- it (is_deleted is folded into delete_time before the column is dropped), and each table is
-- changed by one ALTER, which happens completely or not at all. A failed run is fixed and re-run.
-- MariaDB only (BEGIN NOT ATOMIC, IF [NOT] EXISTS in ALTER, PERSISTENT columns); the mariadb
-- client stops at the first error when it reads this from stdin.

SET NAMES utf8mb4;
-- Strict for every table, so that no value is ever truncated silently. Not ONLY_FULL_GROUP_BY:
-- the duplicate lists of step 5 group by id and show other columns of that row.
SET SESSION sql_mode = 'STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION';

DELIMITER //

-- 1. Refuse a database that is not a Lin CMS one (0.3 or later, with lin_user_identity), one that
--    cms-fcgi already keeps (it records a schema version: this script would take it back to
--    version 1), and one with a unique key this migration does not know: it would keep binding
--    deleted rows, and dropping it is the operator's decision. Nothing is changed before these
--    checks.
BEGIN NOT ATOMIC
    DECLARE found TEXT;
    SELECT GROUP_CONCAT(t.name ORDER BY t.name SEPARATOR ', ') INTO found
    FROM (SELECT 'lin_user' AS name UNION ALL SELECT 'lin_user_identity'
          UNION ALL SELECT 'lin_group' UNION ALL SELECT 'lin_user_group'
          UNION ALL SELECT 'lin_permission' UNION ALL SELECT 'lin_group_permission') t
    WHERE NOT EXISTS (SELECT 1 FROM information_schema.TABLES s
                      WHERE s.TABLE_SCHEMA = DATABASE() AND s.TABLE_NAME = t.name);
    IF found IS NOT NULL THEN
        SET found = CONCAT('not a Lin CMS (0.3 or later) database: no ', found);
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = found;
    END IF;

    -- scripts/migrate takes this message (its "nothing to convert") for success.
    IF EXISTS (SELECT 1 FROM information_schema.TABLES
               WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'cms_schema_version') THEN
        SELECT CONCAT('already cms-fcgi''s, at schema version ', COALESCE(MAX(version), 'none'),
                      ': nothing to convert (cms-fcgi --setup-db upgrades it)')
        INTO found FROM cms_schema_version;
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = found;
    END IF;

    SELECT GROUP_CONCAT(DISTINCT CONCAT(TABLE_NAME, '.', INDEX_NAME) SEPARATOR ', ') INTO found
    FROM information_schema.STATISTICS
    WHERE TABLE_SCHEMA = DATABASE() AND NON_UNIQUE = 0 AND INDEX_NAME <> 'PRIMARY'
      AND TABLE_NAME IN ('book', 'lin_user', 'lin_user_identity', 'lin_group', 'lin_user_group',
                         'lin_permission', 'lin_group_permission', 'lin_log', 'lin_file',
                         'cms_login_failure')
      AND INDEX_NAME NOT IN ('username_del', 'email_del', 'name_del', 'md5_del', 'name_module',
                             'username_live', 'email_live', 'name_live', 'module_name_live',
                             'md5_live', 'user_id_group_id', 'group_id_permission_id');
    IF found IS NOT NULL THEN
        SET found = CONCAT('unknown unique keys, drop them first: ', found);
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = found;
    END IF;
END//

DELIMITER ;

-- 2. The tables the database lacks (cms_login_failure; book when it has none), as version 1
--    creates them: its migration only creates what is missing. Existing tables are left to the
--    steps below.
source sql/migrations/0001-released.sql

-- 3. Data the DDL of step 4 needs, in one transaction. Flask leaves create_time and update_time
--    nullable. Spring Boot marks a deleted row with is_deleted = 1 only, Flask with both
--    columns; the deletion time is kept when there is one, otherwise the row's last update
--    (when the logical delete happened, as far as the database knows) stands for it. An empty
--    email is no email (it would make every such user a duplicate of the others). Flask never
--    fills identifier (doc/lin-cms.md §5.6): a password identity gets its user's username,
--    which the service keeps it equal to. Times of these rows are kept as they were.
START TRANSACTION;

DELIMITER //

BEGIN NOT ATOMIC
    DECLARE done BOOL DEFAULT FALSE;
    DECLARE tbl, col VARCHAR(64);
    DECLARE fix CURSOR FOR
        SELECT TABLE_NAME, COLUMN_NAME FROM information_schema.COLUMNS
        WHERE TABLE_SCHEMA = DATABASE()
          AND TABLE_NAME IN ('book', 'lin_user', 'lin_user_identity', 'lin_group',
                             'lin_permission', 'lin_log', 'lin_file')
          AND (COLUMN_NAME = 'is_deleted'
               OR (COLUMN_NAME IN ('create_time', 'update_time') AND IS_NULLABLE = 'YES'))
        ORDER BY TABLE_NAME, FIELD(COLUMN_NAME, 'create_time', 'update_time', 'is_deleted');
    DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = TRUE;
    OPEN fix;
    each_column: LOOP
        FETCH fix INTO tbl, col;
        IF done THEN
            LEAVE each_column;
        END IF;
        EXECUTE IMMEDIATE CONCAT('UPDATE `', tbl, '` SET ', CASE col
            WHEN 'create_time' THEN 'create_time = COALESCE(update_time, delete_time, NOW(3)),
                update_time = update_time WHERE create_time IS NULL'
            WHEN 'update_time' THEN 'update_time = create_time WHERE update_time IS NULL'
            ELSE 'delete_time = COALESCE(update_time, NOW(3)), update_time = update_time
                WHERE is_deleted <> 0 AND delete_time IS NULL' END);
    END LOOP;
    CLOSE fix;
END//

DELIMITER ;

UPDATE lin_user SET email = NULL, update_time = update_time WHERE email = '';

UPDATE lin_user_identity i JOIN lin_user u ON u.id = i.user_id
SET i.identifier = u.username, i.update_time = i.update_time
WHERE i.identifier IS NULL AND i.identity_type = 'USERNAME_PASSWORD';

COMMIT;

-- 4. Each table to the columns of version 1, in one ALTER per table: the old unique keys and
--    is_deleted go (the keys first: MariaDB refuses to drop a column of a multi-column unique
--    key), utf8mb4 with the schema's collation, its types, defaults, comments and column order,
--    and the new columns. Duplicates are then resolved under the new collation (step 5).
ALTER TABLE book
    DROP COLUMN IF EXISTS is_deleted,
    CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci,
    MODIFY id int unsigned NOT NULL AUTO_INCREMENT FIRST,
    MODIFY title varchar(50) NOT NULL AFTER id,
    MODIFY author varchar(30) DEFAULT NULL AFTER title,
    MODIFY summary varchar(1000) DEFAULT NULL AFTER author,
    MODIFY image varchar(100) DEFAULT NULL AFTER summary,
    MODIFY create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) AFTER image,
    MODIFY update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
        ON UPDATE CURRENT_TIMESTAMP(3) AFTER create_time,
    MODIFY delete_time datetime(3) DEFAULT NULL AFTER update_time;

ALTER TABLE lin_user
    DROP INDEX IF EXISTS username_del,
    DROP INDEX IF EXISTS email_del,
    DROP COLUMN IF EXISTS is_deleted,
    ADD COLUMN IF NOT EXISTS credential_version int unsigned NOT NULL DEFAULT 0 AFTER email,
    CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci,
    MODIFY id int unsigned NOT NULL AUTO_INCREMENT FIRST,
    MODIFY username varchar(24) NOT NULL AFTER id,
    MODIFY nickname varchar(24) DEFAULT NULL AFTER username,
    MODIFY avatar varchar(500) DEFAULT NULL AFTER nickname,
    MODIFY email varchar(100) DEFAULT NULL AFTER avatar,
    MODIFY create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) AFTER credential_version,
    MODIFY update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
        ON UPDATE CURRENT_TIMESTAMP(3) AFTER create_time,
    MODIFY delete_time datetime(3) DEFAULT NULL AFTER update_time,
    ADD COLUMN IF NOT EXISTS live tinyint AS (IF(delete_time IS NULL, 1, NULL)) PERSISTENT
        AFTER delete_time;

ALTER TABLE lin_user_identity
    DROP COLUMN IF EXISTS is_deleted,
    CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci,
    MODIFY id int unsigned NOT NULL AUTO_INCREMENT FIRST,
    MODIFY user_id int unsigned NOT NULL AFTER id,
    MODIFY identity_type varchar(100) NOT NULL AFTER user_id,
    MODIFY identifier varchar(100) DEFAULT NULL AFTER identity_type,
    MODIFY credential varchar(255) DEFAULT NULL AFTER identifier,
    MODIFY create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) AFTER credential,
    MODIFY update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
        ON UPDATE CURRENT_TIMESTAMP(3) AFTER create_time,
    MODIFY delete_time datetime(3) DEFAULT NULL AFTER update_time;

ALTER TABLE lin_group
    DROP INDEX IF EXISTS name_del,
    DROP COLUMN IF EXISTS is_deleted,
    CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci,
    MODIFY id int unsigned NOT NULL AUTO_INCREMENT FIRST,
    MODIFY name varchar(60) NOT NULL AFTER id,
    MODIFY info varchar(255) DEFAULT NULL AFTER name,
    MODIFY level tinyint NOT NULL DEFAULT 3 COMMENT '1 root, 2 guest, 3 user' AFTER info,
    MODIFY create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) AFTER level,
    MODIFY update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
        ON UPDATE CURRENT_TIMESTAMP(3) AFTER create_time,
    MODIFY delete_time datetime(3) DEFAULT NULL AFTER update_time,
    ADD COLUMN IF NOT EXISTS live tinyint AS (IF(delete_time IS NULL, 1, NULL)) PERSISTENT
        AFTER delete_time;

ALTER TABLE lin_user_group
    CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci,
    MODIFY id int unsigned NOT NULL AUTO_INCREMENT FIRST,
    MODIFY user_id int unsigned NOT NULL AFTER id,
    MODIFY group_id int unsigned NOT NULL AFTER user_id;

ALTER TABLE lin_permission
    DROP INDEX IF EXISTS name_module,
    DROP COLUMN IF EXISTS is_deleted,
    CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci,
    MODIFY id int unsigned NOT NULL AUTO_INCREMENT FIRST,
    MODIFY name varchar(60) NOT NULL AFTER id,
    MODIFY module varchar(50) NOT NULL AFTER name,
    MODIFY mount tinyint(1) NOT NULL DEFAULT 1 COMMENT '0 unmounted, 1 mounted' AFTER module,
    MODIFY create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) AFTER mount,
    MODIFY update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
        ON UPDATE CURRENT_TIMESTAMP(3) AFTER create_time,
    MODIFY delete_time datetime(3) DEFAULT NULL AFTER update_time,
    ADD COLUMN IF NOT EXISTS live tinyint AS (IF(delete_time IS NULL, 1, NULL)) PERSISTENT
        AFTER delete_time;

ALTER TABLE lin_group_permission
    CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci,
    MODIFY id int unsigned NOT NULL AUTO_INCREMENT FIRST,
    MODIFY group_id int unsigned NOT NULL AFTER id,
    MODIFY permission_id int unsigned NOT NULL AFTER group_id;

ALTER TABLE lin_log
    DROP COLUMN IF EXISTS is_deleted,
    CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci,
    MODIFY id int unsigned NOT NULL AUTO_INCREMENT FIRST,
    MODIFY message varchar(450) DEFAULT NULL AFTER id,
    MODIFY user_id int unsigned NOT NULL AFTER message,
    MODIFY username varchar(24) DEFAULT NULL AFTER user_id,
    MODIFY status_code int DEFAULT NULL AFTER username,
    MODIFY method varchar(20) DEFAULT NULL AFTER status_code,
    MODIFY path varchar(50) DEFAULT NULL AFTER method,
    MODIFY permission varchar(100) DEFAULT NULL AFTER path,
    MODIFY create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) AFTER permission,
    MODIFY update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
        ON UPDATE CURRENT_TIMESTAMP(3) AFTER create_time,
    MODIFY delete_time datetime(3) DEFAULT NULL AFTER update_time;

ALTER TABLE lin_file
    DROP INDEX IF EXISTS md5_del,
    DROP INDEX IF EXISTS md5_live,
    DROP COLUMN IF EXISTS is_deleted,
    CONVERT TO CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_520_ci,
    MODIFY id int unsigned NOT NULL AUTO_INCREMENT FIRST,
    MODIFY path varchar(500) NOT NULL AFTER id,
    MODIFY type varchar(10) NOT NULL DEFAULT 'LOCAL' COMMENT 'LOCAL or REMOTE' AFTER path,
    MODIFY name varchar(100) NOT NULL AFTER type,
    MODIFY extension varchar(50) DEFAULT NULL AFTER name,
    MODIFY size int DEFAULT NULL AFTER extension,
    MODIFY md5 varchar(40) DEFAULT NULL AFTER size,
    MODIFY create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) AFTER md5,
    MODIFY update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)
        ON UPDATE CURRENT_TIMESTAMP(3) AFTER create_time,
    MODIFY delete_time datetime(3) DEFAULT NULL AFTER update_time,
    ADD COLUMN IF NOT EXISTS live tinyint AS (IF(delete_time IS NULL, 1, NULL)) PERSISTENT
        AFTER delete_time;

-- 5. Duplicates among live rows, which the unique keys of step 6 refuse, in one transaction:
--    the row with the lowest id keeps the value and the others are soft-deleted (links to a
--    duplicate permission move to the kept one first, it is the same permission); duplicate
--    link rows are deleted, the lowest id kept. Each row changed is listed when it is done.
DROP TEMPORARY TABLE IF EXISTS migrate_resolved;
CREATE TEMPORARY TABLE migrate_resolved (
    table_name varchar(64) NOT NULL,
    id int unsigned NOT NULL,
    action varchar(20) NOT NULL,
    kept_id int unsigned NOT NULL,
    shared_value varchar(200) NOT NULL
) DEFAULT CHARSET = utf8mb4;

START TRANSACTION;

INSERT INTO migrate_resolved
SELECT 'lin_user', d.id, 'soft-deleted', MIN(k.id), CONCAT('username ', d.username)
FROM lin_user d JOIN lin_user k ON k.username = d.username AND k.id < d.id AND k.delete_time IS NULL
WHERE d.delete_time IS NULL GROUP BY d.id;
UPDATE lin_user u JOIN migrate_resolved r ON r.table_name = 'lin_user' AND r.id = u.id
SET u.delete_time = NOW(3) WHERE u.delete_time IS NULL;

-- After the usernames, so that a user already soft-deleted above is no longer a duplicate.
INSERT INTO migrate_resolved
SELECT 'lin_user', d.id, 'soft-deleted', MIN(k.id), CONCAT('email ', d.email)
FROM lin_user d JOIN lin_user k ON k.email = d.email AND k.id < d.id AND k.delete_time IS NULL
WHERE d.delete_time IS NULL GROUP BY d.id;
UPDATE lin_user u JOIN migrate_resolved r ON r.table_name = 'lin_user' AND r.id = u.id
SET u.delete_time = NOW(3) WHERE u.delete_time IS NULL;

INSERT INTO migrate_resolved
SELECT 'lin_group', d.id, 'soft-deleted', MIN(k.id), CONCAT('name ', d.name)
FROM lin_group d JOIN lin_group k ON k.name = d.name AND k.id < d.id AND k.delete_time IS NULL
WHERE d.delete_time IS NULL GROUP BY d.id;
UPDATE lin_group g JOIN migrate_resolved r ON r.table_name = 'lin_group' AND r.id = g.id
SET g.delete_time = NOW(3) WHERE g.delete_time IS NULL;

INSERT INTO migrate_resolved
SELECT 'lin_permission', d.id, 'soft-deleted', MIN(k.id), CONCAT(d.module, ' / ', d.name)
FROM lin_permission d
JOIN lin_permission k ON k.module = d.module AND k.name = d.name AND k.id < d.id
    AND k.delete_time IS NULL
WHERE d.delete_time IS NULL GROUP BY d.id;
UPDATE lin_group_permission gp
JOIN migrate_resolved r ON r.table_name = 'lin_permission' AND r.id = gp.permission_id
SET gp.permission_id = r.kept_id;
UPDATE lin_permission p JOIN migrate_resolved r ON r.table_name = 'lin_permission' AND r.id = p.id
SET p.delete_time = NOW(3) WHERE p.delete_time IS NULL;

INSERT INTO migrate_resolved
SELECT 'lin_file', d.id, 'soft-deleted', MIN(k.id), CONCAT('md5 ', d.md5)
FROM lin_file d JOIN lin_file k ON k.md5 = d.md5 AND k.id < d.id AND k.delete_time IS NULL
WHERE d.delete_time IS NULL GROUP BY d.id;
UPDATE lin_file f JOIN migrate_resolved r ON r.table_name = 'lin_file' AND r.id = f.id
SET f.delete_time = NOW(3) WHERE f.delete_time IS NULL;

INSERT INTO migrate_resolved
SELECT 'lin_user_group', d.id, 'deleted', MIN(k.id),
    CONCAT('user ', d.user_id, ' in group ', d.group_id)
FROM lin_user_group d
JOIN lin_user_group k ON k.user_id = d.user_id AND k.group_id = d.group_id AND k.id < d.id
GROUP BY d.id;
DELETE d FROM lin_user_group d
JOIN migrate_resolved r ON r.table_name = 'lin_user_group' AND r.id = d.id;

-- After the permissions, whose merge may have made links equal.
INSERT INTO migrate_resolved
SELECT 'lin_group_permission', d.id, 'deleted', MIN(k.id),
    CONCAT('group ', d.group_id, ' has permission ', d.permission_id)
FROM lin_group_permission d
JOIN lin_group_permission k ON k.group_id = d.group_id AND k.permission_id = d.permission_id
    AND k.id < d.id
GROUP BY d.id;
DELETE d FROM lin_group_permission d
JOIN migrate_resolved r ON r.table_name = 'lin_group_permission' AND r.id = d.id;

COMMIT;

SELECT table_name AS `duplicate in`, id, action, kept_id AS `kept id`, shared_value AS `shared value`
FROM migrate_resolved ORDER BY table_name, id;
DROP TEMPORARY TABLE migrate_resolved;

-- 6. The keys of version 1. Spring Boot and Koa made the link keys without UNIQUE: those
--    are replaced, the unique ones of an earlier run are kept.
DELIMITER //

BEGIN NOT ATOMIC
    IF EXISTS (SELECT 1 FROM information_schema.STATISTICS
               WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'lin_user_group'
                 AND INDEX_NAME = 'user_id_group_id' AND NON_UNIQUE = 1) THEN
        ALTER TABLE lin_user_group DROP INDEX user_id_group_id;
    END IF;
    IF EXISTS (SELECT 1 FROM information_schema.STATISTICS
               WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = 'lin_group_permission'
                 AND INDEX_NAME = 'group_id_permission_id' AND NON_UNIQUE = 1) THEN
        ALTER TABLE lin_group_permission DROP INDEX group_id_permission_id;
    END IF;
END//

DELIMITER ;

ALTER TABLE book ADD KEY IF NOT EXISTS book_title (title);
ALTER TABLE lin_user
    ADD UNIQUE KEY IF NOT EXISTS username_live (username, live),
    ADD UNIQUE KEY IF NOT EXISTS email_live (email, live);
ALTER TABLE lin_user_identity
    ADD KEY IF NOT EXISTS identity_user (user_id),
    ADD KEY IF NOT EXISTS identity_identifier (identifier);
ALTER TABLE lin_group ADD UNIQUE KEY IF NOT EXISTS name_live (name, live);
ALTER TABLE lin_user_group
    ADD UNIQUE KEY IF NOT EXISTS user_id_group_id (user_id, group_id),
    ADD KEY IF NOT EXISTS user_group_group (group_id);
ALTER TABLE lin_permission ADD UNIQUE KEY IF NOT EXISTS module_name_live (module, name, live);
ALTER TABLE lin_group_permission
    ADD UNIQUE KEY IF NOT EXISTS group_id_permission_id (group_id, permission_id);
ALTER TABLE lin_log
    ADD KEY IF NOT EXISTS log_create_time (create_time),
    ADD KEY IF NOT EXISTS log_username (username);
ALTER TABLE lin_file ADD UNIQUE KEY IF NOT EXISTS md5_live (md5, live);

-- 7. Done: the database is at version 1, which records no version (cms-fcgi knows it by its
--    tables). `cms-fcgi --setup-db` takes it to the current one.
