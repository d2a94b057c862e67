-- 0002: snapshots of projections, beside the log, per campaign.
--
-- Derived data, not history: any row may be dropped and folded again from
-- the events (`ltscamp rebuild`), so rows here are replaced and deleted
-- freely. A reader trusts a row only if `code` is its own projection code,
-- and only as far as the undo and redo logged after `commands` allow. The
-- state is kept out of the keys that find it (as SQLite's migration 3
-- does): a lookup never reads a state it does not return.
CREATE TABLE snapshots (
    campaign integer NOT NULL REFERENCES campaigns (id),
    stream   text COLLATE "C" NOT NULL,
    kind     text COLLATE "C" NOT NULL,
    code     text COLLATE "C" NOT NULL,
    version  bigint  NOT NULL,
    seq      bigint  NOT NULL,
    commands bigint  NOT NULL,
    state    bytea   NOT NULL,
    UNIQUE (campaign, stream, kind, code, version)
);

CREATE INDEX snapshots_seq ON snapshots (campaign, stream, kind, code, seq);
