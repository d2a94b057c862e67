package play

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/rules"
)

// The benchmarks of the screen (issue 23: each redraw takes at most
// 16 ms, with 30 combatants on screen). A redraw renders the table the
// model holds: it reads nothing, so the size of the log does not enter
// it; the read after a command is BenchmarkReload. bench/play.sh and
// docs/performance.md have the whole-process figures.

// benchTable opens a campaign in an encounter with 10 party members and
// 20 foes (30 combatants) and a log of rolls longer than the log window,
// each with its dice, so that the log pane is full.
func benchTable(b *testing.B) *campaign.Service {
	b.Helper()
	clock := time.Date(2026, 11, 26, 20, 0, 0, 0, time.UTC)
	opts := campaign.Options{Actor: "gm", Now: func() time.Time { return clock }}
	s, err := campaign.Create(filepath.Join(b.TempDir(), "c.ltscamp"), "Bench", rules.DefaultEdition, opts)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	must := func(_ any, err error) {
		b.Helper()
		if err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < 10; i++ {
		must(s.CreateCharacter(campaign.NewCharacter{
			Name: fmt.Sprintf("Hero %02d", i), Attributes: rules.Attributes{ST: 12, DX: 11, IQ: 9},
			Skills: []string{"Unarmed:2", "Medic:1"},
		}))
	}
	must(s.AdventureStart("Bench"))
	must(s.EncounterStart("Boarding", campaign.NewFoe{
		Name: "Pirate", Attributes: rules.Attributes{ST: 12, DX: 12, IQ: 9}, Weapon: "Cutlass", Count: 20,
	}))
	for i := 0; i < logWindow+20; i++ {
		must(s.Roll(campaign.RollRequest{
			Expr: "3/DX", Character: fmt.Sprintf("Hero %02d", i%10), Faces: []int{1 + i%6, 2, 3},
		}))
	}
	return s
}

// quietRunner runs nothing: a redraw calls no runner.
type quietRunner struct{}

func (quietRunner) Run(string, io.Writer, io.Writer) int { return 0 }
func (quietRunner) Complete(string) []Suggestion         { return nil }
func (quietRunner) Preview(string) string                { return "" }

func BenchmarkRedraw(b *testing.B) {
	s := benchTable(b)
	// At 80×24 and 120×40 the table is clipped to leave the log its
	// lines (all 30 are laid out, and drawn from 120×50).
	for _, size := range []struct{ w, h int }{{80, 24}, {120, 40}, {120, 50}} {
		b.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(b *testing.B) {
			m := newModel(Config{Runner: quietRunner{}, Reader: s})
			m.Update(tea.WindowSizeMsg{Width: size.w, Height: size.h})
			if n := m.rows(); n != 30 {
				b.Fatalf("the table holds %d combatants, want 30", n)
			}
			if m.readErr != "" {
				b.Fatal(m.readErr)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_ = m.View()
			}
		})
	}
}

// BenchmarkReload is the read a command's result is shown after (and a
// poll that found another process's events): the table with the log
// window, from the snapshots on. LTSCAMP_PLAY_BENCH_DB names another
// campaign to read instead (bench/play.sh gives it the 1,000,000 events'
// one); it is opened read-only.
func BenchmarkReload(b *testing.B) {
	var s *campaign.Service
	if path := os.Getenv("LTSCAMP_PLAY_BENCH_DB"); path != "" {
		var err error
		s, err = campaign.OpenReadOnly(path, campaign.Options{Actor: "gm", Now: time.Now})
		if err != nil {
			b.Fatal(err)
		}
		defer s.Close()
	} else {
		s = benchTable(b)
	}
	m := newModel(Config{Runner: quietRunner{}, Reader: s})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.reload()
	}
	if m.readErr != "" {
		b.Fatal(m.readErr)
	}
}
