-- 0010: opt-in notifications (bot/core/notify.py), every one off by default.
--
-- chats.notify: whether people may subscribe to "a table is starting / a seat is free" here (an
-- admin's /settings notify=on). players.turn_ping: the share of the turn timer (percent) after which
-- the person is mentioned in the group while it is still their turn (NULL: never).
-- subscriptions: who asked to be called in which chat (/notify tables on), oldest first.

ALTER TABLE chats ADD COLUMN notify INTEGER NOT NULL DEFAULT 0;
ALTER TABLE players ADD COLUMN turn_ping INTEGER;

CREATE TABLE subscriptions (
    chat_id   TEXT NOT NULL,
    player_id TEXT NOT NULL,
    since     REAL NOT NULL,
    PRIMARY KEY (chat_id, player_id)
);
CREATE INDEX subscriptions_by_since ON subscriptions (chat_id, since);
