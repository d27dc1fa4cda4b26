-- 0002: the inbox of commands forwarded between processes (bot/routing.py). A process that gets a
-- command for a table another live process holds posts it here under a key (a retried command
-- has the same key, so it is one row) and NOTIFYs majlis_inbox; the holder takes it
-- (pending -> taken), applies it, writes the answer (done) and NOTIFYs majlis_answer. A sender
-- that gave up in time marks it expired (never applied).

CREATE TABLE inbox (
    entry_id   BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key        TEXT NOT NULL UNIQUE,
    table_id   BIGINT NOT NULL,
    sender     TEXT NOT NULL,
    request    TEXT NOT NULL,
    state      TEXT NOT NULL DEFAULT 'pending',
    taker      TEXT,
    answer     TEXT,
    created_at DOUBLE PRECISION NOT NULL,
    done_at    DOUBLE PRECISION
);
CREATE INDEX inbox_pending ON inbox (table_id) WHERE state = 'pending';
CREATE INDEX inbox_age ON inbox (created_at);
