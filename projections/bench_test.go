package projections

import (
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

// BenchmarkFoldSheet folds a 1,001-event character stream (creation, then
// rolls, awards and spends) in memory: the projection's own cost, without
// the store.
func BenchmarkFoldSheet(b *testing.B) {
	payloads := []events.Payload{ajaxCreated()}
	for i := 0; i < 1000; i++ {
		switch i % 10 {
		case 0:
			payloads = append(payloads, events.XPAwarded{Amount: 2, Reason: "encounter"})
		case 1:
			payloads = append(payloads, events.KarmaGranted{Amount: 1})
		default:
			payloads = append(payloads, events.RollMade{CharacterID: "X", Character: "Ajax", Expr: "3/DX", Kind: "check", Dice: 3, Sides: 6,
				Faces: []int{1, 3, 6}, Sum: 10, Modifiers: []events.Modifier{}, Total: 10, Target: 11, Outcome: "pass", Margin: 1, Probability: 0.625, Edition: "2021"})
		}
	}
	evs := stream(b, payloads...)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := FoldSheet(evs)
		if err != nil {
			b.Fatal(err)
		}
		if s.Version != 1001 {
			b.Fatalf("folded %d", s.Version)
		}
	}
}
