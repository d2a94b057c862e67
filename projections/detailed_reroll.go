package projections

import (
	"fmt"
	"slices"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules/interceptor"
)

// Karma re-rolls of a detailed ship's rolls. A party crewman re-rolls his
// own roll (a pilot his collapse roll) with a karma point, as a character
// re-rolls any set of his dice. The roll lives inside a hit or a turn end,
// and what came after it in that event follows from it (a crewman who now
// stays awake makes no wake roll), so the re-roll is a new hit or turn end
// that replaces the old one, as a dogfight's re-rolled maneuver replaces
// its maneuver: it may replace only the ship's latest event, and the fold
// rewinds the ship to just before that event and applies the new one in
// its place. Both stay in the log; undo takes the re-roll back.

// Step notes an event of the ship's stream before it is applied: an event
// that re-rolls (rerollsOf) must replace the stream's latest event, and
// the ship is rewound to just before that; any other event becomes the
// latest, with the ship as it is now kept as its before.
func (d *DetailedShip) Step(e events.Event, p events.Payload) error {
	if id := rerollsOf(p); id != "" {
		if id != d.latestID || d.before == nil {
			return fmt.Errorf("event %d: a re-roll of %s, which is not the ship's latest event", e.Seq, id)
		}
		before := d.before
		*d = *before
		d.before = before
	} else {
		b := *d
		b.before, b.latest, b.latestID = nil, nil, ""
		d.before = &b
	}
	d.latest, d.latestID = p, e.ID
	return nil
}

// rerollsOf returns the event a hit or turn end replaces, or "".
func rerollsOf(p events.Payload) string {
	switch p := p.(type) {
	case *events.DetailedShipHit:
		return p.Rerolls
	case *events.DetailedTurnEnded:
		return p.Rerolls
	}
	return ""
}

// Latest returns the ID of the ship's latest event in effect and its
// payload; a karma re-roll may replace only it.
func (d *DetailedShip) Latest() (string, events.Payload) { return d.latestID, d.latest }

// Before returns the ship as it was just before its latest event.
func (d *DetailedShip) Before() (DetailedShip, bool) {
	if d.before == nil {
		return DetailedShip{}, false
	}
	b := *d.before
	return b, true
}

// EventRolls lists the rolls a hit or a turn end made, in the order a
// re-roll numbers them (from 1): a hit's crew rolls, then its jam rolls;
// a turn end's rolls, then its wake rolls. Other events made none.
func EventRolls(p events.Payload) []events.DetailedShipRoll {
	switch p := p.(type) {
	case *events.DetailedShipHit:
		return append(slices.Clone(p.CrewRolls), p.JamRolls...)
	case *events.DetailedTurnEnded:
		return append(slices.Clone(p.Rolls), p.Wake...)
	}
	return nil
}

// RollRedo says which roll of an event a karma re-roll makes again.
type RollRedo struct {
	// Roll is the roll's index (0-based) in EventRolls; Die is 0 to roll
	// it again from its first die, 1 to roll only its second.
	Roll, Die int
	// Dice gives the new die, then any die a roll now needs beyond the
	// dice kept from the first event.
	Dice ShipDice
}

// redoDice says where the dice of each roll of a re-rolled event come
// from (forRoll): the roll re-rolled takes the new die where its old one
// was and keeps the other; every other roll keeps the faces of the first
// event's roll of the same terms (the next unused one) as far as it needs
// them; a roll that needs more takes them from redo.Dice.
type redoDice struct {
	first []events.DetailedShipRoll // the first event's rolls, all of them
	used  []bool
	redo  RollRedo
}

func rollKey(r events.DetailedShipRoll) [4]string {
	return [4]string{r.Kind, r.Crew, r.Station, fmt.Sprint(r.Turret)}
}

// forRoll returns the dice of the roll at index i (in EventRolls order)
// whose terms are call.
func (rd *redoDice) forRoll(i int, call interceptor.Roll) ShipDice {
	var kept []int
	entered := false
	fresh := -1 // the queue position of the new die, or -1
	switch {
	case i == rd.redo.Roll:
		old := rd.first[i]
		rd.used[i] = true
		entered = old.Entered
		if rd.redo.Die == 0 {
			kept = append([]int{0}, tail(old.Faces, 1)...)
			fresh = 0
		} else {
			kept = []int{old.Faces[0], 0}
			fresh = 1
		}
	default:
		key := rollKey(storedRoll(call))
		for j, r := range rd.first {
			if !rd.used[j] && j != rd.redo.Roll && rollKey(r) == key {
				rd.used[j] = true
				kept, entered = r.Faces, r.Entered
				break
			}
		}
	}
	next := 0
	return func() (int, bool, error) {
		if next < len(kept) {
			next++
			if next-1 == fresh {
				return rd.redo.Dice()
			}
			return kept[next-1], entered, nil
		}
		return rd.redo.Dice()
	}
}

func tail(faces []int, from int) []int {
	if from >= len(faces) {
		return nil
	}
	return faces[from:]
}

// redoRolls makes calls on ship with rd's dice; offset is the index in
// EventRolls of the first of them.
func (rd *redoDice) redoRolls(ship interceptor.Ship, calls []interceptor.Roll, offset int) (interceptor.Ship, []events.DetailedShipRoll, error) {
	out := make([]events.DetailedShipRoll, 0, len(calls))
	for i, c := range calls {
		n, made, err := MakeShipRolls(ship, []interceptor.Roll{c}, rd.forRoll(offset+i, c))
		if err != nil {
			return ship, nil, err
		}
		ship = n
		out = append(out, made...)
	}
	return ship, out, nil
}

// checkRedo refuses a redo that names no roll of first, a moot one, or a
// second die it does not have.
func checkRedo(first []events.DetailedShipRoll, redo RollRedo) error {
	switch {
	case redo.Roll < 0 || redo.Roll >= len(first):
		return fmt.Errorf("roll %d: the event made %d rolls", redo.Roll+1, len(first))
	case first[redo.Roll].Moot:
		return fmt.Errorf("roll %d was moot: no die was rolled", redo.Roll+1)
	case redo.Die < 0 || redo.Die > 1 || (redo.Die == 1 && len(first[redo.Roll].Faces) < 2):
		return fmt.Errorf("roll %d rolled %d dice: there is no die %d to re-roll", redo.Roll+1, len(first[redo.Roll].Faces), redo.Die+1)
	}
	return nil
}

// RedoHit makes a hit again on the ship as it was before it (d is that
// ship), from the recorded first hit, with one roll re-rolled: the terms
// and the damage are the first hit's, the rolls are made with redo. It
// returns the new hit as recorded, with the first hit's terms.
func (d *DetailedShip) RedoHit(first *events.DetailedShipHit, redo RollRedo) (events.DetailedShipHit, error) {
	rolls := EventRolls(first)
	if err := checkRedo(rolls, redo); err != nil {
		return events.DetailedShipHit{}, err
	}
	n, want, calls, err := d.hit(first)
	if err != nil {
		return want, err
	}
	rd := &redoDice{first: rolls, used: make([]bool, len(rolls)), redo: redo}
	if n, want.CrewRolls, err = rd.redoRolls(n, calls.Crew, 0); err != nil {
		return events.DetailedShipHit{}, err
	}
	if n, want.JamRolls, err = rd.redoRolls(n, calls.Jam, len(calls.Crew)); err != nil {
		return events.DetailedShipHit{}, err
	}
	d.ship = n
	d.Hits++
	return want, nil
}

// RedoTurnEnd makes a turn end again on the ship as it was before it (d
// is that ship), with one roll re-rolled: the crewmen who abandoned ship
// in it abandon it again, and the rules are the current ones (turnEnd).
func (d *DetailedShip) RedoTurnEnd(first *events.DetailedTurnEnded, redo RollRedo) (events.DetailedTurnEnded, error) {
	rolls := EventRolls(first)
	if err := checkRedo(rolls, redo); err != nil {
		return events.DetailedTurnEnded{}, err
	}
	rd := &redoDice{first: rolls, used: make([]bool, len(rolls)), redo: redo}
	offset := 0
	n, out, err := turnEnd(d.ship, events.DetailedTurnEnded{}.PayloadVersion(), first.Abandoned, func(ship interceptor.Ship, calls []interceptor.Roll, wake bool) (interceptor.Ship, []events.DetailedShipRoll, error) {
		n, made, err := rd.redoRolls(ship, calls, offset)
		offset += len(calls)
		return n, made, err
	})
	if err != nil {
		return events.DetailedTurnEnded{}, err
	}
	d.ship = n
	return out, nil
}

// CheckReroll holds a re-rolling hit or turn end (p) against the event it
// replaces (first): the same terms, the roll it names made by
// p.RerolledBy and not moot, and no die changed but the one re-rolled and
// those of rolls that now need more: every other roll's faces and the
// first event's faces of the same roll agree as far as both go. It
// returns the first problem, or "".
func CheckReroll(first, p events.Payload) string {
	var r events.DetailedReroll
	switch p := p.(type) {
	case *events.DetailedShipHit:
		f, ok := first.(*events.DetailedShipHit)
		if !ok {
			return "a re-rolled hit replaces an event that is not a hit"
		}
		if !sameHitTerms(f, p) {
			return "a re-rolled hit whose facing, weapon, column or turret dice differ from the hit it replaces"
		}
		r = p.DetailedReroll
	case *events.DetailedTurnEnded:
		f, ok := first.(*events.DetailedTurnEnded)
		if !ok {
			return "a re-rolled turn end replaces an event that is not a turn end"
		}
		if !slices.Equal(f.Abandoned, p.Abandoned) {
			return "a re-rolled turn end in which other crewmen abandon ship than in the turn end it replaces"
		}
		r = p.DetailedReroll
	}
	old, now := EventRolls(first), EventRolls(p)
	redo := RollRedo{Roll: r.RerolledRoll - 1, Die: max(r.RerolledDie-1, 0)}
	if r.RerolledDie != 0 && r.RerolledDie != 2 {
		return fmt.Sprintf("a re-roll of die %d of a roll (0 for the roll, 2 for its second die)", r.RerolledDie)
	}
	if err := checkRedo(old, redo); err != nil {
		return "a re-roll of " + err.Error()
	}
	roll := old[redo.Roll]
	switch {
	case interceptor.RollKind(roll.Kind) == interceptor.RollTurretJam:
		return "a karma re-roll of a turret jam roll, which is nobody's"
	case roll.Crew == "" || roll.Crew != r.RerolledBy:
		return fmt.Sprintf("a re-roll of roll %d (%s) recorded as %q's", r.RerolledRoll, ShipRollText(roll), r.RerolledBy)
	}
	used := make([]bool, len(old))
	for i, n := range now {
		if i < redo.Roll {
			if !slices.Equal(n.Faces, old[i].Faces) {
				return fmt.Sprintf("a re-roll of roll %d changed the dice of roll %d before it", r.RerolledRoll, i+1)
			}
			used[i] = true
			continue
		}
		if i == redo.Roll {
			used[i] = true
			if rollKey(n) != rollKey(roll) {
				return fmt.Sprintf("a re-roll of roll %d that made another roll in its place (%s)", r.RerolledRoll, ShipRollText(n))
			}
			if redo.Die == 1 && (len(n.Faces) < 1 || n.Faces[0] != roll.Faces[0]) {
				return fmt.Sprintf("a re-roll of roll %d's second die that changed its first", r.RerolledRoll)
			}
			if redo.Die == 0 && !prefixAgree(tail(n.Faces, 1), tail(roll.Faces, 1)) {
				return fmt.Sprintf("a re-roll of roll %d that changed its second die", r.RerolledRoll)
			}
			continue
		}
		for j, o := range old {
			if !used[j] && j != redo.Roll && rollKey(o) == rollKey(n) {
				used[j] = true
				if !prefixAgree(n.Faces, o.Faces) {
					return fmt.Sprintf("a re-roll of roll %d that changed the dice of %s", r.RerolledRoll, ShipRollText(n))
				}
				break
			}
		}
	}
	return ""
}

// prefixAgree reports whether a and b agree as far as both go.
func prefixAgree(a, b []int) bool {
	n := min(len(a), len(b))
	return slices.Equal(a[:n], b[:n])
}

func sameHitTerms(a, b *events.DetailedShipHit) bool {
	as, bs := a.Shots(), b.Shots()
	if len(as) != len(bs) {
		return false
	}
	for i := range as {
		if !sameShotTerms(&as[i], &bs[i]) {
			return false
		}
	}
	return true
}

func sameShotTerms(a, b *events.DetailedShot) bool {
	sameTemplate := (a.Template == nil) == (b.Template == nil)
	if sameTemplate && a.Template != nil {
		sameTemplate = a.Template.Name == b.Template.Name && slices.Equal(a.Template.Rows, b.Template.Rows)
	}
	return sameTemplate && a.Facing == b.Facing && a.Points == b.Points && a.Sample == b.Sample && a.Column == b.Column &&
		a.Entered == b.Entered && a.TurretChance == b.TurretChance && a.TurretRoll == b.TurretRoll &&
		slices.Equal(a.TurretPicks, b.TurretPicks) && a.TurretEntered == b.TurretEntered && a.Turret == b.Turret
}
