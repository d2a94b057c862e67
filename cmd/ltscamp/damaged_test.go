package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
