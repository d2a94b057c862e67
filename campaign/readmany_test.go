package campaign

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/memstore"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor/interceptortest"
)

// referenceLists folds the party's and the foes' sheets, in roster order,
// from the whole log as of seq upTo (0: all), the plain way: every event
// read, no snapshot, no Service.
func referenceLists(t *testing.T, store events.Store, upTo int64) (party, foes []projections.Sheet) {
	t.Helper()
	sheets, _, roster := referenceFold(t, store, upTo)
	party, foes = []projections.Sheet{}, []projections.Sheet{}
	for _, m := range roster.Members {
		party = append(party, *sheets[m.Stream()])
	}
	for _, m := range roster.Foes {
		foes = append(foes, *sheets[m.Stream()])
	}
	return party, foes
}

// checkLists compares s's party and foes, as of upTo (0: now), with the
// plain fold of the log.
func checkLists(t *testing.T, s *Service, store events.Store, upTo int64, at string) {
	t.Helper()
	asOf := ""
	if upTo > 0 {
		asOf = fmt.Sprint(upTo)
	}
	party, foes := referenceLists(t, store, upTo)
	gotParty, err := s.SheetsAsOf(asOf)
	if err != nil {
		t.Fatalf("%s: party as of %q: %v", at, asOf, err)
	}
	if g, w := asJSON(t, gotParty), asJSON(t, party); g != w {
		t.Fatalf("%s: party as of %q\n got %s\nwant %s", at, asOf, g, w)
	}
	gotFoes, err := s.FoeSheetsAsOf(asOf)
	if err != nil {
		t.Fatalf("%s: foes as of %q: %v", at, asOf, err)
	}
	if g, w := asJSON(t, gotFoes), asJSON(t, foes); g != w {
		t.Fatalf("%s: foes as of %q\n got %s\nwant %s", at, asOf, g, w)
	}
}

// TestListsFoldInOnePass: on a generated campaign with no snapshot, the
// party is folded in one pass over the log, not one read per member: the
// members' streams are read only at their ends (their last rolls), a few
// events each. With the snapshots a rebuild saves, it reads each member
// from his snapshot instead, and no pass. Both equal the plain fold.
func TestListsFoldInOnePass(t *testing.T) {
	const members, per = 20, 300
	store := memstore.New()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := Generate(store, GenerateOptions{Characters: members, EventsPerCharacter: per, EventsPerCommand: 50, Seed: 3, Start: start, Edition: rules.Edition2021}); err != nil {
		t.Fatal(err)
	}
	if err := store.DropSnapshots(); err != nil { // whatever the generator saved
		t.Fatal(err)
	}
	s, err := New(store, Options{VerifyKept: true, Now: fixedClock(), Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	cs, c := counted(t, s)
	sheets, err := cs.Sheets()
	if err != nil {
		t.Fatal(err)
	}
	if len(sheets) != members {
		t.Fatalf("%d sheets, want %d", len(sheets), members)
	}
	if c.passes != 1 || c.streamEvents > 8*members {
		t.Fatalf("the party read %d passes over the log and %d events of single streams (%d reads); want one pass and at most %d", c.passes, c.streamEvents, c.streams, 8*members)
	}
	checkLists(t, s, store, 0, "no snapshot")
	head, _, _ := store.Head()
	checkLists(t, s, store, head/2, "no snapshot")

	if _, err := s.Rebuild(); err != nil {
		t.Fatal(err)
	}
	cs, c = counted(t, s)
	if _, err := cs.Sheets(); err != nil {
		t.Fatal(err)
	}
	if c.passes != 0 || c.streamEvents > members*s.rebuildEvery {
		t.Fatalf("with snapshots, the party read %d passes and %d events of single streams; want no pass and at most %d", c.passes, c.streamEvents, members*s.rebuildEvery)
	}
	checkLists(t, s, store, 0, "rebuilt")
	checkLists(t, s, store, head/3, "rebuilt")
}

// TestListsEqualTheFullFold plays random commands (rolls, contests,
// attacks, awards, spends, damage, foes added and removed, undos of the
// latest command and of commands deep in history, redos) and checks,
// every few steps, that the party and the foes, now and as of a random
// earlier point, equal the plain fold of the log: read by a service that
// saves snapshots as it goes (some members read from theirs, some in the
// pass), and by one that trusts none (the pass alone).
func TestListsEqualTheFullFold(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { listsProperty(t, seed, 150) })
	}
}

func listsProperty(t *testing.T, seed int64, steps int) {
	store := memstore.New()
	s, err := Init(store, "test", rules.Edition2021, Options{VerifyKept: true, Now: fixedClock(), Actor: "gm", Entropy: rand.New(rand.NewSource(seed))})
	if err != nil {
		t.Fatal(err)
	}
	s.snapEvery, s.revertsSnapEvery = 12, 8
	plain := *s
	plain.snapCode = "none"
	names := []string{"Ajax", "Hector", "Brann", "Cole"}
	for _, n := range names {
		mustCreate(t, s, n, 12, 11, 9, "Unarmed:2", "Medic:1")
	}
	if _, err := s.AdventureStart("The long one"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EncounterStart("brawl"); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(seed))
	die := func() int { return r.Intn(6) + 1 }
	var commands []string
	foes := 0
	passes := 0
	for step := 0; step < steps; step++ {
		who := names[r.Intn(len(names))]
		var err error
		var what string
		switch k := r.Intn(16); {
		case k < 4:
			what = "roll"
			_, err = s.Roll(RollRequest{Expr: "3/DX", Character: who, Faces: []int{die(), die(), die()}})
		case k == 4:
			what = "contest"
			_, err = s.Contest(ContestRequest{Sides: [2]string{who + ":ST", names[r.Intn(len(names))] + ":ST"}, Faces: [2][]int{{die(), die(), die()}, {die(), die(), die()}}})
		case k == 5:
			what = "foe"
			foes++
			_, err = s.AddFoe(NewFoe{Name: fmt.Sprint("Thug", foes), Attributes: rules.Attributes{ST: 10, DX: 11, IQ: 8}})
		case k == 6:
			what = "attack"
			target := who
			if foes > 0 {
				target = fmt.Sprint("Thug", 1+r.Intn(foes))
			}
			_, err = s.Attack(AttackRequest{Attacker: who, Target: target, HitFaces: []int{1, 2, die()}, DamageFaces: []int{die()}})
		case k == 7 && foes > 0:
			what = "remove foe"
			_, err = s.RemoveFoe(fmt.Sprint("Thug", 1+r.Intn(foes)), "fled")
		case k == 8:
			what = "award"
			_, err = s.AwardXP([]string{who}, 1+r.Intn(20), "play")
		case k == 9:
			what = "spend"
			_, err = s.SpendXP(Spend{Character: who, Target: []string{"ST", "DX", "IQ"}[r.Intn(3)], Levels: 1})
		case k == 10:
			what = "damage"
			_, _, err = s.Damage(DamageRequest{Name: who, Points: 1 + r.Intn(3), Source: "fall"})
		case k == 11:
			what = "undo"
			_, err = s.Undo(UndoRequest{Reason: "oops"})
		case k == 12 && len(commands) > 0:
			what = "deep undo"
			_, err = s.Undo(UndoRequest{Target: commands[r.Intn(len(commands))], Cascade: true, Reason: "retcon"})
		case k == 13:
			what = "redo"
			_, err = s.Redo(RedoRequest{})
		default:
			what = "karma"
			_, err = s.GrantKarma(who, 1, "luck")
		}
		if c := rules.CodeOf(err); c == rules.CodeInternal || c == rules.CodeInvalidLog {
			t.Fatalf("step %d (%s %s): %v", step, what, who, err)
		}
		if app := s.Appended(); len(app) > 0 && app[len(app)-1].Stream != events.CommandsStream {
			commands = append(commands, app[len(app)-1].CommandID)
		}
		if step%5 != 0 {
			continue
		}
		head, _, _ := store.Head()
		for _, upTo := range []int64{0, 1 + r.Int63n(head)} {
			at := fmt.Sprintf("step %d (%s)", step, what)
			checkLists(t, s, store, upTo, at+", with snapshots")
			cp, c := counted(t, &plain)
			checkLists(t, cp, store, upTo, at+", no snapshot")
			passes += c.passes
		}
	}
	if passes == 0 {
		t.Error("no list was read in a pass over the log: the run did not test it")
	}
}

// TestShipListsEqualEachShip: ship list and its detailed ships answer as
// reading each ship by name does, whether the ships are read one by one
// (their events few in a long log) or in one pass (a log of mostly ship
// events), after random hits, crew changes, repairs and undos.
func TestShipListsEqualEachShip(t *testing.T) {
	s, err := Init(memstore.New(), "test", rules.Edition2021, Options{VerifyKept: true, Now: fixedClock(), Actor: "gm", Entropy: rand.New(rand.NewSource(5)), Roller: seededRoller{rand.New(rand.NewSource(5))}})
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "Vess", 11, 11, 10, "Pilot:1")
	ships := []string{"Lark", "Wren", "Kite"}
	for _, n := range ships {
		if _, err := s.ShipNew(n, "Engineering3, Operations2, Living2, d6/2, M+1", "Vess"); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range []string{"Tern", "Skua"} {
		if _, err := s.DetailedShipNew(n, interceptortest.Tern(), n+".yaml"); err != nil {
			t.Fatal(err)
		}
	}
	r := rand.New(rand.NewSource(5))
	passes := 0
	check := func(step int) {
		cs, c := counted(t, s)
		list, err := cs.Ships()
		if err != nil {
			t.Fatal(err)
		}
		detailed, err := cs.DetailedShips()
		if err != nil {
			t.Fatal(err)
		}
		passes += c.passes
		if len(list) == 0 || len(detailed) == 0 {
			t.Fatalf("step %d: %d ships, %d detailed", step, len(list), len(detailed))
		}
		for _, got := range list {
			want, err := s.Ship(got.Name, "")
			if err != nil {
				t.Fatal(err)
			}
			if g, w := asJSON(t, got), asJSON(t, want); g != w {
				t.Fatalf("step %d: %s in the list\n got %s\nwant %s", step, got.Name, g, w)
			}
		}
		for _, got := range detailed {
			want, err := s.DetailedShip(got.Name, "")
			if err != nil {
				t.Fatal(err)
			}
			if g, w := asJSON(t, got), asJSON(t, want); g != w {
				t.Fatalf("step %d: %s in the list\n got %s\nwant %s", step, got.Name, g, w)
			}
		}
	}
	for step := range 60 {
		n := ships[r.Intn(len(ships))]
		var err error
		switch r.Intn(6) {
		case 0:
			_, err = s.ShipHit(ShipHitRequest{Ship: n, Damage: 1 + r.Intn(3), Inflict: -1, Source: "pirates"})
		case 1:
			_, err = s.ShipCrew(n, []string{"Operations", "Living"}[r.Intn(2)], []string{"Vess"})
		case 2:
			_, _, err = s.ShipRepair(n, "Engineering", 1)
		case 3:
			_, err = s.DetailedShipHit(DetailedHitRequest{Ship: []string{"Tern", "Skua"}[r.Intn(2)], Facing: "forward", Laser: 1 + r.Intn(4), Column: 1 + r.Intn(10), TurretRoll: 10})
		case 4:
			// A hit taken back: its events stay in the stream, out of
			// effect.
			if _, err = s.ShipHit(ShipHitRequest{Ship: n, Damage: 2, Inflict: -1, Source: "mistake"}); err == nil {
				_, err = s.Undo(UndoRequest{Reason: "oops"})
			}
		default:
			_, err = s.Roll(RollRequest{Expr: "3/DX", Character: "Vess", Faces: []int{1, 2, 3}})
		}
		if c := rules.CodeOf(err); c == rules.CodeInternal || c == rules.CodeInvalidLog {
			t.Fatalf("step %d: %v", step, err)
		}
		if step%4 == 0 {
			check(step)
		}
	}
	if passes == 0 {
		t.Error("no ship list was read in one pass: the run did not test it")
	}
	// A long log of other events: the ships are read one by one.
	for range 300 {
		if _, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Vess", Faces: []int{1, 2, 3}}); err != nil {
			t.Fatal(err)
		}
	}
	passes = 0
	check(-1)
	if passes != 0 {
		t.Errorf("the ships, a few events in a long log, were read in %d passes over it, not one by one", passes)
	}
}

// seededRoller rolls reproducible dice.
type seededRoller struct{ r *rand.Rand }

func (d seededRoller) Roll(count, sides int) ([]int, error) {
	out := make([]int, count)
	for i := range out {
		out[i] = 1 + d.r.Intn(sides)
	}
	return out, nil
}
