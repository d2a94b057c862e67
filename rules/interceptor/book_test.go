package interceptor

import (
	"reflect"
	"testing"
)

// TestSpaceGullRecord checks that the SPACE GULL record is
// represented exactly.
func TestSpaceGullRecord(t *testing.T) {
	s := mustShip(t, spaceGullSpec())
	for f, rows := range map[Facing]int{Forward: 8, Aft: 4, Left: 4, Right: 4} {
		if got := s.ArmourRows(f); got != rows {
			t.Errorf("%s armour rows = %d, want %d", f, got, rows)
		}
	}
	want := map[string]struct {
		typ   ComponentType
		boxes int
	}{"C": {Cockpit, 4}, "E1": {Engine, 4}, "E2": {Engine, 4}, "F": {Free, 10}, "P": {Powerplant, 8}, "S": {ShipDestroyed, 10}}
	got := s.Components(0)
	if len(got) != len(want) {
		t.Fatalf("components = %+v", got)
	}
	for _, c := range got {
		if w := want[c.Code]; c.Type != w.typ || c.Boxes != w.boxes {
			t.Errorf("component %s = %s/%d, want %s/%d", c.Code, c.Type, c.Boxes, w.typ, w.boxes)
		}
	}
	if code, _, _ := s.InternalBox(2, 9); code != "E2" {
		t.Errorf("internal row 2 column 9 = %q, want E2", code)
	}
}

// TestBookDamageExample reproduces the worked example of DAMAGE TEMPLATE
// (book l.327): two 6-point lasers and an MDC 10 on the SPACE GULL's
// 80-box Forward block.
func TestBookDamageExample(t *testing.T) {
	gull := mustShip(t, spaceGullSpec())

	// "The first laser hits in Column 3" and "The second laser hits in Column 5."
	s, rep := mustHit(t, gull, laser(Forward, 3, 6))
	if got := column(s, Forward, 3); got != "xxxxxxoo" {
		t.Errorf("after the first laser column 3 = %s, want xxxxxxoo", got)
	}
	if len(rep.Destroyed) != 6 || rep.Wasted != 0 {
		t.Errorf("first laser: %d destroyed, %d wasted; want 6, 0", len(rep.Destroyed), rep.Wasted)
	}
	s, _ = mustHit(t, s, laser(Forward, 5, 6))
	if got := column(s, Forward, 5); got != "xxxxxxoo" {
		t.Errorf("after the second laser column 5 = %s, want xxxxxxoo", got)
	}
	afterLasers := s

	t.Run("second laser in column 3", func(t *testing.T) {
		// "If it had hit in column 3, the armour would have stopped 2
		// points and so 4 would have gone into the internal structure."
		n, rep := mustHit(t, afterLasers, laser(Forward, 3, 6))
		var armour, internal int
		for _, p := range rep.Destroyed {
			switch p.Block {
			case "forward":
				armour++
			case "internal":
				internal++
			}
		}
		if armour != 2 || internal != 4 {
			t.Errorf("armour stopped %d, internal took %d; want 2 and 4", armour, internal)
		}
		if got := internalColumn(n, 3); got != "x x x x " {
			t.Errorf("internal column 3 = %q, want all four boxes (F P P S) destroyed", got)
		}
	})

	t.Run("MDC 10 in column 6", func(t *testing.T) {
		// "The 2 points of armour missing from Column 5 were done by the
		// second laser hit and are lost."
		_, rep := mustHit(t, afterLasers, templateHit(t, Forward, 6, "MDC 10 (sample)"))
		if rep.Wasted != 2 {
			t.Errorf("wasted = %d, want the 2 points on column 5", rep.Wasted)
		}
		for _, p := range rep.Destroyed {
			if p.Column == 5 {
				t.Errorf("destroyed %+v in column 5, whose top six boxes were already gone", p)
			}
		}
		if len(rep.Destroyed) != 8 {
			t.Errorf("destroyed %d boxes, want 10 - 2 = 8", len(rep.Destroyed))
		}
	})

	t.Run("MDC 10 in column 5", func(t *testing.T) {
		// "lowered until it reached an intact armour box. This would have
		// been in row 7 ... Two points penetrate to the internal
		// components and the hit widows the armour in Column 4."
		n, rep, err := afterLasers.Volley([]Hit{templateHit(t, Forward, 5, "MDC 10 (sample)")})
		if err != nil {
			t.Fatal(err)
		}
		top := 99
		internal := 0
		for _, p := range rep.Destroyed {
			if p.Block == "forward" {
				top = min(top, p.Row)
			} else {
				internal++
			}
		}
		if top != 7 {
			t.Errorf("the template's top row landed on row %d, want 7", top)
		}
		if internal != 2 {
			t.Errorf("%d points penetrated to the internal components, want 2", internal)
		}
		var widowed []Place
		for r := 1; r <= 6; r++ {
			widowed = append(widowed, Place{Block: "forward", Row: r, Column: 4})
		}
		if !reflect.DeepEqual(places(rep.Widowed), widowed) {
			t.Errorf("widowed = %+v, want column 4 rows 1-6", rep.Widowed)
		}
		if got := column(n, Forward, 4); got != "~~~~~~xx" {
			t.Errorf("column 4 = %s, want ~~~~~~xx", got)
		}
		if got := column(n, Forward, 6); got != "ooooooxx" {
			t.Errorf("column 6 = %s, want ooooooxx (it still reaches the bottom through column 7)", got)
		}
	})
}

// TestBridgeWoundExample is the TOG CINGULUM example of BRIDGE (book l.355):
// 50 Bridge boxes, 7 crewmen, 15 hits: 30% and the "2 Hits" column.
func TestBridgeWoundExample(t *testing.T) {
	percent, column, err := WoundChance(15, 50)
	if err != nil || percent != 30 || column != 2 {
		t.Fatalf("WoundChance(15, 50) = %d%%, column %d, %v; want 30%%, 2", percent, column, err)
	}

	sp := Spec{
		Name:       "TOG Cingulum",
		Internal:   [][]string{row10("B"), row10("B"), row10("B"), row10("B"), row10("B"), row10("P"), row10("S")},
		Components: map[string]string{"B": "Bridge", "P": "Powerplant", "S": "Ship Destroyed"},
	}
	for _, name := range []string{"Ast", "Bel", "Cor", "Dax", "Eno", "Fyr", "Gal"} {
		sp.Crew = append(sp.Crew, CrewSpec{Name: name, Race: "Human", Station: "B"})
	}
	s := mustShip(t, sp)
	// An unarmoured facing: three 5-point lasers put 15 hits on the Bridge.
	s, _, err = s.Volley([]Hit{laser(Forward, 1, 5), laser(Forward, 2, 5), laser(Forward, 3, 5)})
	if err != nil {
		t.Fatal(err)
	}
	s, rolls := s.EndTurn()
	if len(rolls) != 7 {
		t.Fatalf("EndTurn gave %d rolls, want one per crewman (7): %+v", len(rolls), rolls)
	}
	for _, r := range rolls {
		if r.Kind != RollWound || r.Percent != 30 || r.Column != 2 {
			t.Errorf("roll %+v, want a 30%% wound roll on the 2 Hits column", r)
		}
	}
	// "Each crewman must roll greater than a 3 to avoid being wounded";
	// the wounded roll on the 2 Hits column: 6 or less for a human.
	cases := []struct {
		faces   []int
		wounded bool
		status  CrewStatus
	}{
		{[]int{4}, false, Conscious},
		{[]int{3, 6}, true, Conscious},
		{[]int{3, 7}, true, Unconscious},
		{[]int{1, 1}, true, Conscious},
	}
	for _, c := range cases {
		_, out, err := s.Resolve(rolls[0], c.faces...)
		if err != nil || out.Wounded != c.wounded || out.Status != c.status {
			t.Errorf("Resolve(wound, %v) = %+v, %v; want wounded %v, %s", c.faces, out, err, c.wounded, c.status)
		}
	}
	if _, _, err := s.Resolve(rolls[0], 3); err == nil {
		t.Error("a wound that needs a consciousness die resolved without one")
	}
	// The second turn nothing is hit: no rolls.
	if _, again := s.EndTurn(); len(again) != 0 {
		t.Errorf("a turn without hits gave rolls %+v", again)
	}
}

func row10(code string) []string {
	r := make([]string, Columns)
	for i := range r {
		r[i] = code
	}
	return r
}

// TestToHitExample is DIRECT FIRE PROCEDURE's example (book l.110): Gunnery
// 4, familiarity 1, target Piloting 4, angle +4 give +3.
func TestToHitExample(t *testing.T) {
	m := ToHitModifiers{Gunnery: 4, GunneryFamiliarity: 1, Piloting: 4, AngleOfAttack: 4}
	if got := m.Sum(); got != 3 {
		t.Fatalf("modifier = %+d, want +3", got)
	}
	// The example's base of 7 (it says range 6, which the table puts at
	// 6; see docs/interceptor.md) with +3: "must roll a 4 or less".
	for face, want := range map[int]bool{4: true, 5: false, 1: true} {
		if got, _ := DirectFireHits(7, face, m.Sum()); got != want {
			t.Errorf("DirectFireHits(7, %d, +3) = %v, want %v", face, got, want)
		}
	}
	if got, _ := DirectFireHits(12, 10, -5); got {
		t.Error("a 10 hit; a 10 always misses")
	}
	if got, _ := DirectFireHits(2, 1, 5); !got {
		t.Error("a 1 missed; a 1 always hits")
	}
	if m := (ToHitModifiers{TargetTons: 5500}); m.Sum() != -4 {
		t.Errorf("5500-ton target: %+d, want -4 (book l.108)", m.Sum())
	}
	if m := (ToHitModifiers{TargetTons: 1000, TargetsBefore: 2}); m.Sum() != 2 {
		t.Errorf("1000-ton target, third target: %+d, want +2", m.Sum())
	}
	if m := (ToHitModifiers{Gunnery: 5, Piloting: 3, FirerRandom: true, TargetRandom: true}); m.Sum() != 3 {
		t.Errorf("both in Random Movement: %+d, want +3", m.Sum())
	}
}

func TestBaseToHitTable(t *testing.T) {
	for r, want := range map[int]int{0: 8, 1: 8, 2: 7, 3: 7, 4: 6, 6: 6, 7: 5, 10: 5, 11: 4, 15: 4} {
		if got, err := BaseToHit(r); err != nil || got != want {
			t.Errorf("BaseToHit(%d) = %d, %v; want %d", r, got, err, want)
		}
	}
	for _, r := range []int{-1, 16} {
		if _, err := BaseToHit(r); CodeOf(err) != CodeRule {
			t.Errorf("BaseToHit(%d) error %v, want CodeRule", r, err)
		}
	}
}

// TestShieldPenetration includes HELL's example (book l.221): "the chance of
// penetrating a 60- or 70-rate shield is 50%".
func TestShieldPenetration(t *testing.T) {
	for rate, want := range map[int]int{0: 10, 10: 8, 20: 7, 30: 7, 40: 6, 50: 6, 60: 5, 70: 5, 80: 4, 100: 4, 110: 3, 120: 3, 130: 2, 160: 2, 170: 1, 200: 1} {
		if got, err := PenetrationNumber(rate); err != nil || got != want {
			t.Errorf("PenetrationNumber(%d) = %d, %v; want %d", rate, got, err, want)
		}
	}
	for _, rate := range []int{5, 65, 210, -10} {
		if _, err := PenetrationNumber(rate); CodeOf(err) != CodeInvalid {
			t.Errorf("PenetrationNumber(%d) error %v, want CodeInvalid", rate, err)
		}
	}
	if ok, _ := Penetrates(60, 5); !ok {
		t.Error("5 does not penetrate a 60 shield")
	}
	if ok, _ := Penetrates(70, 6); ok {
		t.Error("6 penetrates a 70 shield")
	}
}

func TestConsciousnessTable(t *testing.T) {
	rows := map[Race][3]int{Vauvausar: {6, 4, 2}, Baufrin: {7, 5, 3}, Human: {8, 6, 4}, Naram: {8, 6, 4}, Ssora: {8, 6, 4}, KessRith: {9, 7, 5}}
	for race, want := range rows {
		for hits := 1; hits <= 3; hits++ {
			if got, kia, err := ConsciousnessNumber(race, hits); err != nil || kia || got != want[hits-1] {
				t.Errorf("ConsciousnessNumber(%s, %d) = %d, %v, %v; want %d", race, hits, got, kia, err, want[hits-1])
			}
		}
		if _, kia, _ := ConsciousnessNumber(race, 4); !kia {
			t.Errorf("%s at 4 hits is not KIA", race)
		}
	}
	if r, err := ParseRace("Human/Naram/Ssora"); err != nil || r != Human {
		t.Errorf("ParseRace(Human/Naram/Ssora) = %q, %v", r, err)
	}
}

// TestRepairTimes checks the REPAIR TIME entries (book l.347-451).
func TestRepairTimes(t *testing.T) {
	for typ, want := range map[ComponentType]int{
		Bridge: 24 * 60, Cockpit: 24 * 60, Hospital: 6 * 60, Transponder: 15, ShipDestroyed: 12 * 60,
		Powerplant: 60, Engine: 120, FTLDrive: 240, ShieldGenerator: 240, Quarters: 120, Weapon: 120,
		DirectionalControl: 120, AtmosphericControl: 60, LifeSupport: 120, RescueCompartment: 120,
	} {
		if got, err := RepairMinutes(typ); err != nil || got != want {
			t.Errorf("RepairMinutes(%s) = %d, %v; want %d", typ, got, err, want)
		}
	}
	for _, typ := range []ComponentType{Cargo, Hangar, MissileReloads, Free, TurretStructure} {
		if _, err := RepairMinutes(typ); CodeOf(err) != CodeRule {
			t.Errorf("RepairMinutes(%s) error %v, want CodeRule", typ, err)
		}
	}
	if got, err := RepairTime(Transponder, 3); err != nil || got != 45 {
		t.Errorf("RepairTime(Transponder, 3) = %d, %v; want 45", got, err)
	}
	// Every type has a source and a book name that parses back to it.
	for _, c := range componentTable() {
		if c.Source == "" {
			t.Errorf("%s has no source", c.Type)
		}
		if got, err := ParseComponentType(c.Name); err != nil || got != c.Type {
			t.Errorf("ParseComponentType(%q) = %q, %v", c.Name, got, err)
		}
	}
}

func TestStructuralCollapseChart(t *testing.T) {
	cases := []struct {
		lost, face, chart int
		want              Breakup
	}{
		{3, 4, 0, BreakupNone}, {3, 3, 1, BreakupDrift}, {3, 3, 4, BreakupDrift},
		{3, 1, 5, BreakupDelayed}, {3, 2, 7, BreakupDelayed}, {3, 2, 8, BreakupExplodes}, {3, 2, 10, BreakupExplodes},
	}
	for _, c := range cases {
		if got, err := StructuralCollapse(c.lost, c.face, c.chart); err != nil || got != c.want {
			t.Errorf("StructuralCollapse(%d, %d, %d) = %q, %v; want %q", c.lost, c.face, c.chart, got, err, c.want)
		}
	}
}
