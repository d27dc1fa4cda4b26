-- 0003: install-wide key-value settings (a per-install HMAC secret, say), written once.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
