-- 0003: row-level security, for roles that are not the tables' owner.
--
-- The owner (the role that ran the migrations, and makes and restores
-- campaigns) is not bound by these policies. Any other role sees and
-- writes the events and snapshots of the campaigns campaign_roles grants
-- it, and no others: the owner grants a campaign to a role with
--
--     INSERT INTO campaign_roles (campaign, role)
--         SELECT id, 'gm_alpha' FROM campaigns WHERE name = 'alpha';
--
-- The grant is the server's, keyed by the role the server authenticated:
-- nothing a client sends (an address, a setting) widens it.
CREATE TABLE campaign_roles (
    campaign integer NOT NULL REFERENCES campaigns (id),
    role     name    NOT NULL,
    PRIMARY KEY (campaign, role)
);

ALTER TABLE events ENABLE ROW LEVEL SECURITY;
CREATE POLICY events_of_the_role ON events
    USING (campaign IN (SELECT r.campaign FROM campaign_roles r WHERE r.role = current_user))
    WITH CHECK (campaign IN (SELECT r.campaign FROM campaign_roles r WHERE r.role = current_user));

ALTER TABLE snapshots ENABLE ROW LEVEL SECURITY;
CREATE POLICY snapshots_of_the_role ON snapshots
    USING (campaign IN (SELECT r.campaign FROM campaign_roles r WHERE r.role = current_user))
    WITH CHECK (campaign IN (SELECT r.campaign FROM campaign_roles r WHERE r.role = current_user));
