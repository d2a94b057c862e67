package main

import (
	"bytes"
	"crypto/rand"
	"database/sql"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// The cost of a logged action inside `ltscamp play` beside its floor, a
// bare insert on the same driver in the same process (issue 23: at most
// twice the floor). `go test ./cmd/ltscamp -run X -bench 'PlayRoll|InsertFloor'`
// reports both in one run; bench/play.sh has the whole-process figures.

// BenchmarkPlayRoll runs b.N roll lines through `ltscamp play` in this
// process, as `ltscamp play < rolls.txt` does: one session, the campaign
// opened once, each line run by the CLI's own commands. The open of the
// session is timed with them (a few milliseconds, spread over b.N).
func BenchmarkPlayRoll(b *testing.B) {
	dir := b.TempDir()
	db := filepath.Join(dir, "c.ltscamp")
	env := func(stdin io.Reader, args ...string) *Env {
		return &Env{
			Args:   append([]string{"--db", db, "--actor", "gm"}, args...),
			Stdin:  stdin,
			Stdout: io.Discard, Stderr: io.Discard,
			Getenv: func(string) string { return "" },
			Now:    time.Now,
		}
	}
	for _, setup := range [][]string{
		{"init", "--edition", "2021"},
		{"char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9", "--skill", "Unarmed:2", "--skill", "Medic:2", "--no-input"},
	} {
		if code := Main(env(strings.NewReader(""), setup...)); code != ExitOK {
			b.Fatalf("%v: exit %d", setup, code)
		}
	}
	lines := strings.Repeat("roll 3/DX --char Ajax --dice 1,2,3 -q\n", b.N)
	var errs bytes.Buffer
	e := env(strings.NewReader(lines), "play")
	e.Stderr = &errs
	b.ReportAllocs()
	b.ResetTimer()
	code := Main(e)
	b.StopTimer()
	if code != ExitOK {
		b.Fatalf("play: exit %d: %s", code, errs.String())
	}
}

// BenchmarkInsertFloor is one single-row insert of a 300-byte row (about
// an event's size), its own transaction, on modernc.org/sqlite in WAL
// mode with synchronous=FULL: the driver alone, as bench/playfloor makes
// a thousand of them.
func BenchmarkInsertFloor(b *testing.B) {
	path := filepath.Join(b.TempDir(), "floor.db")
	u := url.URL{Scheme: "file", Path: path, RawQuery: "_pragma=journal_mode(WAL)&_pragma=synchronous(FULL)"}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.Exec("CREATE TABLE t(seq INTEGER PRIMARY KEY, x BLOB NOT NULL)"); err != nil {
		b.Fatal(err)
	}
	row := make([]byte, 300)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rand.Read(row)
		if _, err := db.Exec("INSERT INTO t(x) VALUES (?)", row); err != nil {
			b.Fatal(err)
		}
	}
}
