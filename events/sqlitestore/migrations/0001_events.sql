-- 0001: the append-only event log.
--
-- Hashes are lowercase hex so that the stock sqlite3 shell shows them;
-- recorded_at is events.TimeLayout (fixed-width UTC, nanoseconds).
CREATE TABLE events (
    seq             INTEGER PRIMARY KEY,
    id              TEXT    NOT NULL UNIQUE,
    command_id      TEXT    NOT NULL,
    stream          TEXT    NOT NULL,
    stream_version  INTEGER NOT NULL,
    type            TEXT    NOT NULL,
    payload_version INTEGER NOT NULL,
    payload         TEXT    NOT NULL CHECK (json_valid(payload)),
    actor           TEXT    NOT NULL,
    recorded_at     TEXT    NOT NULL,
    prev_hash       TEXT    NOT NULL,
    hash            TEXT    NOT NULL,
    UNIQUE (stream, stream_version)
);

CREATE INDEX events_command_id ON events (command_id);
CREATE INDEX events_type ON events (type);

-- Nothing in the log is ever changed or removed: corrections are new events.
CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only: UPDATE is not allowed');
END;

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN
    SELECT RAISE(ABORT, 'events are append-only: DELETE is not allowed');
END;
