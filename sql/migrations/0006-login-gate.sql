-- Version 6: cms_login_gate holds the rows a password check locks before it counts the failures
-- of its username and client address, so that concurrent checks are counted one after another
-- (doc/limits.md, Login throttling). 4096 buckets at most, made as they are first used; a
-- collision only makes two unrelated checks wait for each other. A failure row tells whether a
-- password was checked, or the attempt was refused for its captcha first: only the first kind
-- makes an address one that has failed for a username at its ceiling.
-- Run by `cms-fcgi --setup-db` on a version 5 database, which then records version 6. Each
-- statement may run again after a failure: MariaDB commits every DDL statement on its own.
-- No DELIMITER here or in any migration: the server reads these files, not the mariadb client.

CREATE TABLE IF NOT EXISTS cms_login_gate (
  bucket smallint unsigned NOT NULL COMMENT 'CRC32 of a username or an address, modulo 4096',
  uses bigint unsigned NOT NULL DEFAULT 0 COMMENT 'checks that took it: written, so that Galera certifies them',
  PRIMARY KEY (bucket)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;

ALTER TABLE cms_login_failure ADD COLUMN IF NOT EXISTS checked tinyint(1) NOT NULL DEFAULT 1
    COMMENT '0: refused for its captcha before any password was checked';
