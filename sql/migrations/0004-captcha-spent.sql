-- Version 4: cms_captcha_spent records the login captcha tags that have been tried, so that each
-- is good for one try on every worker and every host.
-- Run by `cms-fcgi --setup-db` on a version 3 database, which then records version 4. The
-- statement may run again after a failure. No DELIMITER here or in any migration: the server
-- reads these files, not the mariadb client.

CREATE TABLE IF NOT EXISTS cms_captcha_spent (
  nonce char(24) CHARACTER SET ascii COLLATE ascii_bin NOT NULL COMMENT 'the tag''s nonce, hex',
  expires bigint unsigned NOT NULL COMMENT 'the tag''s expiry, seconds since the epoch',
  PRIMARY KEY (nonce),
  KEY captcha_spent_expires (expires)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_520_ci;
