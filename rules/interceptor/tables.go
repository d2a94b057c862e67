package interceptor

import "fmt"

// toHitRow is one column of the BASE TO-HIT NUMBER TABLE.
type toHitRow struct{ MinRange, MaxRange, Base int }

// baseToHitTable returns the BASE TO-HIT NUMBER TABLE, DIRECT FIRE PROCEDURE
// (book l.63-76): range 0-1: 8, 2-3: 7, 4-6: 6, 7-10: 5, 11-15: 4.
func baseToHitTable() [5]toHitRow {
	return [5]toHitRow{{0, 1, 8}, {2, 3, 7}, {4, 6, 6}, {7, 10, 5}, {11, 15, 4}}
}

// BaseToHit returns the Base To-Hit Number at a range in hexes (book l.63-76).
// Ranges outside 0-15 fail with CodeRule: the table stops at 15.
func BaseToHit(rangeHexes int) (int, error) {
	for _, r := range baseToHitTable() {
		if rangeHexes >= r.MinRange && rangeHexes <= r.MaxRange {
			return r.Base, nil
		}
	}
	return 0, errorf(CodeRule, "no to-hit number at range %d: the BASE TO-HIT NUMBER TABLE covers ranges 0 to 15", rangeHexes)
}

// DirectFireHits reports whether a direct fire shot hits: the die face plus
// the summed To-Hit die roll modifiers must be equal to or less than the Base
// To-Hit Number, but a 1 always hits and a 10 always misses (book l.61).
func DirectFireHits(base, face, modifier int) (bool, error) {
	if err := checkD10(face, "to-hit roll"); err != nil {
		return false, err
	}
	switch face {
	case 1:
		return true, nil
	case 10:
		return false, nil
	}
	return face+modifier <= base, nil
}

// ToHitModifiers are the To-Hit die roll modifiers of DIRECT FIRE PROCEDURE
// (book l.80-108) that depend on numbers the caller knows.
type ToHitModifiers struct {
	Gunnery, GunneryFamiliarity   int // firer's; subtracted
	Piloting, PilotingFamiliarity int // target pilot's; added
	// AngleOfAttack is the ANGLE OF ATTACK MODIFIERS entry (book l.85-91):
	// facing D +0, A +1, B or F +4, C or E +2, paralleling +0.
	AngleOfAttack int
	// TargetsBefore is how many other targets the firer fired at this turn
	// (+1 each, CONSECUTIVE TARGETS).
	TargetsBefore int
	// FirerRandom: a firer in Random Movement takes +3 in lieu of Gunnery
	// and familiarity bonuses.
	FirerRandom bool
	// TargetRandom: a target in Random Movement gets no Piloting modifiers.
	TargetRandom bool
	// TargetTons is the target's tonnage: -1 per 1000 tons after the first,
	// rounding down.
	TargetTons int
}

// Sum returns the combined modifier to the To-Hit die roll. The book's
// example (l.110): Gunnery 4, familiarity 1, target Piloting 4, angle +4
// gives +3.
func (m ToHitModifiers) Sum() int {
	sum := m.AngleOfAttack + m.TargetsBefore
	if m.FirerRandom {
		sum += 3
	} else {
		sum -= m.Gunnery + m.GunneryFamiliarity
	}
	if !m.TargetRandom {
		sum += m.Piloting + m.PilotingFamiliarity
	}
	if m.TargetTons > 1000 {
		sum -= (m.TargetTons - 1000) / 1000
	}
	return sum
}

// shieldRow is one row of the SHIELD PENETRATION CHART.
type shieldRow struct{ MinRate, MaxRate, MaxRoll int }

// shieldPenetrationTable returns the SHIELD PENETRATION CHART, DEFENSIVE
// SYSTEMS, SHIELDS (book l.290-307): flicker rate 10: 1-8 (80%), 20-30: 1-7,
// 40-50: 1-6, 60-70: 1-5, 80-100: 1-4, 110-120: 1-3, 130-160: 1-2,
// 170-200: 1 (10%).
func shieldPenetrationTable() [8]shieldRow {
	return [8]shieldRow{
		{10, 10, 8}, {20, 30, 7}, {40, 50, 6}, {60, 70, 5},
		{80, 100, 4}, {110, 120, 3}, {130, 160, 2}, {170, 200, 1},
	}
}

// PenetrationNumber returns the highest d10 face that penetrates a shield of
// the given flicker rate (book l.290-307); the chance is ten times it in
// percent. A flicker rate of 0 means no shield: every face (10) penetrates.
// The chart lists rates in tens from 10 to 200; others fail with CodeInvalid.
func PenetrationNumber(flickerRate int) (int, error) {
	if flickerRate == 0 {
		return 10, nil
	}
	if flickerRate%10 == 0 {
		for _, r := range shieldPenetrationTable() {
			if flickerRate >= r.MinRate && flickerRate <= r.MaxRate {
				return r.MaxRoll, nil
			}
		}
	}
	return 0, errorf(CodeInvalid, "flicker rate %d is not on the SHIELD PENETRATION CHART (10 to 200, in tens)", flickerRate)
}

// Penetrates reports whether a die face penetrates a shield of the given
// flicker rate.
func Penetrates(flickerRate, face int) (bool, error) {
	n, err := PenetrationNumber(flickerRate)
	if err != nil {
		return false, err
	}
	if err := checkD10(face, "shield penetration roll"); err != nil {
		return false, err
	}
	return face <= n, nil
}

// Race is a crewman's race as the Consciousness Table groups them. Its string
// value is stable.
type Race string

// The races of the CONCIOUSNESS TABLE (book l.359-365). Human, Naram and
// Ssora share a row.
const (
	Vauvausar Race = "vauvausar"
	Baufrin   Race = "baufrin"
	Human     Race = "human"
	Naram     Race = "naram"
	Ssora     Race = "ssora"
	KessRith  Race = "kessrith"
)

// consciousnessTable returns the CONCIOUSNESS TABLE (sic, book l.359-365):
// the highest face that stays conscious at 1, 2 and 3 hits; 4 hits is KIA.
func consciousnessTable(r Race) ([3]int, bool) {
	switch r {
	case Vauvausar:
		return [3]int{6, 4, 2}, true
	case Baufrin:
		return [3]int{7, 5, 3}, true
	case Human, Naram, Ssora:
		return [3]int{8, 6, 4}, true
	case KessRith:
		return [3]int{9, 7, 5}, true
	}
	return [3]int{}, false
}

// ParseRace reads a race name in any case; "Human/Naram/Ssora" reads as Human.
func ParseRace(s string) (Race, error) {
	switch norm := lower(s); norm {
	case "vauvausar", "baufrin", "human", "naram", "ssora", "kessrith":
		return Race(norm), nil
	case "human/naram/ssora":
		return Human, nil
	case "kess'rith", "kess rith":
		return KessRith, nil
	}
	return "", errorf(CodeInvalid, "unknown race %q: the Consciousness Table knows Vauvausar, Baufrin, Human, Naram, Ssora and KessRith", s)
}

// ConsciousnessNumber returns the highest face a crewman of race r must roll
// to stay conscious at the given total hits (the table's column, 1-4); kia is
// true in the 4 Hits column, where no roll is made (book l.359-365).
func ConsciousnessNumber(r Race, hits int) (number int, kia bool, err error) {
	row, ok := consciousnessTable(r)
	if !ok {
		return 0, false, errorf(CodeInvalid, "unknown race %q", string(r))
	}
	switch {
	case hits < 1:
		return 0, false, errorf(CodeInvalid, "the Consciousness Table has no %d Hits column", hits)
	case hits >= 4:
		return 0, true, nil
	}
	return row[hits-1], false, nil
}

// WoundChance returns a Bridge or Quarters occupant's chance of being wounded,
// in percent, and the Consciousness Table column a wounded occupant rolls on,
// given the hits suffered so far and the area's original boxes (BRIDGE, book
// l.353; QUARTERS, l.433): hits / boxes rounded up to the next 10%, and each
// 25% of damage, rounding up, counts as a hit. The TOG CINGULUM example
// (l.355): 15 of 50 boxes gives 30% and the "2 Hits" column. A wounded
// occupant is one who rolls the chance / 10 or less on a d10.
func WoundChance(hits, boxes int) (percent, column int, err error) {
	if boxes < 1 || hits < 0 || hits > boxes {
		return 0, 0, errorf(CodeInvalid, "cannot take a wound chance from %d hits on %d boxes", hits, boxes)
	}
	percent = ceilDiv(hits*10, boxes) * 10
	column = ceilDiv(hits*4, boxes)
	return percent, column, nil
}

// Breakup is the outcome of a failed structural collapse roll.
type Breakup string

// The STRUCTURAL COLLAPSE chart (book l.466-472).
const (
	// BreakupNone: the roll was made; the ship continues to operate.
	BreakupNone Breakup = "none"
	// BreakupDrift (chart 1-4): the ship breaks up without an explosion; the
	// crew has as many turns to abandon ship as Ship Destroyed boxes are left.
	BreakupDrift Breakup = "breaks_up"
	// BreakupDelayed (chart 5-7): the ship explodes after a short delay; all
	// able to eject may abandon ship first.
	BreakupDelayed Breakup = "explodes_after_delay"
	// BreakupExplodes (chart 8-10): the ship explodes immediately.
	BreakupExplodes Breakup = "explodes"
)

// StructuralCollapse resolves a structural collapse roll (book l.466-472):
// the pilot must roll above the number of Ship Destroyed boxes lost; if not,
// chartFace picks the outcome: 1-4 breaks up, 5-7 explodes after a delay,
// 8-10 explodes. chartFace is only read when the first roll fails.
func StructuralCollapse(lost, face, chartFace int) (Breakup, error) {
	if err := checkD10(face, "structural collapse roll"); err != nil {
		return "", err
	}
	if face > lost {
		return BreakupNone, nil
	}
	if err := checkD10(chartFace, "structural collapse chart roll"); err != nil {
		return "", err
	}
	switch {
	case chartFace <= 4:
		return BreakupDrift, nil
	case chartFace <= 7:
		return BreakupDelayed, nil
	}
	return BreakupExplodes, nil
}

// TurretJam is where a disabled turret's weapons end up (TURRET STRUCTURE,
// book l.409): face 1 jams it facing the ship's front, 2 the right front and
// so on clockwise to 6; 7-10 the weapons cannot fire at all. It returns the
// facing number 1-6, or 0 for weapons that must be abandoned.
func TurretJam(face int) (int, error) {
	if err := checkD10(face, "turret jam roll"); err != nil {
		return 0, err
	}
	if face <= 6 {
		return face, nil
	}
	return 0, nil
}

// JamFacingName names a jammed turret's facing, 1-6 (TURRET STRUCTURE,
// book l.409: "On a 1, the turret is jammed facing towards the ship's
// front, with a 2 meaning that the turret is facing to the right front,
// and so on in a clockwise direction"); "" for any other number.
func JamFacingName(facing int) string {
	names := [...]string{"the front", "the right front", "the right rear", "the rear", "the left rear", "the left front"}
	if facing < 1 || facing > len(names) {
		return ""
	}
	return fmt.Sprintf("%s (%d)", names[facing-1], facing)
}

// checkD10 fails with CodeInvalid unless face is a d10 face, 1-10 (the book
// reads a 0 on the die as 10).
func checkD10(face int, what string) error {
	if face < 1 || face > 10 {
		return errorf(CodeInvalid, "%s of %d is not a d10 face (1-10)", what, face)
	}
	return nil
}

// ceilDiv returns a/b rounded up, for a >= 0 and b > 0.
func ceilDiv(a, b int) int { return (a + b - 1) / b }
