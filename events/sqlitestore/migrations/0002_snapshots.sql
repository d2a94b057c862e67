-- 0002: snapshots of projections, beside the log.
--
-- Derived data, not history: any row may be dropped and folded again from
-- the events (`ltscamp rebuild`), so rows here are replaced and deleted
-- freely. A reader trusts a row only if `code` is its own projection code,
-- and only as far as the undo and redo logged after `commands` allow.
CREATE TABLE snapshots (
    stream   TEXT    NOT NULL,
    kind     TEXT    NOT NULL,
    code     TEXT    NOT NULL,
    version  INTEGER NOT NULL,
    seq      INTEGER NOT NULL,
    commands INTEGER NOT NULL,
    state    BLOB    NOT NULL,
    PRIMARY KEY (stream, kind, code, version)
) WITHOUT ROWID;

CREATE INDEX snapshots_seq ON snapshots (stream, kind, code, seq);
