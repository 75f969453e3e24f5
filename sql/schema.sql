-- cms-fcgi schema: the Lin CMS tables (lincms-survey.md §5.1) and the book table, for MariaDB.
-- Idempotent. What a fresh install loads: version 2, the schema sql/migrations/ brings an older
-- database to (t/0505 checks that the two agree). Soft delete is delete_time (NULL = live); times
-- are kept by the database.
-- Live uniqueness: `live` is 1 for a live row and NULL for a deleted one; MariaDB treats NULLs as
-- distinct in a unique key, so UNIQUE (name, live) binds live rows only and a deleted name can be
-- reused. (Lin CMS's UNIQUE (name, delete_time) never fires, since live rows all have NULL there.)
SET NAMES utf8mb4;

CREATE TABLE IF NOT EXISTS book (
  id int unsigned NOT NULL AUTO_INCREMENT,
  title varchar(50) NOT NULL,
  author varchar(30) DEFAULT NULL,
  summary varchar(1000) DEFAULT NULL,
  image varchar(100) DEFAULT NULL,
  create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  delete_time datetime(3) DEFAULT NULL,
  PRIMARY KEY (id),
  KEY book_title (title)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

CREATE TABLE IF NOT EXISTS lin_user (
  id int unsigned NOT NULL AUTO_INCREMENT,
  username varchar(24) NOT NULL,
  nickname varchar(24) DEFAULT NULL,
  avatar varchar(500) DEFAULT NULL,
  email varchar(100) DEFAULT NULL,
  -- Bumped by every password change, reset and deletion; tokens carry it, older ones are refused.
  credential_version int unsigned NOT NULL DEFAULT 0,
  create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  delete_time datetime(3) DEFAULT NULL,
  live tinyint AS (IF(delete_time IS NULL, 1, NULL)) PERSISTENT,
  PRIMARY KEY (id),
  UNIQUE KEY username_live (username, live),
  UNIQUE KEY email_live (email, live)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

CREATE TABLE IF NOT EXISTS lin_user_identity (
  id int unsigned NOT NULL AUTO_INCREMENT,
  user_id int unsigned NOT NULL,
  identity_type varchar(100) NOT NULL,
  identifier varchar(100) DEFAULT NULL,
  credential varchar(255) DEFAULT NULL,
  create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  delete_time datetime(3) DEFAULT NULL,
  PRIMARY KEY (id),
  KEY identity_user (user_id),
  KEY identity_identifier (identifier)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

CREATE TABLE IF NOT EXISTS lin_group (
  id int unsigned NOT NULL AUTO_INCREMENT,
  name varchar(60) NOT NULL,
  info varchar(255) DEFAULT NULL,
  level tinyint NOT NULL DEFAULT 3 COMMENT '1 root, 2 guest, 3 user',
  create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  delete_time datetime(3) DEFAULT NULL,
  live tinyint AS (IF(delete_time IS NULL, 1, NULL)) PERSISTENT,
  PRIMARY KEY (id),
  UNIQUE KEY name_live (name, live)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

CREATE TABLE IF NOT EXISTS lin_user_group (
  id int unsigned NOT NULL AUTO_INCREMENT,
  user_id int unsigned NOT NULL,
  group_id int unsigned NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY user_id_group_id (user_id, group_id),
  KEY user_group_group (group_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

CREATE TABLE IF NOT EXISTS lin_permission (
  id int unsigned NOT NULL AUTO_INCREMENT,
  name varchar(60) NOT NULL,
  module varchar(50) NOT NULL,
  mount tinyint(1) NOT NULL DEFAULT 1 COMMENT '0 unmounted, 1 mounted',
  create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  delete_time datetime(3) DEFAULT NULL,
  live tinyint AS (IF(delete_time IS NULL, 1, NULL)) PERSISTENT,
  PRIMARY KEY (id),
  UNIQUE KEY module_name_live (module, name, live)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

CREATE TABLE IF NOT EXISTS lin_group_permission (
  id int unsigned NOT NULL AUTO_INCREMENT,
  group_id int unsigned NOT NULL,
  permission_id int unsigned NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY group_id_permission_id (group_id, permission_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

CREATE TABLE IF NOT EXISTS lin_log (
  id int unsigned NOT NULL AUTO_INCREMENT,
  message varchar(450) DEFAULT NULL,
  user_id int unsigned NOT NULL,
  username varchar(24) DEFAULT NULL,
  status_code int DEFAULT NULL,
  method varchar(20) DEFAULT NULL,
  path varchar(50) DEFAULT NULL,
  permission varchar(100) DEFAULT NULL,
  create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  delete_time datetime(3) DEFAULT NULL,
  PRIMARY KEY (id),
  KEY log_create_time (create_time),
  KEY log_username (username)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

CREATE TABLE IF NOT EXISTS lin_file (
  id int unsigned NOT NULL AUTO_INCREMENT,
  path varchar(500) NOT NULL,
  type varchar(10) NOT NULL DEFAULT 'LOCAL' COMMENT 'LOCAL or REMOTE',
  name varchar(100) NOT NULL,
  extension varchar(50) DEFAULT NULL,
  size int DEFAULT NULL,
  md5 varchar(40) DEFAULT NULL,
  sha256 char(64) DEFAULT NULL COMMENT 'NULL for rows stored before version 3: found by md5',
  create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  delete_time datetime(3) DEFAULT NULL,
  live tinyint AS (IF(delete_time IS NULL, 1, NULL)) PERSISTENT,
  PRIMARY KEY (id),
  UNIQUE KEY sha256_live (sha256, live),
  KEY file_md5 (md5)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

-- Failed password checks, one row each with its username and client address, counted for login
-- throttling (api.md §3, §7). Kept in the database so that every worker and every host sees the
-- same counts; rows older than the window are pruned as new failures arrive.
CREATE TABLE IF NOT EXISTS cms_login_failure (
  id bigint unsigned NOT NULL AUTO_INCREMENT,
  username varchar(100) NOT NULL,
  address varchar(100) NOT NULL,
  create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  KEY login_failure_username (username, create_time),
  KEY login_failure_address (address, create_time),
  KEY login_failure_time (create_time)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

-- The first answer to each Idempotency-Key sent with a POST (README, "Idempotent POST"), by a user
-- or, on a public route, a client address; written in the transaction of the change it answered,
-- so a key is recorded if and only if its change committed. Kept in the database so that every
-- worker and every host sees it; keys older than 24 hours are deleted by the next keyed POST of
-- the same user or address.
CREATE TABLE IF NOT EXISTS cms_idempotency (
  id bigint unsigned NOT NULL AUTO_INCREMENT,
  user_id int unsigned NOT NULL COMMENT '0 on a public route: the key is the address''s',
  address varchar(100) NOT NULL DEFAULT '' COMMENT 'the client address on a public route, else empty',
  idem_key varchar(100) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
  fingerprint char(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL COMMENT 'SHA-256 of method, path, content type and body',
  status smallint unsigned NOT NULL DEFAULT 0 COMMENT '0 until the first answer is stored',
  body mediumblob DEFAULT NULL,
  create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  UNIQUE KEY idempotency_scope_key (user_id, address, idem_key),
  KEY idempotency_time (create_time)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

-- The login captcha tags that have been tried (README, "Login captcha"), by the nonce each tag
-- carries: a tag is good for one try on every worker and every host. A row is needed only until
-- its tag expires; expired rows are deleted by the next captcha tried.
CREATE TABLE IF NOT EXISTS cms_captcha_spent (
  nonce char(24) CHARACTER SET ascii COLLATE ascii_bin NOT NULL COMMENT 'the tag''s nonce, hex',
  expires bigint unsigned NOT NULL COMMENT 'the tag''s expiry, seconds since the epoch',
  PRIMARY KEY (nonce),
  KEY captcha_spent_expires (expires)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

-- The schema version of this database: what `cms-fcgi --setup-db` upgrades from and the service
-- checks at connect (src/db/schema.cpp). One row. Version 1, the first release, had no such table.
CREATE TABLE IF NOT EXISTS cms_schema_version (
  id tinyint unsigned NOT NULL DEFAULT 1 COMMENT 'always 1: one row',
  version int unsigned NOT NULL,
  update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  CONSTRAINT schema_version_one_row CHECK (id = 1)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

INSERT IGNORE INTO cms_schema_version (id, version) VALUES (1, 4);
