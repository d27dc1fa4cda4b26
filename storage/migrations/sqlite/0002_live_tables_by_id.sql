-- 0002: index live tables by id, so that a restore reads them (and their logs) in id order
-- without sorting every action.

DROP INDEX IF EXISTS tables_live;
CREATE INDEX tables_live_by_id ON tables (table_id) WHERE status IN ('lobby', 'playing');
