-- 0003: row-level security, for roles that are not the tables' owner.
--
-- The owner (the role that ran the migrations) is not bound by these
-- policies. A role granted only SELECT and INSERT on events (see
-- docs/postgres.md) sees and writes the rows of one campaign: the one
-- its connection names in the setting ltscamp.campaign, which ltscamp
-- sets on each connection it opens for a campaign. Without the setting
-- such a role sees no campaign's rows.
CREATE FUNCTION ltscamp_campaign() RETURNS integer LANGUAGE sql STABLE AS $$
    SELECT id FROM campaigns WHERE name = current_setting('ltscamp.campaign', true)
$$;

ALTER TABLE events ENABLE ROW LEVEL SECURITY;
CREATE POLICY events_of_the_campaign ON events
    USING (campaign = ltscamp_campaign())
    WITH CHECK (campaign = ltscamp_campaign());

ALTER TABLE snapshots ENABLE ROW LEVEL SECURITY;
CREATE POLICY snapshots_of_the_campaign ON snapshots
    USING (campaign = ltscamp_campaign())
    WITH CHECK (campaign = ltscamp_campaign());
