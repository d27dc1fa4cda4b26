-- 0005: the inbox of commands forwarded between processes (bot/routing.py). A process that gets a
-- command for a table another live process holds posts it here under a key (a retried command
-- has the same key, so it is one row); the holder takes it (pending -> taken), applies it and
-- writes the answer (done). A sender that gave up in time marks it expired (never applied).

CREATE TABLE inbox (
    entry_id   INTEGER PRIMARY KEY AUTOINCREMENT,
    key        TEXT NOT NULL UNIQUE,
    table_id   INTEGER NOT NULL,
    sender     TEXT NOT NULL,
    request    TEXT NOT NULL,
    state      TEXT NOT NULL DEFAULT 'pending',
    taker      TEXT,
    answer     TEXT,
    created_at REAL NOT NULL,
    done_at    REAL
);
CREATE INDEX inbox_pending ON inbox (table_id) WHERE state = 'pending';
CREATE INDEX inbox_age ON inbox (created_at);
