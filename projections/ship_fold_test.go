package projections

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// Star craft records (ship.go), given their events, expect this ship:
// the rule books' worked examples 9 to 12.

// kitKat is worked example 9: `Cargo1, Engineering1, Operations1,
// Living1, d6/1, M+1` costs 14 build points.
func kitKat() events.ShipBuilt {
	return events.ShipBuilt{ShipID: "K", Name: "Kit-Kat", Record: "C1, E1, O1, L1, d6/1, M+1", Cost: 14, CostFormula: "sections 4 + weapons 6 (d6) + shields 2 (/1) + maneuver 2 (M+1) = 14", Owner: "Ajax", Edition: "2021"}
}

// kitKatHit is worked example 10: hit for 3 with shields 1, 2 damage
// points: cargo, then engineering, destroyed with those aboard; the craft
// is dead in the water.
func kitKatHit(killed ...string) events.ShipHit {
	return events.ShipHit{Faces: []int{3}, Rolled: 3, Shields: 1, Inflicted: 2, DIW: true, Sections: []events.SectionHit{
		{Section: "Cargo", Points: 1, Destroyed: true}, {Section: "Engineering", Points: 1, Destroyed: true, Killed: killed}}}
}

func TestShipFold(t *testing.T) {
	const stream = "ship/K"
	section := func(name, kind string, damage int, destroyed bool, crew ...string) ShipSection {
		return ShipSection{Name: name, Kind: kind, Points: 1, Damage: damage, Destroyed: destroyed, Crew: append([]string{}, crew...)}
	}
	log := logOf(t,
		step{stream, "K1", kitKat()},
		step{stream, "K2", events.ShipCrewed{CharacterID: "A", Character: "Ajax", Section: "engineering"}},
		step{stream, "K3", events.ShipCrewed{CharacterID: "H", Character: "Hector", Section: "Operations"}},
		step{stream, "K4", events.ShipCrewed{CharacterID: "H", Character: "Hector", Section: "Engineering"}}, // moves
		step{stream, "K5", events.ShipCrewed{CharacterID: "Z", Character: "Zoë", Section: "Living"}},
		step{stream, "K6", events.ShipUncrewed{CharacterID: "Z", Character: "Zoë"}},
		step{stream, "K7", kitKatHit("A", "H")},
	)
	var s Ship
	for i, e := range log {
		if err := s.Apply(e); err != nil {
			t.Fatal(err)
		}
		switch i {
		case 0:
			want := Ship{ID: "K", Name: "Kit-Kat", Edition: rules.Edition2021, Record: "Cargo1, Engineering1, Operations1, Living1, d6/1, M+1", Cost: 14,
				CostFormula: kitKat().CostFormula, Owner: "Ajax", Weapons: "d6", Shields: 1, Maneuver: 1, CargoUnits: 1, Version: 1, Seq: 1,
				Sections: []ShipSection{section("Cargo", "cargo", 0, false), section("Engineering", "engineering", 0, false), section("Operations", "operations", 0, false), section("Living", "living", 0, false)}}
			got := s
			got.record = rules.ShipRecord{}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("built:\n got %+v\nwant %+v", got, want)
			}
		case 5:
			if s.Aboard("A") != 1 || s.Aboard("H") != 1 || s.Aboard("Z") != -1 || !slices.Equal(s.CrewIn(1), []string{"A", "H"}) ||
				!slices.Equal(s.Sections[1].Crew, []string{"Ajax", "Hector"}) || len(s.Sections[2].Crew) != 0 || len(s.Sections[3].Crew) != 0 {
				t.Errorf("crewed: %+v", s.Sections)
			}
		}
	}
	want := []ShipSection{section("Cargo", "cargo", 1, true), section("Engineering", "engineering", 1, true), section("Operations", "operations", 0, false), section("Living", "living", 0, false)}
	got := slices.Clone(s.Sections)
	for i := range got {
		got[i].crewIDs = nil
	}
	if !reflect.DeepEqual(got, want) || !s.DIW || s.DIWReason != "Engineering is destroyed: the craft is dead in the water, has lost propulsion, and can no longer move or fire" || s.Version != 7 {
		t.Errorf("after the hit:\n got %+v (DIW %t: %s)\nwant %+v", got, s.DIW, s.DIWReason, want)
	}
	if s.Aboard("A") != -1 || len(s.CrewIn(1)) != 0 {
		t.Errorf("the crew of the destroyed Engineering is still aboard")
	}
	for i, st := range []string{"destroyed", "destroyed", "ok", "ok"} {
		if s.Sections[i].State() != st {
			t.Errorf("section %s: %s, want %s", s.Sections[i].Name, s.Sections[i].State(), st)
		}
	}
	if s.SectionIndex(" LIVING ") != 3 || s.SectionIndex("Bridge") != -1 {
		t.Error("SectionIndex")
	}
	if st := s.SectionStates(); len(st) != 4 || st[1].Damage != 1 || st[1].Section.Name != "Engineering" || st[0].Section.Kind != rules.SectionCargo {
		t.Errorf("SectionStates %+v", st)
	}
	if r := s.ShipRecord(); r.WeaponDice != 1 || r.Shields != 1 || len(r.Sections) != 4 {
		t.Errorf("ShipRecord %+v", r)
	}
}

// TestShipFoldRepairs: worked example 11: a two-point engineering section
// that takes 1 damage still works, a second point destroys it; repairs
// and a hit taken back for a re-roll bring it back.
func TestShipFoldRepairs(t *testing.T) {
	const stream = "ship/C"
	// Worked example 12: a corvette with 2d6 weapons (12 build points) and
	// two shield factors (4).
	built := events.ShipBuilt{ShipID: "C", Name: "Corvette", Record: "Engineering2, Operations1, 2d6/2", Cost: 19, Edition: "2021"}
	one := events.ShipHit{Rolled: 3, Shields: 2, Inflicted: 1, Sections: []events.SectionHit{{Section: "Engineering", Points: 1}}}
	two := events.ShipHit{Rolled: 3, Shields: 2, Inflicted: 1, DIW: true, Sections: []events.SectionHit{{Section: "Engineering", Points: 1, Destroyed: true}}}
	var s Ship
	for i, e := range logOf(t, step{stream, "K1", built}, step{stream, "K2", one}) {
		if err := s.Apply(e); err != nil {
			t.Fatal(err)
		}
		if i == 0 && (s.Weapons != "2d6" || s.Shields != 2 || !s.MustReturnToBase || s.CargoUnits != 0) {
			t.Errorf("the corvette %+v", s)
		}
	}
	if e := s.Sections[0]; e.Damage != 1 || e.Destroyed || e.State() != "damaged" || s.DIW {
		t.Errorf("one point on Engineering2: %+v, DIW %t", e, s.DIW)
	}
	for _, e := range logOf(t, step{stream, "K1", built}, step{stream, "K2", one}, step{stream, "K3", two})[2:] {
		if err := s.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if e := s.Sections[0]; e.Damage != 2 || !e.Destroyed || !s.DIW {
		t.Errorf("two points on Engineering2: %+v, DIW %t", e, s.DIW)
	}
	back := logOf(t, step{stream, "K1", built}, step{stream, "K2", one}, step{stream, "K3", two},
		step{stream, "K4", events.ShipHitWithdrawn{FireID: "F", RerollID: "G", Sections: []events.SectionHit{{Section: "engineering", Points: 1}}}},
		step{stream, "K5", events.ShipRepaired{Section: "Engineering", Points: 1}})
	for i, e := range back[3:] {
		if err := s.Apply(e); err != nil {
			t.Fatal(err)
		}
		if d := s.Sections[0].Damage; d != 1-i {
			t.Errorf("after event %d Engineering damage %d", e.Seq, d)
		}
	}
	if s.DIW || s.DIWReason != "" || s.Sections[0].State() != "ok" {
		t.Errorf("repaired: %+v", s)
	}
}

// TestShipFoldErrors: an event naming a section the ship lacks, a record
// the rules refuse, a type of another stream and a bad payload are
// errors.
func TestShipFoldErrors(t *testing.T) {
	const stream = "ship/K"
	for _, c := range []struct {
		p    events.Payload
		want string
	}{
		{events.ShipCrewed{CharacterID: "A", Section: "Bridge"}, `event 2: Kit-Kat has no section "Bridge"`},
		{events.ShipHit{Sections: []events.SectionHit{{Section: "Bridge", Points: 1}}}, `event 2: Kit-Kat has no section "Bridge"`},
		{events.ShipHitWithdrawn{Sections: []events.SectionHit{{Section: "Bridge", Points: 1}}}, `event 2: Kit-Kat has no section "Bridge"`},
		{events.ShipRepaired{Section: "Bridge", Points: 1}, `event 2: Kit-Kat has no section "Bridge"`},
		{events.XPAwarded{Amount: 1}, "event 2: xp.awarded does not belong on a ship's record"},
	} {
		log := logOf(t, step{stream, "K1", kitKat()}, step{stream, "K2", c.p})
		var s Ship
		if err := s.Apply(log[0]); err != nil {
			t.Fatal(err)
		}
		if err := s.Apply(log[1]); err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %q", log[1].Type, err, c.want)
		}
		if s.Version != 1 {
			t.Errorf("%s moved the ship on", log[1].Type)
		}
	}
	bad := kitKat()
	bad.Record = "Cargo1, d6"
	if err := new(Ship).Apply(logOf(t, step{stream, "K1", bad})[0]); err == nil || !strings.HasPrefix(err.Error(), "event 1: ") {
		t.Errorf("a bad record: %v", err)
	}
	if err := new(Ship).Apply(events.Event{Seq: 1, Type: events.TypeShipBuilt, PayloadVersion: 1, Payload: []byte("{")}); err == nil {
		t.Error("a bad payload folded")
	}
}

// TestFleet: the fleet lists the ships built, in order, found by name.
func TestFleet(t *testing.T) {
	corvette := events.ShipBuilt{ShipID: "C", Name: "Corvette", Record: "Engineering2, Operations1, 2d6/2", Cost: 19, Edition: "2021"}
	var f Fleet
	for _, e := range logOf(t, step{"ship/K", "K1", kitKat()}, step{"ship/K", "K2", kitKatHit()}, step{"ship/C", "K3", corvette}) {
		if err := f.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(f.Ships, []ShipMember{{ID: "K", Name: "Kit-Kat", Seq: 1}, {ID: "C", Name: "Corvette", Seq: 3}}) || !slices.Equal(f.Names(), []string{"Kit-Kat", "Corvette"}) {
		t.Errorf("fleet %+v", f)
	}
	for _, c := range []struct{ name, id string }{{"kit-kat", "K"}, {" CORVETTE", "C"}, {"Gull", ""}} {
		if m, ok := f.Find(c.name); ok != (c.id != "") || m.ID != c.id {
			t.Errorf("Find(%q) = %+v, %t", c.name, m, ok)
		}
	}
	if err := f.Apply(events.Event{Seq: 9, Type: events.TypeShipBuilt, PayloadVersion: 1, Payload: []byte("{")}); err == nil {
		t.Error("a bad build folded")
	}
}

// TestReplayShips: a log of star craft the rules wrote replays clean; a
// hit, a crewman, a repair or a price the rules would not have recorded
// is a violation.
func TestReplayShips(t *testing.T) {
	const ship, ajax = "ship/K", "character/A"
	base := func() []step {
		return []step{
			{events.CampaignStream, "K1", events.CampaignCreated{Name: "c", Edition: "2021"}},
			{ajax, "K2", events.CharacterCreated{CharacterID: "A", Name: "Ajax", Edition: "2021", Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9}}},
			{ship, "K3", kitKat()},
			{ship, "K4", events.ShipCrewed{CharacterID: "A", Character: "Ajax", Section: "Engineering"}},
			{ship, "K5", kitKatHit("A")},
			{ajax, "K5", events.CharacterDied{Cause: "aboard the Kit-Kat's Engineering"}},
			{ship, "K6", events.ShipRepaired{Section: "Cargo", Points: 1}},
		}
	}
	w := Replay(logOf(t, base()...), nil)
	if len(w.Violations) != 0 {
		t.Fatalf("violations %+v", w.Violations)
	}
	if s := w.Ships["K"]; s == nil || !s.DIW || s.Sections[0].Damage != 0 || w.Sheets["A"].Alive() {
		t.Errorf("ship %+v, Ajax alive %t", s, w.Sheets["A"].Alive())
	}
	for _, c := range []struct {
		name string
		at   int
		p    events.Payload
		drop bool
		want string
	}{
		{"a wrong price", 2, func() events.Payload { b := kitKat(); b.Cost = 12; return b }(), false,
			"Kit-Kat recorded at 12 build points; the rules price it 14 (sections 4 + weapons 6 (d6) + shields 2 (/1) + maneuver 2 (M+1) = 14)"},
		{"a record the rules refuse", 2, func() events.Payload { b := kitKat(); b.Record = "Cargo1"; return b }(), false, ""},
		{"a crewman who is no character", 3, events.ShipCrewed{CharacterID: "Z", Character: "Zed", Section: "Engineering"}, false, "crew Z is not a character"},
		{"faces that do not add up", 4, func() events.Payload { h := kitKatHit("A"); h.Faces = []int{2}; return h }(), false, "faces [2] recorded as 3"},
		{"a hit past the shields misrecorded", 4, func() events.Payload { h := kitKatHit("A"); h.Shields = 0; return h }(), false,
			"a hit of 3 recorded as 2 inflicted past 0 shields; the rules give 2 past 1"},
		{"a hit on the wrong section", 4, func() events.Payload { h := kitKatHit("A"); h.Sections[0].Section = "Living"; return h }(), false,
			"hit recorded 1 points on Living; the rules put 1 on Cargo"},
		{"a crewman not killed", 4, kitKatHit(), false, "Kit-Kat's Engineering was destroyed with [A] aboard, recorded []"},
		{"a crewman killed who did not die", 5, nil, true, "Ajax was aboard a section the hit destroyed, but did not die"},
		{"a repair past the damage", 6, events.ShipRepaired{Section: "Cargo", Points: 2}, false, "2 points repaired on Kit-Kat's Cargo"},
		{"a repair of no section", 6, events.ShipRepaired{Section: "Bridge", Points: 1}, false, "1 points repaired on Kit-Kat's Bridge"},
		{"a hit withdrawn with no re-roll", 6, events.ShipHitWithdrawn{FireID: "F", Sections: []events.SectionHit{{Section: "Cargo", Points: 1}}}, false,
			"the hit of shot F withdrawn, but the command re-rolls nothing of it"},
		{"a hit on no ship", 4, nil, false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			steps := base()
			switch {
			case c.drop:
				steps = append(steps[:c.at:c.at], steps[c.at+1:]...)
			case c.p != nil:
				steps[c.at].payload = c.p
			default:
				steps[c.at].stream = "ship/Z"
				c.want = "ship.hit for a ship that does not exist (stream ship/Z)"
			}
			w := Replay(logOf(t, steps...), nil)
			found := false
			for _, v := range w.Violations {
				if strings.Contains(v.Problem, c.want) {
					found = true
				}
			}
			if !found || len(w.Violations) == 0 {
				t.Errorf("violations %+v, want %q", w.Violations, c.want)
			}
		})
	}
}
