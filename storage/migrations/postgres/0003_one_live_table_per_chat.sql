-- 0003: at most one live (lobby or playing) table per chat, enforced by storage: two processes
-- opening a chat's first table at the same moment get one table and one refusal
-- (storage.errors.ChatHasLiveTable), whichever process they run in.
--
-- A database may hold duplicates already (that race, before this migration; or a manager run
-- with several tables per chat). Each chat keeps one live table: a match in progress before a
-- lobby, then the newest (the one the bot showed as the chat's table). Every other live table of
-- the chat is ended as the bot ends one: a lobby is cancelled, a match stopped (no deadlines, rev
-- bumped; its log stays, no result is recorded).

UPDATE tables
SET status = CASE status WHEN 'playing' THEN 'stopped' ELSE 'cancelled' END,
    deadline = NULL, lobby_deadline = NULL, warned = 0, rev = rev + 1
WHERE table_id IN (
    SELECT r.table_id FROM tables r JOIN tables k
      ON k.chat_id = r.chat_id AND k.table_id <> r.table_id AND k.status IN ('lobby', 'playing')
    WHERE r.status IN ('lobby', 'playing')
      AND ((k.status = 'playing' AND r.status = 'lobby') OR (k.status = r.status AND k.table_id > r.table_id))
);

CREATE UNIQUE INDEX tables_one_live_per_chat ON tables (chat_id) WHERE status IN ('lobby', 'playing');
