-- 0001: the whole first schema. JSON columns hold compact JSON text.

CREATE TABLE chats (
    chat_id         TEXT PRIMARY KEY,
    lang            TEXT,
    turn_seconds    INTEGER NOT NULL DEFAULT 60,
    digits          TEXT NOT NULL DEFAULT 'western',
    default_options TEXT NOT NULL DEFAULT '{}',
    ai_level        TEXT NOT NULL DEFAULT 'normal'
);

CREATE TABLE players (
    player_id TEXT PRIMARY KEY,
    name      TEXT NOT NULL,
    lang      TEXT,
    dm_ok     INTEGER
);

CREATE TABLE tables (
    table_id       INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id        TEXT NOT NULL,
    game           TEXT NOT NULL,
    options        TEXT NOT NULL DEFAULT '{}',
    seed           INTEGER NOT NULL,
    dealer         INTEGER,
    creator        TEXT NOT NULL,
    status         TEXT NOT NULL,
    seats          TEXT NOT NULL,
    version        INTEGER NOT NULL DEFAULT 0,
    deadline       REAL,
    warned         INTEGER NOT NULL DEFAULT 0,
    lobby_deadline REAL,
    message_ids    TEXT NOT NULL DEFAULT '{}',
    lang           TEXT,
    ai_level       TEXT NOT NULL DEFAULT 'normal',
    created_at     REAL NOT NULL DEFAULT 0
);
CREATE INDEX tables_live ON tables (status) WHERE status IN ('lobby', 'playing');
CREATE INDEX tables_chat ON tables (chat_id);

-- The primary key is the UNIQUE (table_id, seq) constraint that refuses a doubled action.
CREATE TABLE actions (
    table_id INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    seat     INTEGER NOT NULL,
    action   TEXT NOT NULL,
    actor    TEXT NOT NULL,
    at       REAL NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;

-- Only the latest snapshot of each table is kept.
CREATE TABLE snapshots (
    table_id INTEGER PRIMARY KEY REFERENCES tables (table_id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    state    TEXT NOT NULL
);

CREATE TABLE matches (
    table_id    INTEGER PRIMARY KEY REFERENCES tables (table_id) ON DELETE CASCADE,
    chat_id     TEXT NOT NULL,
    game        TEXT NOT NULL,
    finished_at REAL NOT NULL,
    scores      TEXT NOT NULL
);
CREATE INDEX matches_chat_game ON matches (chat_id, game);

-- counted: 1 for the one row per person that statistics use (a person listed twice counts once;
-- AI seats are never counted).
CREATE TABLE match_results (
    table_id  INTEGER NOT NULL REFERENCES matches (table_id) ON DELETE CASCADE,
    idx       INTEGER NOT NULL,
    player_id TEXT NOT NULL,
    seat      INTEGER NOT NULL,
    score     INTEGER NOT NULL,
    won       INTEGER NOT NULL,
    left_     INTEGER NOT NULL DEFAULT 0,
    counted   INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (table_id, idx)
);
CREATE INDEX match_results_player ON match_results (player_id);

-- scope: a chat id, or '*' for the rating across every chat.
CREATE TABLE ratings (
    scope     TEXT NOT NULL,
    game      TEXT NOT NULL,
    player_id TEXT NOT NULL,
    mu        REAL NOT NULL,
    sigma     REAL NOT NULL,
    PRIMARY KEY (scope, game, player_id)
) WITHOUT ROWID;
