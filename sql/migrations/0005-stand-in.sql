-- Version 5 STAND-IN (branch throttle only): the idem branch's 0005 is the real version 5. This
-- file exists so that this branch's 0006 can be applied and tested alone; drop it at the merge.
-- No DELIMITER here or in any migration: the server reads these files, not the mariadb client.

DO 0;
