-- 0004: a revision per table row (every write bumps it: save_table is a compare-and-set), and the
-- lease of the process that runs the table (owner, until when: epoch seconds).

ALTER TABLE tables ADD COLUMN rev INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN owner TEXT;
ALTER TABLE tables ADD COLUMN lease_until REAL;
