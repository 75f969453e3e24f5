-- Version 3: uploads are deduplicated by SHA-256 (lin_file.sha256; md5 stays, filled as before,
-- for the Lin CMS backends that read it), and cms_idempotency keeps the answers of POSTs sent
-- with an Idempotency-Key header.
-- Run by `cms-fcgi --setup-db` on a version 2 database, which then records version 3. Each
-- statement may run again after a failure: MariaDB commits every DDL statement on its own.
-- No DELIMITER here or in any migration: the server reads these files, not the mariadb client.

-- Rows stored before have no SHA-256 (SQL cannot read their files): they keep NULL and are found
-- by their MD5 (src/db/file_store.cpp). The unique key moves to sha256; two contents with one MD5
-- may now both be stored.
ALTER TABLE lin_file ADD COLUMN IF NOT EXISTS sha256 char(64) DEFAULT NULL
    COMMENT 'NULL for rows stored before version 3: found by md5' AFTER md5;
ALTER TABLE lin_file DROP INDEX IF EXISTS md5_live;
ALTER TABLE lin_file ADD UNIQUE KEY IF NOT EXISTS sha256_live (sha256, live);
ALTER TABLE lin_file ADD KEY IF NOT EXISTS file_md5 (md5);

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
