-- 0014: Trix pools, points over rounds for people each for themselves (storage/tournaments.py,
-- bot/core/pools.py, docs/tournaments.md).
--
-- A pool is a match of up to four entries (a pair's match keeps entry_a and entry_b; a pool has them NULL):
-- tournament_matches.pool: the entries in seat order (a JSON list; '[]' for a pair's match; a round's
-- sit-outs without AI are one more match, a bye, with one to three entries);
-- pool_scores: each seat's Trix score at the end of the table (a JSON list, in seat order);
-- pool_points: each seat's tournament points in halves (4/3/2/1 by rank, ties sharing: 7 is 3.5).

ALTER TABLE tournament_matches ADD COLUMN pool TEXT NOT NULL DEFAULT '[]';
ALTER TABLE tournament_matches ADD COLUMN pool_scores TEXT NOT NULL DEFAULT '[]';
ALTER TABLE tournament_matches ADD COLUMN pool_points TEXT NOT NULL DEFAULT '[]';
