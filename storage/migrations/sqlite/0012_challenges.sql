-- 0012: duplicate challenges (bot/core/challenges.py, storage/challenges.py).
--
-- challenges: a chat's set of deals every member plays at their own time, until ends_at; seed makes
-- its deals; closed_at is set once, by the one process that announces the final ranking. A chat has
-- at most one open challenge.
-- challenge_boards: one row per person and deal (board, from 0): the table it is played at, then
-- what it scored for the person's seat (score; tricks and bid NULL for a deal thrown in), done_at
-- once finished (set once).

CREATE TABLE challenges (
    challenge_id INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id      TEXT NOT NULL,
    game         TEXT NOT NULL,
    boards       INTEGER NOT NULL CHECK (boards >= 1),
    seed         INTEGER NOT NULL,
    creator      TEXT NOT NULL,
    created_at   REAL NOT NULL,
    ends_at      REAL NOT NULL,
    closed_at    REAL,
    lang         TEXT
);
CREATE UNIQUE INDEX challenges_one_open_per_chat ON challenges (chat_id) WHERE closed_at IS NULL;
CREATE INDEX challenges_open ON challenges (ends_at) WHERE closed_at IS NULL;
CREATE INDEX challenges_by_chat ON challenges (chat_id, challenge_id);

CREATE TABLE challenge_boards (
    challenge_id INTEGER NOT NULL REFERENCES challenges (challenge_id),
    player_id    TEXT NOT NULL,
    name         TEXT NOT NULL,
    board        INTEGER NOT NULL CHECK (board >= 0),
    table_id     INTEGER NOT NULL,
    score        INTEGER,
    tricks       INTEGER,
    bid          INTEGER,
    done_at      REAL,
    PRIMARY KEY (challenge_id, player_id, board)
);
CREATE INDEX challenge_boards_by_table ON challenge_boards (table_id);
