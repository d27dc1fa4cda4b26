-- 0011: a duplicate challenge may count in its chat's season (bot/core/challenges.py, docs/commands.md).
--
-- challenges.season: 1 when the admin chose season=on; when it closes, each person who played it is
-- recorded as one match of the season (storage/season_store.py record_challenge). Challenges made
-- before this migration do not count.

ALTER TABLE challenges ADD COLUMN season INTEGER NOT NULL DEFAULT 0;
