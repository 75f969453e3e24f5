-- Version 7: the applied content declaration (doc/content.md). Row 1, written by --setup-db
-- after the migrations and read by every worker at start: the pool serves what was applied, not
-- the file. Row 2, while an apply runs its DDL: its target, which the next apply finishes first. The collections' own tables are content_<id>, made by the apply.
-- Run by `cms-fcgi --setup-db` on a version 6 database, which then records version 7. It may run
-- again after a failure: MariaDB commits every DDL statement on its own.
SET NAMES utf8mb4;

CREATE TABLE IF NOT EXISTS cms_content (
  id tinyint unsigned NOT NULL,
  declaration mediumtext NOT NULL,
  apply_time datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
