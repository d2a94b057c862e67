package campaign

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor"
)

// Detailed ship records (INTERCEPTOR, issue 14) live on ship streams, as
// section ships do, with event types of their own (events/detailed_ships.go).
// The rules are rules/interceptor; a ship is folded by building its record
// and re-applying every hit in effect (projections.DetailedShip).

// detailedShip is a detailed ship's folded stream.
type detailedShip struct {
	member projections.ShipMember
	stream string
	rec    projections.DetailedShip
}

// detailedFleet lists the detailed ships whose building is in effect, up
// to seq (0: all).
func (s *Service) detailedFleet(rv *projections.Reverts, upTo int64) (projections.DetailedFleet, error) {
	var f projections.DetailedFleet
	err := s.foldInEffect(events.Query{StreamPrefix: events.ShipStreamPrefix, TypePrefix: events.TypeDetailedShipBuilt, UpToSeq: upTo}, rv, f.Apply)
	return f, err
}

// loadDetailedShip folds a detailed ship's stream and returns the stream
// version read.
func (s *Service) loadDetailedShip(m projections.ShipMember, rv *projections.Reverts, upTo int64) (*detailedShip, int64, error) {
	sh := &detailedShip{member: m, stream: events.ShipStream(m.ID)}
	version, err := s.foldStream(sh.stream, rv, upTo, sh.rec.Apply)
	if err != nil {
		return nil, 0, err
	}
	return sh, version, nil
}

// shipNotFound is the error for a name that is neither a section ship nor
// a detailed one, with the nearest name when there is one.
func shipNotFound(name string, f *projections.Fleet, df *projections.DetailedFleet) error {
	name = projections.NormalizeName(name)
	names := append(f.Names(), df.Names()...)
	if len(names) == 0 {
		return rules.Errorf(rules.CodeNotFound, "no ship %q: none has been built; build one with `ltscamp ship new`", name)
	}
	if near, ok := rules.Suggest(name, names); ok {
		return rules.Errorf(rules.CodeNotFound, "no ship %q; did you mean %q?", name, near)
	}
	return rules.Errorf(rules.CodeNotFound, "no ship %q; the ships are %s", name, strings.Join(quoteAll(names), ", "))
}

// detailedShip loads a detailed ship for a decision and records its
// version. A section ship of that name is refused: the command is for
// detailed records.
func (d *decision) detailedShip(name, what string) (*detailedShip, error) {
	rv, err := d.revertsState()
	if err != nil {
		return nil, err
	}
	df, err := d.s.detailedFleet(rv, 0)
	if err != nil {
		return nil, err
	}
	m, ok := df.Find(name)
	if !ok {
		f, err := d.fleetState()
		if err != nil {
			return nil, err
		}
		if lts, ok := f.Find(name); ok {
			return nil, rules.Errorf(rules.CodeInvalid, "%s is a section ship, not a detailed record: %s is for detailed (INTERCEPTOR) ships", lts.Name, what)
		}
		return nil, shipNotFound(name, f, &df)
	}
	sh, version, err := d.s.loadDetailedShip(m, rv, 0)
	if err != nil {
		return nil, err
	}
	d.expect(sh.stream, version)
	return sh, nil
}

// refuseDetailed refuses a section-ship command on a detailed ship; why
// ends the message.
func (d *decision) refuseDetailed(name, why string) error {
	rv, err := d.revertsState()
	if err != nil {
		return err
	}
	df, err := d.s.detailedFleet(rv, 0)
	if err != nil {
		return err
	}
	if m, ok := df.Find(name); ok {
		return rules.Errorf(rules.CodeInvalid, "%s is a detailed (INTERCEPTOR) record: %s", m.Name, why)
	}
	return nil
}

// checkShipNameFree refuses a name a section ship or a detailed ship has.
func (d *decision) checkShipNameFree(name string) error {
	f, err := d.fleetState()
	if err != nil {
		return err
	}
	if m, ok := f.Find(name); ok {
		return rules.Errorf(rules.CodeConflict, "a ship named %q already exists (built at seq %d); choose another name", m.Name, m.Seq)
	}
	rv, err := d.revertsState()
	if err != nil {
		return err
	}
	df, err := d.s.detailedFleet(rv, 0)
	if err != nil {
		return err
	}
	if m, ok := df.Find(name); ok {
		return rules.Errorf(rules.CodeConflict, "a ship named %q already exists (built at seq %d); choose another name", m.Name, m.Seq)
	}
	return nil
}

// DetailedShipNew builds a detailed ship from its record (as an importer
// read it from file); the record's own name is kept in the record, the
// ship is called name. A record the rules refuse appends nothing.
func (s *Service) DetailedShipNew(name string, spec interceptor.Spec, file string) (projections.DetailedShip, error) {
	var built string
	_, err := s.execute(func(d *decision) error {
		ds, err := d.buildDetailedShip(name, spec, file)
		built = ds.Name
		return err
	})
	if err != nil {
		return projections.DetailedShip{}, err
	}
	return s.DetailedShip(built, "")
}

// buildDetailedShip decides a detailed ship's building, for
// DetailedShipNew and a roster import, and returns the ship as built (not
// yet appended: its seq and version are not known).
func (d *decision) buildDetailedShip(name string, spec interceptor.Spec, file string) (*projections.DetailedShip, error) {
	ds := &projections.DetailedShip{}
	n := projections.NormalizeName(name)
	if n == "" {
		return ds, rules.Errorf(rules.CodeInvalid, "a ship needs a name")
	}
	if err := rules.CheckName("ship name", strings.TrimSpace(name)); err != nil {
		return ds, err
	}
	if err := d.checkShipNameFree(n); err != nil {
		return ds, err
	}
	if strings.TrimSpace(spec.Name) == "" {
		spec.Name = n
	}
	if _, err := interceptor.NewShip(spec); err != nil {
		return ds, rules.Errorf(rules.CodeOf(err), "bad detailed ship record %s: %v", file, err)
	}
	if _, err := d.campaignState(); err != nil {
		return ds, err
	}
	id := d.s.newID()
	stream := events.ShipStream(id)
	d.expect(stream, 0)
	return ds, d.emitApplied(stream, events.DetailedShipBuilt{ShipID: id, Name: n, Record: projections.RecordOf(spec), File: strings.TrimSpace(file)}, ds.Apply)
}

// DetailedShip returns a detailed ship as of a point of the log ("" for
// now; see ResolveAsOf).
func (s *Service) DetailedShip(name, asOf string) (projections.DetailedShip, error) {
	v, err := s.view(asOf)
	if err != nil {
		return projections.DetailedShip{}, err
	}
	df, err := s.detailedFleet(&v.rv, v.upTo)
	if err != nil {
		return projections.DetailedShip{}, err
	}
	m, ok := df.Find(name)
	if !ok {
		f, err := s.fleet(&v.rv, v.upTo)
		if err != nil {
			return projections.DetailedShip{}, err
		}
		return projections.DetailedShip{}, shipNotFound(name, &f, &df)
	}
	sh, _, err := s.loadDetailedShip(m, &v.rv, v.upTo)
	if err != nil {
		return projections.DetailedShip{}, err
	}
	return sh.rec, nil
}

// DetailedShips returns every detailed ship, in the order they were built.
func (s *Service) DetailedShips() ([]projections.DetailedShip, error) {
	v, err := s.view("")
	if err != nil {
		return nil, err
	}
	df, err := s.detailedFleet(&v.rv, 0)
	if err != nil {
		return nil, err
	}
	return s.foldDetailedShips(df.Ships, &v.rv, 0)
}

// ShipKind says what kind of ship is named, as of a point of the log:
// detailed is true for a detailed record; found is false when no ship of
// either kind has the name.
func (s *Service) ShipKind(name, asOf string) (detailed, found bool, err error) {
	v, err := s.view(asOf)
	if err != nil {
		return false, false, err
	}
	df, err := s.detailedFleet(&v.rv, v.upTo)
	if err != nil {
		return false, false, err
	}
	if _, ok := df.Find(name); ok {
		return true, true, nil
	}
	f, err := s.fleet(&v.rv, v.upTo)
	if err != nil {
		return false, false, err
	}
	_, ok := f.Find(name)
	return false, ok, nil
}

// templates folds the damage templates the campaign added.
func (s *Service) templates(rv *projections.Reverts, upTo int64) (projections.ShipTemplates, int64, error) {
	var t projections.ShipTemplates
	version, err := s.foldStream(events.ShipTemplatesStream, rv, upTo, t.Apply)
	return t, version, err
}

// ShipTemplate is a damage template as `ship template list` shows it.
type ShipTemplate struct {
	Name   string   `json:"name"`
	Rows   []string `json:"rows"`
	Points int      `json:"points"`
	// Sample is true for the program's sample templates, which are not
	// the book's (its templates are die-cut diagrams).
	Sample bool `json:"sample"`
}

func shipTemplate(name string, rows []string, sample bool) ShipTemplate {
	points := 0
	for _, r := range rows {
		points += strings.Count(strings.ToUpper(r), "X")
	}
	return ShipTemplate{Name: name, Rows: rows, Points: points, Sample: sample}
}

// ShipTemplates lists the campaign's damage templates, then the samples
// it has not replaced with its own of the same name.
func (s *Service) ShipTemplates() ([]ShipTemplate, error) {
	v, err := s.view("")
	if err != nil {
		return nil, err
	}
	t, _, err := s.templates(&v.rv, 0)
	if err != nil {
		return nil, err
	}
	out := []ShipTemplate{}
	for _, x := range t.Templates {
		out = append(out, shipTemplate(x.Name, x.Rows, false))
	}
	for _, x := range interceptor.SampleTemplates() {
		if _, sample, _ := t.Find(x.Name); sample { // not replaced by the campaign's own
			out = append(out, shipTemplate(x.Name, x.Rows(), true))
		}
	}
	return out, nil
}

// ShipTemplatesAdd adds damage templates (as an importer read them). A
// template of a name added before replaces it for later hits, and one of a
// sample's name replaces the sample (a campaign that has the book's real
// Block 6 uses it): a hit records its template's rows and whether it was a
// sample, so which template it used is never in doubt.
func (s *Service) ShipTemplatesAdd(ts []interceptor.Template, file string) ([]ShipTemplate, error) {
	var out []ShipTemplate
	_, err := s.execute(func(d *decision) error {
		out = nil
		if len(ts) == 0 {
			return rules.Errorf(rules.CodeInvalid, "%s holds no damage templates", file)
		}
		rv, err := d.revertsState()
		if err != nil {
			return err
		}
		_, version, err := d.s.templates(rv, 0)
		if err != nil {
			return err
		}
		d.expect(events.ShipTemplatesStream, version)
		add := events.ShipTemplatesAdded{File: strings.TrimSpace(file)}
		seen := map[string]bool{}
		for _, t := range ts {
			// Re-validated: a template built by other means than NewTemplate
			// has no rows.
			checked, err := interceptor.NewTemplate(t.Name, t.Rows())
			if err != nil {
				return err
			}
			key := strings.ToLower(checked.Name)
			if seen[key] {
				return rules.Errorf(rules.CodeInvalid, "template %q is given twice in %s", checked.Name, file)
			}
			seen[key] = true
			add.Templates = append(add.Templates, events.ShipTemplate{Name: checked.Name, Rows: checked.Rows()})
			out = append(out, shipTemplate(checked.Name, checked.Rows(), false))
		}
		if _, err := d.campaignState(); err != nil {
			return err
		}
		return d.emit(events.ShipTemplatesStream, add)
	})
	return out, err
}

// DetailedShotRequest is one shot of a `ship hit` on a detailed ship.
type DetailedShotRequest struct {
	Facing string
	// Laser is a laser's points; Template names a damage template. One
	// of them is given.
	Laser    int
	Template string
	// Column is the d10 face for the hit's centre column; 0 has the
	// program roll it.
	Column int
	// TurretRoll is the d10 against the ship's turret chance (book
	// l.341) and TurretPick which turret a roll that hits one strikes,
	// on a ship with more than one; 0 has the program roll them. A pick
	// is given only with a roll.
	TurretRoll int
	TurretPick int
}

// DetailedHitRequest is what `ship hit` asks of a detailed ship: the
// shots that strike it at one point of its movement, the first in the
// fields of a DetailedShotRequest (Facing to TurretPick) and the others in
// MoreShots. Widowed armour is removed once, after them all (book l.330).
type DetailedHitRequest struct {
	Ship       string
	Facing     string
	Laser      int
	Template   string
	Column     int
	TurretRoll int
	TurretPick int
	MoreShots  []DetailedShotRequest
	// CrewDice are the d10 faces of the consciousness rolls the hit calls
	// for, in order (one a roll, none for a moot one); nil has the
	// program roll them.
	CrewDice []int
	// JamDice are the d10s of the turret jam rolls the hit calls for when
	// it disables a turret's Turret Structure (book l.409), in order; nil
	// has the program roll them.
	JamDice []int
	Source  string
}

// Shots returns the request's shots in order.
func (r DetailedHitRequest) Shots() []DetailedShotRequest {
	first := DetailedShotRequest{Facing: r.Facing, Laser: r.Laser, Template: r.Template, Column: r.Column, TurretRoll: r.TurretRoll, TurretPick: r.TurretPick}
	return append([]DetailedShotRequest{first}, r.MoreShots...)
}

// maxTurretPicks bounds the re-rolls of which turret is hit: "Hits on a
// previously-destroyed turret are re-rolled until they strike an existing
// turret" (book l.341); a standing turret is struck long before this with
// any fair die.
const maxTurretPicks = 1000

// decideTurret makes the turret roll of a hit on a ship with a standing
// turret (TURRETS, book l.341): a d10 against the chance, then, when it
// hits a turret and the ship has several, which one, re-rolled while it
// names a destroyed turret. Entered values are checked; rolled ones come
// from the campaign's roller. A ship with no turret standing makes no roll.
func (d *decision) decideTurret(name string, ship interceptor.Ship, req DetailedShotRequest, hit *events.DetailedShot) error {
	chance := ship.TurretChance()
	n := len(ship.Turrets())
	switch {
	case req.TurretPick != 0 && req.TurretRoll == 0:
		return rules.Errorf(rules.CodeInvalid, "--turret-pick goes with --turret-roll: give both, or neither and the program rolls them")
	case chance == 0 && (req.TurretRoll != 0 || req.TurretPick != 0):
		what := "has no turrets"
		if n > 0 {
			what = "has no turret standing"
		}
		return rules.Errorf(rules.CodeInvalid, "%s %s: a hit on it makes no turret roll (book l.341), so --turret-roll and --turret-pick are not given", name, what)
	case chance == 0:
		return nil
	case req.TurretRoll != 0 && (req.TurretRoll < 1 || req.TurretRoll > 10):
		return rules.Errorf(rules.CodeInvalid, "--turret-roll %d: the turret roll is a d10, 1 to 10", req.TurretRoll)
	}
	hit.TurretChance = chance
	if req.TurretRoll != 0 {
		hit.TurretRoll, hit.TurretEntered = req.TurretRoll, true
		switch {
		case req.TurretRoll > chance || n == 1:
			if req.TurretPick != 0 {
				where := "hits the hull"
				if req.TurretRoll <= chance {
					where = "hits the only turret"
				}
				return rules.Errorf(rules.CodeInvalid, "--turret-pick %d: a turret roll of %d against %d %s, so no pick is made", req.TurretPick, req.TurretRoll, chance, where)
			}
		case req.TurretPick == 0:
			return rules.Errorf(rules.CodeInvalid, "a turret roll of %d against %d hits a turret: give --turret-pick 1-%d for which of %s's %d turrets", req.TurretRoll, chance, n, name, n)
		case req.TurretPick < 1 || req.TurretPick > n:
			return rules.Errorf(rules.CodeInvalid, "--turret-pick %d: %s has turrets 1 to %d", req.TurretPick, name, n)
		case ship.Turrets()[req.TurretPick-1].Destroyed:
			return rules.Errorf(rules.CodeRule, "--turret-pick %d: turret %d (%s) is destroyed, and a hit on it is re-rolled until it strikes a standing turret (book l.341): roll again", req.TurretPick, req.TurretPick, ship.Turrets()[req.TurretPick-1].Name)
		default:
			hit.TurretPicks = []int{req.TurretPick}
		}
	} else {
		faces, err := d.s.roller.Roll(1, 10)
		if err != nil {
			return err
		}
		hit.TurretRoll = faces[0]
		if hit.TurretRoll <= chance && n > 1 {
			for len(hit.TurretPicks) < maxTurretPicks {
				f, err := d.s.roller.Roll(1, n)
				if err != nil {
					return err
				}
				hit.TurretPicks = append(hit.TurretPicks, f[0])
				if !ship.Turrets()[f[0]-1].Destroyed {
					break
				}
			}
		}
	}
	t, err := ship.TurretStruck(hit.TurretRoll, hit.TurretPicks...)
	if err != nil {
		return rules.Errorf(rules.CodeOf(err), "%s: %v", name, err)
	}
	hit.Turret = t
	return nil
}

// onDetailedShip decides a command about one detailed ship (found by
// name; what names the command for a section ship's refusal) and returns
// the ship after it, with the events appended.
func (s *Service) onDetailedShip(name, what string, decide func(d *decision, sh *detailedShip) error) (projections.DetailedShip, []events.Event, error) {
	var found string
	res, err := s.execute(func(d *decision) error {
		sh, err := d.detailedShip(name, what)
		if err != nil {
			return err
		}
		found = sh.rec.Name
		return decide(d, sh)
	})
	if err != nil {
		return projections.DetailedShip{}, nil, err
	}
	after, err := s.DetailedShip(found, "")
	return after, res.Events, err
}

// DetailedHitResult reports a hit on a detailed ship.
type DetailedHitResult struct {
	Ship projections.DetailedShip
	Hit  events.DetailedShipHit
	// Killed names the characters and foes the hit killed, now dead on
	// their sheets.
	Killed []string
	Events []events.Event
}

// DetailedShipHit applies the hits at one point of a detailed ship's
// movement with the rules: each laser or template comes down the column
// rolled (or given), in order, then widowed armour is removed once (book
// l.330). The event records each shot's terms and everything they did, so
// verify can re-check it; crewmen it kills who are characters or foes of
// the campaign die on their sheets in the same command.
func (s *Service) DetailedShipHit(req DetailedHitRequest) (DetailedHitResult, error) {
	var out DetailedHitResult
	var err error
	out.Ship, out.Events, err = s.onDetailedShip(req.Ship, "a hit by --facing and --weapon", func(d *decision, sh *detailedShip) error {
		out = DetailedHitResult{}
		if err := rules.CheckReason("--source", strings.TrimSpace(req.Source)); err != nil {
			return err
		}
		shots := req.Shots()
		if len(shots) > maxShots {
			return rules.Errorf(rules.CodeInvalid, "%d shots in one hit: at most %d", len(shots), maxShots)
		}
		hit := events.DetailedShipHit{Source: strings.TrimSpace(req.Source)}
		ship := sh.rec.Ship()
		for i, sr := range shots {
			shot, err := d.decideShot(sh.rec.Name, ship, sr)
			if err != nil {
				if len(shots) > 1 {
					return rules.Errorf(rules.CodeOf(err), "shot %d: %v", i+1, err)
				}
				return err
			}
			if i == 0 {
				hit.DetailedShot = shot
			} else {
				hit.MoreShots = append(hit.MoreShots, shot)
			}
			// The next shot's turret roll is made on the ship as this one
			// leaves it; a shot after the ship blew up does nothing.
			if h, err := projections.ShotOf(shot); err == nil && !ship.Exploded() {
				if next, _, err := ship.Hit(h); err == nil {
					ship = next
				}
			}
		}
		dice, done := d.shipDice(req.CrewDice, "--crew-dice", "crew roll")
		jam, jamDone := d.shipDice(req.JamDice, "--jam-roll", "turret jam roll")
		outcome, err := sh.rec.MakeHit(&hit, dice, jam)
		if err != nil {
			return rules.Errorf(rules.CodeOf(err), "%s: %v", sh.rec.Name, err)
		}
		if err := done(len(outcome.CrewRolls)); err != nil {
			return err
		}
		if err := jamDone(len(outcome.JamRolls)); err != nil {
			return err
		}
		out.Hit = outcome
		if err := d.emit(sh.stream, outcome); err != nil {
			return err
		}
		out.Killed, err = d.crewDeaths(sh.rec.Name, outcome.Killed, "killed aboard %s when it was hit")
		return err
	})
	return out, err
}

// maxShots bounds the shots of one hit.
const maxShots = 100

// decideShot decides one shot's terms: its facing, weapon, column and
// turret dice, on the ship as the shots before it left it.
func (d *decision) decideShot(name string, ship interceptor.Ship, req DetailedShotRequest) (events.DetailedShot, error) {
	facing := interceptor.Facing(strings.ToLower(strings.TrimSpace(req.Facing)))
	if !facing.Valid() {
		return events.DetailedShot{}, rules.Errorf(rules.CodeInvalid, "--facing %q: use forward, aft, left or right", req.Facing)
	}
	shot := events.DetailedShot{Facing: string(facing)}
	switch {
	case (req.Laser != 0) == (req.Template != ""):
		return shot, rules.Errorf(rules.CodeInvalid, "give a laser's points or a template, not both or neither")
	case req.Template != "":
		rv, err := d.revertsState()
		if err != nil {
			return shot, err
		}
		ts, version, err := d.s.templates(rv, 0)
		if err != nil {
			return shot, err
		}
		d.expect(events.ShipTemplatesStream, version)
		t, sample, ok := ts.Find(req.Template)
		if !ok {
			return shot, rules.Errorf(rules.CodeInvalid, "no damage template %q: see `ltscamp ship template list`, or add one with `ltscamp ship template add`", req.Template)
		}
		shot.Template, shot.Sample = &t, sample
	default:
		shot.Points = req.Laser
	}
	switch {
	case req.Column == 0:
		faces, err := d.s.roller.Roll(1, interceptor.Columns)
		if err != nil {
			return shot, err
		}
		shot.Column = faces[0]
	case req.Column < 1 || req.Column > interceptor.Columns:
		return shot, rules.Errorf(rules.CodeInvalid, "--column %d: the column is a d10 roll, 1 to %d", req.Column, interceptor.Columns)
	default:
		shot.Column, shot.Entered = req.Column, true
	}
	return shot, d.decideTurret(name, ship, req, &shot)
}

// crewDeaths makes the crewmen of a detailed ship that killed names, who
// are characters or foes of the campaign (found by name, the party first),
// die on their own sheets, as the crew of a destroyed section does; cause
// is a format with the ship's name. Crewmen named like no one are the
// record's free text, and one already dead stays as he is. It returns the
// names of those whose sheets now show them dead.
func (d *decision) crewDeaths(ship string, killed []string, cause string) ([]string, error) {
	if len(killed) == 0 {
		return nil, nil
	}
	r, err := d.rosterState()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range killed {
		m, ok := r.FindAny(name)
		if !ok {
			continue
		}
		c, err := d.characterByMember(m)
		if err != nil {
			return nil, err
		}
		if !c.sheet.Alive() {
			continue
		}
		out = append(out, c.sheet.Name)
		if err := d.emit(c.stream, events.CharacterDied{Cause: fmt.Sprintf(cause, ship), Damage: c.sheet.Damage}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DetailedRepairRequest is what `ship repair` asks of a detailed ship.
type DetailedRepairRequest struct {
	Ship string
	// Component is a component's code (E1), T<n>:CODE for a component of
	// turret n (T1:W), or the name of an external system (External
	// Hardpoint, External Heavy Hardpoint, External Rescue Compartment) on
	// the hull, matched in any case when no hull component has the code.
	Component string
	// Boxes is how many lost boxes to repair; 0 repairs every lost box.
	// An external system is one box: Boxes is 0 or 1 for it.
	Boxes int
}

// DetailedRepairResult reports a repair of a detailed ship.
type DetailedRepairResult struct {
	Ship   projections.DetailedShip
	Repair events.DetailedShipRepaired
	// Days is how many midnights the repair ran past (the clock moved on
	// as many days).
	Days   int
	Events []events.Event
}

// ParseComponentRef reads a component as `ship repair` names it: a code
// of the hull (E1) or T<n>:CODE for turret n's (T1:W). It returns the
// turret (0 for the hull) and the code.
func ParseComponentRef(s string) (int, string, error) {
	s = strings.TrimSpace(s)
	t, code, ok := strings.Cut(s, ":")
	if !ok {
		return 0, s, nil
	}
	n, err := strconv.Atoi(strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(t)), "T"))
	if err != nil || n < 1 || !strings.HasPrefix(strings.ToUpper(strings.TrimSpace(t)), "T") {
		return 0, "", rules.Errorf(rules.CodeInvalid, "component %q: a turret's component is T<n>:CODE, with n the turret's number in `ship show` (T1:W)", s)
	}
	return n, strings.TrimSpace(code), nil
}

// armourNames are what a GM may type for armour, which is no component.
var armourNames = []string{"armour", "armor", "forward", "aft", "left", "right"}

// repairClockNow returns where on the game clock the last repair in effect
// of any detailed ship ended, reading every detailed ship and recording
// the versions read: a repair elsewhere meanwhile moves the clock.
func (d *decision) repairClockNow(except string) (*events.ShipClock, error) {
	rv, err := d.revertsState()
	if err != nil {
		return nil, err
	}
	df, err := d.s.detailedFleet(rv, 0)
	if err != nil {
		return nil, err
	}
	var last *events.ShipClock
	var seq int64
	for _, m := range df.Ships {
		sh, version, err := d.s.loadDetailedShip(m, rv, 0)
		if err != nil {
			return nil, err
		}
		if sh.stream != except {
			d.expect(sh.stream, version)
		}
		if sh.rec.LastRepair != nil && sh.rec.LastRepairSeq > seq {
			last, seq = sh.rec.LastRepair, sh.rec.LastRepairSeq
		}
	}
	return last, nil
}

// DetailedShipRepair repairs lost boxes of one component of a detailed
// ship with the rules (DAMAGE CONTROL AND REPAIR, book l.479-481), at the
// book's REPAIR TIME per box. During an adventure the time runs on the
// game clock: the repair begins where the last repair of the day ended (or
// at the day's start) and, when it runs past midnight, the day ends as
// `day next` ends it (karma of the day expires) and day.advanced follows.
// No repair is made during an encounter; between adventures the clock
// does not run and the repair records its time only. Armour (widowed or
// not) is no component and the book gives it no repair: refused. An
// external system named instead of a component comes back whole, its one
// box at its type's time (interceptor's RepairExternal), unless the armour
// under it is gone.
func (s *Service) DetailedShipRepair(req DetailedRepairRequest) (DetailedRepairResult, error) {
	var out DetailedRepairResult
	var err error
	out.Ship, out.Events, err = s.onDetailedShip(req.Ship, "a repair by COMPONENT and --boxes", func(d *decision, sh *detailedShip) error {
		out = DetailedRepairResult{}
		ship := sh.rec.Ship()
		// An external system is named, not coded (NewShip keeps the names
		// apart from the hull's codes and from each other).
		exts := ship.Externals()
		externalNamed := func(name string) *interceptor.External {
			if e, ok := ship.ExternalNamed(name); ok {
				return &e
			}
			return nil
		}
		var ext *interceptor.External
		turret, code, err := ParseComponentRef(req.Component)
		if err != nil {
			// A name with a colon in it is no T<n>:CODE.
			if ext = externalNamed(req.Component); ext == nil {
				return err
			}
			turret, code = 0, ext.Name
		}
		if code == "" {
			return rules.Errorf(rules.CodeInvalid, "name the COMPONENT to repair by its code, as E1, or an external system by its name (see `ltscamp ship show %s`)", sh.rec.Name)
		}
		comps := ship.Components(turret)
		if turret > len(ship.Turrets()) {
			return rules.Errorf(rules.CodeInvalid, "%s has %d turrets: there is no T%d", sh.rec.Name, len(ship.Turrets()), turret)
		}
		var found *interceptor.ComponentStatus
		codes := make([]string, 0, len(comps))
		for i, c := range comps {
			codes = append(codes, c.Code)
			if ext == nil && (c.Code == code || (found == nil && strings.EqualFold(c.Code, code))) {
				found = &comps[i]
			}
		}
		if found == nil && ext == nil && turret == 0 {
			ext = externalNamed(code)
		}
		if found == nil && ext == nil {
			if slices.Contains(armourNames, strings.ToLower(code)) {
				return rules.Errorf(rules.CodeRule, "armour is not a component: the book gives no repair time for armour or widowed armour (INTERNAL DAMAGE EFFECTS lists the components' repair times only, book l.347-451), so ltscamp does not repair it")
			}
			names := codes
			var extNames []string
			if turret == 0 {
				for _, e := range exts {
					extNames = append(extNames, e.Name)
				}
				names = append(slices.Clone(codes), extNames...)
			}
			what := "component"
			if len(extNames) > 0 {
				what = "component or external system"
			}
			if near, ok := rules.Suggest(code, names); ok {
				return rules.Errorf(rules.CodeInvalid, "%s has no %s %q; did you mean %s?", sh.rec.Name, what, code, near)
			}
			if len(extNames) > 0 {
				return rules.Errorf(rules.CodeInvalid, "%s has no %s %q; its components are %s; its external systems are %s", sh.rec.Name, what, code, strings.Join(codes, ", "), strings.Join(extNames, ", "))
			}
			return rules.Errorf(rules.CodeInvalid, "%s has no component %q; its components are %s", sh.rec.Name, code, strings.Join(codes, ", "))
		}
		boxes := req.Boxes
		switch {
		case ext != nil && boxes != 0 && boxes != 1:
			return rules.Errorf(rules.CodeInvalid, "cannot repair %d boxes of external system %s (%s): an external system is one box", boxes, ext.Name, ext.Type.Name())
		case ext != nil:
			boxes = 1
		case boxes == 0:
			boxes = found.Destroyed
			if boxes == 0 {
				boxes = 1 // refused below with the rules' message
			}
		}
		c, err := d.campaignState()
		if err != nil {
			return err
		}
		if c.InEncounter {
			// book l.479: "systems disabled in combat cannot be repaired
			// during a scenario".
			return rules.Errorf(rules.CodeRule, "%s cannot be repaired during encounter %d%s: the book repairs only between scenarios (DAMAGE CONTROL AND REPAIR); end it first with `ltscamp encounter end`", sh.rec.Name, c.Encounter, titled(c.EncounterTitle))
		}
		asked := &events.DetailedShipRepaired{Turret: turret, Boxes: boxes}
		if ext != nil {
			asked.External, asked.Code = true, ext.Name
		} else {
			asked.Code = found.Code
		}
		rep, err := sh.rec.ApplyRepair(asked)
		if err != nil {
			return rules.Errorf(rules.CodeOf(err), "%s: %v", sh.rec.Name, err)
		}
		if c.InAdventure {
			if _, _, err := d.timeStep("ship repair", "no repair is made"); err != nil {
				return err
			}
			last, err := d.repairClockNow(sh.stream)
			if err != nil {
				return err
			}
			from := projections.RepairStart(c.Now(), last)
			until, days := projections.RepairClock(from, rep.Minutes)
			rep.From, rep.Until, out.Days = &from, &until, days
		}
		out.Repair = rep
		if err := d.emit(sh.stream, rep); err != nil {
			return err
		}
		if out.Days > 0 {
			what := rep.Code
			switch {
			case ext != nil:
				what = "external system " + ext.Name
			case turret > 0:
				what = projections.ComponentName(events.ShipComponentRef{Turret: turret, Code: found.Code})
			}
			return d.advanceDays(c, out.Days, fmt.Sprintf("repair of %s %s", sh.rec.Name, what))
		}
		return nil
	})
	return out, err
}

// shipDice gives the d10 faces of a detailed ship's rolls: those entered
// (flag names them), in order, or the campaign roller's when entered is
// nil. done, called with the number of rolls made, refuses entered faces
// the rolls did not use, and faces entered when no roll (what names the
// kind) was called for.
func (d *decision) shipDice(entered []int, flag, what string) (projections.ShipDice, func(rolls int) error) {
	used := 0
	dice := func() (int, bool, error) {
		if entered == nil {
			f, err := d.s.roller.Roll(1, 10)
			if err != nil {
				return 0, false, err
			}
			return f[0], false, nil
		}
		if used == len(entered) {
			return 0, true, rules.Errorf(rules.CodeInvalid, "%s gave %s; the rolls call for more (one d10 a roll, two for a wound that lands on a conscious crewman)", flag, projections.Count(len(entered), "die", "dice"))
		}
		f := entered[used]
		if f < 1 || f > 10 {
			return 0, true, rules.Errorf(rules.CodeInvalid, "%s %d: the rolls are d10, 1 to 10", flag, f)
		}
		used++
		return f, true, nil
	}
	done := func(rolls int) error {
		switch {
		case entered == nil:
			return nil
		case rolls == 0:
			return rules.Errorf(rules.CodeInvalid, "%s: no %s is called for, so no dice are entered", flag, what)
		case used == 0:
			return rules.Errorf(rules.CodeInvalid, "%s: the %s called for is moot (see the hit's rolls), so no dice are entered", flag, what)
		case used < len(entered):
			return rules.Errorf(rules.CodeInvalid, "%s gave %s; the rolls took %d", flag, projections.Count(len(entered), "die", "dice"), used)
		}
		return nil
	}
	return dice, done
}

// DetailedTurnResult reports the end of a detailed ship's turn.
type DetailedTurnResult struct {
	Ship projections.DetailedShip
	Turn events.DetailedTurnEnded
	// Killed names the characters and foes who died at the turn's end,
	// now dead on their sheets.
	Killed []string
	Events []events.Event
}

// DetailedShipTurnEnd ends a detailed ship's turn (see projections'
// turnEnd): the crewmen in abandon abandon ship; on a ship that broke up
// before, its crew's time to abandon ship runs a turn shorter, and those
// still aboard when it runs out die (book l.467); the wound rolls of the
// crew of a Bridge or Quarters hit this turn and a structural collapse
// roll if the Ship Destroyed row was hit (l.353, l.433, l.466), and what
// its chart result does (the ship breaks up, or explodes after a delay
// that the unconscious do not survive, l.469); then, for the next turn's
// Decision Phase, the wake rolls of the unconscious crew (l.367). Dice are
// entered (in that order) or rolled. Crewmen who die and are characters or
// foes of the campaign die on their sheets in the same command. A ship
// with nothing due is refused: nothing is appended.
func (s *Service) DetailedShipTurnEnd(name string, dice []int, abandon ...string) (DetailedTurnResult, error) {
	var out DetailedTurnResult
	var err error
	out.Ship, out.Events, err = s.onDetailedShip(name, "ship turn-end", func(d *decision, sh *detailedShip) error {
		out = DetailedTurnResult{}
		ship := sh.rec.Ship()
		if ship.Exploded() {
			return rules.Errorf(rules.CodeRule, "%s has exploded: its turns are over", sh.rec.Name)
		}
		var leaving []string
		for _, a := range abandon {
			i := slices.IndexFunc(ship.Crew(), func(c interceptor.Crew) bool { return strings.EqualFold(c.Name, strings.TrimSpace(a)) })
			if i < 0 {
				return rules.Errorf(rules.CodeInvalid, "--abandon %q: %s has no crewman of that name", a, sh.rec.Name)
			}
			if n := ship.Crew()[i].Name; !slices.Contains(leaving, n) {
				leaving = append(leaving, n)
			}
		}
		source, done := d.shipDice(dice, "--dice", "roll")
		turn, err := sh.rec.EndTurn(source, leaving)
		if err != nil {
			return rules.Errorf(rules.CodeOf(err), "%s: %v", sh.rec.Name, err)
		}
		if len(turn.Rolls)+len(turn.Wake)+len(turn.Abandoned)+len(turn.Killed) == 0 && !ship.AbandonDue() {
			if broken, _ := ship.BrokenUp(); broken {
				return rules.Errorf(rules.CodeRule, "%s broke up and its crew's time to abandon ship is over: nobody aboard is left to roll", sh.rec.Name)
			}
			return rules.Errorf(rules.CodeRule, "%s has no rolls due at the end of the turn: no crewed Bridge or Quarters and no Ship Destroyed box was hit since the last turn-end, and nobody aboard is unconscious", sh.rec.Name)
		}
		if err := done(len(turn.Rolls) + len(turn.Wake)); err != nil {
			return err
		}
		if _, err := d.campaignState(); err != nil {
			return err
		}
		out.Turn = turn
		if err := d.emit(sh.stream, turn); err != nil {
			return err
		}
		out.Killed, err = d.crewDeaths(sh.rec.Name, turn.Killed, "killed aboard %s at the end of a turn")
		return err
	})
	return out, err
}
