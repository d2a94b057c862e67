package pgstore_test

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/pgstore"
	"github.com/ltscamp/ltscamp/events/pgstore/pgtest"
	"github.com/ltscamp/ltscamp/events/storetest"
)

func TestMain(m *testing.M) {
	if spec := os.Getenv(appenderEnv); spec != "" {
		// A child process of TestConcurrentProcesses.
		os.Exit(runAppender(spec))
	}
	os.Exit(pgtest.Main(m))
}

var clock = func() time.Time { return time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC) }

// address returns the address of a new campaign in the database db.
func address(db string) string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return named(db, "c"+hex.EncodeToString(b[:]))
}

// named returns the address of the campaign name in the database db.
func named(db, name string) string {
	sep := "?"
	if strings.Contains(db, "?") {
		sep = "&"
	}
	return db + sep + "campaign=" + name
}

// create makes a new, empty campaign in db and returns its store.
func create(t *testing.T, db string) *pgstore.Store {
	t.Helper()
	return createNamed(t, address(db))
}

// createNamed makes the campaign at address, empty, and returns its
// store.
func createNamed(t *testing.T, address string) *pgstore.Store {
	t.Helper()
	s, err := pgstore.CreateStaged(address, pgstore.Options{Now: clock})
	if err != nil {
		t.Fatalf("CreateStaged: %v", err)
	}
	if err := s.Publish(); err != nil {
		t.Fatalf("Publish: %v", err)
	}
	return s.Store
}

// TestConformance runs the store suite unchanged, each subtest on a
// campaign of its own in one database: the campaigns beside it are the
// suite's other subtests.
func TestConformance(t *testing.T) {
	db := pgtest.Database(t)
	storetest.Run(t, func(t *testing.T) events.Store { return create(t, db) })
}

func cmd(id, stream string, expected int64, eventIDs ...string) events.Command {
	c := events.Command{ID: id, Actor: "gm", RecordedAt: clock(), Expected: map[string]int64{stream: expected}}
	for _, e := range eventIDs {
		c.Events = append(c.Events, events.Pending{ID: e, Stream: stream, Type: "t", PayloadVersion: 1, Payload: json.RawMessage(`{"e":"` + e + `"}`)})
	}
	return c
}

// TestCampaignsAreIsolated reuses the same command, event and stream IDs
// in two campaigns of one database: each is its own log, on writes as
// well as reads.
func TestCampaignsAreIsolated(t *testing.T) {
	db := pgtest.Database(t)
	a, b := create(t, db), create(t, db)
	defer a.Close()
	defer b.Close()

	ra, err := a.Append(cmd("C1", "character/x", 0, "E1", "E2"))
	if err != nil {
		t.Fatalf("append to A: %v", err)
	}
	// The same command ID in B is not a duplicate, the same event IDs are
	// not taken, and the stream is new there (expected version 0).
	rb, err := b.Append(cmd("C1", "character/x", 0, "E1"))
	if err != nil || rb.Duplicate {
		t.Fatalf("the same command in B: duplicate %v, err %v; want it appended", rb.Duplicate, err)
	}
	// B's chain starts at the genesis hash, as A's does: its first
	// event is A's first but for its payload.
	if rb.Events[0].Seq != 1 || !bytes.Equal(rb.Events[0].PrevHash, events.GenesisHash()) || len(ra.Events) != 2 {
		t.Fatalf("B's first event: seq %d, prev %x; want seq 1 from the genesis hash", rb.Events[0].Seq, rb.Events[0].PrevHash)
	}
	// A stream version checked in B is B's, not A's.
	if _, err := b.Append(cmd("C2", "character/x", 2, "E9")); !errors.Is(err, events.ErrConcurrency) {
		t.Fatalf("B expecting A's version of the stream: err = %v, want ErrConcurrency", err)
	}
	if _, err := a.Append(cmd("C2", "character/x", 2, "E3")); err != nil {
		t.Fatalf("A at its own version: %v", err)
	}

	for _, tc := range []struct {
		name        string
		s           *pgstore.Store
		count, head int64
	}{{"A", a, 3, 3}, {"B", b, 1, 1}} {
		if n, err := tc.s.Count(); err != nil || n != tc.count {
			t.Errorf("%s: Count = %d, %v; want %d", tc.name, n, err, tc.count)
		}
		if seq, _, err := tc.s.Head(); err != nil || seq != tc.head {
			t.Errorf("%s: Head = %d, %v; want %d", tc.name, seq, err, tc.head)
		}
		all, err := tc.s.Read(events.Query{})
		if err != nil || int64(len(all)) != tc.count {
			t.Errorf("%s: Read = %d events, %v; want %d", tc.name, len(all), err, tc.count)
		}
		if seq, why, broken := events.ChainBreak(all, events.GenesisHash()); broken {
			t.Errorf("%s: chain broken at %d: %s", tc.name, seq, why)
		}
		n := 0
		for _, err := range tc.s.Iter(events.Query{CommandIDs: []string{"C1", "C2"}}) {
			if err != nil {
				t.Fatalf("%s: Iter: %v", tc.name, err)
			}
			n++
		}
		if int64(n) != tc.count {
			t.Errorf("%s: Iter gave %d events, want %d", tc.name, n, tc.count)
		}
	}
	if e, err := b.EventByID("E2"); !errors.Is(err, events.ErrNotFound) {
		t.Errorf("B: EventByID(E2), an event of A = %+v, %v; want ErrNotFound", e, err)
	}
	if v, _ := b.StreamVersion("character/x"); v != 1 {
		t.Errorf("B: stream version %d, want 1", v)
	}

	// Snapshots: each campaign its own, and dropping B's leaves A's.
	snap := events.Snapshot{Stream: "character/x", Kind: "k", Code: "v1", Seq: 1, Version: 1, State: []byte("A")}
	if err := a.SaveSnapshots([]events.Snapshot{snap}); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := b.Snapshot(events.SnapshotQuery{Stream: "character/x", Kind: "k", Code: "v1"}); ok || err != nil {
		t.Errorf("B sees A's snapshot: %v, %v", ok, err)
	}
	snap.State = []byte("B")
	if err := b.SaveSnapshots([]events.Snapshot{snap}); err != nil {
		t.Fatal(err)
	}
	if err := b.DropSnapshots(); err != nil {
		t.Fatal(err)
	}
	if got, ok, err := a.Snapshot(events.SnapshotQuery{Stream: "character/x", Kind: "k", Code: "v1"}); !ok || err != nil || string(got.State) != "A" {
		t.Errorf("A's snapshot after B dropped its own: %q, %v, %v; want A's", got.State, ok, err)
	}

	// Load into a third campaign the events of A: they go in, IDs and all.
	c := create(t, db)
	defer c.Close()
	all, _ := a.Read(events.Query{})
	if err := c.Load(all); err != nil {
		t.Fatalf("load A's log into C: %v", err)
	}
	if err := c.Load(all[:1]); !errors.Is(err, events.ErrBadLoad) {
		t.Errorf("load A's first event into C again: %v, want ErrBadLoad", err)
	}
}

// TestCampaignList lists the campaigns of a database, with their sizes.
func TestCampaignList(t *testing.T) {
	db := pgtest.Database(t)
	if cs, err := pgstore.Campaigns(db); err != nil || len(cs) != 0 {
		t.Fatalf("Campaigns of an empty database = %v, %v; want none", cs, err)
	}
	a := createNamed(t, named(db, "alpha"))
	defer a.Close()
	if _, err := a.Append(cmd("C1", "campaign", 0, "E1", "E2")); err != nil {
		t.Fatal(err)
	}
	b := createNamed(t, named(db, "beta"))
	defer b.Close()
	cs, err := pgstore.Campaigns(named(db, "ignored"))
	if err != nil || len(cs) != 2 || cs[0].Name != "alpha" || cs[0].Events != 2 || cs[1].Name != "beta" || cs[1].Events != 0 {
		t.Fatalf("Campaigns = %+v, %v; want alpha (2 events), beta (0)", cs, err)
	}
	// A campaign is never made again over one, with events or without.
	for _, name := range []string{"alpha", "beta"} {
		if _, err := pgstore.CreateStaged(named(db, name), pgstore.Options{Now: clock}); !errors.Is(err, events.ErrExists) {
			t.Errorf("CreateStaged over %s: %v, want ErrExists", name, err)
		}
	}
	if _, err := pgstore.Open(named(db, "gamma"), pgstore.Options{Now: clock}); !errors.Is(err, pgstore.ErrNoCampaign) {
		t.Errorf("Open of a campaign not made: %v, want ErrNoCampaign", err)
	}
	if _, err := pgstore.Open(db, pgstore.Options{Now: clock}); !errors.Is(err, pgstore.ErrNoCampaignName) {
		t.Errorf("Open of an address with no campaign: %v, want ErrNoCampaignName", err)
	}
}

// TestStaging: a staged campaign is invisible to Open until published;
// discarded, it leaves nothing; left staging by a process that died, the
// next making of the name starts afresh.
func TestStaging(t *testing.T) {
	db := pgtest.Database(t)
	addr := named(db, "restored")
	st, err := pgstore.CreateStaged(addr, pgstore.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Append(cmd("C1", "campaign", 0, "E1")); err != nil {
		t.Fatal(err)
	}
	if _, err := pgstore.OpenReadOnly(addr); !errors.Is(err, pgstore.ErrStaging) {
		t.Fatalf("OpenReadOnly of a staging campaign: %v, want ErrStaging", err)
	}
	if cs, _ := pgstore.Campaigns(db); len(cs) != 1 || !cs[0].Staging {
		t.Fatalf("Campaigns = %+v, want one staging", cs)
	}
	if err := st.Discard(); err != nil {
		t.Fatalf("Discard: %v", err)
	}
	if cs, _ := pgstore.Campaigns(db); len(cs) != 0 {
		t.Fatalf("Campaigns after Discard = %+v, want none", cs)
	}

	// A making that died half way: the name is taken again, afresh.
	dead, err := pgstore.CreateStaged(addr, pgstore.Options{Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dead.Append(cmd("C1", "campaign", 0, "E1", "E2")); err != nil {
		t.Fatal(err)
	}
	dead.Close()
	again, err := pgstore.CreateStaged(addr, pgstore.Options{Now: clock})
	if err != nil {
		t.Fatalf("CreateStaged over a staging campaign left behind: %v", err)
	}
	if n, _ := again.Count(); n != 0 {
		t.Fatalf("%d events in the campaign made afresh, want 0", n)
	}
	if _, err := again.Append(cmd("C9", "campaign", 0, "E9")); err != nil {
		t.Fatal(err)
	}
	if err := again.Publish(); err != nil {
		t.Fatal(err)
	}
	again.Close()
	r, err := pgstore.OpenReadOnly(addr)
	if err != nil {
		t.Fatalf("OpenReadOnly after Publish: %v", err)
	}
	defer r.Close()
	if all, _ := r.Read(events.Query{}); len(all) != 1 || all[0].ID != "E9" {
		t.Fatalf("published log = %v, want E9 alone", all)
	}
	// Published, its rows are the log's: no one removes them.
	if err := execSQL(t, db, `DELETE FROM events`); err == nil {
		t.Fatal("DELETE of a published campaign's events went through")
	}
}

// TestReadOnly: a read-only store reads, and the server refuses its
// writes.
func TestReadOnly(t *testing.T) {
	db := pgtest.Database(t)
	w := createNamed(t, named(db, "ro"))
	defer w.Close()
	if _, err := w.Append(cmd("C1", "campaign", 0, "E1")); err != nil {
		t.Fatal(err)
	}
	r, err := pgstore.OpenReadOnly(named(db, "ro"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n, err := r.Count(); err != nil || n != 1 {
		t.Fatalf("Count = %d, %v", n, err)
	}
	if _, err := r.Append(cmd("C2", "campaign", 1, "E2")); !errors.Is(err, events.ErrReadOnly) {
		t.Fatalf("append through a read-only store: %v, want ErrReadOnly", err)
	}
	if n, _ := w.Count(); n != 1 {
		t.Fatalf("%d events after the refused append, want 1", n)
	}
}

// TestAppendOnlyInTheDatabase: the triggers refuse to change or remove a
// row, to the owner too.
func TestAppendOnlyInTheDatabase(t *testing.T) {
	db := pgtest.Database(t)
	s := createNamed(t, named(db, "ao"))
	defer s.Close()
	if _, err := s.Append(cmd("C1", "campaign", 0, "E1")); err != nil {
		t.Fatal(err)
	}
	for _, stmt := range []string{
		`UPDATE events SET payload = payload`,
		`DELETE FROM events`,
		`TRUNCATE events CASCADE`,
	} {
		if err := execSQL(t, db, stmt); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: err = %v, want the append-only refusal", stmt, err)
		}
	}
	if n, _ := s.Count(); n != 1 {
		t.Fatalf("%d events, want 1", n)
	}
}

// execSQL runs stmt on the database db, on a session of its own.
func execSQL(t *testing.T, db, stmt string) error {
	t.Helper()
	return pgtest.Connect(t, db).Exec(stmt)
}

// TestAddresses parses the addresses users give.
func TestAddresses(t *testing.T) {
	for _, tc := range []struct {
		in, conn, campaign, bad string
	}{
		{in: "postgres://lt@127.0.0.1:5432/camp?campaign=alpha", conn: "postgres://lt@127.0.0.1:5432/camp", campaign: "alpha"},
		{in: "postgresql://lt:pw@db/camp?sslmode=disable&campaign=a.b-c_1", conn: "postgresql://lt:pw@db/camp?sslmode=disable", campaign: "a.b-c_1"},
		{in: "postgres://lt@db/camp", conn: "postgres://lt@db/camp"},
		{in: "postgres://lt@db/?campaign=x", bad: "names no database"},
		{in: "postgres://lt@db/camp?campaign=a%20b", bad: "only letters"},
		{in: "postgres://lt@db/camp?campaign=a&campaign=b", bad: "more than one"},
		{in: "campaign.ltscamp", bad: "not a postgres"},
	} {
		a, err := pgstore.ParseAddress(tc.in)
		if tc.bad != "" {
			if err == nil || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("ParseAddress(%q) = %+v, %v; want an error saying %q", tc.in, a, err, tc.bad)
			}
			continue
		}
		if err != nil || a.Conn != tc.conn || a.Campaign != tc.campaign {
			t.Errorf("ParseAddress(%q) = %+v, %v; want %q, %q", tc.in, a, err, tc.conn, tc.campaign)
		}
	}
	if got := pgstore.Redact("postgres://lt:secret@db/camp"); strings.Contains(got, "secret") {
		t.Errorf("Redact kept the password: %s", got)
	}
	a, _ := pgstore.ParseAddress("postgres://lt:secret@db/camp?campaign=x")
	if s := a.String(); strings.Contains(s, "secret") || !strings.Contains(s, "campaign=x") {
		t.Errorf("Address.String() = %s", s)
	}
}

// TestAppendOnlyProblems: verify's check of the triggers finds each way
// the events table can stop refusing changes, and nothing on a database
// as migrated.
func TestAppendOnlyProblems(t *testing.T) {
	db := pgtest.Database(t)
	s := createNamed(t, named(db, "guard"))
	defer s.Close()
	if problems, err := s.AppendOnlyProblems(); err != nil || len(problems) != 0 {
		t.Fatalf("AppendOnlyProblems of a migrated database = %q, %v; want none", problems, err)
	}
	for _, tc := range []struct {
		change, undo, want string
	}{
		{`ALTER TABLE events DISABLE TRIGGER events_no_update`, `ALTER TABLE events ENABLE TRIGGER events_no_update`, "trigger events_no_update is disabled"},
		{`DROP TRIGGER events_no_delete ON events`, `CREATE TRIGGER events_no_delete BEFORE DELETE ON events FOR EACH ROW EXECUTE FUNCTION events_append_only()`, "trigger events_no_delete is missing"},
		{`CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END; $$`, "", "no longer raises the append-only refusal"},
	} {
		if err := execSQL(t, db, tc.change); err != nil {
			t.Fatalf("%s: %v", tc.change, err)
		}
		problems, err := s.AppendOnlyProblems()
		if err != nil || len(problems) != 1 || !strings.Contains(problems[0], tc.want) {
			t.Errorf("after %s: problems %q, %v; want one saying %q", tc.change, problems, err, tc.want)
		}
		if tc.undo != "" {
			if err := execSQL(t, db, tc.undo); err != nil {
				t.Fatalf("%s: %v", tc.undo, err)
			}
		}
	}
}
