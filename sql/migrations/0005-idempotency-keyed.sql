-- Version 5: cms_idempotency keeps a keyed fingerprint (HMAC-SHA256 under a key derived from
-- jwt_secret), and only users' keys: the public routes (login, captcha) ignore Idempotency-Key.
-- Rows written before held a plain SHA-256 of the request, against which a password (login,
-- register) could be guessed offline, and a login's tokens: the table is a cache of one day's
-- answers, and starts empty.
-- Run by `cms-fcgi --setup-db` on a version 4 database, which then records version 5. Each
-- statement may run again after a failure: MariaDB commits every DDL statement on its own.
-- No DELIMITER here or in any migration: the server reads these files, not the mariadb client.

-- The tokens those rows held stay good until they expire (a refresh token after 30 days), and so
-- do their copies in every archive taken before: each user's tokens end here, as a password
-- change ends them, and everyone logs in once more. Run again, it only does so again.
UPDATE lin_user SET credential_version = credential_version + 1, update_time = update_time;
TRUNCATE TABLE cms_idempotency;
ALTER TABLE cms_idempotency DROP INDEX IF EXISTS idempotency_scope_key;
ALTER TABLE cms_idempotency DROP COLUMN IF EXISTS address;
ALTER TABLE cms_idempotency ADD UNIQUE KEY IF NOT EXISTS idempotency_user_key (user_id, idem_key);
ALTER TABLE cms_idempotency MODIFY user_id int unsigned NOT NULL COMMENT 'the user whose key it is';
ALTER TABLE cms_idempotency MODIFY fingerprint char(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL
    COMMENT 'HMAC-SHA256 of method, path, content type and body, under a key derived from jwt_secret';
