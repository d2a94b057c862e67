package projections

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// diceIDAt is the ID logOf gives the i-th event of a log (from 0).
func diceIDAt(i int) string { return "E" + strings.Repeat("x", i) }

// diceTallyOf folds a log, built by logOf, into a dice tally under f, with a
// lookup that reads the log back by ID. It returns the first error.
func diceTallyOf(t *testing.T, f DiceFilter, steps ...step) (*DiceTally, error) {
	t.Helper()
	log := logOf(t, steps...)
	byID := map[string]events.Event{}
	for _, e := range log {
		byID[e.ID] = e
	}
	tally := NewDiceTally(f, func(id string) (events.Event, error) {
		if e, ok := byID[id]; ok {
			return e, nil
		}
		return events.Event{}, fmt.Errorf("no event %s", id)
	})
	for _, e := range log {
		p, err := events.Decode(e)
		if err != nil {
			t.Fatal(err)
		}
		if err := tally.Apply(e, p); err != nil {
			return tally, err
		}
	}
	return tally, nil
}

// mustDiceTally is diceTallyOf, failing the test on an error.
func mustDiceTally(t *testing.T, f DiceFilter, steps ...step) *DiceTally {
	t.Helper()
	tally, err := diceTallyOf(t, f, steps...)
	if err != nil {
		t.Fatal(err)
	}
	return tally
}

// diceTallyFaces are the tally's d6 faces of one source, keyed "actor/physical"
// or "/program".
func diceTallyFaces(tally *DiceTally) map[string][]int64 {
	out := map[string][]int64{}
	for _, s := range tally.Sources {
		k := "/program"
		if s.Physical {
			k = s.Actor + "/physical"
		}
		if s.Sides != 6 {
			k += fmt.Sprintf("/d%d", s.Sides)
		}
		out[k] = s.Counts
	}
	return out
}

// diceLuckCounts are a character's checks that stood and were replaced, as
// (checks, passed) pairs.
func diceLuckCounts(t *testing.T, tally *DiceTally, id string) (stood, replaced [2]int) {
	t.Helper()
	for _, c := range tally.Characters {
		if c.CharacterID == id {
			stood[0], stood[1] = c.Stood.Checks()
			replaced[0], replaced[1] = c.Replaced.Checks()
			return stood, replaced
		}
	}
	return stood, replaced
}

// diceHit is a hit roll of 3d6 against target.
func diceHit(faces []int, target int) events.AttackRoll {
	sum := 0
	for _, f := range faces {
		sum += f
	}
	out := "miss"
	if sum <= target {
		out = "hit"
	}
	return events.AttackRoll{Expr: "3/DX", Faces: faces, Entered: true, Sum: sum, Total: sum, Target: target, Outcome: out, Modifiers: []events.Modifier{}}
}

// diceDamage is a damage roll.
func diceDamage(faces ...int) *events.AttackRoll {
	sum := 0
	for _, f := range faces {
		sum += f
	}
	return &events.AttackRoll{Expr: fmt.Sprintf("%dd6", len(faces)), Faces: faces, Entered: true, Sum: sum, Total: sum, Modifiers: []events.Modifier{}}
}

// diceCheck is Ajax's 3/DX at DX 11 with faces entered.
func diceCheck(faces ...int) events.RollMade {
	sum := faces[0] + faces[1] + faces[2]
	out := "fail"
	if sum <= 11 {
		out = "pass"
	}
	return events.RollMade{CharacterID: "A", Character: "Ajax", Expr: "3/DX", Kind: "check", Dice: 3, Sides: 6, Faces: faces, Entered: true,
		Sum: sum, Total: sum, Target: 11, Outcome: out, Margin: 11 - sum, Probability: rules.PassProbability(3, 11, 0), AttributeValue: 11,
		Modifiers: []events.Modifier{}, Edition: "2021"}
}

func diceCounts(c ...int64) []int64 { return c }

func TestDiceTallyAttacks(t *testing.T) {
	const ajax, foe = "character/A", "foe/F"
	attack := func(hit events.AttackRoll, dmg *events.AttackRoll) events.AttackMade {
		return events.AttackMade{AttackerID: "A", Attacker: "Ajax", TargetID: "F", Target: "Orc", Weapon: "knife", WeaponName: "Knife", DX: 11,
			Hit: hit, Damage: dmg, Edition: "2021"}
	}
	first := attack(diceHit([]int{1, 2, 3}, 11), diceDamage(4, 5))
	damageAgain := attack(diceHit([]int{1, 2, 3}, 11), diceDamage(6, 6))
	damageAgain.Rerolls, damageAgain.Rerolled = diceIDAt(0), "damage"
	missed := attack(diceHit([]int{6, 6, 5}, 11), nil)
	hitAgain := attack(diceHit([]int{2, 2, 2}, 11), diceDamage(3, 3))
	hitAgain.Rerolls, hitAgain.Rerolled = diceIDAt(0), "hit"
	hitOnly := attack(diceHit([]int{1, 2, 3}, 11), nil)
	hitOnly.HitOnly = true
	completed := attack(diceHit([]int{1, 2, 3}, 11), diceDamage(2, 2))
	completed.HitOnly, completed.Completes = true, diceIDAt(0)
	dodged := hitOnly
	dodged.Completes, dodged.Dodge = diceIDAt(0), &events.AttackRoll{Expr: "3/DX", Faces: []int{5, 5, 5}, Entered: true, Sum: 15, Total: 15, Target: 10, Outcome: "fail", Modifiers: []events.Modifier{}}
	dodgedThenDamage := dodged
	dodgedThenDamage.Completes, dodgedThenDamage.Damage = diceIDAt(1), diceDamage(1, 4)
	p := rules.PassProbability(3, 11, 0)

	cases := []struct {
		name             string
		steps            []step
		faces            []int64
		stood, replaced  [2]int
		stoodP, replaceP float64
	}{
		{"one attack: hit and damage", []step{{ajax, "K1", first}}, diceCounts(1, 1, 1, 1, 1, 0), [2]int{1, 1}, [2]int{}, p, 0},
		// The damage thrown again: its two new faces, not the hit again,
		// and no second check.
		{"damage re-rolled", []step{{ajax, "K1", first}, {ajax, "K2", damageAgain}}, diceCounts(1, 1, 1, 1, 1, 2), [2]int{1, 1}, [2]int{}, p, 0},
		// The hit thrown again: a new check, the missed one replaced.
		{"hit re-rolled", []step{{ajax, "K1", missed}, {ajax, "K2", hitAgain}}, diceCounts(0, 3, 2, 0, 1, 2), [2]int{1, 1}, [2]int{1, 0}, p, p},
		// A completion keeps the hit: its damage dice alone are new.
		{"completion", []step{{ajax, "K1", hitOnly}, {ajax, "K2", completed}}, diceCounts(1, 3, 1, 0, 0, 0), [2]int{1, 1}, [2]int{}, p, 0},
		// The dodge completes it first, then the damage: the dodge's faces
		// once, though the second completion carries them.
		{"dodge then damage", []step{{ajax, "K1", hitOnly}, {foe, "K2", dodged}, {ajax, "K3", dodgedThenDamage}}, diceCounts(2, 1, 1, 1, 3, 0), [2]int{1, 1}, [2]int{}, p, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tally := mustDiceTally(t, DiceFilter{}, c.steps...)
			got := diceTallyFaces(tally)
			if len(got) != 1 || !slices.Equal(got["gm/physical"], c.faces) {
				t.Errorf("faces %v, want gm's physical %v", got, c.faces)
			}
			stood, replaced := diceLuckCounts(t, tally, "A")
			if stood != c.stood || replaced != c.replaced {
				t.Errorf("Ajax's checks: stood %v, replaced %v; want %v, %v", stood, replaced, c.stood, c.replaced)
			}
			if len(tally.Characters) != 1 {
				t.Fatalf("characters %+v: only the attacker makes a check", tally.Characters)
			}
			ch := tally.Characters[0]
			if e := ch.Stood.Expected(); e != c.stoodP {
				t.Errorf("stood expected %v, want %v", e, c.stoodP)
			}
			if e := ch.Replaced.Expected(); e != c.replaceP {
				t.Errorf("replaced expected %v, want %v", e, c.replaceP)
			}
		})
	}

	// The target's filter keeps the dodge, not the attacker's dice.
	tally := mustDiceTally(t, DiceFilter{Character: "F"}, step{ajax, "K1", hitOnly}, step{foe, "K2", dodged})
	if got := diceTallyFaces(tally); !slices.Equal(got["gm/physical"], diceCounts(0, 0, 0, 0, 3, 0)) || len(tally.Characters) != 0 {
		t.Errorf("the target's dice: %v, characters %+v", got, tally.Characters)
	}
}

func TestDiceTallyContestReroll(t *testing.T) {
	side := func(id, name string, faces []int) events.ContestSide {
		return events.ContestSide{CharacterID: id, Name: name, Attribute: "ST", Value: 12, Dice: 3, Target: 12, Faces: faces, Entered: true, Modifiers: []events.Modifier{}}
	}
	first := events.ContestResolved{Sides: [2]events.ContestSide{side("A", "Ajax", []int{6, 5, 4}), side("H", "Hector", []int{2, 2, 2})}, Winner: 1, Outcome: "win", Edition: "2021"}
	again := first
	again.Sides[0] = side("A", "Ajax", []int{1, 1, 3})
	again.Winner, again.Rerolls = 0, diceIDAt(0)
	steps := []step{{"character/A", "K1", first}, {"character/A", "K2", again}}

	tally := mustDiceTally(t, DiceFilter{}, steps...)
	// Ajax's side thrown twice; Hector's kept, counted once.
	if got := diceTallyFaces(tally)["gm/physical"]; !slices.Equal(got, diceCounts(2, 3, 1, 1, 1, 1)) {
		t.Errorf("faces %v", got)
	}
	if len(tally.Characters) != 0 {
		t.Errorf("a contest is no check of the luck: %+v", tally.Characters)
	}
	// Hector's alone: his three faces, once.
	if got := diceTallyFaces(mustDiceTally(t, DiceFilter{Character: "H"}, steps...)); !slices.Equal(got["gm/physical"], diceCounts(0, 3, 0, 0, 0, 0)) {
		t.Errorf("Hector's faces %v", got)
	}
}

func TestDiceTallyInitiative(t *testing.T) {
	first := events.InitiativeRolled{Encounter: 1, Party: []int{3, 5}, Foes: []int{3, 2}, Entered: true, First: "party", Edition: "2021"}
	steps := []step{{"turns", "K1", first}}
	if got := diceTallyFaces(mustDiceTally(t, DiceFilter{}, steps...)); !slices.Equal(got["gm/physical"], diceCounts(0, 1, 2, 0, 1, 0)) {
		t.Errorf("the initiative's four dice: %v", got)
	}
	// Nobody's dice: a character's report has none of them.
	if got := mustDiceTally(t, DiceFilter{Character: "A"}, steps...); len(got.Sources) != 0 {
		t.Errorf("a character's filter kept the initiative: %+v", got.Sources[0])
	}
	// The program's dice are a source apart.
	first.Entered = false
	if got := diceTallyFaces(mustDiceTally(t, DiceFilter{}, step{"turns", "K1", first})); !slices.Equal(got["/program"], diceCounts(0, 1, 2, 0, 1, 0)) || len(got) != 1 {
		t.Errorf("the program's initiative: %v", got)
	}
}

// TestDiceTallyInitiativeReroll: a karma re-roll of the initiative throws
// one side's die again; the other side's last die is kept and written
// again in the new event (campaign/reroll_initiative.go, "The other
// side's die is kept"). It was thrown once, and is counted once.
func TestDiceTallyInitiativeReroll(t *testing.T) {
	first := events.InitiativeRolled{Encounter: 1, Party: []int{2}, Foes: []int{4}, Entered: true, First: "foes", Edition: "2021"}
	again := events.InitiativeRolled{Encounter: 1, Party: []int{6}, Foes: []int{4}, Entered: true, First: "party", Edition: "2021",
		Rerolls: diceIDAt(0), Karma: &events.InitiativeKarma{ID: "A", Name: "Ajax", Side: "party"}}
	tally := mustDiceTally(t, DiceFilter{}, step{"turns", "K1", first}, step{"turns", "K2", again})
	if got := diceTallyFaces(tally)["gm/physical"]; !slices.Equal(got, diceCounts(0, 1, 0, 1, 0, 1)) {
		t.Errorf("faces %v: want the party's 2 and 6 and the foes' 4 once", got)
	}
}

func TestDiceTallyFacesAndRerolls(t *testing.T) {
	const ajax = "character/A"
	bare := func(sides int, faces ...int) events.RollMade {
		return events.RollMade{Expr: fmt.Sprintf("%dd%d", len(faces), sides), Kind: "dice", Dice: len(faces), Sides: sides, Faces: faces, Entered: true, Outcome: "rolled", Modifiers: []events.Modifier{}}
	}
	// Faces outside 1..sides are no face of the die, and a die of fewer
	// than two sides no source.
	tally := mustDiceTally(t, DiceFilter{}, step{"dice", "K1", bare(6, 0, 7, 3, -1, 6)}, step{"dice", "K2", bare(1, 1, 1)}, step{"dice", "K3", bare(20, 20, 21, 1)})
	got := diceTallyFaces(tally)
	if !slices.Equal(got["gm/physical"], diceCounts(0, 0, 1, 0, 0, 1)) || len(got) != 2 {
		t.Errorf("faces %v, want only the 3 and the 6 of the d6", got)
	}
	if d20 := got["gm/physical/d20"]; len(d20) != 20 || d20[0] != 1 || d20[19] != 1 || tally.Sources[1].Total() != 2 {
		t.Errorf("d20 faces %v", d20)
	}

	// A check re-rolled: the new one stands, the old one is set apart;
	// re-rolled again, both earlier ones are.
	failed := diceCheck(6, 5, 4)
	again := diceCheck(6, 4, 3)
	again.Rerolls = diceIDAt(0)
	third := diceCheck(1, 1, 1)
	third.Rerolls = diceIDAt(1)
	tally = mustDiceTally(t, DiceFilter{}, step{ajax, "K1", failed}, step{ajax, "K2", again}, step{ajax, "K3", third})
	stood, replaced := diceLuckCounts(t, tally, "A")
	if stood != [2]int{1, 1} || replaced != [2]int{2, 0} {
		t.Errorf("stood %v, replaced %v; want [1 1], [2 0]", stood, replaced)
	}
	if got := diceTallyFaces(tally)["gm/physical"]; !slices.Equal(got, diceCounts(3, 0, 1, 2, 1, 2)) {
		t.Errorf("faces %v: every throw counts", got)
	}
	// A required skill lacked throws no dice: no check of the luck.
	lacking := diceCheck(1, 1, 1)
	lacking.Faces, lacking.Outcome, lacking.Expr = []int{}, "fail", "3/ST against Swimming"
	if tally := mustDiceTally(t, DiceFilter{}, step{ajax, "K1", lacking}); len(tally.Characters) != 0 || len(tally.Sources) != 0 {
		t.Errorf("a check without dice: %+v, %+v", tally.Characters, tally.Sources)
	}
}

func TestDiceTallyAdventures(t *testing.T) {
	const ajax = "character/A"
	stamped := diceCheck(1, 2, 3)
	stamped.At = &events.GameTime{Adventure: 2, Day: 1}
	steps := []step{
		{ajax, "K1", diceCheck(1, 1, 1)}, // no stamp, between adventures
		{events.CampaignStream, "K2", events.AdventureStarted{Number: 1, Title: "One"}},
		{ajax, "K3", diceCheck(2, 2, 2)}, // no stamp: the clock's adventure 1
		{events.CampaignStream, "K4", events.AdventureEnded{Number: 1}},
		{ajax, "K5", stamped}, // its stamp's adventure 2
	}
	tally := mustDiceTally(t, DiceFilter{}, steps...)
	var advs []int
	for _, a := range tally.Characters[0].Adventures {
		n, _ := a.Checks.Checks()
		advs = append(advs, a.Adventure, n)
	}
	if !slices.Equal(advs, []int{0, 1, 1, 1, 2, 1}) {
		t.Errorf("adventure, checks: %v", advs)
	}
	if got := diceTallyFaces(mustDiceTally(t, DiceFilter{Adventure: 1}, steps...))["gm/physical"]; !slices.Equal(got, diceCounts(0, 3, 0, 0, 0, 0)) {
		t.Errorf("adventure 1's faces %v", got)
	}
	if got := diceTallyFaces(mustDiceTally(t, DiceFilter{Adventure: 2}, steps...))["gm/physical"]; !slices.Equal(got, diceCounts(1, 1, 1, 0, 0, 0)) {
		t.Errorf("adventure 2's faces %v", got)
	}
}

// TestDiceTallyLookupErrors: a re-roll whose original cannot be read back
// fails the fold with the lookup's error.
func TestDiceTallyLookupErrors(t *testing.T) {
	gone := diceCheck(1, 1, 1)
	gone.Rerolls = "E-missing"
	_, err := diceTallyOf(t, DiceFilter{}, step{"character/A", "K1", gone})
	if err == nil || !strings.Contains(err.Error(), "no event E-missing") || !strings.Contains(err.Error(), "E-missing") {
		t.Errorf("a re-roll of a roll not in the log: %v", err)
	}

	// The lookup's own error is wrapped, so a caller can tell it.
	sentinel := errors.New("disk on fire")
	tally := NewDiceTally(DiceFilter{}, func(string) (events.Event, error) { return events.Event{}, sentinel })
	for _, p := range []events.Payload{
		&events.RollMade{CharacterID: "A", Character: "Ajax", Kind: "check", Sides: 6, Faces: []int{1, 1, 1}, Rerolls: "X"},
		&events.AttackMade{AttackerID: "A", Attacker: "Ajax", Hit: diceHit([]int{1, 1, 1}, 11), Rerolls: "X", Rerolled: "hit"},
		&events.AttackMade{AttackerID: "A", Attacker: "Ajax", Hit: diceHit([]int{1, 1, 1}, 11), Completes: "X"},
		&events.ContestResolved{Rerolls: "X"},
	} {
		if err := tally.Apply(events.Event{Seq: 9, Type: p.EventType()}, p); !errors.Is(err, sentinel) {
			t.Errorf("%s: err %v, want the lookup's", p.EventType(), err)
		}
	}

	// A read back of the wrong type is an error too, and no lookup at all.
	wrong := diceCheck(1, 1, 1)
	wrong.Rerolls = diceIDAt(0)
	if _, err := diceTallyOf(t, DiceFilter{}, step{"turns", "K1", events.InitiativeRolled{Party: []int{1}, Foes: []int{2}}}, step{"character/A", "K2", wrong}); err == nil {
		t.Error("a re-roll of an initiative as a roll: no error")
	}
	if err := NewDiceTally(DiceFilter{}, nil).Apply(events.Event{}, &gone); err == nil {
		t.Error("a re-roll with no lookup: no error")
	}
}

// TestDiceTallyDogfight: a dogfight's dice are the pilots' contest, the
// gunner's check and the weapon's dice; a re-roll of the shot counts only
// what it threw again.
func TestDiceTallyDogfight(t *testing.T) {
	side := func(faces ...int) events.ContestSide { return events.ContestSide{Faces: faces, Entered: true} }
	m := &events.DogfightManeuvered{Contest: &events.ContestResolved{Sides: [2]events.ContestSide{side(1, 1, 1), side(2, 2, 2)}}}
	shot := &events.DogfightFired{PilotContest: &events.ContestResolved{Sides: [2]events.ContestSide{side(3, 3, 3), side(4, 4, 4)}},
		Check: events.AttackRoll{Faces: []int{5, 5, 5}, Entered: true}, Damage: &events.AttackRoll{Faces: []int{6}, Entered: true}}
	again := *shot
	again.Rerolls = "SHOT"
	again.Damage = &events.AttackRoll{Faces: []int{1}, Entered: true}
	shotEvent := events.Event{ID: "SHOT", Type: events.TypeDogfightFired, Actor: "gm"}
	raw, err := json.Marshal(shot)
	if err != nil {
		t.Fatal(err)
	}
	shotEvent.Payload, shotEvent.PayloadVersion = raw, 1
	tally := NewDiceTally(DiceFilter{}, func(id string) (events.Event, error) {
		if id != "SHOT" {
			t.Fatalf("read back %s", id)
		}
		return shotEvent, nil
	})
	for _, p := range []events.Payload{m, shot, &again} {
		if err := tally.Apply(events.Event{Type: p.EventType(), Actor: "gm"}, p); err != nil {
			t.Fatal(err)
		}
	}
	if len(tally.Sources) != 1 {
		t.Fatalf("sources %+v", tally.Sources)
	}
	// 1s: three of the maneuver and the re-rolled damage die; each other
	// face three times, the 6 once.
	if got, want := tally.Sources[0].Counts, []int64{4, 3, 3, 3, 3, 1}; !slices.Equal(got, want) {
		t.Errorf("faces %v, want %v", got, want)
	}
}

// TestDiceTallyShipHitOfAShot: the weapon dice of a dogfight's shot are
// counted with the shot; the ship hit it makes records them again and is
// not counted twice. A ship hit of its own (`ship hit`) is counted.
func TestDiceTallyShipHitOfAShot(t *testing.T) {
	tally := NewDiceTally(DiceFilter{}, nil)
	shot := &events.DogfightFired{Check: events.AttackRoll{Faces: []int{1, 2, 3}}, Damage: &events.AttackRoll{Faces: []int{6}}}
	for _, p := range []events.Payload{shot, &events.ShipHit{Faces: []int{6}, FireID: "SHOT"}, &events.ShipHit{Faces: []int{5}}} {
		if err := tally.Apply(events.Event{Type: p.EventType()}, p); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := tally.Sources[0].Counts, []int64{1, 1, 1, 0, 1, 1}; !slices.Equal(got, want) {
		t.Errorf("faces %v, want %v", got, want)
	}
}
