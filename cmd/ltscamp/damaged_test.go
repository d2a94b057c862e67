package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDamagedFiles damages a real campaign file in one way per case and
// runs a read, a write and verify on it: each says what happened in
// words, with the exit status of the table, and appends nothing.
func TestDamagedFiles(t *testing.T) {
	orig, _, _ := buildCampaign(t)
	// Enough events that the log spans many pages.
	for i := range 150 {
		if code, _, stderr := run(t, orig, "note", strings.Repeat("a long session note ", 20)+string(rune('a'+i%26))); code != ExitOK {
			t.Fatalf("note: exit %d: %s", code, stderr)
		}
	}
	checkpoint(t, orig)
	st, err := os.Stat(filepath.Join(orig, "c.ltscamp"))
	if err != nil {
		t.Fatal(err)
	}
	size := st.Size()
	const page = 4096
	cases := []struct {
		name   string
		damage func(f *os.File) error
		code   int
		words  string
	}{
		{"truncated mid-page", func(f *os.File) error { return f.Truncate(size/2 + page/2) }, ExitInvalidLog, "is damaged: SQLite cannot read it as a database"},
		{"header bytes overwritten", func(f *os.File) error {
			_, err := f.WriteAt([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, 16) // page size, versions, reserved space
			return err
		}, ExitInvalidLog, "is damaged"},
		{"garbage pages", func(f *os.File) error {
			garbage := []byte(strings.Repeat("\xde\xad\xbe\xef", 4*page/4))
			_, err := f.WriteAt(garbage, page) // pages 2 to 5: the schema's and the log's first
			return err
		}, ExitInvalidLog, "is damaged"},
		{"garbage in the last pages", func(f *os.File) error {
			garbage := []byte(strings.Repeat("\xde\xad\xbe\xef", 3*page/4))
			_, err := f.WriteAt(garbage, size-3*page) // the log's newest rows
			return err
		}, ExitInvalidLog, "is damaged"},
		{"SQLite's magic overwritten", func(f *os.File) error {
			_, err := f.WriteAt([]byte("not SQLite at all"), 0)
			return err
		}, ExitNotCampaign, "is not an ltscamp campaign"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := copyCampaign(t, orig)
			path := filepath.Join(dir, "c.ltscamp")
			f, err := os.OpenFile(path, os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			if err := c.damage(f); err != nil {
				t.Fatal(err)
			}
			if err := f.Close(); err != nil {
				t.Fatal(err)
			}
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{
				{"log"},
				{"xp", "award", "Ajax", "1", "--reason", "after the damage"},
				{"roll", "3/DX", "--char", "Ajax"},
				{"verify"},
			} {
				code, _, stderr := run(t, dir, args...)
				t.Logf("%v: exit %d: %s", args, code, stderr)
				if code != c.code || !strings.Contains(stderr, c.words) {
					t.Errorf("%v: exit %d, %q; want exit %d saying %q", args, code, stderr, c.code, c.words)
				}
				if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "ltscamp: ") {
					t.Errorf("%v: stderr is not one ltscamp: line: %q", args, stderr)
				}
			}
			after, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(after) != string(before) {
				t.Errorf("the damaged file was changed")
			}
			for _, side := range []string{"-wal"} {
				if st, err := os.Stat(path + side); err == nil && st.Size() > 0 {
					t.Errorf("%s%s holds %d bytes: something was written", path, side, st.Size())
				}
			}
		})
	}
}

// checkpoint moves a campaign's WAL into its file, so that a damage to
// the file is to the whole log.
func checkpoint(t *testing.T, dir string) {
	t.Helper()
	db := openSQL(t, filepath.Join(dir, "c.ltscamp"))
	defer db.Close()
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
}

// damageTarget is a campaign whose file spans many pages: Ajax, a hundred
// characters imported in one command, Ajax's award of 20 XP (seq 103),
// then 150 rolls of Ajax, after which his sheet and audit are read from
// snapshots taken past the award.
func damageTarget(t *testing.T) (dir string, award int64) {
	t.Helper()
	dir = t.TempDir()
	roster := "name,st,dx,iq\n"
	for i := 1; i <= 100; i++ {
		roster += fmt.Sprintf("R%d,12,11,9\n", i)
	}
	csv := filepath.Join(dir, "r.csv")
	if err := os.WriteFile(csv, []byte(roster), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"init"},
		{"char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9"},
		{"import", "roster", csv},
		{"xp", "award", "Ajax", "20", "--reason", "the award"},
	} {
		if code, _, stderr := run(t, dir, args...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	for range 150 {
		if code, _, stderr := run(t, dir, "roll", "3/DX", "--char", "Ajax", "--dice", "1,2,3"); code != ExitOK {
			t.Fatalf("roll: exit %d: %s", code, stderr)
		}
	}
	checkpoint(t, dir)
	db := openSQL(t, filepath.Join(dir, "c.ltscamp"))
	defer db.Close()
	if err := db.QueryRow(`SELECT seq FROM events WHERE type = 'xp.awarded'`).Scan(&award); err != nil {
		t.Fatal(err)
	}
	return dir, award
}

// leafPages returns the leaf pages of a table or index of the campaign
// in dir, in key order.
func leafPages(t *testing.T, dir, name string) []int64 {
	t.Helper()
	db := openSQL(t, filepath.Join(dir, "c.ltscamp"))
	defer db.Close()
	rows, err := db.Query(`SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf' ORDER BY path`, name)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var p int64
		if err := rows.Scan(&p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	if len(out) < 2 {
		t.Fatalf("%s has %d leaf pages; the test needs 2 or more", name, len(out))
	}
	return out
}

// pageOfSeq returns the leaf page of the events table that holds seq,
// read from the file's bytes as SQLite lays a table's leaf out: a
// header, an array of cell offsets, and cells that begin with the
// payload's size and the rowid (the seq), two varints.
func pageOfSeq(t *testing.T, dir string, seq int64) int64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "c.ltscamp"))
	if err != nil {
		t.Fatal(err)
	}
	varint := func(p []byte) (v int64, n int) {
		for i := 0; i < 9; i++ {
			if i == 8 {
				return v<<8 | int64(p[i]), 9
			}
			v = v<<7 | int64(p[i]&0x7f)
			if p[i] < 0x80 {
				return v, i + 1
			}
		}
		return v, 9
	}
	const page = 4096
	for _, pg := range leafPages(t, dir, "events") {
		p := b[(pg-1)*page : pg*page]
		cells := int(p[3])<<8 | int(p[4])
		for c := range cells {
			off := int(p[8+2*c])<<8 | int(p[9+2*c])
			_, n := varint(p[off:])
			if rowid, _ := varint(p[off+n:]); rowid == seq {
				return pg
			}
		}
	}
	t.Fatalf("no leaf page of events holds seq %d", seq)
	return 0
}

// overwritePage writes garbage over page pg of the campaign in dir, as dd
// would.
func overwritePage(t *testing.T, dir string, pg int64) {
	t.Helper()
	// Later than the last write by a tick of the file system's clock, as
	// any hand is: a change within the same tick leaves the file's time
	// as ltscamp recorded it (docs/integrity.md).
	time.Sleep(20 * time.Millisecond)
	f, err := os.OpenFile(filepath.Join(dir, "c.ltscamp"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	const page = 4096
	if _, err := f.WriteAt([]byte(strings.Repeat("\xde\xad\xbe\xef", page/4)), (pg-1)*page); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestDamagedIndexPage overwrites a leaf of the index of event IDs away
// from its right edge, where every append goes: SQLite alone never reads
// it there. verify names the damage as damage, and writes refuse the file.
func TestDamagedIndexPage(t *testing.T) {
	dir, _ := damageTarget(t)
	overwritePage(t, dir, leafPages(t, dir, "sqlite_autoindex_events_1")[0])
	path := filepath.Join(dir, "c.ltscamp")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := eventCount(t, dir)

	code, stdout, stderr := run(t, dir, "verify")
	if code != ExitInvalidLog || !strings.HasPrefix(stderr, "ltscamp: "+path+" is damaged: ") ||
		!strings.Contains(stderr, "index sqlite_autoindex_events_1 (events: id)") || strings.Contains(stderr, "hash chain broken") {
		t.Errorf("verify: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.HasPrefix(stdout, "damaged: SQLite's integrity check finds damage in index sqlite_autoindex_events_1") {
		t.Errorf("verify's report:\n%s", stdout)
	}
	code, jout, _ := run(t, dir, "verify", "--json")
	var rep struct {
		OK     bool `json:"ok"`
		Damage struct {
			OK      bool     `json:"ok"`
			Objects []string `json:"objects"`
		} `json:"damage"`
		Chain struct {
			OK bool `json:"ok"`
		} `json:"chain"`
	}
	if err := json.Unmarshal([]byte(jout), &rep); err != nil {
		t.Fatal(err)
	}
	if code != ExitInvalidLog || rep.OK || rep.Damage.OK || len(rep.Damage.Objects) != 1 || !rep.Chain.OK {
		t.Errorf("verify --json: exit %d, %+v", code, rep)
	}

	for _, args := range [][]string{
		{"roll", "3/DX", "--char", "Ajax", "--dice", "1,1,1"},
		{"xp", "award", "Ajax", "1", "--reason", "after the damage"},
		{"note", "after the damage"},
	} {
		code, _, stderr := run(t, dir, args...)
		if code != ExitInvalidLog || !strings.HasPrefix(stderr, "ltscamp: "+path+" is damaged: SQLite's integrity check finds damage in index sqlite_autoindex_events_1") ||
			!strings.Contains(stderr, "nothing was appended") {
			t.Errorf("%v: exit %d, %s", args, code, stderr)
		}
	}
	if got := eventCount(t, dir); got != n {
		t.Errorf("%d events after the refused writes, %d before", got, n)
	}
	after, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(after, before) {
		t.Errorf("the damaged file was changed")
	}
}

// TestDamagedEventsPageReads overwrites a page of the events table: every
// read that meets it exits 7 saying the file is damaged, and the player's
// audit meets it when it holds an award the audit shows, even though the
// rows were folded into a snapshot past it.
func TestDamagedEventsPageReads(t *testing.T) {
	orig, award := damageTarget(t)
	path := func(dir string) string { return filepath.Join(dir, "c.ltscamp") }
	damaged := func(t *testing.T, dir string, args ...string) {
		t.Helper()
		code, _, stderr := run(t, dir, args...)
		if code != ExitInvalidLog || !strings.HasPrefix(stderr, "ltscamp: "+path(dir)+" is damaged: ") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want exit 7 saying %s is damaged", args, code, stderr, path(dir))
		}
	}
	t.Run("the award's page", func(t *testing.T) {
		dir := copyCampaign(t, orig)
		overwritePage(t, dir, pageOfSeq(t, dir, award))
		damaged(t, dir, "audit", "xp", "Ajax")
		damaged(t, dir, "party")
		damaged(t, dir, "verify")
	})
	t.Run("the newest page", func(t *testing.T) {
		dir := copyCampaign(t, orig)
		overwritePage(t, dir, pageOfSeq(t, dir, eventCount(t, dir)))
		for _, args := range [][]string{{"sheet", "Ajax"}, {"party"}, {"audit", "xp", "Ajax"}, {"char", "list"}, {"log"}} {
			damaged(t, dir, args...)
		}
	})
}

// TestBackupOfADamagedFile: the copy is new; what is damaged is the file
// it is copied from, and the message names it.
func TestBackupOfADamagedFile(t *testing.T) {
	dir, award := damageTarget(t)
	overwritePage(t, dir, pageOfSeq(t, dir, award))
	bak := filepath.Join(dir, "b.ltscamp")
	code, _, stderr := run(t, dir, "backup", bak)
	if code != ExitInvalidLog || !strings.HasPrefix(stderr, "ltscamp: "+filepath.Join(dir, "c.ltscamp")+" is damaged: ") || strings.Contains(stderr, bak+" is damaged") {
		t.Errorf("backup: exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(bak); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the backup's file: %v", err)
	}
}
