package campaign

import (
	"errors"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/memstore"
	"github.com/ltscamp/ltscamp/rules"
)

// failingLoads is a store whose Load fails from its nth call on.
type failingLoads struct {
	events.Store
	calls, n int
}

var errLoad = errors.New("disk full")

func (s *failingLoads) Load(batch []events.Event) error {
	if s.calls++; s.calls >= s.n {
		return errLoad
	}
	return s.Store.Load(batch)
}

// TestGenerateReportsAFailedLoad checks that a batch the store refuses,
// loaded while the next ones are made, stops the generator with its
// error, and that nothing after it is loaded.
func TestGenerateReportsAFailedLoad(t *testing.T) {
	for _, n := range []int{1, 2, 3} {
		st := &failingLoads{Store: memstore.New(), n: n}
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		_, err := Generate(st, GenerateOptions{Characters: 10, EventsPerCharacter: 4000, EventsPerCommand: 100, Seed: 1, Start: start, Edition: rules.Edition2021})
		if !errors.Is(err, errLoad) {
			t.Fatalf("Load failing at call %d: Generate = %v, want %v", n, err, errLoad)
		}
		if count, _ := st.Count(); count != int64((n-1)*generateBatch) {
			t.Fatalf("Load failing at call %d: %d events loaded, want %d", n, count, (n-1)*generateBatch)
		}
	}
}
