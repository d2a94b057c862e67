package sqlitestore

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

const benchStream = "character/01HZX3K7Q4M2N8P5R6S9T0HERO"

// xpSpendPayload returns a ~300-byte xp.spent payload, as a real spend
// logs it.
func xpSpendPayload(i int, skill bool) json.RawMessage {
	p := events.XPSpent{
		On: "attribute", Attribute: "ST", From: 12 + i%5, To: 13 + i%5, Price: 18,
		Formula: "current level + 6 = 12 + 6 (2021 p.2 \"Increasing Attributes\")",
		Edition: "2021",
	}
	if skill {
		p = events.XPSpent{
			On: "skill", Skill: "sword", SkillName: "Swordsmanship (one-handed)", From: i % 7, To: i%7 + 1, Price: 4,
			Formula: "new level x 2 for a skill of category B = 2 x 2 (2021 p.5 \"Raising Skills\")",
			Edition: "2021",
		}
	}
	raw, err := json.Marshal(p)
	if err != nil {
		panic(err)
	}
	// Pad to ~300 bytes with a reason, as the GM's note would.
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	if pad := 300 - len(raw) - len(`,"reason":""`); pad > 0 {
		m["reason"] = strings.Repeat("x", pad)
	}
	raw, _ = json.Marshal(m)
	return raw
}

// spendCommands returns n commands, each spending XP twice on benchStream,
// decided against the stream's version at that point.
func spendCommands(n int) []events.Command {
	out := make([]events.Command, n)
	for i := range out {
		id := fmt.Sprintf("01BENCHCMD%016d", i)
		out[i] = events.Command{
			ID: id, Actor: "gm", RecordedAt: testNow,
			Expected: map[string]int64{benchStream: int64(2 * i)},
			Events: []events.Pending{
				{ID: id + "A", Stream: benchStream, Type: events.TypeXPSpent, PayloadVersion: 1, Payload: xpSpendPayload(i, false)},
				{ID: id + "B", Stream: benchStream, Type: events.TypeXPSpent, PayloadVersion: 1, Payload: xpSpendPayload(i, true)},
			},
		}
	}
	return out
}

// BenchmarkAppendCommand appends one command of two ~300-byte events per
// op. The sqlite3-cli variant does the same inserts (same schema,
// triggers and PRAGMAs, one BEGIN IMMEDIATE transaction per op with a
// SELECT of the head and two INSERTs) from one script piped to one sqlite3
// process: the cost of SQLite itself, in C, with nothing of Go's.
func BenchmarkAppendCommand(b *testing.B) {
	if n := len(xpSpendPayload(0, true)); n < 280 || n > 320 {
		b.Fatalf("payload of %d bytes, want ~300", n)
	}
	b.Run("ltscamp", func(b *testing.B) {
		s, err := Create(filepath.Join(b.TempDir(), "bench.ltscamp"), testOpts)
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
		cmds := spendCommands(b.N)
		b.ResetTimer()
		for i := range b.N {
			if _, err := s.Append(cmds[i]); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		if n, _ := s.Count(); n != int64(2*b.N) {
			b.Fatalf("%d events, want %d", n, 2*b.N)
		}
	})

	b.Run("sqlite3-cli", func(b *testing.B) {
		bin, err := exec.LookPath("sqlite3")
		if err != nil {
			b.Fatal("the sqlite3 command-line shell is not installed: install the sqlite3 package (apt-get install sqlite3) to run this benchmark")
		}
		path := filepath.Join(b.TempDir(), "bench.db")
		ms, err := loadMigrations()
		if err != nil {
			b.Fatal(err)
		}
		setup := "PRAGMA journal_mode=WAL;\n" + createMigrationsTable + ";\n"
		for _, m := range ms {
			setup += m.sql + "\n"
		}
		runSQLite(b, bin, path, setup)

		// The hashes are computed here, outside the timer: the shell
		// cannot compute SHA-256.
		var script strings.Builder
		script.WriteString("PRAGMA journal_mode=WAL;\nPRAGMA synchronous=FULL;\nPRAGMA busy_timeout=10000;\nPRAGMA foreign_keys=ON;\n")
		prev := events.GenesisHash()
		for i, c := range spendCommands(b.N) {
			sealed := c.Seal(int64(2*i), prev, map[string]int64{benchStream: int64(2 * i)})
			prev = sealed[len(sealed)-1].Hash
			script.WriteString("BEGIN IMMEDIATE;\nSELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1;\n")
			for _, e := range sealed {
				fmt.Fprintf(&script, "INSERT INTO events (seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash, hash) VALUES (%d, %s, %s, %s, %d, %s, %d, %s, %s, %s, %s, %s);\n",
					e.Seq, quote(e.ID), quote(e.CommandID), quote(e.Stream), e.StreamVersion, quote(e.Type), e.PayloadVersion,
					quote(string(e.Payload)), quote(e.Actor), quote(events.FormatTime(e.RecordedAt)),
					quote(hex.EncodeToString(e.PrevHash)), quote(hex.EncodeToString(e.Hash)))
			}
			script.WriteString("COMMIT;\n")
		}
		b.ResetTimer()
		runSQLite(b, bin, path, script.String())
		b.StopTimer()
		out := runSQLite(b, bin, path, "SELECT count(*) FROM events;")
		if got := strings.TrimSpace(out); got != strconv.Itoa(2*b.N) {
			b.Fatalf("%s events, want %d", got, 2*b.N)
		}
	})
}

// runSQLite pipes script to one sqlite3 process on path and returns what
// it printed.
func runSQLite(b *testing.B, bin, path, script string) string {
	b.Helper()
	cmd := exec.Command(bin, "-bail", path)
	cmd.Stdin = strings.NewReader(script)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		b.Fatalf("sqlite3: %v: %s", err, stderr.String())
	}
	return stdout.String()
}

// quote returns s as an SQL string literal.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// BenchmarkReadStream reads a character's 1,000-event stream out of a
// 100,000-event log in which it is interleaved with 200 other streams.
func BenchmarkReadStream(b *testing.B) {
	const total, mine, perCommand = 100_000, 1_000, 1_000
	s, err := Create(filepath.Join(b.TempDir(), "bench.ltscamp"), testOpts)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	buildLog(b, s, total, mine, perCommand)
	n := 0
	for b.Loop() {
		es, err := s.ReadStream(benchStream, 0)
		if err != nil {
			b.Fatal(err)
		}
		n = len(es)
	}
	if n != mine {
		b.Fatalf("read %d events, want %d", n, mine)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/mine, "ns/event")
}

// buildLog appends a reproducible log of total events in commands of
// perCommand events, mine of them spread evenly on benchStream and the
// rest over 200 other character streams.
func buildLog(b testing.TB, s *Store, total, mine, perCommand int) {
	b.Helper()
	ours := mine / (total / perCommand) // benchStream events per command
	for c := range total / perCommand {
		cmd := events.Command{
			ID: fmt.Sprintf("01LOGCMD%016d", c), Actor: "gm", RecordedAt: testNow,
			Expected: map[string]int64{benchStream: events.AnyVersion},
		}
		for i := range perCommand {
			seq := c*perCommand + i
			stream := fmt.Sprintf("character/%026d", seq%200)
			if i%(perCommand/ours) == 0 {
				stream = benchStream
			}
			cmd.Expected[stream] = events.AnyVersion
			cmd.Events = append(cmd.Events, events.Pending{
				ID: fmt.Sprintf("01LOGEV%019d", seq), Stream: stream, Type: events.TypeXPSpent, PayloadVersion: 1,
				Payload: xpSpendPayload(seq, seq%2 == 0),
			})
		}
		if _, err := s.Append(cmd); err != nil {
			b.Fatal(err)
		}
	}
	if n, _ := s.Count(); n != int64(total) {
		b.Fatalf("log of %d events, want %d", n, total)
	}
	if v, _ := s.StreamVersion(benchStream); v != int64(mine) {
		b.Fatalf("stream of %d events, want %d", v, mine)
	}
}
