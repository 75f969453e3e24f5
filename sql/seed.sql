-- cms-fcgi seed data: the root and guest groups and the root user. Idempotent.
-- Root's credential '!' never verifies: the installer (make run, the tests) sets the password.
SET NAMES utf8mb4;

INSERT IGNORE INTO lin_group (id, name, info, level) VALUES
  (1, 'root', '超级用户组', 1),
  (2, 'guest', '游客组', 2);

INSERT IGNORE INTO lin_user (id, username, nickname) VALUES (1, 'root', 'root');

INSERT IGNORE INTO lin_user_identity (id, user_id, identity_type, identifier, credential) VALUES
  (1, 1, 'USERNAME_PASSWORD', 'root', '!');

INSERT IGNORE INTO lin_user_group (id, user_id, group_id) VALUES (1, 1, 1);
