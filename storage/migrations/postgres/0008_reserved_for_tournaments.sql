-- 0008: reserved for the tournaments' migration (issue 31, written on another branch at the same
-- time). This placeholder only keeps the numbers without gaps on the challenge branch: delete it
-- when the tournaments' own 0008 is merged (the loader refuses two migrations of one number).
SELECT 1;
