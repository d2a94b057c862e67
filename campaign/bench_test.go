package campaign

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/sqlitestore"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// benchCampaign is a generated campaign of benchCharacters characters with
// benchPerCharacter events each, written once per benchmark run.
const (
	benchCharacters   = 100
	benchPerCharacter = 1000
)

var (
	benchOnce sync.Once
	benchPath string
	benchErr  error
)

func benchFile(b *testing.B) string {
	b.Helper()
	benchOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ltscamp-bench-")
		if err != nil {
			benchErr = err
			return
		}
		benchPath = filepath.Join(dir, "large.ltscamp")
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		st, err := sqlitestore.Create(benchPath, sqlitestore.Options{Now: func() time.Time { return start }})
		if err != nil {
			benchErr = err
			return
		}
		defer st.Close()
		_, benchErr = Generate(st, GenerateOptions{Characters: benchCharacters, EventsPerCharacter: benchPerCharacter, EventsPerCommand: 500, Seed: 42, Start: start, Edition: rules.Edition2021})
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return benchPath
}

// BenchmarkSheet reads and folds one character's sheet (1,001 events) in a
// campaign of 100,001 events, against the stock sqlite3 CLI selecting the
// same stream's payloads.
func BenchmarkSheet(b *testing.B) {
	path := benchFile(b)
	const who = "C0042"
	b.Run("ltscamp", func(b *testing.B) {
		s, err := Open(path, Options{Now: time.Now, Actor: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			sh, err := s.Sheet(who)
			if err != nil {
				b.Fatal(err)
			}
			if sh.Version != benchPerCharacter+1 {
				b.Fatalf("folded %d events", sh.Version)
			}
		}
	})
	b.Run("sqlite3-cli", func(b *testing.B) {
		cli, err := exec.LookPath("sqlite3")
		if err != nil {
			b.Fatal("the sqlite3 CLI is needed for the comparison: apt-get install sqlite3")
		}
		s, err := Open(path, Options{Now: time.Now, Actor: "bench"})
		if err != nil {
			b.Fatal(err)
		}
		r, err := s.roster(&projections.Reverts{}, 0)
		s.Close()
		if err != nil {
			b.Fatal(err)
		}
		m, _ := r.Find(who)
		// The same reads ltscamp makes for a sheet: the roster, then the
		// character's stream in order.
		q := fmt.Sprintf("SELECT payload FROM events WHERE type = '%s' AND stream >= 'character/' AND stream < 'character0' ORDER BY seq;\nSELECT seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash FROM events WHERE stream = '%s' ORDER BY stream_version;\n",
			events.TypeCharacterCreated, events.CharacterStream(m.ID))
		script := strings.Repeat(q, b.N)
		b.ResetTimer()
		cmd := exec.Command(cli, path)
		cmd.Stdin = strings.NewReader(script)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if n := strings.Count(out.String(), "\n"); n < b.N*(benchPerCharacter+1) {
			b.Fatalf("sqlite3 printed %d lines for %d rounds", n, b.N)
		}
	})
}

// TestMain removes the generated benchmark campaign after the run.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchPath != "" {
		os.RemoveAll(filepath.Dir(benchPath))
	}
	os.Exit(code)
}
