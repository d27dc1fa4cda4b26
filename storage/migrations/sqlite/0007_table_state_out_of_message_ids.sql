-- 0007: a table's own state leaves message_ids, which keeps only the platform's message ids.
--
-- Before, message_ids also held "parked" (the failed attempts of a parked table), "left:<person>"
-- (the seat a person left mid-match) and "shown:<message key>" (what a message showed at a clean
-- stop). Each gets a column of its own: parked (0: not parked), left_seats (JSON: person -> seat)
-- and shown (JSON: message key -> "<version>:<fingerprint>"). The keys stored so far move there
-- (rev bumped on the rows that change).

ALTER TABLE tables ADD COLUMN parked INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN left_seats TEXT NOT NULL DEFAULT '{}';
ALTER TABLE tables ADD COLUMN shown TEXT NOT NULL DEFAULT '{}';

UPDATE tables SET
    parked = COALESCE(CAST(json_extract(message_ids, '$.parked') AS INTEGER), 0),
    left_seats = COALESCE((SELECT json_group_object(substr(key, 6), CAST(value AS INTEGER))
                           FROM json_each(tables.message_ids) WHERE substr(key, 1, 5) = 'left:'), '{}'),
    shown = COALESCE((SELECT json_group_object(substr(key, 7), value)
                      FROM json_each(tables.message_ids) WHERE substr(key, 1, 6) = 'shown:'), '{}'),
    message_ids = COALESCE((SELECT json_group_object(key, value) FROM json_each(tables.message_ids)
                            WHERE key <> 'parked' AND substr(key, 1, 5) <> 'left:'
                              AND substr(key, 1, 6) <> 'shown:'), '{}'),
    rev = rev + 1
WHERE EXISTS (SELECT 1 FROM json_each(tables.message_ids)
              WHERE key = 'parked' OR substr(key, 1, 5) = 'left:' OR substr(key, 1, 6) = 'shown:');
