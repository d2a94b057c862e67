package campaign

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/rules"
)

// BenchmarkImportRoster imports a roster of n characters (name, ST, DX, IQ,
// as the acceptance's CSV) into a new campaign file, the import and its
// read-back as one whole: linear, the time per character stays flat from
// 1,000 to 4,000. The floor beside it is the same campaign's `char new`
// of one character, which an import of n costs less than n of.
func BenchmarkImportRoster(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000} {
		r := Roster{}
		for i := range n {
			r.Characters = append(r.Characters, RosterCharacter{Source: Source{File: "r.csv", Line: i + 2}, Name: fmt.Sprintf("R%d", i+1), ST: 12, DX: 11, IQ: 9})
		}
		b.Run(fmt.Sprintf("characters=%d", n), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				s, err := Create(filepath.Join(b.TempDir(), fmt.Sprintf("r%d.ltscamp", i)), "bench", rules.Edition2021, Options{Now: time.Now, Actor: "bench"})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				res, err := s.ImportRoster(r, false)
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Characters) != n {
					b.Fatalf("imported %d characters, want %d", len(res.Characters), n)
				}
				b.StopTimer()
				s.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(n), "µs/character")
		})
	}
}
