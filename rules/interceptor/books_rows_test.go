package interceptor

import (
	"strings"
	"testing"
)

// TestRepairTimeEveryComponent is every REPAIR TIME entry of INTERNAL
// DAMAGE EFFECTS (book l.347-451), one row per component type, read off
// the book's text, plus the types the book gives no time for.
func TestRepairTimeEveryComponent(t *testing.T) {
	const h = 60
	rows := []struct {
		typ     ComponentType
		minutes int
		book    string
	}{
		{Bridge, 24 * h, "l.353 REPAIR TIME (BRIDGE ONLY): 24 hours per box"},
		{Cockpit, 24 * h, "l.367 REPAIR TIME (COCKPIT ONLY): 24 hours per box"},
		{DirectionalControl, 2 * h, "l.369 DIRECTIONAL CONTROL SYSTEMS: 2 hours per box"},
		{AtmosphericControl, 1 * h, "l.371 ATMOSPHERIC CONTROL SYSTEMS: 1 hour per box"},
		{Transponder, 15, "l.375 TRANSPONDER: 15 minutes per box"},
		{Communications, 1 * h, "l.377 COMMUNICATIONS: 1 hour per box"},
		{LongRangeSensors, 1 * h, "l.379 LONG-RANGE SENSORS: 1 hour per box"},
		{Scanner, 1 * h, "l.381 SCANNER: 1 hour per box"},
		{NavigationComputer, 1 * h, "l.383 NAVIGATION COMPUTER: 1 hour per box"},
		{FTLNavigationComputer, 1 * h, "l.385 FASTER-THAN-LIGHT NAVIGATION COMPUTER: 1 hour per box"},
		{MainFireControl, 1 * h, "l.387 MAIN FIRE CONTROL COMPUTER: 1 hour per box"},
		{ShieldSynchronizer, 1 * h, "l.389 SHIELD SYNCHRONIZER: 1 hour per box"},
		{HelmControl, 1 * h, "l.391 HELM CONTROL COMPUTER: 1 hour per box"},
		{ThrustControl, 1 * h, "l.393 THRUST CONTROL COMPUTER: 1 hour per box"},
		{Hardpoint, 1 * h, "l.397 HARDPOINT (INTERNAL OR EXTERNAL): 1 hour per box"},
		{ExternalHardpoint, 1 * h, "l.397 HARDPOINT (INTERNAL OR EXTERNAL): 1 hour per box"},
		{ExternalHeavyHardpoint, 1 * h, "l.397 HARDPOINT (INTERNAL OR EXTERNAL): 1 hour per box"},
		{Autoloader, 2 * h, "l.399 AUTOLOADER: 2 hours per box"},
		{AutoloaderAmmunition, 2 * h, "l.399 AUTOLOADER (its ammunition section): 2 hours per box"},
		{TimeOnTarget, 2 * h, "l.401 TIME-ON-TARGET SYNCHRONIZER SYSTEM: 2 hours per box"},
		{Weapon, 2 * h, "l.403 ALL OTHER WEAPONS AND DEFENSIVE SYSTEMS: 2 hours per box"},
		{ShieldGenerator, 4 * h, "l.405 SHIELD GENERATORS: 4 hours per box"},
		{InternalECM, 4 * h, "l.407 INTERNAL ECM GEAR: 4 hours per box"},
		{VLCAPanels, 1 * h, "l.413 VLCA PANELS: 1 hour per box"},
		{ExtensionRetraction, 2 * h, "l.415 EXTENSION/RETRACTION GEAR: 2 hours per box"},
		{Powerplant, 1 * h, "l.419 POWERPLANT: 1 hour per box"},
		{Engine, 2 * h, "l.421 ENGINE: 2 hours per box"},
		{FTLDrive, 4 * h, "l.423 FTL DRIVE: 4 hours per box"},
		{AntiGravLifters, 2 * h, "l.425 ANTI-GRAV LIFTERS: 2 hours per box"},
		{FuelTanks, 1 * h, "l.427 FUEL TANKS: 1 hour per box"},
		{AccelerationCompensator, 1 * h, "l.429 ACCELERATION COMPENSATOR: 1 hour per box"},
		{Quarters, 2 * h, "l.433 REPAIR TIME (QUARTERS ONLY): 2 hours per box"},
		{LifeSupport, 2 * h, "l.437 LIFE SUPPORT: 2 hours per box"},
		{RepairFacilities, 1 * h, "l.439 REPAIR FACILITIES: 1 hour per box"},
		{TowingAttachments, 2 * h, "l.443 TOWING ATTACHMENTS: 2 hours per box"},
		{FTLDriveJumpers, 4 * h, "l.445 FTL DRIVE JUMPERS: 4 hours per box"},
		{Hospital, 6 * h, "l.447 HOSPITAL BAY: 6 hours per box"},
		{RescueCompartment, 2 * h, "l.449 RESCUE COMPARTMENT: 2 hours per box"},
		{ExternalRescue, 2 * h, "l.449 RESCUE COMPARTMENT: 2 hours per box"},
		{ShipDestroyed, 12 * h, "l.451 SHIP DESTROYED: 12 hours per box"},
	}
	for _, r := range rows {
		got, err := RepairMinutes(r.typ)
		if err != nil || got != r.minutes {
			t.Errorf("RepairMinutes(%s) = %d, %v; want %d (%s)", r.typ, got, err, r.minutes, r.book)
		}
		// Three boxes take three times as long; none takes no time.
		if got, err := RepairTime(r.typ, 3); err != nil || got != 3*r.minutes {
			t.Errorf("RepairTime(%s, 3) = %d, %v; want %d (%s)", r.typ, got, err, 3*r.minutes, r.book)
		}
		if got, err := RepairTime(r.typ, 0); err != nil || got != 0 {
			t.Errorf("RepairTime(%s, 0) = %d, %v; want 0", r.typ, got, err)
		}
		if src := r.typ.RepairSource(); !strings.HasPrefix(r.book, src[:5]) {
			t.Errorf("%s cites %q, want the book's %s", r.typ, src, r.book[:5])
		}
	}

	// "REPAIR TIME: N/A" (CARGO BAY l.435, HANGAR BAY l.441): no repair.
	for _, typ := range []ComponentType{Cargo, MissileReloads, Hangar} {
		_, err := RepairMinutes(typ)
		if CodeOf(err) != CodeRule || !strings.Contains(err.Error(), "N/A") {
			t.Errorf("RepairMinutes(%s) error %v, want CodeRule naming the book's N/A", typ, err)
		}
		if _, err := RepairTime(typ, 1); CodeOf(err) != CodeRule {
			t.Errorf("RepairTime(%s, 1) error %v, want CodeRule", typ, err)
		}
	}
	// No REPAIR TIME at all: Free boxes (l.337) and TURRET STRUCTURE (l.409).
	for _, typ := range []ComponentType{Free, TurretStructure} {
		_, err := RepairMinutes(typ)
		if CodeOf(err) != CodeRule || !strings.Contains(err.Error(), "has no repair time") || strings.Contains(err.Error(), "N/A") {
			t.Errorf("RepairMinutes(%s) error %v, want CodeRule saying the book gives none", typ, err)
		}
	}
	// Every type in the table has a row above or is one of those five.
	if n := len(componentTable()); n != len(rows)+5 {
		t.Errorf("the component table has %d types, the rows above cover %d", n, len(rows)+5)
	}
	if _, err := RepairMinutes("toaster"); CodeOf(err) != CodeInvalid {
		t.Errorf("RepairMinutes(toaster) error %v, want CodeInvalid", err)
	}
	if _, err := RepairTime(Engine, -1); CodeOf(err) != CodeInvalid {
		t.Errorf("RepairTime(Engine, -1) error %v, want CodeInvalid", err)
	}
	if got := ComponentType("toaster").RepairSource(); got != "" {
		t.Errorf("an unknown type cites %q", got)
	}
}

// TestTurretJamEveryFace is TURRET STRUCTURE (book l.409): "On a 1, the
// turret is jammed facing towards the ship's front, with a 2 meaning that
// the turret is facing to the right front, and so on in a clockwise
// direction ... On a 7-10, the weapons are unable to fire at all and must
// be abandoned".
func TestTurretJamEveryFace(t *testing.T) {
	rows := []struct {
		face, facing int
		name         string
	}{
		{1, 1, "the front (1)"},
		{2, 2, "the right front (2)"},
		{3, 3, "the right rear (3)"},
		{4, 4, "the rear (4)"},
		{5, 5, "the left rear (5)"},
		{6, 6, "the left front (6)"},
		{7, 0, ""}, {8, 0, ""}, {9, 0, ""}, {10, 0, ""},
	}
	for _, r := range rows {
		got, err := TurretJam(r.face)
		if err != nil || got != r.facing {
			t.Errorf("TurretJam(%d) = %d, %v; want %d", r.face, got, err, r.facing)
		}
		if name := JamFacingName(got); name != r.name {
			t.Errorf("JamFacingName(%d) = %q, want %q", got, name, r.name)
		}
	}
	for _, face := range []int{0, 11, -1} {
		if _, err := TurretJam(face); CodeOf(err) != CodeInvalid {
			t.Errorf("TurretJam(%d) error %v, want CodeInvalid (not a d10 face)", face, err)
		}
	}
	if got := JamFacingName(7); got != "" {
		t.Errorf("JamFacingName(7) = %q, want none", got)
	}
}

// TestStructuralCollapseBothSides is STRUCTURAL COLLAPSE (book l.466): the
// pilot "must roll above the number of Ship Destroyed boxes lost" — a
// roll equal to it fails, one above it holds — and the chart: 1-4 breaks
// up, 5-7 explodes after a delay, 8-10 explodes.
func TestStructuralCollapseBothSides(t *testing.T) {
	for lost := 0; lost <= 10; lost++ {
		for face := 1; face <= 10; face++ {
			got, err := StructuralCollapse(lost, face, 9)
			want := BreakupExplodes
			if face > lost {
				want = BreakupNone
			}
			if err != nil || got != want {
				t.Errorf("StructuralCollapse(lost %d, face %d, chart 9) = %q, %v; want %q", lost, face, got, err, want)
			}
		}
	}
	chart := map[int]Breakup{1: BreakupDrift, 2: BreakupDrift, 3: BreakupDrift, 4: BreakupDrift,
		5: BreakupDelayed, 6: BreakupDelayed, 7: BreakupDelayed, 8: BreakupExplodes, 9: BreakupExplodes, 10: BreakupExplodes}
	for face, want := range chart {
		if got, err := StructuralCollapse(5, 5, face); err != nil || got != want {
			t.Errorf("StructuralCollapse(5, 5, chart %d) = %q, %v; want %q (book l.467-471)", face, got, err, want)
		}
	}
	// The chart die is read only when the roll fails.
	if got, err := StructuralCollapse(2, 3, 0); err != nil || got != BreakupNone {
		t.Errorf("a held roll with no chart die: %q, %v", got, err)
	}
	for _, c := range [][3]int{{2, 0, 5}, {2, 11, 5}, {2, 2, 0}, {2, 2, 11}} {
		if _, err := StructuralCollapse(c[0], c[1], c[2]); CodeOf(err) != CodeInvalid {
			t.Errorf("StructuralCollapse%v error %v, want CodeInvalid", c, err)
		}
	}
}

// TestConsciousnessEveryColumn is the CONCIOUSNESS TABLE (book l.359-365)
// row by row, with the 4 Hits column's KIA and the columns that are not
// there.
func TestConsciousnessEveryColumn(t *testing.T) {
	rows := []struct {
		race Race
		cols [3]int
	}{
		{Vauvausar, [3]int{6, 4, 2}},
		{Baufrin, [3]int{7, 5, 3}},
		{Human, [3]int{8, 6, 4}},
		{Naram, [3]int{8, 6, 4}},
		{Ssora, [3]int{8, 6, 4}},
		{KessRith, [3]int{9, 7, 5}},
	}
	for _, r := range rows {
		for hits := 1; hits <= 3; hits++ {
			n, kia, err := ConsciousnessNumber(r.race, hits)
			if err != nil || kia || n != r.cols[hits-1] {
				t.Errorf("ConsciousnessNumber(%s, %d) = %d, %v, %v; want %d", r.race, hits, n, kia, err, r.cols[hits-1])
			}
		}
		for _, hits := range []int{4, 5} {
			if n, kia, err := ConsciousnessNumber(r.race, hits); err != nil || !kia || n != 0 {
				t.Errorf("ConsciousnessNumber(%s, %d) = %d, %v, %v; want KIA", r.race, hits, n, kia, err)
			}
		}
		if _, _, err := ConsciousnessNumber(r.race, 0); CodeOf(err) != CodeInvalid {
			t.Errorf("ConsciousnessNumber(%s, 0) error %v, want CodeInvalid", r.race, err)
		}
	}
	if _, _, err := ConsciousnessNumber("elf", 1); CodeOf(err) != CodeInvalid {
		t.Errorf("an unknown race: %v", err)
	}
	for in, want := range map[string]Race{"Vauvausar": Vauvausar, "BAUFRIN": Baufrin, " naram ": Naram, "Ssora": Ssora,
		"KessRith": KessRith, "Kess'Rith": KessRith, "kess rith": KessRith, "Human": Human} {
		if got, err := ParseRace(in); err != nil || got != want {
			t.Errorf("ParseRace(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestWoundChanceRows is BRIDGE and QUARTERS (book l.353, l.433): hits /
// boxes rounded up to the next 10%, and each 25% of damage, rounding up,
// a hit; the TOG CINGULUM (l.355) is 15 of 50: 30%, "2 Hits".
func TestWoundChanceRows(t *testing.T) {
	rows := []struct{ hits, boxes, percent, column int }{
		{0, 50, 0, 0},
		{1, 50, 10, 1},   // 2% rounds up to 10%; any damage is a hit
		{5, 50, 10, 1},   // exactly 10%
		{6, 50, 20, 1},   // 12% rounds up to 20%
		{12, 50, 30, 1},  // 24%: under 25%, the 1 Hit column
		{13, 50, 30, 2},  // 26%: more than 25%
		{15, 50, 30, 2},  // the book's example, l.355
		{25, 50, 50, 2},  // exactly 50%
		{26, 50, 60, 3},  // 52%
		{38, 50, 80, 4},  // 76%
		{50, 50, 100, 4}, // all of it
		{1, 1, 100, 4},
		{1, 4, 30, 1},
		{2, 4, 50, 2},
		{3, 4, 80, 3},
	}
	for _, r := range rows {
		p, c, err := WoundChance(r.hits, r.boxes)
		if err != nil || p != r.percent || c != r.column {
			t.Errorf("WoundChance(%d, %d) = %d%%, column %d, %v; want %d%%, column %d", r.hits, r.boxes, p, c, err, r.percent, r.column)
		}
	}
	for _, c := range [][2]int{{0, 0}, {-1, 10}, {11, 10}, {1, -5}} {
		if _, _, err := WoundChance(c[0], c[1]); CodeOf(err) != CodeInvalid {
			t.Errorf("WoundChance(%d, %d) error %v, want CodeInvalid", c[0], c[1], err)
		}
	}
}

// TestBaseToHitEveryRange is the BASE TO-HIT NUMBER TABLE (book l.63-75),
// every range it covers: 0-1: 8, 2-3: 7, 4-6: 6, 7-10: 5, 11-15: 4.
func TestBaseToHitEveryRange(t *testing.T) {
	want := []int{8, 8, 7, 7, 6, 6, 6, 5, 5, 5, 5, 4, 4, 4, 4, 4}
	for r, base := range want {
		if got, err := BaseToHit(r); err != nil || got != base {
			t.Errorf("BaseToHit(%d) = %d, %v; want %d", r, got, err, base)
		}
	}
	for _, face := range []int{0, 11} {
		if _, err := DirectFireHits(8, face, 0); CodeOf(err) != CodeInvalid {
			t.Errorf("DirectFireHits with face %d: %v, want CodeInvalid", face, err)
		}
	}
	// "If the final result is equal to or less than the Base To-Hit Number,
	// the weapon has scored a hit" (l.61): at base 6, +0, a 6 hits, a 7 misses.
	for face, want := range map[int]bool{5: true, 6: true, 7: false, 9: false, 10: false, 1: true} {
		if got, err := DirectFireHits(6, face, 0); err != nil || got != want {
			t.Errorf("DirectFireHits(6, %d, +0) = %v, %v; want %v", face, got, err, want)
		}
	}
	// A -2 modifier: a 8 makes 6 and hits.
	if got, _ := DirectFireHits(6, 8, -2); !got {
		t.Error("DirectFireHits(6, 8, -2) missed; 8 - 2 = 6 hits")
	}
}

// TestToHitModifierRows: each To-Hit modifier of DIRECT FIRE PROCEDURE
// (book l.79-108) alone, then the book's example (l.110).
func TestToHitModifierRows(t *testing.T) {
	cases := []struct {
		name string
		m    ToHitModifiers
		want int
	}{
		{"none", ToHitModifiers{}, 0},
		{"Gunnery and familiarity subtract (l.80)", ToHitModifiers{Gunnery: 3, GunneryFamiliarity: 1}, -4},
		{"Piloting and familiarity add (l.80)", ToHitModifiers{Piloting: 3, PilotingFamiliarity: 1}, +4},
		{"angle of attack, facing B (l.88)", ToHitModifiers{AngleOfAttack: 4}, +4},
		{"third target this turn (l.103)", ToHitModifiers{TargetsBefore: 2}, +2},
		{"firer in Random Movement: +3 in lieu of Gunnery (l.106)", ToHitModifiers{Gunnery: 3, GunneryFamiliarity: 1, FirerRandom: true}, +3},
		{"target in Random Movement: no Piloting (l.106)", ToHitModifiers{Piloting: 3, PilotingFamiliarity: 1, TargetRandom: true}, 0},
		{"a 1000-ton target: no modifier (l.108)", ToHitModifiers{TargetTons: 1000}, 0},
		{"a 1999-ton target rounds down (l.108)", ToHitModifiers{TargetTons: 1999}, 0},
		{"a 2000-ton target", ToHitModifiers{TargetTons: 2000}, -1},
		{"a 5500-ton target (l.108)", ToHitModifiers{TargetTons: 5500}, -4},
		{"a 250-ton fighter", ToHitModifiers{TargetTons: 250}, 0},
		{"tonnage not given", ToHitModifiers{}, 0},
		{"the book's example (l.110)", ToHitModifiers{Gunnery: 4, GunneryFamiliarity: 1, Piloting: 4, AngleOfAttack: 4}, +3},
	}
	for _, c := range cases {
		if got := c.m.Sum(); got != c.want {
			t.Errorf("%s: %+d, want %+d", c.name, got, c.want)
		}
	}
}

// TestShieldPenetrationEveryRate is the SHIELD PENETRATION CHART (book
// l.290-307) at every flicker rate it lists, with the faces on both sides
// of each penetration number.
func TestShieldPenetrationEveryRate(t *testing.T) {
	chart := map[int]int{10: 8, 20: 7, 30: 7, 40: 6, 50: 6, 60: 5, 70: 5, 80: 4, 90: 4, 100: 4,
		110: 3, 120: 3, 130: 2, 140: 2, 150: 2, 160: 2, 170: 1, 180: 1, 190: 1, 200: 1, 0: 10}
	for rate, n := range chart {
		if got, err := PenetrationNumber(rate); err != nil || got != n {
			t.Errorf("PenetrationNumber(%d) = %d, %v; want %d", rate, got, err, n)
		}
		if ok, err := Penetrates(rate, n); err != nil || !ok {
			t.Errorf("Penetrates(%d, %d) = %v, %v; want true", rate, n, ok, err)
		}
		if n < 10 {
			if ok, err := Penetrates(rate, n+1); err != nil || ok {
				t.Errorf("Penetrates(%d, %d) = %v, %v; want false", rate, n+1, ok, err)
			}
		}
	}
	for _, c := range [][2]int{{60, 0}, {60, 11}, {65, 1}} {
		if _, err := Penetrates(c[0], c[1]); CodeOf(err) != CodeInvalid {
			t.Errorf("Penetrates(%d, %d): %v, want CodeInvalid", c[0], c[1], err)
		}
	}
}

// TestIsDisabledRows is DAMAGING INTERNAL COMPONENTS (book l.337): "more
// than half of the boxes in that component (rounding up)", for every
// component size from 1 to 10 boxes, on both sides of the line.
func TestIsDisabledRows(t *testing.T) {
	// The fewest boxes lost that disable a component of n boxes.
	first := map[int]int{1: 1, 2: 2, 3: 2, 4: 3, 5: 3, 6: 4, 7: 4, 8: 5, 9: 5, 10: 6}
	for n, k := range first {
		if !IsDisabled(n, k) || IsDisabled(n, k-1) {
			t.Errorf("IsDisabled(%d, %d) = %v, IsDisabled(%d, %d) = %v; want true, false", n, k, IsDisabled(n, k), n, k-1, IsDisabled(n, k-1))
		}
	}
	// COCKPIT (l.357): "can take 4 hits, and are disabled after 3".
	if IsDisabled(4, 2) || !IsDisabled(4, 3) {
		t.Error("a cockpit is not disabled after exactly 3 hits")
	}
}
