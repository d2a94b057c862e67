-- 0003: a snapshot's state is kept out of the keys that find it.
--
-- 0002 made snapshots a WITHOUT ROWID table, whose rows are the entries of
-- its primary key: every seek through it (a new snapshot's insert, a
-- lookup) compared whole rows, state included, and a state of megabytes
-- (the XP audit of a character of a long campaign) was read, page by page,
-- at each comparison: saving a character snapshot of 600 bytes read some
-- 7 MB of the file. The state now lives in a rowid table, with the keys in
-- indexes beside it.
--
-- The rows are derived data, trusted only by the build that folded them
-- (their code names the build), so they are dropped, not carried over: the
-- next commands save new ones, and `ltscamp rebuild` folds them all.
DROP TABLE snapshots;

CREATE TABLE snapshots (
    stream   TEXT    NOT NULL,
    kind     TEXT    NOT NULL,
    code     TEXT    NOT NULL,
    version  INTEGER NOT NULL,
    seq      INTEGER NOT NULL,
    commands INTEGER NOT NULL,
    state    BLOB    NOT NULL,
    UNIQUE (stream, kind, code, version)
);

CREATE INDEX snapshots_seq ON snapshots (stream, kind, code, seq);
