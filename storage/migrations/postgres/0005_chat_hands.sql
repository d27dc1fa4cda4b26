-- 0005: a chat chooses where its hands go (Telegram Bot API 10.2's ephemeral messages in groups).
--
-- "both": the private chat, and "My hand" in the group shows the hand to its player only;
-- "group": only those ephemeral hands in the group; "dm": only the private chat (as before).

ALTER TABLE chats ADD COLUMN hands TEXT NOT NULL DEFAULT 'both';
