-- cms-fcgi schema: the Lin CMS tables (doc/lin-cms.md §5.1) and the book table, for MariaDB.
-- Idempotent. Soft delete is delete_time (NULL = live); times are kept by the database.
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
  create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  delete_time datetime(3) DEFAULT NULL,
  live tinyint AS (IF(delete_time IS NULL, 1, NULL)) PERSISTENT,
  PRIMARY KEY (id),
  UNIQUE KEY md5_live (md5, live)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

-- Failed logins, counted per username and per client address for throttling (doc/api.md §3). Kept in
-- the database so that every worker and every host sees the same count; rows older than the
-- window are pruned as new failures arrive.
CREATE TABLE IF NOT EXISTS cms_login_failure (
  id bigint unsigned NOT NULL AUTO_INCREMENT,
  kind varchar(10) NOT NULL COMMENT 'username or address',
  subject varchar(100) NOT NULL,
  create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  KEY login_failure_subject (kind, subject, create_time),
  KEY login_failure_time (create_time)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
