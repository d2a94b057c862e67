-- 0001: the campaigns of the database, and their append-only event log.
--
-- One database holds many campaigns. Every row of events carries its
-- campaign, and every key and index starts with it, so that no query of
-- one campaign reads another's rows. Text is compared byte for byte
-- (COLLATE "C"), as SQLite and Go compare it: prefixes and ordering do not
-- depend on the server's locale.
--
-- The hashed fields are kept exactly as they were hashed: the payload as
-- text (jsonb would reorder its keys), recorded_at as events.TimeLayout
-- text (timestamptz keeps microseconds only), hashes as lowercase hex, as
-- in the SQLite campaign file.
--
-- A campaign being made or restored is staging until its log is whole and
-- verified: no reader opens it, and if the making fails its rows are
-- removed, which the triggers allow for a staging campaign only (its log
-- was never anyone's).
CREATE TABLE campaigns (
    id         integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       text COLLATE "C" NOT NULL UNIQUE CHECK (name <> ''),
    created_at text NOT NULL,
    staging    boolean NOT NULL DEFAULT false
);

-- A published campaign's row is fixed: staging goes from true to false
-- once (publishing), never back, so no one can turn a campaign's log into
-- rows the triggers below would let be removed; and only a staging
-- campaign's row is ever removed.
CREATE FUNCTION campaigns_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.staging AND NOT NEW.staging AND NEW.id = OLD.id AND NEW.name = OLD.name THEN
        RETURN NEW;
    END IF;
    IF TG_OP = 'DELETE' AND OLD.staging THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'campaigns are fixed once published: this % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER campaigns_fixed BEFORE UPDATE OR DELETE ON campaigns
    FOR EACH ROW EXECUTE FUNCTION campaigns_fixed();
CREATE TRIGGER campaigns_no_truncate BEFORE TRUNCATE ON campaigns
    FOR EACH STATEMENT EXECUTE FUNCTION campaigns_fixed();

CREATE TABLE events (
    campaign        integer NOT NULL REFERENCES campaigns (id),
    seq             bigint  NOT NULL CHECK (seq > 0),
    id              text COLLATE "C" NOT NULL,
    command_id      text COLLATE "C" NOT NULL,
    stream          text COLLATE "C" NOT NULL,
    stream_version  bigint  NOT NULL CHECK (stream_version > 0),
    type            text COLLATE "C" NOT NULL,
    payload_version integer NOT NULL,
    payload         text    NOT NULL CHECK (payload::json IS NOT NULL),
    actor           text COLLATE "C" NOT NULL,
    recorded_at     text COLLATE "C" NOT NULL,
    prev_hash       text    NOT NULL,
    hash            text    NOT NULL,
    PRIMARY KEY (campaign, seq),
    UNIQUE (campaign, id),
    UNIQUE (campaign, stream, stream_version)
);

CREATE INDEX events_command_id ON events (campaign, command_id);
CREATE INDEX events_type ON events (campaign, type, seq);

-- Nothing in the log is ever changed or removed: corrections are new
-- events. The triggers refuse it to every role, the owner's included; the
-- one exception is the removal of a staging campaign's rows.
CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND EXISTS (SELECT 1 FROM campaigns WHERE id = OLD.campaign AND staging) THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'events are append-only: % is not allowed', TG_OP
        USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
    FOR EACH ROW EXECUTE FUNCTION events_append_only();
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_append_only();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_append_only();
