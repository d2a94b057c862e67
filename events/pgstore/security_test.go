package pgstore_test

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/pgstore"
	"github.com/ltscamp/ltscamp/events/pgstore/pgtest"
)

// TestPublishedCampaignIsFixed: once published, a campaign cannot be
// marked staging again (whose rows the triggers would let be removed),
// renamed or removed, by the owner either.
func TestPublishedCampaignIsFixed(t *testing.T) {
	db := pgtest.Database(t)
	s := createNamed(t, named(db, "fixed"))
	defer s.Close()
	if _, err := s.Append(cmd("C1", "campaign", 0, "E1")); err != nil {
		t.Fatal(err)
	}
	admin := pgtest.Connect(t, db)
	for _, stmt := range []string{
		`UPDATE campaigns SET staging = true WHERE name = 'fixed'`,
		`UPDATE campaigns SET name = 'other' WHERE name = 'fixed'`,
		`DELETE FROM campaigns WHERE name = 'fixed'`,
		`TRUNCATE campaigns CASCADE`,
	} {
		if err := admin.Exec(stmt); err == nil || !strings.Contains(err.Error(), "fixed once published") {
			t.Errorf("%s: %v, want the refusal", stmt, err)
		}
	}
	if _, err := pgstore.CreateStaged(named(db, "fixed"), pgstore.Options{Now: clock}); !errors.Is(err, events.ErrExists) {
		t.Errorf("CreateStaged over a published campaign: %v, want ErrExists", err)
	}
	if n, _ := s.Count(); n != 1 {
		t.Fatalf("%d events, want 1", n)
	}
}

// TestOneMakerAtATime: while a process makes a campaign, another making
// the same name is refused, not let to clear it; once the first is gone
// without publishing (as a process that died), the name is made afresh.
func TestOneMakerAtATime(t *testing.T) {
	db := pgtest.Database(t)
	addr := named(db, "busy")
	first, err := pgstore.CreateStaged(addr, pgstore.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.Append(cmd("C1", "campaign", 0, "E1")); err != nil {
		t.Fatal(err)
	}
	if _, err := pgstore.CreateStaged(addr, pgstore.Options{Now: clock}); !errors.Is(err, pgstore.ErrMaking) {
		t.Fatalf("a second making while the first goes on: %v, want ErrMaking", err)
	}
	if n, _ := first.Count(); n != 1 {
		t.Fatalf("the first making's log holds %d events after the second was refused, want 1", n)
	}
	first.Close() // gone without Publish or Discard
	again, err := pgstore.CreateStaged(addr, pgstore.Options{Now: clock})
	if err != nil {
		t.Fatalf("making the name again after the first maker went: %v", err)
	}
	defer again.Close()
	if n, _ := again.Count(); n != 0 {
		t.Fatalf("%d events in the campaign made afresh, want 0", n)
	}
}

// TestRowSecurityBindsARoleToItsCampaigns: a role that is not the
// owner, granted one campaign in campaign_roles, reads and writes that
// one; another campaign, named in its address, shows it no row and takes
// none of its writes, whatever the client sends.
func TestRowSecurityBindsARoleToItsCampaigns(t *testing.T) {
	db := pgtest.Database(t)
	for _, name := range []string{"alpha", "beta"} {
		s := createNamed(t, named(db, name))
		if _, err := s.Append(cmd("C1", "campaign", 0, "E1")); err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	role := "gm_" + hex.EncodeToString(b[:])
	admin := pgtest.Connect(t, db)
	u, _ := url.Parse(db)
	for _, stmt := range []string{
		`CREATE ROLE ` + role + ` LOGIN`,
		`GRANT SELECT ON campaigns, schema_migrations, campaign_roles TO ` + role,
		`GRANT SELECT, INSERT ON events TO ` + role,
		`GRANT SELECT, INSERT, UPDATE, DELETE ON snapshots TO ` + role,
		`INSERT INTO campaign_roles (campaign, role) SELECT id, '` + role + `' FROM campaigns WHERE name = 'alpha'`,
	} {
		if err := admin.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	t.Cleanup(func() {
		_ = admin.Exec(`DELETE FROM campaign_roles WHERE role = '` + role + `'`)
		_ = admin.Exec(`REVOKE ALL ON campaigns, schema_migrations, campaign_roles, events, snapshots FROM ` + role)
		_ = admin.Exec(`DROP ROLE ` + role)
	})
	as := func(campaign string) string {
		v := *u
		v.User = url.User(role)
		return named(v.String(), campaign)
	}
	alpha, err := pgstore.Open(as("alpha"), pgstore.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer alpha.Close()
	if n, err := alpha.Count(); err != nil || n != 1 {
		t.Fatalf("the role's own campaign: %d events, %v; want 1", n, err)
	}
	if _, err := alpha.Append(cmd("C2", "campaign", 1, "E2")); err != nil {
		t.Fatalf("an append to the role's own campaign: %v", err)
	}
	beta, err := pgstore.Open(as("beta"), pgstore.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer beta.Close()
	if n, err := beta.Count(); err != nil || n != 0 {
		t.Fatalf("another campaign named in the address: %d events, %v; want none seen", n, err)
	}
	if _, err := beta.Append(cmd("X1", "campaign", 0, "X1")); !errors.Is(err, events.ErrDenied) {
		t.Fatalf("an append to another campaign: %v, want ErrDenied", err)
	}
	v := *u
	v.User = url.User(role)
	if err := pgtest.Connect(t, v.String()).Exec(`UPDATE campaigns SET staging = true`); err == nil {
		t.Fatal("the role changed the campaigns table")
	}
	if n := admin.Int(`SELECT count(*) FROM events e JOIN campaigns c ON c.id = e.campaign WHERE c.name = 'beta'`); n != 1 {
		t.Fatalf("beta holds %d events after the role's tries, want 1", n)
	}
}
