package campaign

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/memstore"
	"github.com/ltscamp/ltscamp/rules"
)

// TestUndoAroundEqualsUndoOnTheWholeLog plays the same random commands,
// undos of the latest and of deep commands, redos and undos of undos, on
// two campaigns: one decides undo and redo on the history around the
// commands named, the other on the whole log. Every step must end alike,
// refusals word for word, and the two logs must stay the same.
func TestUndoAroundEqualsUndoOnTheWholeLog(t *testing.T) {
	var undone, refused int
	for seed := int64(1); seed <= 8; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			u, r := undoDifferential(t, seed, 150)
			undone, refused = undone+u, refused+r
		})
	}
	// The runs must have tested what they claim to.
	if undone < 20 || refused < 3 {
		t.Fatalf("the runs logged %d undos and saw %d refused for later commands depending on them: too little", undone, refused)
	}
}

// undoDifferential plays one seed's commands; it returns how many undos
// were logged, and how many refused because later commands depend on the
// command undone.
func undoDifferential(t *testing.T, seed int64, steps int) (undone, refused int) {
	play := func(whole bool) (*Service, events.Store) {
		store := memstore.New()
		s, err := Init(store, "test", rules.Edition2021, Options{VerifyKept: true, Now: fixedClock(), Actor: "gm", Entropy: rand.New(rand.NewSource(seed))})
		if err != nil {
			t.Fatal(err)
		}
		s.undoWhole = whole
		mustCreate(t, s, "Ajax", 12, 11, 9, "Unarmed:2", "Medic:2")
		mustCreate(t, s, "Hector", 11, 12, 9)
		mustCreate(t, s, "Brann", 10, 11, 11, "Medic:1")
		if _, err := s.AdventureStart("The long one"); err != nil {
			t.Fatal(err)
		}
		return s, store
	}
	around, aStore := play(false)
	whole, wStore := play(true)
	names := []string{"Ajax", "Hector", "Brann"}
	r := rand.New(rand.NewSource(seed))
	die := func() int { return r.Intn(6) + 1 }
	var seqs []int64 // seqs of logged events, for deep undos and redos
	for step := 0; step < steps; step++ {
		who, other := names[r.Intn(3)], names[r.Intn(3)]
		var run func(s *Service) error
		switch k := r.Intn(15); {
		case k < 2:
			faces := []int{die(), die(), die()}
			run = func(s *Service) error {
				_, err := s.Roll(RollRequest{Expr: "3/DX", Character: who, Faces: faces})
				return err
			}
		case k == 2:
			n := 10 + r.Intn(30)
			run = func(s *Service) error { _, err := s.AwardXP([]string{who}, n, "play"); return err }
		case k == 3 || k == 13:
			attr := []string{"ST", "DX", "IQ"}[r.Intn(3)]
			run = func(s *Service) error {
				_, err := s.SpendXP(Spend{Character: who, Target: attr, Levels: 1})
				return err
			}
		case k == 4:
			a, b := []int{die(), die(), die()}, []int{die(), die(), die()}
			run = func(s *Service) error {
				_, err := s.Contest(ContestRequest{Sides: [2]string{who + " DX", other + " DX"}, Faces: [2][]int{a, b}})
				return err
			}
		case k == 5:
			n := 1 + r.Intn(4)
			run = func(s *Service) error {
				_, _, err := s.Damage(DamageRequest{Name: who, Points: n, Source: "fall"})
				return err
			}
		case k == 6:
			faces := []int{die(), die(), die()}
			run = func(s *Service) error {
				_, err := s.Heal(HealRequest{Name: who, Medic: other, MedicFaces: faces, Source: "field"})
				return err
			}
		case k == 7:
			run = func(s *Service) error { _, err := s.EncounterStart("ambush"); return err }
		case k == 8:
			run = func(s *Service) error { _, err := s.EncounterEnd("won", nil); return err }
		case k == 9:
			run = func(s *Service) error { _, err := s.Undo(UndoRequest{Reason: "oops"}); return err }
		case k == 10 && len(seqs) > 0:
			seq := seqs[r.Intn(len(seqs))]
			cascade := r.Intn(2) == 0
			run = func(s *Service) error {
				_, err := s.Undo(UndoRequest{Target: fmt.Sprint(seq), Cascade: cascade, Reason: "retcon"})
				return err
			}
		case k == 11 && len(seqs) > 0:
			seq := seqs[r.Intn(len(seqs))]
			run = func(s *Service) error { _, err := s.Redo(RedoRequest{Target: fmt.Sprint(seq)}); return err }
		case k == 12:
			run = func(s *Service) error { _, err := s.Redo(RedoRequest{}); return err }
		default:
			run = func(s *Service) error { _, err := s.DayNext(1); return err }
		}
		errA, errW := run(around), run(whole)
		if fmt.Sprint(errA) != fmt.Sprint(errW) {
			t.Fatalf("step %d: around: %v\nwhole log: %v", step, errA, errW)
		}
		if c := rules.CodeOf(errA); c == rules.CodeInternal || c == rules.CodeInvalidLog {
			t.Fatalf("step %d: %v", step, errA)
		}
		if errA != nil && strings.Contains(errA.Error(), "later commands depend on it") {
			refused++
		}
		logA, _ := aStore.Read(events.Query{})
		logW, _ := wStore.Read(events.Query{})
		if len(logA) != len(logW) || len(logA) > 0 && string(logA[len(logA)-1].Hash) != string(logW[len(logW)-1].Hash) {
			t.Fatalf("step %d: the logs differ: %d events around, %d on the whole log", step, len(logA), len(logW))
		}
		if errA == nil {
			last := logA[len(logA)-1]
			seqs = append(seqs, last.Seq)
			if last.Type == events.TypeCommandReverted {
				undone++
			}
		}
	}
	return undone, refused
}
