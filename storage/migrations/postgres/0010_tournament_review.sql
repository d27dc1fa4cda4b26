-- 0010: the review window of a played tournament match, flags and the organiser's decisions
-- (storage/tournaments.py, bot/core/tournaments.py, docs/tournaments.md).
--
-- tournaments.review_minutes: how long a played match's result stays provisional (0: final at once);
-- tournaments made before this migration keep running as they were made (no window).
-- tournament_entries.disqualified: the organiser put that pair out.
-- tournament_matches.review_until: when a match in review becomes final unless flagged;
-- flagged_by / flag_reason: who flagged it and why (it then waits for the organiser).

ALTER TABLE tournaments ADD COLUMN review_minutes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_entries ADD COLUMN disqualified INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournament_matches ADD COLUMN review_until DOUBLE PRECISION;
ALTER TABLE tournament_matches ADD COLUMN flagged_by TEXT;
ALTER TABLE tournament_matches ADD COLUMN flag_reason TEXT NOT NULL DEFAULT '';
