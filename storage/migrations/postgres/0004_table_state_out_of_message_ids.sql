-- 0004: a table's own state leaves message_ids, which keeps only the platform's message ids.
--
-- Before, message_ids also held "parked" (the failed attempts of a parked table), "left:<person>"
-- (the seat a person left mid-match) and "shown:<message key>" (what a message showed at a clean
-- stop). Each gets a column of its own: parked (0: not parked), left_seats (JSON: person -> seat)
-- and shown (JSON: message key -> "<version>:<fingerprint>"). The keys stored so far move there
-- (rev bumped on the rows that change).

ALTER TABLE tables
    ADD COLUMN parked INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN left_seats TEXT NOT NULL DEFAULT '{}',
    ADD COLUMN shown TEXT NOT NULL DEFAULT '{}';

UPDATE tables SET
    parked = COALESCE((message_ids::jsonb ->> 'parked')::integer, 0),
    left_seats = COALESCE((SELECT jsonb_object_agg(substr(key, 6), value::integer)
                           FROM jsonb_each_text(message_ids::jsonb) WHERE left(key, 5) = 'left:'), '{}'::jsonb)::text,
    shown = COALESCE((SELECT jsonb_object_agg(substr(key, 7), value)
                      FROM jsonb_each_text(message_ids::jsonb) WHERE left(key, 6) = 'shown:'), '{}'::jsonb)::text,
    message_ids = COALESCE((SELECT jsonb_object_agg(key, value) FROM jsonb_each_text(message_ids::jsonb)
                            WHERE key <> 'parked' AND left(key, 5) <> 'left:'
                              AND left(key, 6) <> 'shown:'), '{}'::jsonb)::text,
    rev = rev + 1
WHERE EXISTS (SELECT 1 FROM jsonb_object_keys(message_ids::jsonb) AS k(key)
              WHERE key = 'parked' OR left(key, 5) = 'left:' OR left(key, 6) = 'shown:');
