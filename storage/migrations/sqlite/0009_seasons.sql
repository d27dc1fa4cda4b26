-- 0009: seasons per league (a Telegram group, or a Discord server: a channel's parent in meta).
--
-- leagues: a league's season settings (a missing row: the defaults). length_days NULL: a season is
-- a calendar month (UTC); min_matches: below it a player is provisional; ai_counts: whether a match
-- with AI seats counts for the people in it.
-- seasons: a league's numbered seasons, [starts_at, ends_at) in epoch seconds; ends_at moves
-- earlier when an admin ends a season by hand; closed_at is set once, by the one process that
-- wrote the season's champions (the rollover).
-- season_matches: the season a match belongs to (the one it started in) and whether it counts.
-- rating_changes: what a counted match did to each person's season rating (shown in its result).
-- champions: a season's best player of each game, kept after the season.
-- Season ratings live in ratings under the scope '<league>#<number>', a league's all-time ones
-- under '<league>#all'.

CREATE TABLE leagues (
    league      TEXT PRIMARY KEY,
    length_days INTEGER,
    min_matches INTEGER NOT NULL DEFAULT 5,
    ai_counts   INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE seasons (
    league    TEXT NOT NULL,
    number    INTEGER NOT NULL CHECK (number >= 1),
    starts_at REAL NOT NULL,
    ends_at   REAL NOT NULL,
    closed_at REAL,
    PRIMARY KEY (league, number)
);
CREATE INDEX seasons_open ON seasons (ends_at) WHERE closed_at IS NULL;

CREATE TABLE season_matches (
    table_id INTEGER PRIMARY KEY REFERENCES matches (table_id) ON DELETE CASCADE,
    league   TEXT NOT NULL,
    number   INTEGER NOT NULL,
    counts   INTEGER NOT NULL
);
CREATE INDEX season_matches_season ON season_matches (league, number);

CREATE TABLE rating_changes (
    table_id  INTEGER NOT NULL REFERENCES matches (table_id) ON DELETE CASCADE,
    player_id TEXT NOT NULL,
    rating_before REAL NOT NULL,
    rating_after  REAL NOT NULL,
    matches   INTEGER NOT NULL,
    PRIMARY KEY (table_id, player_id)
);

CREATE TABLE champions (
    league    TEXT NOT NULL,
    number    INTEGER NOT NULL,
    game      TEXT NOT NULL,
    player_id TEXT NOT NULL,
    rating    REAL NOT NULL,
    matches   INTEGER NOT NULL,
    wins      INTEGER NOT NULL,
    PRIMARY KEY (league, number, game)
);
