package sqlitestore

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"modernc.org/sqlite"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/storetest"
)

// testNow is the fixed clock of every test store.
var testNow = time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC)

var testOpts = Options{Now: func() time.Time { return testNow }}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) events.Store {
		s, err := Create(filepath.Join(t.TempDir(), "campaign.ltscamp"), testOpts)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// newTestStore creates a campaign under t.TempDir and closes it at cleanup.
func newTestStore(t *testing.T) *Store {
	t.Helper()
	s, err := Create(filepath.Join(t.TempDir(), "campaign.ltscamp"), testOpts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// cmd returns a command of one event per stream, each stream expected at
// AnyVersion.
func cmd(id string, streams ...string) events.Command {
	c := events.Command{ID: id, Actor: "gm", RecordedAt: testNow, Expected: map[string]int64{}}
	for i, st := range streams {
		c.Expected[st] = events.AnyVersion
		c.Events = append(c.Events, events.Pending{
			ID: fmt.Sprintf("%s-%d", id, i), Stream: st, Type: events.TypeXPAwarded, PayloadVersion: 1,
			Payload: json.RawMessage(`{"amount":1,"reason":"test"}`),
		})
	}
	return c
}

func mustAppend(t *testing.T, s events.Store, c events.Command) []events.Event {
	t.Helper()
	res, err := s.Append(c)
	if err != nil {
		t.Fatalf("Append %s: %v", c.ID, err)
	}
	return res.Events
}

func readAll(t *testing.T, s events.Store) []events.Event {
	t.Helper()
	es, err := s.Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

func assertChain(t *testing.T, es []events.Event) {
	t.Helper()
	if seq, reason, broken := events.ChainBreak(es, events.GenesisHash()); broken {
		t.Fatalf("hash chain broken at %d: %s", seq, reason)
	}
}

func TestTriggersForbidUpdateAndDelete(t *testing.T) {
	s := newTestStore(t)
	mustAppend(t, s, cmd("C1", "a", "b"))
	before := readAll(t, s)
	for _, tc := range []struct{ stmt, msg string }{
		{`UPDATE events SET actor = 'mallory' WHERE seq = 1`, "events are append-only: UPDATE is not allowed"},
		{`UPDATE events SET payload = '{}'`, "events are append-only: UPDATE is not allowed"},
		{`DELETE FROM events WHERE seq = 2`, "events are append-only: DELETE is not allowed"},
		{`DELETE FROM events`, "events are append-only: DELETE is not allowed"},
	} {
		_, err := s.db.Exec(tc.stmt)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: err = %v, want %q", tc.stmt, err, tc.msg)
		}
	}
	after := readAll(t, s)
	if len(after) != len(before) || after[0].Actor != "gm" {
		t.Fatal("the log changed")
	}
}

func TestPayloadMustBeJSON(t *testing.T) {
	// The CHECK constraint is the last line of defence behind Validate,
	// against writers other than this package.
	s := newTestStore(t)
	_, err := s.db.Exec(insertEvent, 1, "E", "C", "s", 1, "t", 1, "{nope", "gm", events.FormatTime(testNow),
		hex.EncodeToString(events.GenesisHash()), hex.EncodeToString(events.GenesisHash()))
	if err == nil || !strings.Contains(err.Error(), "CHECK constraint failed") {
		t.Fatalf("err = %v, want a CHECK constraint failure", err)
	}
}

func TestPragmasOnEveryConnection(t *testing.T) {
	s := newTestStore(t)
	ctx := context.Background()
	// Hold several connections at once so that the pool must open new ones.
	var conns []*sql.Conn
	for range 4 {
		c, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	for i, c := range conns {
		for pragma, want := range map[string]string{
			"journal_mode": "wal",
			"busy_timeout": "10000",
			"foreign_keys": "1",
			"synchronous":  "2", // FULL
		} {
			var got string
			if err := c.QueryRowContext(ctx, "PRAGMA "+pragma).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("connection %d: PRAGMA %s = %s, want %s", i, pragma, got, want)
			}
		}
	}
	for _, c := range conns {
		_ = c.Close()
	}
}

func TestSchemaMigrations(t *testing.T) {
	s := newTestStore(t)
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	rows, err := s.db.Query(`SELECT version, name, applied_at FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []migration
	for rows.Next() {
		var m migration
		var at string
		if err := rows.Scan(&m.Version, &m.Name, &at); err != nil {
			t.Fatal(err)
		}
		if at != events.FormatTime(testNow) {
			t.Errorf("migration %d applied at %q, want the injected clock's %q", m.Version, at, events.FormatTime(testNow))
		}
		got = append(got, m)
	}
	if len(got) != len(ms) {
		t.Fatalf("%d rows in schema_migrations, want %d", len(got), len(ms))
	}
	for i := range ms {
		if got[i].Version != ms[i].Version || got[i].Name != ms[i].Name {
			t.Errorf("row %d = %d %s, want %d %s", i, got[i].Version, got[i].Name, ms[i].Version, ms[i].Name)
		}
	}
	if ms[0].Name != "0001_events.sql" {
		t.Errorf("first migration %q", ms[0].Name)
	}
}

func TestFileFormat(t *testing.T) {
	s := newTestStore(t)
	got := mustAppend(t, s, cmd("C1", "a"))
	var appID int64
	if err := s.db.QueryRow(`PRAGMA application_id`).Scan(&appID); err != nil || appID != 0x4C545343 {
		t.Fatalf("application_id = %#x, %v; want 0x4C545343", appID, err)
	}
	var prev, hash, at string
	if err := s.db.QueryRow(`SELECT prev_hash, hash, recorded_at FROM events`).Scan(&prev, &hash, &at); err != nil {
		t.Fatal(err)
	}
	if prev != strings.Repeat("0", 64) || hash != hex.EncodeToString(got[0].Hash) || hash != strings.ToLower(hash) {
		t.Errorf("stored hashes %q, %q; want lowercase hex", prev, hash)
	}
	if at != "2024-02-29T12:00:00.000000000Z" {
		t.Errorf("recorded_at stored as %q", at)
	}
	var typ string
	if err := s.db.QueryRow(`SELECT typeof(payload) FROM events`).Scan(&typ); err != nil || typ != "text" {
		t.Errorf("payload stored as %s, %v; want text", typ, err)
	}
}

func TestOptionsNeedAClock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.ltscamp")
	if _, err := Create(path, Options{}); err == nil || !strings.Contains(err.Error(), "Now") {
		t.Fatalf("Create without a clock: %v", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("Create without a clock made a file")
	}
	s, err := Create(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	if _, err := Open(path, Options{}); err == nil || !strings.Contains(err.Error(), "Now") {
		t.Fatalf("Open without a clock: %v", err)
	}
}

// snapshotDir returns every file in dir with its contents.
func snapshotDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

func assertDirUnchanged(t *testing.T, dir string, before map[string][]byte) {
	t.Helper()
	after := snapshotDir(t, dir)
	if len(after) != len(before) {
		t.Fatalf("files in %s changed: %d → %d", dir, len(before), len(after))
	}
	for name, b := range before {
		if !bytes.Equal(after[name], b) {
			t.Fatalf("%s changed", name)
		}
	}
}

func TestOpenMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope.ltscamp")
	_, err := Open(path, testOpts)
	if !errors.Is(err, fs.ErrNotExist) || err.Error() != "no campaign file at "+path+": file does not exist" {
		t.Fatalf("err = %v, want fs.ErrNotExist saying no campaign file at %s", err, path)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("Open created the file")
	}
}

func TestOpenRefusesNonSQLiteFiles(t *testing.T) {
	for name, content := range map[string][]byte{
		"notes.txt":   []byte("Session 12: the party reached Hoth.\n"),
		"empty":       nil,
		"short":       []byte("SQLite"),
		"almost.db":   append([]byte("SQLite format 2\x00"), make([]byte, 200)...),
		"binary.blob": bytes.Repeat([]byte{0, 1, 2, 0xFF}, 1000),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, content, 0o644); err != nil {
				t.Fatal(err)
			}
			before := snapshotDir(t, dir)
			_, err := Open(path, testOpts)
			if !errors.Is(err, events.ErrNotCampaign) || err.Error() != path+" is not an ltscamp campaign: not an SQLite database" {
				t.Fatalf("err = %v, want ErrNotCampaign: not an SQLite database", err)
			}
			assertDirUnchanged(t, dir, before)
		})
	}
	t.Run("directory", func(t *testing.T) {
		dir := t.TempDir()
		if _, err := Open(dir, testOpts); !errors.Is(err, events.ErrNotCampaign) {
			t.Fatalf("err = %v, want ErrNotCampaign", err)
		}
	})
}

// makeForeign creates an SQLite database with the given statements through
// database/sql, as another program would, and returns its path.
func makeForeign(t *testing.T, dir string, stmts ...string) string {
	t.Helper()
	path := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range stmts {
		if _, err := db.Exec(st); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOpenRefusesForeignSQLite(t *testing.T) {
	for name, stmts := range map[string][]string{
		"another program": {`CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)`, `INSERT INTO notes (body) VALUES ('hello')`},
		"empty database":  {`PRAGMA user_version = 3`},
		"our ID, no schema_migrations": {
			fmt.Sprintf(`PRAGMA application_id = %d`, ApplicationID), `CREATE TABLE events (x)`,
		},
		"schema_migrations, another ID": {
			`PRAGMA application_id = 42`, createMigrationsTable,
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := makeForeign(t, dir, stmts...)
			before := snapshotDir(t, dir)
			_, err := Open(path, testOpts)
			if !errors.Is(err, events.ErrNotCampaign) || err.Error() != path+" is not an ltscamp campaign: an SQLite database from another program" {
				t.Fatalf("err = %v, want ErrNotCampaign: from another program", err)
			}
			assertDirUnchanged(t, dir, before)
		})
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	s := newTestStore(t)
	if _, err := s.db.Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_future.sql', 'x')`); err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
	before, _ := os.ReadFile(s.Path())
	_, err := Open(s.Path(), testOpts)
	if err == nil || !errors.Is(err, events.ErrNewerFormat) || !strings.Contains(err.Error(), "made by a newer ltscamp") || !strings.Contains(err.Error(), s.Path()) {
		t.Fatalf("err = %v, want made by a newer ltscamp", err)
	}
	if after, _ := os.ReadFile(s.Path()); !bytes.Equal(after, before) {
		t.Fatal("Open changed a campaign from a newer ltscamp")
	}
}

func TestOpenAppliesPendingMigrations(t *testing.T) {
	// A campaign at schema version 0: stamped, with an empty
	// schema_migrations table.
	dir := t.TempDir()
	path := makeForeign(t, dir, fmt.Sprintf(`PRAGMA application_id = %d`, ApplicationID), createMigrationsTable)
	s, err := Open(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil || int64(n) != SchemaVersion() {
		t.Fatalf("%d migrations recorded, %v; want %d", n, err, SchemaVersion())
	}
	mustAppend(t, s, cmd("C1", "a"))
}

func TestCreateRefusesExistingFile(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(text, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	existing := newTestStore(t)
	mustAppend(t, existing, cmd("C1", "a"))
	for _, path := range []string{text, existing.Path()} {
		before, _ := os.ReadFile(path)
		_, err := Create(path, testOpts)
		if !errors.Is(err, events.ErrExists) || !strings.Contains(err.Error(), path) {
			t.Fatalf("Create(%s): err = %v, want ErrExists naming the path", path, err)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
			t.Fatalf("Create changed %s", path)
		}
	}
	if n, _ := existing.Count(); n != 1 {
		t.Fatal("Create over an open campaign changed it")
	}
	if _, err := Create(dir, testOpts); err == nil {
		t.Fatal("Create over a directory succeeded")
	}
	if _, err := Create(filepath.Join(dir, "missing", "c.ltscamp"), testOpts); err == nil {
		t.Fatal("Create in a missing directory succeeded")
	}
}

func TestCreateTakesOverAnEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.ltscamp")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Create(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, cmd("C1", "a"))
	_ = s.Close()
	s, err = Open(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	_ = s.Close()
}

func TestReopenContinuesTheChain(t *testing.T) {
	s := newTestStore(t)
	path := s.Path()
	first := mustAppend(t, s, cmd("C1", "campaign", "character/A"))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// No -wal is left behind: the last Close checkpoints the log.
	if _, err := os.Stat(path + "-wal"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("-wal left after Close: %v", err)
	}

	s, err := Open(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := readAll(t, s); len(got) != 2 || !bytes.Equal(got[1].Hash, first[1].Hash) || got[0].Actor != "gm" {
		t.Fatalf("after reopening: %+v", got)
	}
	second := mustAppend(t, s, cmd("C2", "character/A"))
	if second[0].Seq != 3 || second[0].StreamVersion != 2 || !bytes.Equal(second[0].PrevHash, first[1].Hash) {
		t.Fatalf("after reopening appended %+v", second[0])
	}
	all := readAll(t, s)
	assertChain(t, all)
	if n, _ := s.Count(); n != 3 {
		t.Fatalf("Count = %d", n)
	}
	// Opening again applies no migration twice.
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil || int64(n) != SchemaVersion() {
		t.Fatalf("%d schema_migrations rows after reopening, want %d", n, SchemaVersion())
	}
}

func TestTwoHandlesRace(t *testing.T) {
	a := newTestStore(t)
	b, err := Open(a.Path(), testOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const rounds = 5
	for round := range rounds {
		var wg sync.WaitGroup
		errs := make([]error, 2)
		start := make(chan struct{})
		for i, s := range []*Store{a, b} {
			wg.Go(func() {
				c := cmd(fmt.Sprintf("R%d-%d", round, i), "character/A")
				c.Expected["character/A"] = int64(round)
				<-start
				_, errs[i] = s.Append(c)
			})
		}
		close(start)
		wg.Wait()
		wins := 0
		for _, err := range errs {
			switch {
			case err == nil:
				wins++
			case errors.Is(err, events.ErrConcurrency):
				var ce *events.ConcurrencyError
				if !errors.As(err, &ce) || ce.Expected != int64(round) || ce.Actual != int64(round+1) {
					t.Fatalf("round %d: %v", round, err)
				}
			default:
				t.Fatalf("round %d: %v", round, err)
			}
		}
		if wins != 1 {
			t.Fatalf("round %d: %d winners, want exactly 1 (errors %v)", round, wins, errs)
		}
	}
	fromA, fromB := readAll(t, a), readAll(t, b)
	if len(fromA) != rounds || len(fromB) != rounds {
		t.Fatalf("%d and %d events, want %d", len(fromA), len(fromB), rounds)
	}
	assertChain(t, fromB)
}

func TestPathsNeedingEscapes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my games?#", "100%25 fun & more")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"camp aign.ltscamp", "what?.ltscamp", "#1.ltscamp", "50%.ltscamp", "ü mode=ro&x.ltscamp"} {
		path := filepath.Join(dir, name)
		s, err := Create(path, testOpts)
		if err != nil {
			t.Fatalf("Create(%q): %v", path, err)
		}
		mustAppend(t, s, cmd("C1", "a"))
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s, err = Open(path, testOpts)
		if err != nil {
			t.Fatalf("Open(%q): %v", path, err)
		}
		if n, _ := s.Count(); n != 1 {
			t.Fatalf("%q: Count = %d", path, n)
		}
		_ = s.Close()
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	want := []string{"#1.ltscamp", "50%.ltscamp", "camp aign.ltscamp", "what?.ltscamp", "ü mode=ro&x.ltscamp"}
	for _, name := range want[:len(want):len(want)] {
		want = append(want, filepath.Base(checkedPath(name))) // each writer's sidecar
	}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Fatalf("files %q, want exactly %q", names, want)
	}
}

func TestFileURI(t *testing.T) {
	got, err := fileURI("/tmp/a b/c?d#e%f/ü.db", "mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	if want := "file:/tmp/a%20b/c%3Fd%23e%25f/%C3%BC.db?mode=ro"; got != want {
		t.Fatalf("fileURI = %q, want %q", got, want)
	}
}

func TestOpenReadsTheApplicationIDThroughTheWAL(t *testing.T) {
	// A campaign whose stamped header is still only in its -wal file, as
	// when another program holds the file open before any checkpoint:
	// the migrations run on a connection of our own in WAL mode with
	// checkpoints off, kept open so that closing does not checkpoint.
	path := filepath.Join(t.TempDir(), "campaign.ltscamp")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { _ = db.Close() })
	ctx := context.Background()
	for _, q := range []string{`PRAGMA journal_mode=WAL`, `PRAGMA wal_autocheckpoint=0`} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := migrate(ctx, db, path, func() time.Time { return testNow }, true); err != nil {
		t.Fatal(err)
	}
	// The main file's header still reads application_id 0.
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) >= 72 && !bytes.Equal(b[68:72], make([]byte, 4)) {
		t.Fatalf("the main file has application_id %x: the header was checkpointed, the test shows nothing", b[68:72])
	}
	s, err := Open(path, testOpts)
	if err != nil {
		t.Fatalf("Open while the header is in the WAL: %v", err)
	}
	_ = s.Close()
}

func TestOFDLocking(t *testing.T) {
	// Open reads the file's header with its own descriptor; with POSIX
	// locks, closing it would drop the locks of other handles.
	if runtime.GOOS != "linux" {
		t.Skip("OFD locks are Linux only")
	}
	newTestStore(t) // the mode is settled at the first lock
	if !sqlite.OFDLockingEnabled() {
		t.Fatal("OFD locking is off")
	}
}

// TestLargeCommandsAndBatches appends commands and loads batches of sizes
// that take several multi-row INSERTs, and reads them back as sealed.
func TestLargeCommandsAndBatches(t *testing.T) {
	s := newTestStore(t)
	var want []events.Event
	for i, n := range []int{1, 2, 3, maxInsertRows - 1, maxInsertRows, maxInsertRows + 1, 3*maxInsertRows + 77} {
		c := events.Command{ID: fmt.Sprintf("C%d", i), Actor: "gm", RecordedAt: testNow.Add(time.Duration(i) * time.Second), Expected: map[string]int64{}}
		for j := range n {
			stream := fmt.Sprintf("s/%d", j%3)
			c.Expected[stream] = events.AnyVersion
			c.Events = append(c.Events, events.Pending{ID: fmt.Sprintf("C%d-E%d", i, j), Stream: stream, Type: events.TypeXPAwarded, PayloadVersion: 1,
				Payload: json.RawMessage(fmt.Sprintf(`{"amount":%d,"reason":"test"}`, j))})
		}
		want = append(want, mustAppend(t, s, c)...)
	}
	got := readAll(t, s)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read back %d events, not the %d appended", len(got), len(want))
	}
	assertChain(t, got)

	// The same log loaded into another store, in batches of odd sizes.
	l := newTestStore(t)
	for start, n := 0, 1; start < len(want); start, n = start+n, n*3+1 {
		if err := l.Load(want[start:min(start+n, len(want))]); err != nil {
			t.Fatalf("Load from %d: %v", start, err)
		}
	}
	if got := readAll(t, l); !reflect.DeepEqual(got, want) {
		t.Fatal("the loaded log differs from the appended one")
	}
}

// TestReusedIDDeepInALargeCommand reuses an event ID far into a command of
// several INSERTs: the command is refused, naming it, and appends nothing.
func TestReusedIDDeepInALargeCommand(t *testing.T) {
	s := newTestStore(t)
	first := mustAppend(t, s, cmd("C0", "a", "b"))
	c := events.Command{ID: "C1", Actor: "gm", RecordedAt: testNow, Expected: map[string]int64{"a": 1}}
	for j := range 2*maxInsertRows + 5 {
		c.Events = append(c.Events, events.Pending{ID: fmt.Sprintf("C1-E%d", j), Stream: "a", Type: events.TypeXPAwarded, PayloadVersion: 1,
			Payload: json.RawMessage(`{"amount":1,"reason":"test"}`)})
	}
	c.Events[maxInsertRows+3].ID = first[1].ID
	_, err := s.Append(c)
	if !errors.Is(err, events.ErrInvalidCommand) || !strings.Contains(err.Error(), fmt.Sprintf("%q is already in the log", first[1].ID)) {
		t.Fatalf("err = %v, want ErrInvalidCommand naming %s", err, first[1].ID)
	}
	// The ID is reported before a stream that moved on, as before.
	c.Expected["a"] = 0
	if _, err := s.Append(c); !errors.Is(err, events.ErrInvalidCommand) {
		t.Fatalf("err = %v, want ErrInvalidCommand", err)
	}
	if got := readAll(t, s); !reflect.DeepEqual(got, first) {
		t.Fatalf("the log holds %d events, want the first command's %d", len(got), len(first))
	}

	// Load names the first event that repeats an ID, in the log or in the
	// batch, however deep in the batch.
	var batch []events.Event
	seq, prev := first[1].Seq, first[1].Hash
	for j := range 2*maxInsertRows + 5 {
		e := events.Event{Seq: seq + 1, ID: fmt.Sprintf("L-E%d", j), CommandID: "L", Stream: "l", StreamVersion: int64(j + 1), Type: events.TypeXPAwarded,
			PayloadVersion: 1, Payload: json.RawMessage(`{"amount":1,"reason":"test"}`), Actor: "gm", RecordedAt: testNow, PrevHash: prev}
		batch = append(batch, e)
		seq, prev = e.Seq, e.Hash
	}
	for _, tc := range []struct {
		at int
		id string
	}{{maxInsertRows + 3, first[0].ID}, {2*maxInsertRows + 1, "L-E7"}, {0, first[1].ID}} {
		b := slices.Clone(batch)
		b[tc.at].ID = tc.id
		prev := first[1].Hash
		for i := range b {
			b[i].PrevHash = prev
			b[i].Hash = events.ComputeHash(prev, b[i])
			prev = b[i].Hash
		}
		err := s.Load(b)
		var le *events.LoadError
		if !errors.As(err, &le) || le.Index != tc.at || le.EventID != tc.id || !strings.Contains(err.Error(), "already in the log") {
			t.Fatalf("Load with %s at %d: err = %v", tc.id, tc.at, err)
		}
		if n, _ := s.Count(); n != int64(len(first)) {
			t.Fatalf("Load appended %d events", n-int64(len(first)))
		}
	}
}

// TestRowsThatDoNotJoin reads events whose fields hold the separator that
// joins a row's columns (see eventRow): they are read column by column,
// exactly as appended, through every read.
func TestRowsThatDoNotJoin(t *testing.T) {
	s := newTestStore(t)
	sep := string(rowSep)
	c := events.Command{ID: "C" + sep + "1", Actor: "g" + sep + "m", RecordedAt: testNow, Expected: map[string]int64{"s" + sep: events.AnyVersion, "plain": events.AnyVersion}}
	c.Events = []events.Pending{
		{ID: "E" + sep + "1", Stream: "s" + sep, Type: "t" + sep, PayloadVersion: 1, Payload: json.RawMessage(`{"a":1}`)},
		{ID: "E2", Stream: "plain", Type: "t", PayloadVersion: 1, Payload: json.RawMessage(`{"a":2}`)},
	}
	want := mustAppend(t, s, c)
	if got := readAll(t, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("Read = %+v, want %+v", got, want)
	}
	var iterated []events.Event
	for e, err := range s.Iter(events.Query{}) {
		if err != nil {
			t.Fatal(err)
		}
		iterated = append(iterated, e)
	}
	if !reflect.DeepEqual(iterated, want) {
		t.Fatalf("Iter = %+v, want %+v", iterated, want)
	}
	if got, err := s.ReadStream("s"+sep, 0); err != nil || !reflect.DeepEqual(got, want[:1]) {
		t.Fatalf("ReadStream = %+v, %v", got, err)
	}
	if got, err := s.EventByID("E" + sep + "1"); err != nil || !reflect.DeepEqual(got, want[0]) {
		t.Fatalf("EventByID = %+v, %v", got, err)
	}
	res, err := s.Append(c)
	if err != nil || !res.Duplicate || !reflect.DeepEqual(res.Events, want) {
		t.Fatalf("Append again = %+v, %v; want the duplicate", res, err)
	}
}

// TestMalformedRowsReportedAsBefore writes rows whose hashes or time are
// not what the store writes (as another program could): reading them fails
// as reading them column by column does.
func TestMalformedRowsReportedAsBefore(t *testing.T) {
	zero := hex.EncodeToString(events.GenesisHash())
	for _, tc := range []struct {
		name                string
		recordedAt, prev, h string
		want                string
	}{
		{"short hash", events.FormatTime(testNow), zero, "abcd", "event 1: hash: 2 bytes, want 32"},
		{"hash not hex", events.FormatTime(testNow), zero, strings.Repeat("zz", 32), "event 1: hash: encoding/hex: invalid byte"},
		{"prev_hash not hex", events.FormatTime(testNow), strings.Repeat("g", 64), zero, "event 1: prev_hash: encoding/hex: invalid byte"},
		{"30 February", "2024-02-30T12:00:00.000000000Z", zero, zero, "day out of range"},
		{"another layout", "2024-02-29 12:00:00", zero, zero, "parse recorded time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestStore(t)
			if _, err := s.db.Exec(insertEvent, 1, "E", "C", "s", 1, "t", 1, "{}", "gm", tc.recordedAt, tc.prev, tc.h); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Read(events.Query{}); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Read: err = %v, want %q", err, tc.want)
			}
			for _, err := range s.Iter(events.Query{}) {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("Iter: err = %v, want %q", err, tc.want)
				}
			}
			if _, err := s.EventByID("E"); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("EventByID: err = %v, want %q", err, tc.want)
			}
		})
	}
}

// FuzzParseTime holds parseTime to events.ParseTime: whatever it accepts,
// ParseTime gives the same time.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{events.FormatTime(testNow), "0001-01-01T00:00:00.000000000Z", "9999-12-31T23:59:59.999999999Z",
		"2023-02-29T00:00:00.000000000Z", "2024-02-29T24:00:00.000000000Z", "2024-13-01T00:00:00.000000000Z", "2024-02-29T12:00:00.000000000+"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseTime(s)
		want, err := events.ParseTime(s)
		if ok && (err != nil || got != want) {
			t.Fatalf("parseTime(%q) = %v, ParseTime = %v, %v", s, got, want, err)
		}
	})
}

// FuzzParseTimeFormatted checks that parseTime reads back every time the
// store writes.
func FuzzParseTimeFormatted(f *testing.F) {
	f.Add(testNow.UnixNano())
	f.Add(int64(0))
	f.Add(int64(-1))
	f.Fuzz(func(t *testing.T, n int64) {
		tm := time.Unix(0, n).UTC()
		text := events.FormatTime(tm)
		got, ok := parseTime(text)
		want, err := events.ParseTime(text)
		if !ok || err != nil || got != want {
			t.Fatalf("parseTime(%q) = %v, %v; ParseTime = %v, %v", text, got, ok, want, err)
		}
	})
}

// FuzzDecodeHex holds decodeHex to hex.DecodeString.
func FuzzDecodeHex(f *testing.F) {
	f.Add("00ff")
	f.Add("0A1b")
	f.Add("0g")
	f.Fuzz(func(t *testing.T, s string) {
		dst := make([]byte, len(s)/2)
		ok := decodeHex(dst, s)
		want, err := hex.DecodeString(s)
		if ok != (err == nil) || ok && !bytes.Equal(dst, want) {
			t.Fatalf("decodeHex(%q) = %x, %v; hex.DecodeString = %x, %v", s, dst, ok, want, err)
		}
	})
}

// FuzzDecodeRow checks that a joined row is read back as its fields, or
// not at all (then column by column), never as other fields.
func FuzzDecodeRow(f *testing.F) {
	hash := hex.EncodeToString(events.GenesisHash())
	f.Add(int64(7), "E1", "C1", "character/A", "xp.awarded", "gm", events.FormatTime(testNow), hash, `{"a":1}`)
	f.Add(int64(7), "E\x1f1", "C1", "s", "t", "gm", events.FormatTime(testNow), hash, `{}`)
	f.Fuzz(func(t *testing.T, seq int64, id, commandID, stream, typ, actor, recordedAt, hashHex, payload string) {
		fields := []string{strconv.FormatInt(seq, 10), "3", "1", id, commandID, stream, typ, actor, recordedAt, hashHex, hashHex, payload}
		row := strings.Join(fields, string(rowSep))
		e, ok := decodeRow(row)
		if !ok {
			for _, fd := range fields {
				if strings.IndexByte(fd, rowSep) >= 0 {
					return
				}
			}
			if _, ok := parseTime(recordedAt); !ok {
				return
			}
			if _, err := hex.DecodeString(hashHex); err != nil || len(hashHex) != 64 {
				return
			}
			t.Fatalf("decodeRow refused %q", row)
		}
		if e.Seq != seq || e.StreamVersion != 3 || e.PayloadVersion != 1 || e.ID != id || e.CommandID != commandID || e.Stream != stream ||
			e.Type != typ || e.Actor != actor || events.FormatTime(e.RecordedAt) != recordedAt || hex.EncodeToString(e.Hash) != strings.ToLower(hashHex) ||
			!bytes.Equal(e.PrevHash, e.Hash) || string(e.Payload) != payload {
			t.Fatalf("decodeRow(%q) = %+v", row, e)
		}
	})
}

// TestRefusedWritesReleaseTheLock refuses an Append and a Load on one
// handle and then writes through another handle on the same file: the
// refused writes left no transaction open on the writer connection.
func TestRefusedWritesReleaseTheLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "campaign.ltscamp")
	a, err := Create(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	first := mustAppend(t, a, cmd("C1", "s"))
	stale := cmd("C2", "s")
	stale.Expected["s"] = 0
	if _, err := a.Append(stale); !errors.Is(err, events.ErrConcurrency) {
		t.Fatalf("Append = %v, want ErrConcurrency", err)
	}
	if err := a.Load(first); !errors.Is(err, events.ErrBadLoad) {
		t.Fatalf("Load = %v, want ErrBadLoad", err)
	}
	b, err := Open(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// With a's writer still inside a transaction, this would wait out
	// the busy timeout and fail.
	mustAppend(t, b, cmd("C3", "s"))
	mustAppend(t, a, cmd("C4", "s"))
	assertChain(t, readAll(t, b))
}

// TestStagedSyncsAsItLoads loads more than stagedSyncEvery events into a
// staged file, which syncs it in the background meanwhile, and publishes
// it whole.
func TestStagedSyncsAsItLoads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "staged.ltscamp")
	st, err := CreateStaged(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	const batch = 1 << 14
	seq, prev := int64(0), events.GenesisHash()
	for range stagedSyncEvery/batch + 1 {
		b := make([]events.Event, batch)
		for i := range b {
			seq++
			b[i] = events.Event{Seq: seq, ID: fmt.Sprintf("E%d", seq), CommandID: "C", Stream: "s", StreamVersion: seq, Type: events.TypeXPAwarded,
				PayloadVersion: 1, Payload: json.RawMessage(`{"amount":1}`), Actor: "gm", RecordedAt: testNow, PrevHash: prev}
			b[i].Hash = events.ComputeHash(prev, b[i])
			prev = b[i].Hash
		}
		if err := st.Load(b); err != nil {
			t.Fatal(err)
		}
	}
	if st.syncing == nil {
		t.Error("no background sync began")
	}
	if err := st.Publish(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, testOpts)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n, head, err := s.Head(); err != nil || n != seq || !bytes.Equal(head, prev) {
		t.Fatalf("Head = %d %x %v, want %d %x", n, head, err, seq, prev)
	}
}
