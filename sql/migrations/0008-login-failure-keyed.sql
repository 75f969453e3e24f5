-- Version 8: cms_login_failure keeps no username as it was typed. A failure of a name no user has
-- is recorded under the HMAC-SHA256 of that name (under a key derived from jwt_secret), a user's
-- under "(the account of user id N)" as before: a username typed is often a password typed into
-- the wrong box. Rows written before held the typed text; they only matter for
-- login_failure_window (minutes), and go. The user's rows stay, and keep counting.
-- Run by `cms-fcgi --setup-db` on a version 7 database, which then records version 8. Each
-- statement may run again after a failure: MariaDB commits every DDL statement on its own.
-- No DELIMITER here or in any migration: the server reads these files, not the mariadb client.

DELETE FROM cms_login_failure WHERE username NOT LIKE '(the account of user id %)';
ALTER TABLE cms_login_failure MODIFY username varchar(100) NOT NULL
    COMMENT 'HMAC-SHA256 (hex) of a name no user has, or (the account of user id N)';
