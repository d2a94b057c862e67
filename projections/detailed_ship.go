package projections

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules/interceptor"
)

// SpecOf returns the rules' Spec of a stored detailed record.
func SpecOf(r events.DetailedRecord) interceptor.Spec {
	sp := interceptor.Spec{
		Name:            r.Name,
		Armour:          interceptor.ArmourSpec{Forward: r.Armour.Forward, Aft: r.Armour.Aft, Left: r.Armour.Left, Right: r.Armour.Right},
		Internal:        cloneRows(r.Internal),
		Components:      maps.Clone(r.Components),
		Cargo:           maps.Clone(r.Cargo),
		OccupiedHangars: slices.Clone(r.OccupiedHangars),
	}
	for _, e := range r.Externals {
		sp.Externals = append(sp.Externals, interceptor.ExternalSpec{Name: e.Name, Type: e.Type, Facing: interceptor.Facing(e.Facing), Column: e.Column})
	}
	for _, t := range r.Turrets {
		sp.Turrets = append(sp.Turrets, interceptor.TurretSpec{Name: t.Name, Armour: t.Armour, Internal: cloneRows(t.Internal), Components: maps.Clone(t.Components), Cargo: maps.Clone(t.Cargo)})
	}
	for _, c := range r.Crew {
		sp.Crew = append(sp.Crew, interceptor.CrewSpec{Name: c.Name, Race: c.Race, Station: c.Station})
	}
	return sp
}

// RecordOf returns the stored form of a rules Spec: SpecOf(RecordOf(sp))
// builds the same ship as sp.
func RecordOf(sp interceptor.Spec) events.DetailedRecord {
	r := events.DetailedRecord{
		Name:            sp.Name,
		Armour:          events.DetailedArmour{Forward: sp.Armour.Forward, Aft: sp.Armour.Aft, Left: sp.Armour.Left, Right: sp.Armour.Right},
		Internal:        cloneRows(sp.Internal),
		Components:      maps.Clone(sp.Components),
		Cargo:           maps.Clone(sp.Cargo),
		OccupiedHangars: slices.Clone(sp.OccupiedHangars),
	}
	for _, e := range sp.Externals {
		r.Externals = append(r.Externals, events.DetailedExternal{Name: e.Name, Type: e.Type, Facing: string(e.Facing), Column: e.Column})
	}
	for _, t := range sp.Turrets {
		r.Turrets = append(r.Turrets, events.DetailedTurret{Name: t.Name, Armour: t.Armour, Internal: cloneRows(t.Internal), Components: maps.Clone(t.Components), Cargo: maps.Clone(t.Cargo)})
	}
	for _, c := range sp.Crew {
		r.Crew = append(r.Crew, events.DetailedCrew{Name: c.Name, Race: c.Race, Station: c.Station})
	}
	return r
}

func cloneRows(rows [][]string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = slices.Clone(r)
	}
	return out
}

// ShotOf returns the rules' Hit a recorded shot describes.
func ShotOf(p events.DetailedShot) (interceptor.Hit, error) {
	h := interceptor.Hit{Facing: interceptor.Facing(p.Facing), Column: p.Column, Points: p.Points, Turret: p.Turret}
	if p.Template != nil {
		t, err := interceptor.NewTemplate(p.Template.Name, p.Template.Rows)
		if err != nil {
			return interceptor.Hit{}, err
		}
		h.Template = &t
	}
	return h, nil
}

// shotTerms returns a shot's terms without what it did.
func shotTerms(p events.DetailedShot) events.DetailedShot {
	return events.DetailedShot{Facing: p.Facing, Points: p.Points, Template: p.Template, Sample: p.Sample, Column: p.Column, Entered: p.Entered,
		TurretChance: p.TurretChance, TurretRoll: p.TurretRoll, TurretPicks: p.TurretPicks, TurretEntered: p.TurretEntered, Turret: p.Turret}
}

// shotOutcome is what the rules say one shot did, with its terms.
func shotOutcome(terms events.DetailedShot, rep interceptor.Report) events.DetailedShot {
	out := shotTerms(terms)
	out.Destroyed, out.Exploded, out.Wasted, out.Residual, out.TurretDestroyed = places(rep.Destroyed), places(rep.Exploded), rep.Wasted, rep.Residual, rep.TurretDestroyed
	if out.Destroyed == nil {
		out.Destroyed = []events.ShipPlace{}
	}
	return out
}

// DetailedHitOutcome is what the rules say a hit does: the report of
// interceptor's Volley in the stored form, each shot's with the terms of
// the shot in shots (in order, one per Volley shot).
func DetailedHitOutcome(shots []events.DetailedShot, rep interceptor.Report) events.DetailedShipHit {
	out := events.DetailedShipHit{Widowed: places(rep.Widowed), ExternalsLost: slices.Clone(rep.ExternalsLost), ShipExploded: rep.ShipExploded, Killed: slices.Clone(rep.Killed)}
	for i, sh := range rep.Shots {
		o := shotOutcome(shots[i], sh)
		if i == 0 {
			out.DetailedShot = o
		} else {
			out.MoreShots = append(out.MoreShots, o)
		}
	}
	for _, d := range rep.Disabled {
		out.Disabled = append(out.Disabled, events.ShipComponentRef{Turret: d.Turret, Code: d.Code, Type: string(d.Type)})
	}
	for _, r := range rep.Rolls {
		out.Rolls = append(out.Rolls, describeRoll(r))
	}
	return out
}

func describeRoll(r interceptor.Roll) string {
	var b strings.Builder
	b.WriteString(string(r.Kind))
	if r.Crew != "" {
		fmt.Fprintf(&b, " by %s", r.Crew)
	}
	if r.Station != "" {
		fmt.Fprintf(&b, " at %s", r.Station)
	}
	if r.Turret != 0 {
		fmt.Fprintf(&b, " for turret %d", r.Turret)
	}
	if r.Number != 0 {
		fmt.Fprintf(&b, " (number %d)", r.Number)
	}
	if r.Percent != 0 {
		fmt.Fprintf(&b, " (%d%%)", r.Percent)
	}
	return b.String()
}

func places(ps []interceptor.Place) []events.ShipPlace {
	if len(ps) == 0 {
		return nil
	}
	out := make([]events.ShipPlace, len(ps))
	for i, p := range ps {
		out[i] = events.ShipPlace{Turret: p.Turret, Block: p.Block, Row: p.Row, Column: p.Column}
	}
	return out
}

// SameDetailedOutcome compares what a hit recorded with what the rules
// give (want, from DetailedHitOutcome) and returns the first difference,
// or "".
func SameDetailedOutcome(got *events.DetailedShipHit, want events.DetailedShipHit) string {
	gs, ws := got.Shots(), want.Shots()
	if len(gs) != len(ws) {
		return fmt.Sprintf("hit recorded %d shots; the rules made %d", len(gs), len(ws))
	}
	for i := range gs {
		g, w := gs[i], ws[i]
		what := "hit"
		if len(gs) > 1 {
			what = fmt.Sprintf("shot %d", i+1)
		}
		if !slices.Equal(g.Destroyed, w.Destroyed) {
			return fmt.Sprintf("%s recorded %d boxes destroyed %s; the rules destroy %d %s", what, len(g.Destroyed), placeList(g.Destroyed), len(w.Destroyed), placeList(w.Destroyed))
		}
		if !slices.Equal(g.Exploded, w.Exploded) {
			return fmt.Sprintf("%s recorded %d boxes exploded; the rules give %d", what, len(g.Exploded), len(w.Exploded))
		}
		if g.Wasted != w.Wasted || g.Residual != w.Residual {
			return fmt.Sprintf("%s recorded %d points wasted (%d residual); the rules give %d (%d)", what, g.Wasted, g.Residual, w.Wasted, w.Residual)
		}
		if g.TurretDestroyed != w.TurretDestroyed {
			return fmt.Sprintf("%s recorded turret %d destroyed; the rules give %d (0: none)", what, g.TurretDestroyed, w.TurretDestroyed)
		}
	}
	if !slices.Equal(got.Widowed, want.Widowed) || !slices.Equal(got.ExternalsLost, want.ExternalsLost) {
		return fmt.Sprintf("hit recorded %d widowed boxes; the rules widow %d", len(got.Widowed), len(want.Widowed))
	}
	if !slices.Equal(got.Disabled, want.Disabled) {
		return fmt.Sprintf("hit recorded components disabled %v; the rules disable %v", got.Disabled, want.Disabled)
	}
	if got.ShipExploded != want.ShipExploded {
		return fmt.Sprintf("hit recorded the ship exploded %t; the rules give %t", got.ShipExploded, want.ShipExploded)
	}
	if !slices.Equal(got.Killed, want.Killed) {
		return fmt.Sprintf("hit recorded %v killed; the rules kill %v", got.Killed, want.Killed)
	}
	if !slices.Equal(got.Rolls, want.Rolls) {
		return fmt.Sprintf("hit recorded the rolls %v; the rules call for %v", got.Rolls, want.Rolls)
	}
	if d := SameShipRolls(got.CrewRolls, want.CrewRolls); d != "" {
		return "hit " + d
	}
	if d := SameShipRolls(got.JamRolls, want.JamRolls); d != "" {
		return "hit's turret jam roll " + d
	}
	return ""
}

// CheckTurretRolls holds each shot's turret roll against the ship as the
// shots before it left it (see CheckTurretRoll) and returns the first
// problem, or "".
func CheckTurretRolls(ship interceptor.Ship, p *events.DetailedShipHit) string {
	shots := p.Shots()
	for i, shot := range shots {
		if problem := CheckTurretRoll(ship, &shot); problem != "" {
			if len(shots) > 1 {
				return fmt.Sprintf("shot %d: %s", i+1, problem)
			}
			return problem
		}
		h, err := ShotOf(shot)
		if err != nil {
			return err.Error()
		}
		if ship.Exploded() {
			continue // the shot does nothing (Volley)
		}
		if ship, _, err = ship.Hit(h); err != nil {
			return "" // ApplyHit says what is wrong with it
		}
	}
	return ""
}

// CheckTurretRoll holds a hit's turret roll against the ship it struck
// (as the hits before it left it) and returns the first problem, or "":
// on a ship with a standing turret a hit rolls the d10 against the book's
// chance and, when it hits a turret and there are several, which one
// (TURRETS, book l.341); the turret it names is the one the rules give.
func CheckTurretRoll(ship interceptor.Ship, p *events.DetailedShot) string {
	chance := ship.TurretChance()
	if chance == 0 {
		if p.TurretRoll != 0 || p.TurretChance != 0 || p.Turret != 0 || len(p.TurretPicks) != 0 {
			return fmt.Sprintf("hit recorded turret roll %d against %d for turret %d; %s had no turret standing", p.TurretRoll, p.TurretChance, p.Turret, ship.Name())
		}
		return ""
	}
	if p.TurretRoll == 0 {
		return fmt.Sprintf("hit recorded no turret roll; %s had a turret standing (book l.341)", ship.Name())
	}
	if p.TurretChance != chance {
		return fmt.Sprintf("hit recorded a turret chance of %d; with %d turrets the book gives %d (book l.341)", p.TurretChance, len(ship.Turrets()), chance)
	}
	want, err := ship.TurretStruck(p.TurretRoll, p.TurretPicks...)
	if err != nil {
		return err.Error()
	}
	// With more than one turret, a turret is struck only through a pick.
	if want > 0 && len(ship.Turrets()) > 1 && p.TurretPicks[len(p.TurretPicks)-1] != want {
		return fmt.Sprintf("hit recorded the turret picks %v past the one that hit (turret %d)", p.TurretPicks, want)
	}
	if len(p.TurretPicks) > 0 && (want == 0 || len(ship.Turrets()) == 1) {
		return fmt.Sprintf("hit recorded the turret picks %v; the roll of %d called for none", p.TurretPicks, p.TurretRoll)
	}
	if p.Turret != want {
		return fmt.Sprintf("hit recorded turret %d (0: the hull); the turret roll of %d against %d%s gives %d", p.Turret, p.TurretRoll, chance, picksText(p.TurretPicks), want)
	}
	return ""
}

func picksText(picks []int) string {
	if len(picks) == 0 {
		return ""
	}
	parts := make([]string, len(picks))
	for i, p := range picks {
		parts[i] = fmt.Sprint(p)
	}
	return ", picks " + strings.Join(parts, " ")
}

func placeList(ps []events.ShipPlace) string {
	parts := make([]string, 0, len(ps))
	for i, p := range ps {
		if i == 6 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("%s r%dc%d", p.Block, p.Row, p.Column))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// DetailedShip is a detailed (INTERCEPTOR) ship record, folded from its
// stream: the record, built with the rules, with every hit in effect
// applied in order.
type DetailedShip struct {
	ID   string
	Name string
	// File is the file the record was read from.
	File string
	// Hits counts the hits in effect; Repairs the repairs.
	Hits    int
	Repairs int
	// LastRepair is where on the game clock the last repair in effect
	// ended (nil when none ran on the clock), and LastRepairSeq its seq:
	// the next repair of the same day starts there.
	LastRepair    *events.ShipClock
	LastRepairSeq int64
	Version       int64
	Seq           int64

	ship interceptor.Ship
	// latest is the stream's latest event in effect, and before the ship
	// as it was just before it: a karma re-roll of one of its rolls
	// replaces it (see Step).
	latest   events.Payload
	latestID string
	before   *DetailedShip
}

// Ship returns the rules' ship, with its damage.
func (d *DetailedShip) Ship() interceptor.Ship { return d.ship }

// Apply folds one event of a detailed ship's stream. A hit is re-applied
// with the rules (and widowed armour removed after it), so the ship is
// what the rules make of the hits in effect; the outcome recorded in the
// event is checked by verify (World), not here.
func (d *DetailedShip) Apply(e events.Event) error {
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	if err := d.Step(e, p); err != nil {
		return err
	}
	switch p := p.(type) {
	case *events.DetailedShipBuilt:
		sh, err := interceptor.NewShip(SpecOf(p.Record))
		if err != nil {
			return fmt.Errorf("event %d: %w", e.Seq, err)
		}
		d.ID, d.Name, d.File, d.ship = p.ShipID, p.Name, p.File, sh
	case *events.DetailedShipHit:
		if _, _, err := d.ApplyHit(p); err != nil {
			return fmt.Errorf("event %d: %w", e.Seq, err)
		}
	case *events.DetailedTurnEnded:
		if _, err := d.ApplyTurnEnd(p, e.PayloadVersion); err != nil {
			return fmt.Errorf("event %d: %w", e.Seq, err)
		}
	case *events.DetailedShipRepaired:
		if _, err := d.ApplyRepair(p); err != nil {
			return fmt.Errorf("event %d: %w", e.Seq, err)
		}
		if p.Until != nil {
			u := *p.Until
			d.LastRepair, d.LastRepairSeq = &u, e.Seq
		}
	default:
		return fmt.Errorf("event %d: %s does not belong on a detailed ship's record", e.Seq, e.Type)
	}
	d.Version, d.Seq = e.StreamVersion, e.Seq
	return nil
}

// ApplyHit applies a recorded hit with the rules and returns the ship
// before it and what the rules say it did. The consciousness and turret
// jam rolls it called for are made again from the faces recorded.
func (d *DetailedShip) ApplyHit(p *events.DetailedShipHit) (interceptor.Ship, events.DetailedShipHit, error) {
	before := d.ship
	n, want, calls, err := d.hit(p)
	if err != nil {
		return before, want, err
	}
	if n, want.CrewRolls, err = ReplayShipRolls(n, calls.Crew, p.CrewRolls); err != nil {
		return before, events.DetailedShipHit{}, fmt.Errorf("crew rolls: %w", err)
	}
	if n, want.JamRolls, err = ReplayShipRolls(n, calls.Jam, p.JamRolls); err != nil {
		return before, events.DetailedShipHit{}, fmt.Errorf("turret jam roll: %w", err)
	}
	d.ship = n
	d.Hits++
	return before, want, nil
}

// MakeHit applies a hit with the rules and makes the rolls it calls for:
// the consciousness rolls with crew, the turret jam rolls with jam. It
// returns the hit as it is recorded: p's terms (facing, weapon, column,
// turret dice, source) and what it did, CrewRolls and JamRolls included.
func (d *DetailedShip) MakeHit(p *events.DetailedShipHit, crew, jam ShipDice) (events.DetailedShipHit, error) {
	n, want, calls, err := d.hit(p)
	if err != nil {
		return want, err
	}
	if n, want.CrewRolls, err = MakeShipRolls(n, calls.Crew, crew); err != nil {
		return events.DetailedShipHit{}, err
	}
	if n, want.JamRolls, err = MakeShipRolls(n, calls.Jam, jam); err != nil {
		return events.DetailedShipHit{}, err
	}
	d.ship = n
	d.Hits++
	return want, nil
}

// hit applies p's shots to the ship with the rules, then removes the
// widowed armour once (Volley), and returns the ship after it, the hit as
// recorded without its rolls (p's terms and what the rules say it did) and
// the rolls it calls for.
func (d *DetailedShip) hit(p *events.DetailedShipHit) (interceptor.Ship, events.DetailedShipHit, HitRolls, error) {
	shots := p.Shots()
	hits := make([]interceptor.Hit, len(shots))
	for i, shot := range shots {
		h, err := ShotOf(shot)
		if err != nil {
			return d.ship, events.DetailedShipHit{}, HitRolls{}, err
		}
		hits[i] = h
	}
	n, rep, err := d.ship.Volley(hits)
	if err != nil {
		return d.ship, events.DetailedShipHit{}, HitRolls{}, err
	}
	want := DetailedHitOutcome(shots, rep)
	want.Source = p.Source
	return n, want, HitRollsOf(rep), nil
}

// ApplyRepair applies a recorded repair with the rules (its turret, code
// and boxes; for an external system, External and its name in Code) and
// returns what the rules say it did, in the stored form with the repair's
// terms; the clock (From, Until) is left to the caller.
func (d *DetailedShip) ApplyRepair(p *events.DetailedShipRepaired) (events.DetailedShipRepaired, error) {
	var n interceptor.Ship
	var rep interceptor.RepairReport
	var err error
	if p.External {
		if p.Turret != 0 {
			return events.DetailedShipRepaired{}, fmt.Errorf("a repair of external system %q on turret %d: external systems are on the hull", p.Code, p.Turret)
		}
		if p.Boxes != 1 {
			return events.DetailedShipRepaired{}, fmt.Errorf("a repair of %d boxes of external system %q: an external system is one box", p.Boxes, p.Code)
		}
		n, rep, err = d.ship.RepairExternal(p.Code)
	} else {
		n, rep, err = d.ship.RepairBoxes(p.Turret, p.Code, p.Boxes)
	}
	if err != nil {
		return events.DetailedShipRepaired{}, err
	}
	d.ship = n
	d.Repairs++
	return DetailedRepairOutcome(rep), nil
}

// DetailedRepairOutcome is what the rules say a repair does, in the stored
// form, without the clock.
func DetailedRepairOutcome(rep interceptor.RepairReport) events.DetailedShipRepaired {
	out := events.DetailedShipRepaired{Turret: rep.Component.Turret, Code: rep.Component.Code, External: rep.External, Type: string(rep.Component.Type),
		Boxes: len(rep.Restored), Restored: places(rep.Restored), LostBefore: rep.LostBefore, LostAfter: rep.LostAfter,
		MinutesPerBox: rep.MinutesPerBox, Minutes: rep.Minutes, Source: rep.Component.Type.RepairSource()}
	if out.Restored == nil {
		out.Restored = []events.ShipPlace{}
	}
	return out
}

// SameDetailedRepair compares what a repair recorded with what the rules
// give (want, from DetailedRepairOutcome) and returns the first
// difference, or "".
func SameDetailedRepair(got *events.DetailedShipRepaired, want events.DetailedShipRepaired) string {
	if got.External != want.External {
		return fmt.Sprintf("repair recorded %s as an external system %t; the rules give %t", got.Code, got.External, want.External)
	}
	if got.Type != want.Type {
		return fmt.Sprintf("repair recorded %s as %s; the record makes it %s", got.Code, got.Type, want.Type)
	}
	if !slices.Equal(got.Restored, want.Restored) {
		return fmt.Sprintf("repair recorded boxes restored %s; the rules restore %s", placeList(got.Restored), placeList(want.Restored))
	}
	if got.LostBefore != want.LostBefore || got.LostAfter != want.LostAfter {
		return fmt.Sprintf("repair recorded %s lost %d → %d; the rules give %d → %d", got.Code, got.LostBefore, got.LostAfter, want.LostBefore, want.LostAfter)
	}
	if got.MinutesPerBox != want.MinutesPerBox || got.Minutes != want.Minutes {
		return fmt.Sprintf("repair recorded %d minutes (%d a box); the book gives %d (%d a box, %s)", got.Minutes, got.MinutesPerBox, want.Minutes, want.MinutesPerBox, want.Source)
	}
	return ""
}

// MinutesPerDay is the length of a game day on the clock repairs run on.
const MinutesPerDay = 1440

// RepairClock returns where on the game clock a repair of minutes that
// begins at from ends, and how many midnights it passes.
func RepairClock(from events.ShipClock, minutes int) (until events.ShipClock, days int) {
	total := from.Minute + minutes
	days = total / MinutesPerDay
	return events.ShipClock{Adventure: from.Adventure, Day: from.Day + days, Minute: total % MinutesPerDay}, days
}

// RepairStart returns where a repair stamped at (a game time within an
// adventure) begins: where the last repair in effect ended, if it ended on
// that day, else at the start of the day.
func RepairStart(at events.GameTime, last *events.ShipClock) events.ShipClock {
	if last != nil && last.Adventure == at.Adventure && last.Day == at.Day {
		return *last
	}
	return events.ShipClock{Adventure: at.Adventure, Day: at.Day}
}

// ClockText writes a time of day as "day 2, 06:00".
func ClockText(c events.ShipClock) string {
	return fmt.Sprintf("day %d, %02d:%02d", c.Day, c.Minute/60, c.Minute%60)
}

// DurationText writes minutes as "6 h", "15 min" or "1 h 15 min".
func DurationText(minutes int) string {
	h, m := minutes/60, minutes%60
	if h == 0 {
		return fmt.Sprintf("%d min", m)
	}
	if m == 0 {
		return fmt.Sprintf("%d h", h)
	}
	return fmt.Sprintf("%d h %d min", h, m)
}

// DetailedBlock counts the boxes of an armour block or an Internal
// Component Block by state.
type DetailedBlock struct {
	Boxes     int `json:"boxes"`
	Intact    int `json:"intact"`
	Destroyed int `json:"destroyed"`
	Widowed   int `json:"widowed,omitempty"`
}

// DetailedComponent is a component and its damage.
type DetailedComponent struct {
	// Name is the record's code, as E1.
	Name string `json:"name"`
	// Type is the book's name of its type, as Engine; Key its stable key.
	Type     string `json:"type"`
	Key      string `json:"key"`
	Boxes    int    `json:"boxes"`
	Lost     int    `json:"lost"`
	Disabled bool   `json:"disabled"`
	Contents string `json:"contents,omitempty"`
}

// DetailedExternalView is an external system and its state.
type DetailedExternalView struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Facing string `json:"facing"`
	Column int    `json:"column"`
	State  string `json:"state"`
}

// DetailedTurretView is a turret's state.
type DetailedTurretView struct {
	Name       string `json:"name"`
	ArmorBoxes int    `json:"armor_boxes"`
	Destroyed  bool   `json:"destroyed"`
	// Jammed is set once the turret jam roll of its disabled Turret
	// Structure was made (book l.409): its weapons then fire only towards
	// JamFacing, 1 (the ship's front) to 6 clockwise, or, when JamFacing
	// is 0, not at all (abandoned).
	Jammed    bool `json:"jammed,omitempty"`
	JamFacing int  `json:"jam_facing,omitempty"`
	// State says all that in words: "standing", "destroyed", "jammed
	// facing the right rear (3)" or "weapons abandoned".
	State      string              `json:"state"`
	Components []DetailedComponent `json:"components"`
}

// turretState is a turret's State in words.
func turretState(t interceptor.TurretStatus) string {
	if t.Destroyed {
		return "destroyed"
	}
	if t.Jammed && t.JamFacing == 0 {
		return "weapons abandoned"
	}
	if t.Jammed {
		return "jammed facing " + interceptor.JamFacingName(t.JamFacing)
	}
	return "standing"
}

// DetailedCrewView is a crewman and his state.
type DetailedCrewView struct {
	Name    string `json:"name"`
	Race    string `json:"race"`
	Station string `json:"station"`
	Status  string `json:"status"`
	Wounded bool   `json:"wounded,omitempty"`
}

// DetailedShipView is a detailed ship as `ship show --json` prints it.
type DetailedShipView struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Kind     string `json:"kind"`
	File     string `json:"file,omitempty"`
	Hits     int    `json:"hits"`
	Repairs  int    `json:"repairs"`
	Exploded bool   `json:"exploded"`
	// BrokenUp is set when a structural collapse broke the ship up
	// (chart 1-4, book l.467): it is out of action permanently, and
	// AbandonTurns are the turns its crew has left to abandon ship (0:
	// the time is over, and those left aboard are dead).
	BrokenUp     bool                     `json:"broken_up"`
	AbandonTurns *int                     `json:"abandon_turns,omitempty"`
	Armor        map[string]DetailedBlock `json:"armor"`
	Internal     DetailedBlock            `json:"internal"`
	Components   []DetailedComponent      `json:"components"`
	Externals    []DetailedExternalView   `json:"externals"`
	Turrets      []DetailedTurretView     `json:"turrets"`
	Crew         []DetailedCrewView       `json:"crew"`
	Version      int64                    `json:"version"`
	Seq          int64                    `json:"seq"`
}

// Fate says in words that the ship is out of action permanently (book
// l.456), and for a ship a structural collapse broke up the time its crew
// has left to abandon ship; "" while it is in action.
func (v DetailedShipView) Fate() string {
	if v.Exploded {
		return "out of action permanently"
	}
	if v.BrokenUp && v.AbandonTurns != nil {
		return "out of action permanently (a structural collapse); " + AbandonText(*v.AbandonTurns)
	}
	return ""
}

// Heading is the ship's state as the title of its record shows it:
// EXPLODED, BROKEN UP, or "detailed record (INTERCEPTOR)".
func (v DetailedShipView) Heading() string {
	switch {
	case v.Exploded:
		return "EXPLODED"
	case v.BrokenUp:
		return "BROKEN UP"
	}
	return "detailed record (INTERCEPTOR)"
}

// DetailedKind is the Kind of a detailed ship's view.
const DetailedKind = "detailed"

// View returns the ship's state for display and JSON.
func (d *DetailedShip) View() DetailedShipView {
	s := d.ship
	v := DetailedShipView{ID: d.ID, Name: d.Name, Kind: DetailedKind, File: d.File, Hits: d.Hits, Repairs: d.Repairs, Exploded: s.Exploded(), Armor: map[string]DetailedBlock{},
		Components: components(s.Components(0)), Externals: []DetailedExternalView{}, Turrets: []DetailedTurretView{}, Crew: []DetailedCrewView{},
		Version: d.Version, Seq: d.Seq}
	if broken, left := s.BrokenUp(); broken {
		v.BrokenUp, v.AbandonTurns = true, &left
	}
	for _, f := range interceptor.Facings() {
		var b DetailedBlock
		for r := 1; r <= s.ArmourRows(f); r++ {
			for c := 1; c <= interceptor.Columns; c++ {
				st, _ := s.ArmourBox(f, r, c)
				b.count(st)
			}
		}
		v.Armor[string(f)] = b
	}
	for r := 1; r <= s.InternalRows(); r++ {
		for c := 1; c <= interceptor.Columns; c++ {
			_, st, _ := s.InternalBox(r, c)
			v.Internal.count(st)
		}
	}
	for _, e := range s.Externals() {
		v.Externals = append(v.Externals, DetailedExternalView{Name: e.Name, Type: e.Type.Name(), Facing: string(e.Facing), Column: e.Column, State: boxState(e.State)})
	}
	for i, t := range s.Turrets() {
		comps := components(s.Components(i + 1))
		v.Turrets = append(v.Turrets, DetailedTurretView{Name: t.Name, ArmorBoxes: t.ArmourRows * interceptor.Columns, Destroyed: t.Destroyed,
			Jammed: t.Jammed, JamFacing: t.JamFacing, State: turretState(t), Components: comps})
	}
	for _, c := range s.Crew() {
		v.Crew = append(v.Crew, DetailedCrewView{Name: c.Name, Race: string(c.Race), Station: c.Station, Status: string(c.Status), Wounded: c.Wounded})
	}
	return v
}

func (b *DetailedBlock) count(st interceptor.BoxState) {
	b.Boxes++
	switch st {
	case interceptor.Intact:
		b.Intact++
	case interceptor.Widowed:
		b.Widowed++
	default:
		b.Destroyed++
	}
}

func boxState(st interceptor.BoxState) string {
	switch st {
	case interceptor.Intact:
		return "intact"
	case interceptor.Widowed:
		return "widowed"
	}
	return "destroyed"
}

func components(cs []interceptor.ComponentStatus) []DetailedComponent {
	out := make([]DetailedComponent, 0, len(cs))
	for _, c := range cs {
		out = append(out, DetailedComponent{Name: c.Code, Type: c.Type.Name(), Key: string(c.Type), Boxes: c.Boxes, Lost: c.Destroyed, Disabled: c.Disabled, Contents: string(c.Contents)})
	}
	return out
}

// DetailedFleet lists every detailed ship built, in order.
type DetailedFleet struct {
	Ships []ShipMember `json:"ships"`
}

// Apply folds a ship.detailed.built event into the list; other events are
// ignored.
func (f *DetailedFleet) Apply(e events.Event) error {
	if e.Type != events.TypeDetailedShipBuilt {
		return nil
	}
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	b := p.(*events.DetailedShipBuilt)
	f.Ships = append(f.Ships, ShipMember{ID: b.ShipID, Name: b.Name, Seq: e.Seq})
	return nil
}

// Find returns the detailed ship whose name matches, ignoring case.
func (f *DetailedFleet) Find(name string) (ShipMember, bool) {
	for _, s := range f.Ships {
		if equalFoldTrim(s.Name, name) {
			return s, true
		}
	}
	return ShipMember{}, false
}

// Names returns the ships' names.
func (f *DetailedFleet) Names() []string {
	out := make([]string, len(f.Ships))
	for i, s := range f.Ships {
		out[i] = s.Name
	}
	return out
}

// ShipTemplates are the damage templates a campaign added, by name, in
// the order added (a later template of the same name replaces an earlier).
type ShipTemplates struct {
	Templates []events.ShipTemplate `json:"templates"`
	Version   int64                 `json:"version"`
}

// Apply folds an event of the templates stream.
func (t *ShipTemplates) Apply(e events.Event) error {
	p, err := events.Decode(e)
	if err != nil {
		return err
	}
	add, ok := p.(*events.ShipTemplatesAdded)
	if !ok {
		return fmt.Errorf("event %d: %s does not belong on the templates stream", e.Seq, e.Type)
	}
	for _, nt := range add.Templates {
		if i := t.index(nt.Name); i >= 0 {
			t.Templates[i] = nt
			continue
		}
		t.Templates = append(t.Templates, nt)
	}
	t.Version = e.StreamVersion
	return nil
}

func (t *ShipTemplates) index(name string) int {
	return slices.IndexFunc(t.Templates, func(x events.ShipTemplate) bool { return equalFoldTrim(x.Name, name) })
}

// Find returns the template named (ignoring case) and whether it is a
// sample: the campaign's own templates come first, then the program's
// samples.
func (t *ShipTemplates) Find(name string) (events.ShipTemplate, bool, bool) {
	if i := t.index(name); i >= 0 {
		return t.Templates[i], false, true
	}
	for _, s := range interceptor.SampleTemplates() {
		if equalFoldTrim(s.Name, name) {
			return events.ShipTemplate{Name: s.Name, Rows: s.Rows()}, true, true
		}
	}
	return events.ShipTemplate{}, false, false
}
