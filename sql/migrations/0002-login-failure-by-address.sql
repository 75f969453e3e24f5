-- Version 2: cms_login_failure holds one row per failed password check with both its username
-- and its client address (throttling per pair, so no one can lock an account out), and the
-- database records its schema version in cms_schema_version.
-- Run by `cms-fcgi --setup-db` on a version 1 database, which then records version 2. Each
-- statement may run again after a failure: MariaDB commits every DDL statement on its own.
-- No DELIMITER here or in any migration: the server reads these files, not the mariadb client.

CREATE TABLE IF NOT EXISTS cms_schema_version (
  id tinyint unsigned NOT NULL DEFAULT 1 COMMENT 'always 1: one row',
  version int unsigned NOT NULL,
  update_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  CONSTRAINT schema_version_one_row CHECK (id = 1)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

-- A version 1 row counts a username or an address, never the pair, and cannot be split. The rows
-- only matter for login_failure_window (minutes): the table starts empty.
DROP TABLE IF EXISTS cms_login_failure;
CREATE TABLE cms_login_failure (
  id bigint unsigned NOT NULL AUTO_INCREMENT,
  username varchar(100) NOT NULL,
  address varchar(100) NOT NULL,
  create_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id),
  KEY login_failure_username (username, create_time),
  KEY login_failure_address (address, create_time),
  KEY login_failure_time (create_time)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
