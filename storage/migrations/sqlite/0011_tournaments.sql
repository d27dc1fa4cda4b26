-- 0011: tournaments run by the bot (storage/tournaments.py, bot/core/tournaments.py, docs/tournaments.md).
--
-- tournaments: one per organiser's /tournament new; status registration -> checkin -> running ->
-- finished (or cancelled); a chat has at most one open (registration, checkin, running). next_at:
-- when its next pending step is due (check-in opening, the start, a round's deadline). rev: a
-- compare-and-set on every write of the whole tournament (its rows below are written with it).
-- tournament_players: who registered and checked in; entry: the pair they play in.
-- tournament_entries: the pairs (players: a JSON list of player ids; ai: an AI pair, a played bye).
-- tournament_rounds: each round's opening and its deadline to be ready.
-- tournament_matches: the bracket (winner of slot s goes to slot s/2 of the next round).
-- tournament_audit: every decision about a match (the bot's and the organiser's), in order.

CREATE TABLE tournaments (
    tournament_id  INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id        TEXT NOT NULL,
    game           TEXT NOT NULL,
    format         TEXT NOT NULL,
    pairing        TEXT NOT NULL,
    organiser      TEXT NOT NULL,
    organiser_name TEXT NOT NULL,
    status         TEXT NOT NULL,
    created_at     REAL NOT NULL,
    checkin_at     REAL NOT NULL,
    start_at       REAL NOT NULL,
    round_minutes  INTEGER NOT NULL,
    ai_allowed     INTEGER NOT NULL DEFAULT 0,
    options        TEXT NOT NULL DEFAULT '{}',
    lang           TEXT,
    message_id     TEXT,
    next_at        REAL,
    rev            INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX tournaments_open_in_chat ON tournaments (chat_id)
    WHERE status IN ('registration', 'checkin', 'running');
CREATE INDEX tournaments_due ON tournaments (next_at) WHERE status IN ('registration', 'checkin', 'running');

CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    player_id     TEXT NOT NULL,
    name          TEXT NOT NULL,
    registered_at REAL NOT NULL,
    checked_in    INTEGER NOT NULL DEFAULT 0,
    entry         INTEGER,
    PRIMARY KEY (tournament_id, player_id)
);

CREATE TABLE tournament_entries (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    players       TEXT NOT NULL,
    ai            INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, number)
);

CREATE TABLE tournament_rounds (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    opened_at     REAL NOT NULL,
    deadline      REAL NOT NULL,
    closed_at     REAL,
    PRIMARY KEY (tournament_id, number)
);

CREATE TABLE tournament_matches (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    slot          INTEGER NOT NULL,
    entry_a       INTEGER,
    entry_b       INTEGER,
    status        TEXT NOT NULL,
    table_id      INTEGER,
    ready         TEXT NOT NULL DEFAULT '[]',
    winner        INTEGER,
    how           TEXT,
    decided_at    REAL,
    PRIMARY KEY (tournament_id, round, slot)
);
CREATE INDEX tournament_matches_table ON tournament_matches (table_id) WHERE table_id IS NOT NULL;

CREATE TABLE tournament_audit (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id) ON DELETE CASCADE,
    seq           INTEGER NOT NULL,
    at            REAL NOT NULL,
    actor         TEXT NOT NULL,
    action        TEXT NOT NULL,
    detail        TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (tournament_id, seq)
);
