package projections

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// The dogfight fold, given the dogfight stream, expect these craft, these
// positions and this round.

// dogfightPairs reads (ship, other, position) triples.
func dogfightPairs(ps ...string) []events.PairPosition {
	var out []events.PairPosition
	for i := 0; i+2 < len(ps); i += 3 {
		out = append(out, events.PairPosition{ShipID: ps[i], OtherID: ps[i+1], Position: ps[i+2]})
	}
	return out
}

func dogfightLog(t *testing.T, extra ...events.Payload) []events.Event {
	k, p, r := events.DogfightShip{ShipID: "K", Name: "Kit-Kat"}, events.DogfightShip{ShipID: "P", Name: "Pirate"}, events.DogfightShip{ShipID: "R", Name: "Raider"}
	steps := []step{
		{events.DogfightStream, "K1", events.DogfightStarted{Number: 1, Ships: []events.DogfightShip{k, p, r}}},
		// Round 1: the Kit-Kat maneuvers onto the Pirate's tail, the
		// Raider onto the Kit-Kat's, the Pirate fires a facing shot.
		{events.DogfightStream, "K2", events.DogfightManeuvered{Mover: k, Target: p, Pilot: "Ajax", TargetPilot: "Hook", Positions: dogfightPairs("K", "P", "pursuit", "P", "K", "fleeing")}},
		{events.DogfightStream, "K3", events.DogfightManeuvered{Mover: r, Target: k, Pilot: "Red", Positions: dogfightPairs("R", "K", "pursuit", "K", "R", "fleeing")}},
		{events.DogfightStream, "K4", events.DogfightFired{Attacker: p, Target: k, Gunner: "Hook", Kind: "facing"}},
	}
	for i, x := range extra {
		steps = append(steps, step{events.DogfightStream, "X" + string(rune('a'+i)), x})
	}
	return logOf(t, steps...)
}

func foldDogfight(t *testing.T, log []events.Event) Dogfight {
	t.Helper()
	var d Dogfight
	for _, e := range log {
		if err := d.Apply(e); err != nil {
			t.Fatalf("Apply(event %d): %v", e.Seq, err)
		}
	}
	return d
}

func TestDogfightFold(t *testing.T) {
	log := dogfightLog(t)
	d := foldDogfight(t, log)
	want := []DogfightCraft{{ID: "K", Name: "Kit-Kat", Pilot: "Ajax"}, {ID: "P", Name: "Pirate", Pilot: "Hook"}, {ID: "R", Name: "Raider", Pilot: "Red"}}
	if !d.Active || d.Number != 1 || d.Round != 2 || d.Version != 4 || !reflect.DeepEqual(d.Craft, want) {
		t.Errorf("dogfight %+v", d)
	}
	wantPairs := []DogfightPair{
		{A: "Kit-Kat", B: "Pirate", APosition: "pursuit", BPosition: "fleeing"},
		{A: "Kit-Kat", B: "Raider", APosition: "fleeing", BPosition: "pursuit"},
		{A: "Pirate", B: "Raider", APosition: "disengaged", BPosition: "disengaged"},
	}
	if !reflect.DeepEqual(d.Pairs, wantPairs) {
		t.Errorf("pairs:\n got %+v\nwant %+v", d.Pairs, wantPairs)
	}
	if d.Position("K", "P") != rules.Pursuit || d.Position("P", "R") != rules.Disengaged {
		t.Error("Position")
	}
	if !d.EngagedElsewhere("K", "P") || d.EngagedElsewhere("P", "K") || d.EngagedElsewhere("K", "Z") != true {
		t.Error("EngagedElsewhere")
	}
	if d.PursuerOf("P", "") != "K" || d.PursuerOf("P", "K") != "" || d.PursuerOf("K", "") != "R" || d.PursuerOf("R", "") != "" {
		t.Error("PursuerOf")
	}
	// The Raider pursuing the Pirate too would be a second pursuer; the
	// Pirate turning on the Raider would not.
	if got := d.SecondPursuer("R", "P", rules.Pursuit, rules.Fleeing); got != "K" {
		t.Errorf("SecondPursuer = %q, want K", got)
	}
	if got := d.SecondPursuer("P", "R", rules.Fleeing, rules.Pursuit); got != "K" {
		t.Errorf("SecondPursuer as target = %q, want K", got)
	}
	if got := d.SecondPursuer("P", "R", rules.Turning, rules.Turning); got != "" {
		t.Errorf("SecondPursuer of turning craft = %q", got)
	}
	if got := d.Targets("K"); !slices.Equal(got, []string{"P"}) {
		t.Errorf("Targets(K) = %q", got)
	}
	if c, ok := d.CraftByID("R"); !ok || c.Name != "Raider" {
		t.Errorf("CraftByID(R) = %+v, %t", c, ok)
	}
	if _, ok := d.CraftByID("Z"); ok {
		t.Error("CraftByID(Z)")
	}
	// Round 2: only the Kit-Kat has acted; the round ends once the others
	// have, or cannot.
	more := dogfightLog(t, events.DogfightManeuvered{Mover: events.DogfightShip{ShipID: "K", Name: "Kit-Kat"}, Target: events.DogfightShip{ShipID: "P", Name: "Pirate"}, Pilot: "Ajax",
		Positions: dogfightPairs("K", "P", "turning", "P", "K", "turning")})
	d = foldDogfight(t, more)
	all := func(string) bool { return true }
	none := func(id string) bool { return id == "K" }
	if d.Round != 2 || d.EffectiveRound(all) != 2 || d.EffectiveRound(none) != 3 || d.FirstRound(all) || d.FirstRound(none) {
		t.Errorf("round %d, effective %d / %d", d.Round, d.EffectiveRound(all), d.EffectiveRound(none))
	}
	fresh := foldDogfight(t, log[:1])
	if !fresh.FirstRound(all) || fresh.EffectiveRound(all) != 1 || fresh.EffectiveRound(func(string) bool { return false }) != 1 {
		t.Errorf("a fresh dogfight: round %d", fresh.EffectiveRound(all))
	}
	// The Pirate exits: its pairs go, and the round ends when the Raider
	// acts.
	exit := dogfightLog(t, events.DogfightExited{Ship: events.DogfightShip{ShipID: "P", Name: "Pirate"}},
		events.DogfightManeuvered{Mover: events.DogfightShip{ShipID: "R", Name: "Raider"}, Target: events.DogfightShip{ShipID: "K", Name: "Kit-Kat"}, Pilot: "Red", Positions: dogfightPairs("R", "K", "disengaged", "K", "R", "disengaged")},
		events.DogfightManeuvered{Mover: events.DogfightShip{ShipID: "K", Name: "Kit-Kat"}, Target: events.DogfightShip{ShipID: "R", Name: "Raider"}, Pilot: "Ajax", Positions: dogfightPairs("K", "R", "turning", "R", "K", "turning")},
		events.DogfightEnded{Number: 1})
	d = foldDogfight(t, exit)
	if d.Active || d.Round != 3 || len(d.Pairs) != 1 || d.Pairs[0] != (DogfightPair{A: "Kit-Kat", B: "Raider", APosition: "turning", BPosition: "turning"}) || !d.Craft[1].Exited {
		t.Errorf("after the exit: %+v", d)
	}
	if d.Position("K", "P") != rules.Disengaged || len(d.Targets("K")) != 0 {
		t.Error("the exited craft's positions remain")
	}
}

// TestDogfightFoldReroll: a karma re-roll replaces the dogfight's latest
// maneuver or shot: the dogfight is rewound to before it.
func TestDogfightFoldReroll(t *testing.T) {
	log := dogfightLog(t)
	k, p := events.DogfightShip{ShipID: "K", Name: "Kit-Kat"}, events.DogfightShip{ShipID: "P", Name: "Pirate"}
	redo := events.DogfightFired{Attacker: p, Target: k, Gunner: "Hook", Kind: "facing", Rerolls: log[3].ID, RerolledBy: "Hook"}
	d := foldDogfight(t, dogfightLog(t, redo))
	if d.Round != 2 || d.Latest() != "Exxxx" {
		t.Errorf("after the re-roll: round %d, latest %q", d.Round, d.Latest())
	}
	b, ok := d.Before()
	if !ok || b.Round != 1 || b.Latest() != "" {
		t.Errorf("before: %+v, %t", b, ok)
	}
	stale := events.DogfightManeuvered{Mover: k, Target: p, Pilot: "Ajax", Rerolls: log[1].ID, RerolledBy: "Ajax"}
	var s Dogfight
	bad := dogfightLog(t, stale)
	for _, e := range bad[:4] {
		if err := s.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Apply(bad[4]); err == nil || !strings.Contains(err.Error(), "which is not the dogfight's latest maneuver or shot") {
		t.Errorf("a stale re-roll: %v", err)
	}
	var none Dogfight
	if _, ok := none.Before(); ok || none.Latest() != "" {
		t.Error("a dogfight with nothing to re-roll")
	}
	if err := none.Apply(logOf(t, step{events.DogfightStream, "K", events.XPAwarded{Amount: 1}})[0]); err == nil || !strings.Contains(err.Error(), "does not belong on the dogfight stream") {
		t.Errorf("an award on the dogfight stream: %v", err)
	}
	if err := none.Apply(events.Event{Seq: 1, Type: events.TypeDogfightStarted, PayloadVersion: 1, Payload: []byte("{")}); err == nil {
		t.Error("a bad payload folded")
	}
}
