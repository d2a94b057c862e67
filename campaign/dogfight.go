package campaign

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// dogfightState folds the dogfight stream (commands in effect) and records
// its version.
func (d *decision) dogfightState() (*projections.Dogfight, error) {
	if d.df != nil {
		return d.df, nil
	}
	rv, err := d.revertsState()
	if err != nil {
		return nil, err
	}
	df, version, err := d.s.dogfight(rv, 0)
	if err != nil {
		return nil, err
	}
	d.expect(events.DogfightStream, version)
	d.df = &df
	return &df, nil
}

// dogfightBefore has the decision see the dogfight as it was before its
// latest maneuver or shot, orig, which a karma re-roll replaces; a later
// action refuses the re-roll.
func (d *decision) dogfightBefore(orig events.Event) (*projections.Dogfight, error) {
	df, err := d.dogfightState()
	if err != nil {
		return nil, err
	}
	before, ok := df.Before()
	if df.Latest() != orig.ID || !ok {
		return nil, rules.Errorf(rules.CodeRule, "seq %d is no longer the dogfight's latest maneuver or shot (a later action, or a re-roll of it, came after); karma re-rolls the latest, before play goes on", orig.Seq)
	}
	d.df = &before
	return d.df, nil
}

func (s *Service) dogfight(rv *projections.Reverts, upTo int64) (projections.Dogfight, int64, error) {
	var df projections.Dogfight
	version, err := s.foldStream(events.DogfightStream, rv, upTo, df.Apply)
	return df, version, err
}

// Dogfight returns the current (or last) dogfight, its round counting
// craft dead in the water as having had their turn.
func (s *Service) Dogfight() (projections.Dogfight, error) {
	v, err := s.view("")
	if err != nil {
		return projections.Dogfight{}, err
	}
	df, _, err := s.dogfight(&v.rv, 0)
	if err != nil {
		return df, err
	}
	f, err := s.fleet(&v.rv, 0)
	if err != nil {
		return df, err
	}
	df.Round = df.EffectiveRound(func(id string) bool {
		for _, m := range f.Ships {
			if m.ID == id {
				sh, _, err := s.loadShip(m, &v.rv, 0)
				return err != nil || !sh.rec.DIW
			}
		}
		return true
	})
	return df, nil
}

// activeDogfight returns the dogfight under way, or a refusal.
func (d *decision) activeDogfight() (*projections.Dogfight, error) {
	df, err := d.dogfightState()
	if err != nil {
		return nil, err
	}
	if !df.Active {
		return nil, rules.Errorf(rules.CodeRule, "no dogfight is under way; start one with `ltscamp dogfight start SHIP SHIP...`")
	}
	return df, nil
}

// inDogfight loads a ship and checks it is in the dogfight and has not left.
func (d *decision) inDogfight(df *projections.Dogfight, name string) (*ship, error) {
	sh, err := d.ship(name)
	if err != nil {
		return nil, err
	}
	c, ok := df.CraftByID(sh.member.ID)
	switch {
	case !ok:
		return nil, rules.Errorf(rules.CodeRule, "%s is not in the dogfight", sh.rec.Name)
	case c.Exited:
		return nil, rules.Errorf(rules.CodeRule, "%s has exited the dogfight and cannot return", sh.rec.Name)
	}
	return sh, nil
}

// firstRound reports the dogfight's first round, counting a craft dead in
// the water as one that has had its turn (it "can no longer move or fire").
func (d *decision) firstRound(df *projections.Dogfight) bool {
	return df.FirstRound(func(id string) bool {
		sh, err := d.shipByMember(projections.ShipMember{ID: id})
		return err != nil || !sh.rec.DIW
	})
}

// dogfightPair loads two different craft of the dogfight under way, for a
// command one of them does to ("maneuver against", "fire on") the other.
func (d *decision) dogfightPair(a, b, verb string) (rules.Edition, *projections.Dogfight, *ship, *ship, error) {
	camp, err := d.campaignState()
	if err != nil {
		return "", nil, nil, nil, err
	}
	df, err := d.activeDogfight()
	if err != nil {
		return "", nil, nil, nil, err
	}
	first, err := d.inDogfight(df, a)
	if err != nil {
		return "", nil, nil, nil, err
	}
	second, err := d.inDogfight(df, b)
	if err != nil {
		return "", nil, nil, nil, err
	}
	if first.member.ID == second.member.ID {
		return "", nil, nil, nil, rules.Errorf(rules.CodeInvalid, "%s cannot %s itself", first.rec.Name, verb)
	}
	return camp.Edition, df, first, second, nil
}

// DogfightStart begins a dogfight between craft; they begin disengaged.
func (s *Service) DogfightStart(names []string) (projections.Dogfight, error) {
	_, err := s.execute(func(d *decision) error {
		df, err := d.dogfightState()
		if err != nil {
			return err
		}
		if df.Active {
			return rules.Errorf(rules.CodeRule, "dogfight %d is under way; end it first with `ltscamp dogfight end`", df.Number)
		}
		if len(names) < 2 {
			return rules.Errorf(rules.CodeInvalid, "a dogfight needs two craft or more")
		}
		start := events.DogfightStarted{Number: df.Number + 1}
		seen := map[string]bool{}
		for _, n := range names {
			sh, err := d.ship(n)
			if err != nil {
				return err
			}
			if seen[sh.member.ID] {
				return rules.Errorf(rules.CodeInvalid, "%s is named twice", sh.rec.Name)
			}
			seen[sh.member.ID] = true
			start.Ships = append(start.Ships, events.DogfightShip{ShipID: sh.member.ID, Name: sh.rec.Name})
		}
		return d.emit(events.DogfightStream, start)
	})
	if err != nil {
		return projections.Dogfight{}, err
	}
	return s.Dogfight()
}

// PilotSpec names who flies: a party member (DX and his Pilot skill from
// the sheet) or someone outside the party written "Name:DX12" (DX and Pilot
// together).
func (d *decision) pilot(spec string) (rules.ContestSide, string, error) {
	spec = strings.TrimSpace(spec)
	if i := strings.LastIndex(spec, ":"); i > 0 {
		m := sideRE.FindStringSubmatch(spec[i+1:])
		if m == nil || !strings.EqualFold(m[2], "DX") || m[3] == "" || strings.TrimSpace(m[4]) != "" {
			return rules.ContestSide{}, "", rules.Errorf(rules.CodeInvalid, "pilot %q: write a party member's NAME, or Name:DX12 for someone else", spec)
		}
		var v int
		fmt.Sscan(m[3], &v)
		name := strings.TrimSpace(spec[:i])
		// The spec itself is kept as the craft's pilot, so the next
		// maneuver can default to him with his DX.
		return rules.ContestSide{Name: name, Attribute: rules.DX, AttributeValue: v}, name + ":DX" + m[3], nil
	}
	c, err := d.combatant(spec)
	if err != nil {
		return rules.ContestSide{}, "", err
	}
	if !c.sheet.Alive() || c.sheet.Body().Incapacitated() {
		return rules.ContestSide{}, "", rules.Errorf(rules.CodeRule, "%s is %s and cannot fly", c.sheet.Name, c.sheet.Status)
	}
	ed := c.sheet.Edition
	sk, _ := rules.LookupSkill(ed, "pilot")
	return rules.ContestSide{Name: c.sheet.Name, Attribute: rules.DX, AttributeValue: c.sheet.Attributes.DX, Restriction: c.sheet.Restriction(),
		SkillName: sk.NameIn(ed), SkillLevel: c.sheet.SkillLevel(sk.Key), Curses: c.sheet.Curses}, c.sheet.Name, nil
}

// ManeuverRequest is what `dogfight maneuver` asks for.
type ManeuverRequest struct {
	Ship, Against string
	// Pilot flies Ship; OpponentPilot flies Against ("" = whoever last flew
	// it in this dogfight).
	Pilot, OpponentPilot string
	// Faces are each pilot's dice (mover first); nil means rolled.
	Faces [2][]int
	// Choice is the winner's option: disengage, turn, pursue, maintain.
	Choice string
}

// ManeuverResult reports a maneuver.
type ManeuverResult struct {
	Maneuver events.DogfightManeuvered
	Dogfight projections.Dogfight
}

// DogfightManeuver resolves a maneuver: a pilot contest (DX + Pilot + the
// craft's M bonus) whose winner takes the options of his position.
func (s *Service) DogfightManeuver(req ManeuverRequest) (ManeuverResult, error) {
	var out ManeuverResult
	_, err := s.execute(func(d *decision) error {
		var err error
		out = ManeuverResult{}
		out.Maneuver, err = d.maneuver(req, nil)
		return err
	})
	if err != nil {
		return out, err
	}
	out.Dogfight, err = s.Dogfight()
	return out, err
}

// redo names a dogfight action a karma re-roll replaces: its event, and
// whose dice are rolled again (side 0 or 1 of a pilot contest).
type redo struct {
	id   string
	by   string
	side int
	// entered is whether the new dice were typed in, kept whether the
	// dice kept from the first roll had been.
	entered, kept bool
}

// maneuver decides and emits a maneuver; re is set for a karma re-roll of
// one pilot's dice.
func (d *decision) maneuver(req ManeuverRequest, re *redo) (events.DogfightManeuvered, error) {
	ed, df, mover, target, err := d.dogfightPair(req.Ship, req.Against, "maneuver against")
	if err != nil {
		return events.DogfightManeuvered{}, err
	}
	var m events.DogfightManeuvered
	err = func() error {

		choice, err := rules.ParseChoice(req.Choice)
		if err != nil {
			return err
		}
		mp, moverPilot, err := d.pilot(req.Pilot)
		if err != nil {
			return err
		}
		in := rules.ManeuverInput{Edition: ed, Mover: mover.rec.Name, Target: target.rec.Name, MoverPos: df.Position(mover.member.ID, target.member.ID),
			MoverPilot: mp, MoverM: mover.rec.Maneuver, TargetM: target.rec.Maneuver, Choice: choice, FirstRound: d.firstRound(df),
			TargetEngagedElsewhere: df.EngagedElsewhere(target.member.ID, mover.member.ID), MoverDIW: mover.rec.DIW, TargetDIW: target.rec.DIW}
		// Engaged craft "can only maneuver against those foes" — but a craft
		// may always maneuver against its own tail.
		in.MoverEngagedElsewhere = df.EngagedElsewhere(mover.member.ID, target.member.ID) && in.MoverPos == rules.Disengaged && df.Position(target.member.ID, mover.member.ID) == rules.Disengaged
		oppSpec := req.OpponentPilot
		if oppSpec == "" {
			c, _ := df.CraftByID(target.member.ID)
			oppSpec = c.Pilot
		}
		var targetPilot string
		unopposed := in.MoverPos == rules.Disengaged && in.TargetEngagedElsewhere
		if !unopposed {
			if oppSpec == "" {
				return rules.Errorf(rules.CodeInvalid, "who flies %s? name its pilot with --opponent-pilot (a party member, or Name:DX12)", target.rec.Name)
			}
			if in.TargetPilot, targetPilot, err = d.pilot(oppSpec); err != nil {
				return err
			}
		}
		r1, g1 := d.s.dice(req.Faces[0])
		r2, g2 := d.s.dice(req.Faces[1])
		rolled := req.Faces[0] == nil && req.Faces[1] == nil
		entered := !rolled
		if re != nil {
			// A re-roll keeps the other pilot's dice; the choice is applied
			// only if the new winner has it, as when the program rolls.
			rolled, entered = true, re.entered
		}
		if rolled && in.Choice != rules.ChoiceDefault {
			// The program rolls: a choice that suits only the craft that
			// loses must not void the roll (a refusal would allow a free
			// re-roll). Roll with the default, then apply the choice if the
			// winner has it.
			choice := in.Choice
			mo, _ := rules.ManeuverChoices(ed, in.MoverPos)
			to, _ := rules.ManeuverChoices(ed, in.MoverPos.Mirror())
			if !slices.Contains(mo, choice) && !slices.Contains(to, choice) {
				return rules.Errorf(rules.CodeInvalid, "neither craft can %s from here: %s can %s; %s can %s", choice, mover.rec.Name, choices(mo), target.rec.Name, choices(to))
			}
			in.Choice = rules.ChoiceDefault
			o, err := rules.ResolveManeuver(in, r1, r2)
			if err != nil {
				return err
			}
			if o.Contest != nil && slices.Contains(o.Options, choice) {
				in.Choice = choice
				if o, err = rules.ApplyManeuver(in, o.Contest); err != nil {
					return err
				}
			} else if o.Winner != "" {
				o.Explanation += fmt.Sprintf(" (%s was not among %s's options, so he took his default.)", choice, o.Winner)
			}
			m, err = d.recordManeuver(ed, df, mover, target, in, o, moverPilot, targetPilot, req, entered, re)
			return err
		}
		o, err := rules.ResolveManeuver(in, r1, r2)
		if err != nil {
			return err
		}
		for i, g := range []*rules.GivenFaces{g1, g2} {
			if err := leftover(g, len(req.Faces[i]), "a pilot's roll"); err != nil {
				return err
			}
		}
		m, err = d.recordManeuver(ed, df, mover, target, in, o, moverPilot, targetPilot, req, entered, re)
		return err
	}()
	return m, err
}

// recordManeuver checks a resolved maneuver against the other pairs and
// emits it.
func (d *decision) recordManeuver(ed rules.Edition, df *projections.Dogfight, mover, target *ship, in rules.ManeuverInput, o rules.ManeuverOutcome, moverPilot, targetPilot string, req ManeuverRequest, entered bool, re *redo) (events.DogfightManeuvered, error) {
	// "Only one craft can pursue a fleeing foe."
	if other := df.SecondPursuer(mover.member.ID, target.member.ID, o.MoverPos, o.TargetPos); other != "" {
		c, _ := df.CraftByID(other)
		fled := target.rec.Name
		if o.TargetPos == rules.Pursuit {
			fled = mover.rec.Name
		}
		if o.Contest == nil || entered {
			// Nothing rolled, or dice entered: refuse, so the table can choose.
			return events.DogfightManeuvered{}, rules.Errorf(rules.CodeRule, "%s is already pursued by %s: only one craft can pursue a fleeing foe", fled, c.Name)
		}
		// The program rolled: the roll stands, and the winner cannot take
		// the pursuit; the positions stay.
		o.MoverPos, o.TargetPos = in.MoverPos, in.MoverPos.Mirror()
		o.Explanation += fmt.Sprintf(" But %s is already pursued by %s, and only one craft can pursue a fleeing foe: the positions stay.", fled, c.Name)
	}
	m := events.DogfightManeuvered{Mover: events.DogfightShip{ShipID: mover.member.ID, Name: mover.rec.Name}, Target: events.DogfightShip{ShipID: target.member.ID, Name: target.rec.Name},
		Pilot: moverPilot, TargetPilot: targetPilot, Unopposed: o.Unopposed, Winner: o.Winner, Chosen: string(o.Chosen), Explanation: o.Explanation, Round: df.Round, Edition: string(ed),
		Positions: []events.PairPosition{
			{ShipID: mover.member.ID, OtherID: target.member.ID, Position: string(o.MoverPos)},
			{ShipID: target.member.ID, OtherID: mover.member.ID, Position: string(o.TargetPos)},
		}}
	// "If he maneuvers against his tail, his target is automatically
	// disengaged."
	if df.Position(mover.member.ID, target.member.ID) == rules.Fleeing {
		for _, t := range df.Targets(mover.member.ID) {
			m.Positions = append(m.Positions, events.PairPosition{ShipID: mover.member.ID, OtherID: t, Position: string(rules.Disengaged)},
				events.PairPosition{ShipID: t, OtherID: mover.member.ID, Position: string(rules.Disengaged)})
		}
	}
	if o.Contest != nil {
		c := contestEvent(ed, [2]rules.ContestSide{in.MoverPilot, in.TargetPilot}, *o.Contest, req.Faces)
		m.Contest = &c
	}
	if re != nil {
		m.Rerolls, m.RerolledBy = re.id, re.by
		if m.Contest != nil {
			m.Contest.Sides[re.side].Entered = re.entered
			m.Contest.Sides[1-re.side].Entered = re.kept
		}
	}
	return m, d.emit(events.DogfightStream, m)
}

// contestEvent records a pilot contest for the log.
func contestEvent(ed rules.Edition, sides [2]rules.ContestSide, o rules.ContestOutcome, faces [2][]int) events.ContestResolved {
	cr := events.ContestResolved{Winner: o.Winner, Outcome: o.Outcome, Explanation: o.Explanation, Edition: string(ed)}
	for i, s := range sides {
		so := o.Sides[i]
		cr.Sides[i] = events.ContestSide{Name: s.Name, Attribute: string(rules.DX), Value: s.AttributeValue, Restriction: s.Restriction, Curses: s.Curses,
			Skill: s.SkillName, SkillLevel: s.SkillLevel, Dice: len(so.Faces), Modifiers: modifiers(so.Modifiers), Target: so.Target, Faces: so.Faces,
			Entered: faces[i] != nil, Total: so.Total, Over: so.Over}
	}
	return cr
}

// DogfightExit takes a disengaged craft out of the dogfight for good
// (never in the first round).
func (s *Service) DogfightExit(name string) (projections.Dogfight, error) {
	_, err := s.execute(func(d *decision) error {
		df, err := d.activeDogfight()
		if err != nil {
			return err
		}
		sh, err := d.inDogfight(df, name)
		if err != nil {
			return err
		}
		if sh.rec.DIW {
			return rules.Errorf(rules.CodeRule, "%s is dead in the water and can no longer move: it cannot exit", sh.rec.Name)
		}
		pos := rules.Disengaged
		if df.EngagedElsewhere(sh.member.ID, "") {
			pos = rules.Pursuit // any engaged position refuses; the rules name it
			for _, c := range df.Craft {
				if p := df.Position(sh.member.ID, c.ID); p != rules.Disengaged {
					pos = p
				}
			}
		}
		if err := rules.ExitAllowed(pos, d.firstRound(df)); err != nil {
			return err
		}
		return d.emit(events.DogfightStream, events.DogfightExited{Ship: events.DogfightShip{ShipID: sh.member.ID, Name: sh.rec.Name}})
	})
	if err != nil {
		return projections.Dogfight{}, err
	}
	return s.Dogfight()
}

// DogfightEnd ends the dogfight.
func (s *Service) DogfightEnd() (projections.Dogfight, error) {
	_, err := s.execute(func(d *decision) error {
		df, err := d.activeDogfight()
		if err != nil {
			return err
		}
		return d.emit(events.DogfightStream, events.DogfightEnded{Number: df.Number})
	})
	if err != nil {
		return projections.Dogfight{}, err
	}
	return s.Dogfight()
}

// FireRequest is what `ship fire` asks for.
type FireRequest struct {
	Attacker, Target string
	Gunner           string
	// Run makes it a firing run (4/DX+Gunner, disengaged after); Facing a
	// facing firing run (first round, 2020/2021: both craft fire).
	Run, Facing bool
	// Faces: the gunner's check and the weapon dice; nil means rolled.
	Faces, DamageFaces []int
	// For a facing run, the target's gunner and his dice.
	TargetGunner                   string
	TargetFaces, TargetDamageFaces []int
	// For a 2010 firing run, the pilots' contest.
	Pilot, OpponentPilot string
	PilotFaces           [2][]int
	Inflict              int
}

// FireResult reports fire.
type FireResult struct {
	Fired  []events.DogfightFired
	Hits   []events.ShipHit
	Killed []string
}

// ShipFire fires a craft's weapons on a target in the dogfight: from
// pursuit (3/DX+Gunner), on a firing run (4/DX+Gunner), or a facing run.
func (s *Service) ShipFire(req FireRequest) (FireResult, error) {
	var out FireResult
	_, err := s.execute(func(d *decision) error {
		out = FireResult{}
		ed, df, a, t, err := d.dogfightPair(req.Attacker, req.Target, "fire on")
		if err != nil {
			return err
		}
		kind := rules.FirePursuit
		switch {
		case req.Run && req.Facing:
			return rules.Errorf(rules.CodeInvalid, "choose --run or --facing, not both")
		case req.Run:
			kind = rules.FireRun
		case req.Facing:
			kind = rules.FireFacing
		}
		var contest *rules.ContestOutcome
		var pc *events.ContestResolved
		if kind == rules.FireRun && ed == rules.Edition2010 {
			// 2010 "Firing Run": "An attacker winning a PILOT check (+M)
			// against his target can fire."
			if req.Pilot == "" || req.OpponentPilot == "" {
				return rules.Errorf(rules.CodeInvalid, "a 2010 firing run needs a won pilot check: give --pilot and --opponent-pilot")
			}
			ap, _, err := d.pilot(req.Pilot)
			if err != nil {
				return err
			}
			op, _, err := d.pilot(req.OpponentPilot)
			if err != nil {
				return err
			}
			r1, g1 := d.s.dice(req.PilotFaces[0])
			r2, g2 := d.s.dice(req.PilotFaces[1])
			c, err := rules.ResolvePilotContest(ed, ap, op, a.rec.Maneuver, t.rec.Maneuver, r1, r2)
			if err != nil {
				return err
			}
			for i, g := range []*rules.GivenFaces{g1, g2} {
				if err := leftover(g, len(req.PilotFaces[i]), "a pilot's roll"); err != nil {
					return err
				}
			}
			contest = &c
			ev := contestEvent(ed, [2]rules.ContestSide{ap, op}, c, req.PilotFaces)
			pc = &ev
			if c.Winner != 0 {
				// The run happens but the attacker cannot fire; "After the run,
				// the craft are disengaged." The lost check is recorded, so it
				// cannot be rolled again for free.
				f := events.DogfightFired{Attacker: events.DogfightShip{ShipID: a.member.ID, Name: a.rec.Name}, Target: events.DogfightShip{ShipID: t.member.ID, Name: t.rec.Name},
					Gunner: req.Gunner, Kind: string(kind), PilotContest: pc, Round: df.Round, Edition: string(ed),
					Check:     events.AttackRoll{Expr: "no shot: the pilot check was lost", Faces: []int{}, Modifiers: []events.Modifier{}, Outcome: "no shot"},
					Positions: []events.PairPosition{{ShipID: a.member.ID, OtherID: t.member.ID, Position: string(rules.Disengaged)}, {ShipID: t.member.ID, OtherID: a.member.ID, Position: string(rules.Disengaged)}}}
				out.Fired = append(out.Fired, f)
				return d.emit(events.DogfightStream, f)
			}
		}
		if err := d.fire(ed, df, shot{kind: kind, att: a, tgt: t, gunner: req.Gunner, faces: req.Faces, dmgFaces: req.DamageFaces, contest: contest, pc: pc, inflict: req.Inflict}, &out); err != nil {
			return err
		}
		if kind == rules.FireFacing {
			// "both craft simultaneously hit and roll for damage"
			if req.TargetGunner == "" {
				return rules.Errorf(rules.CodeInvalid, "a facing firing run has both craft fire: name the target's gunner with --target-gunner")
			}
			return d.fire(ed, df, shot{kind: kind, att: t, tgt: a, gunner: req.TargetGunner, faces: req.TargetFaces, dmgFaces: req.TargetDamageFaces, inflict: req.Inflict}, &out)
		}
		return nil
	})
	return out, err
}

// shot is one craft's fire on another: its kind, gunner and dice (nil:
// rolled), the 2010 firing run's won pilot check, the points to inflict
// (0: all), and for a karma re-roll the shot it replaces.
type shot struct {
	kind            rules.FireKind
	att, tgt        *ship
	gunner          string
	faces, dmgFaces []int
	contest         *rules.ContestOutcome
	pc              *events.ContestResolved
	inflict         int
	re              *refire
}

// refire is a shot a karma re-roll replaces: its event, the set of dice
// rolled again ("hit" or "damage"), and the hit to take back, if it hit.
type refire struct {
	redo
	which string
	first *events.DogfightFired
	hit   *events.ShipHit
	hitID string
}

// fire decides one shot and emits it, with the hit on the target and the
// deaths of those aboard sections it destroyed.
func (d *decision) fire(ed rules.Edition, df *projections.Dogfight, sh shot, out *FireResult) error {
	att, tgt, kind, faces, dmgFaces := sh.att, sh.tgt, sh.kind, sh.faces, sh.dmgFaces
	g, err := d.combatant(sh.gunner)
	if err != nil {
		return err
	}
	if !g.sheet.Alive() || g.sheet.Body().Incapacitated() {
		return rules.Errorf(rules.CodeRule, "%s is %s and cannot fire", g.sheet.Name, g.sheet.Status)
	}
	gk, _ := rules.LookupSkill(ed, "gunner")
	in := rules.FireInput{Edition: ed, Kind: kind, Gunner: g.sheet.Name, GunnerDX: g.sheet.Attributes.DX, GunnerSkill: g.sheet.SkillLevel(gk.Key),
		Curses: g.sheet.Curses, Restriction: g.sheet.Restriction(), PilotContest: sh.contest, FirstRound: d.firstRound(df),
		AttackerPos: df.Position(att.member.ID, tgt.member.ID), DIW: att.rec.DIW}
	roller, given := d.s.dice(faces)
	check, err := rules.ResolveFire(in, roller)
	if err != nil {
		return err
	}
	if err := leftover(given, len(faces), "the gunner's check"); err != nil {
		return err
	}
	expr, _ := rules.FireCheck(in)
	outcome := "miss"
	if check.Pass {
		outcome = "hit"
	}
	f := events.DogfightFired{Attacker: events.DogfightShip{ShipID: att.member.ID, Name: att.rec.Name}, Target: events.DogfightShip{ShipID: tgt.member.ID, Name: tgt.rec.Name},
		Gunner: g.sheet.Name, Kind: string(kind), PilotContest: sh.pc, Hit: check.Pass, Round: df.Round, Edition: string(ed),
		Check: attackRoll(expr.String(), check.Faces, faces != nil, check.Sum, check.Total, check.Target, outcome, check.Modifiers)}
	if after := rules.PositionAfterFire(kind, df.Position(att.member.ID, tgt.member.ID)); after != df.Position(att.member.ID, tgt.member.ID) || kind != rules.FirePursuit {
		f.Positions = []events.PairPosition{{ShipID: att.member.ID, OtherID: tgt.member.ID, Position: string(after)}, {ShipID: tgt.member.ID, OtherID: att.member.ID, Position: string(after.Mirror())}}
	}
	if sh.re != nil {
		// The re-roll's hit lands on the craft as the first shot left it.
		if err := d.unhit(tgt, sh.re); err != nil {
			return err
		}
	}
	var hit events.ShipHit
	if check.Pass {
		if att.rec.ShipRecord().WeaponDice == 0 {
			return rules.Errorf(rules.CodeRule, "%s has no weapons", att.rec.Name)
		}
		dr, dg := d.s.dice(dmgFaces)
		fs, err := dr.Roll(att.rec.ShipRecord().WeaponDice, 6)
		if err != nil {
			return err
		}
		if err := leftover(dg, len(dmgFaces), "the weapon dice"); err != nil {
			return err
		}
		sum := 0
		for _, x := range fs {
			sum += x
		}
		roll := attackRoll(att.rec.Weapons, fs, dmgFaces != nil, sum, sum, 0, "", nil)
		f.Damage = &roll
		var res ShipHitResult
		if hit, err = d.applyShipHit(tgt, sum, sh.inflict, &res); err != nil {
			return err
		}
		hit.Faces, hit.Entered, hit.Source = fs, dmgFaces != nil, fmt.Sprintf("%s's fire (gunner %s)", att.rec.Name, g.sheet.Name)
	} else if dmgFaces != nil && sh.re == nil {
		return rules.Errorf(rules.CodeInvalid, "the shot missed (%d vs %d), so there is no damage roll: leave out the damage dice", check.Total, check.Target)
	}
	if re := sh.re; re != nil {
		f.Rerolls, f.Rerolled, f.RerolledBy = re.id, re.which, re.by
		keepFireEntered(&f, re)
	}
	if err := d.emit(events.DogfightStream, f); err != nil {
		return err
	}
	fireID := d.pending[len(d.pending)-1].ID
	if sh.re != nil && sh.re.hit != nil && len(sh.re.hit.Sections) > 0 {
		w := events.ShipHitWithdrawn{FireID: sh.re.id, HitID: sh.re.hitID, RerollID: fireID, Sections: sh.re.hit.Sections}
		if err := d.emit(tgt.stream, w); err != nil {
			return err
		}
	}
	out.Fired = append(out.Fired, f)
	if check.Pass {
		hit.FireID = fireID
		var res ShipHitResult
		if err := d.emitShipHit(tgt, hit, &res); err != nil {
			return err
		}
		out.Hits = append(out.Hits, hit)
		out.Killed = append(out.Killed, res.Killed...)
	}
	return nil
}

// unhit takes the first shot's hit off the craft's record, as the decision
// sees it, so the re-roll's hit is decided on the craft as it was. (The
// withdrawal itself is emitted after the new shot, which it answers to.)
func (d *decision) unhit(tgt *ship, re *refire) error {
	if re.hit == nil {
		return nil
	}
	pe, err := events.Encode("", tgt.stream, events.ShipHitWithdrawn{FireID: re.id, HitID: re.hitID, Sections: re.hit.Sections}, nil)
	if err != nil {
		return err
	}
	return tgt.rec.Apply(events.Event{Stream: pe.Stream, Type: pe.Type, PayloadVersion: pe.PayloadVersion, Payload: pe.Payload})
}

// keepFireEntered marks the dice a re-rolled shot kept as the first shot
// recorded them: typed in, or rolled by the program.
func keepFireEntered(f *events.DogfightFired, re *refire) {
	if re.which != "hit" {
		f.Check.Entered = re.first.Check.Entered
	}
	switch {
	case re.which == "damage" && f.Damage != nil:
		f.Damage.Entered = re.entered
	case f.Damage != nil && re.first.Damage != nil:
		f.Damage.Entered = re.first.Damage.Entered
	}
}

// choices writes options as "disengage or turn".
func choices(cs []rules.Choice) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = string(c)
	}
	return strings.Join(parts, " or ")
}
