-- Version 6: cms_login_gate holds the rows a password check locks before it counts the failures
-- of its username and client address, so that concurrent checks are counted one after another
-- (doc/limits.md, Login throttling). 4096 buckets at most, made as they are first used; a
-- collision only makes two unrelated checks wait for each other.
-- Run by `cms-fcgi --setup-db` on a version 5 database, which then records version 6. The
-- statement may run again after a failure. No DELIMITER here or in any migration: the server
-- reads these files, not the mariadb client.

CREATE TABLE IF NOT EXISTS cms_login_gate (
  bucket smallint unsigned NOT NULL COMMENT 'CRC32 of a username or an address, modulo 4096',
  uses bigint unsigned NOT NULL DEFAULT 0 COMMENT 'checks that took it: written, so that Galera certifies them',
  PRIMARY KEY (bucket)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
