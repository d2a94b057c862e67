package campaign

import (
	"strconv"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// TurnsResult reports a command on the encounter's turns.
type TurnsResult struct {
	Turns  projections.Turns
	Events []events.Event
	// Initiative is the initiative rolled, for `initiative`.
	Initiative *events.InitiativeRolled
}

// turns folds the turns of the encounter under way (c), reading the log
// from its encounter.started; the zero Turns when none is under way. It
// returns the turns stream's version too.
func (s *Service) turns(c *projections.Campaign, rv *projections.Reverts) (projections.Turns, int64, error) {
	version, err := s.store.StreamVersion(events.TurnsStream)
	if err != nil {
		return projections.Turns{}, 0, err
	}
	var t projections.Turns
	if !c.InEncounter {
		return t, version, nil
	}
	starts, err := s.store.Read(events.Query{Streams: []string{events.CampaignStream}, Types: []string{events.TypeEncounterStarted}})
	if err != nil {
		return t, 0, err
	}
	var from int64
	for _, e := range starts {
		if rv.InEffect(e) {
			from = e.Seq
		}
	}
	if from == 0 {
		return t, version, nil
	}
	for e, err := range s.store.Iter(events.Query{AfterSeq: from - 1}) {
		if err != nil {
			return projections.Turns{}, 0, err
		}
		if e.Stream == events.CommandsStream || !rv.InEffect(e) {
			continue
		}
		p, err := events.Decode(e)
		if err != nil {
			return projections.Turns{}, 0, err
		}
		t.Apply(e, p)
	}
	return t, version, nil
}

// turnsState folds the encounter's turns for the decision and expects the
// turns stream not to move before it appends.
func (d *decision) turnsState() (*projections.Campaign, projections.Turns, error) {
	c, err := d.campaignState()
	if err != nil {
		return nil, projections.Turns{}, err
	}
	rv, err := d.revertsState()
	if err != nil {
		return nil, projections.Turns{}, err
	}
	t, version, err := d.s.turns(c, rv)
	if err != nil {
		return nil, t, err
	}
	d.expect(events.TurnsStream, version)
	return c, t, nil
}

// Turns returns the turns of the encounter under way (inactive when none
// is, or no initiative was rolled).
func (s *Service) Turns() (projections.Turns, error) {
	rv, err := s.reverts(0)
	if err != nil {
		return projections.Turns{}, err
	}
	c, _, err := s.foldCampaign(&rv, 0)
	if err != nil {
		return projections.Turns{}, err
	}
	t, _, err := s.turns(&c, &rv)
	return t, err
}

// turnsCommand runs a decision on the turns and folds them after it.
func (s *Service) turnsCommand(decide func(d *decision) error) (TurnsResult, error) {
	res, err := s.execute(decide)
	if err != nil {
		return TurnsResult{}, err
	}
	t, err := s.Turns()
	return TurnsResult{Turns: t, Events: res.Events}, err
}

// InitiativeRequest is what `initiative` asks for.
type InitiativeRequest struct {
	// Faces are physical dice: the party's die, the foes' die, and again
	// after a tie; nil means the program rolls.
	Faces []int
	// Tactician, when set, names a character with the Tactician skill who
	// tries to steal the initiative if his side loses the die, in an IQ
	// contest against Against (a combatant of the other side), with the
	// faces entered for each side (nil: rolled).
	Tactician, Against           string
	TacticianFaces, AgainstFaces []int
}

// Initiative rolls (or records) one die per side: "The side rolling the
// higher die moves first." A tie is rolled again (our gap-fill: the books
// say nothing of ties). A Tactician whose side lost "steals initiative by
// winning IQ": the contest is its own event, re-rollable with karma.
func (s *Service) Initiative(req InitiativeRequest) (TurnsResult, error) {
	var rolled events.InitiativeRolled
	faces := req.Faces
	out, err := s.turnsCommand(func(d *decision) error {
		c, t, err := d.turnsState()
		if err != nil {
			return err
		}
		if !c.InEncounter {
			return rules.Errorf(rules.CodeRule, "initiative is rolled at the start of a battle: start one with `ltscamp encounter start TITLE`")
		}
		if t.Surprise != "" {
			return rules.Errorf(rules.CodeRule, "the %s have surprise: they take a free unopposed turn, then the first turn; no initiative is rolled", t.Surprise)
		}
		if t.Active {
			return rules.Errorf(rules.CodeRule, "initiative was rolled for encounter %d already: the %s moved first (undo it to roll again)", c.Encounter, t.First)
		}
		roller, given := d.s.dice(faces)
		rolled = events.InitiativeRolled{Encounter: c.Encounter, Entered: given != nil, Edition: string(c.Edition)}
		for {
			f, err := roller.Roll(2, 6)
			if err != nil {
				if given != nil && len(rolled.Party) > 0 {
					last := len(rolled.Party) - 1
					return rules.Errorf(rules.CodeInvalid, "initiative tied %d against %d: roll both dice again and enter every pair, the tie first (--dice %s,P,F)",
						rolled.Party[last], rolled.Foes[last], facesText(rolled.Party, rolled.Foes))
				}
				return err
			}
			rolled.Party, rolled.Foes = append(rolled.Party, f[0]), append(rolled.Foes, f[1])
			if f[0] != f[1] {
				break
			}
		}
		if err := leftover(given, len(faces), "initiative"); err != nil {
			return err
		}
		rolled.First = events.SideParty
		if rolled.Foes[len(rolled.Foes)-1] > rolled.Party[len(rolled.Party)-1] {
			rolled.First = events.SideFoes
		}
		if err := d.stealInitiative(c, &rolled, req); err != nil {
			return err
		}
		return d.emit(events.TurnsStream, rolled)
	})
	if err != nil {
		return out, err
	}
	out.Initiative = &rolled
	return out, nil
}

// stealInitiative has req's Tactician contest IQ for the initiative his
// side lost, and records the contest on the initiative.
func (d *decision) stealInitiative(c *projections.Campaign, rolled *events.InitiativeRolled, req InitiativeRequest) error {
	if strings.TrimSpace(req.Tactician) == "" {
		if strings.TrimSpace(req.Against) != "" || req.TacticianFaces != nil || req.AgainstFaces != nil {
			return rules.Errorf(rules.CodeInvalid, "--against and the contest's dice go with --tactician NAME")
		}
		return nil
	}
	tac, err := d.combatant(req.Tactician)
	if err != nil {
		return err
	}
	if tac.sheet.SkillLevel("tactician") == 0 {
		return rules.Errorf(rules.CodeRule, "%s lacks the Tactician skill (\"steals initiative by winning IQ\")", tac.sheet.Name)
	}
	if strings.TrimSpace(req.Against) == "" {
		return rules.Errorf(rules.CodeInvalid, "--tactician %s: name whose IQ he must beat with --against NAME", tac.sheet.Name)
	}
	opp, err := d.combatant(req.Against)
	if err != nil {
		return err
	}
	side, oppSide := projections.SideOfStream(tac.stream), projections.SideOfStream(opp.stream)
	if side == oppSide {
		return rules.Errorf(rules.CodeInvalid, "%s and %s are on the same side; a Tactician steals the initiative from the other side", tac.sheet.Name, opp.sheet.Name)
	}
	if side == rolled.First {
		// His side won the die: there is nothing to steal, and no contest.
		if req.TacticianFaces != nil || req.AgainstFaces != nil {
			return rules.Errorf(rules.CodeInvalid, "the %s won the die: %s has no initiative to steal; leave out the contest's dice", side, tac.sheet.Name)
		}
		return nil
	}
	var sides [2]parsedSide
	for i, who := range []*character{tac, opp} {
		if sides[i], err = d.contestSide(c.Edition, who.sheet.Name+":IQ"); err != nil {
			return err
		}
	}
	cr, err := d.resolveContest(c.Edition, sides, [2][]int{req.TacticianFaces, req.AgainstFaces}, [2]bool{true, true}, [2]events.ContestSide{})
	if err != nil {
		return err
	}
	cr.Reason = "Tactician: steal the initiative"
	first := len(d.pending)
	if err := d.emitContest(sides, cr, [2]string{}); err != nil {
		return err
	}
	st := &events.InitiativeSteal{ID: tac.member.ID, Name: tac.sheet.Name, Side: side, Against: opp.sheet.Name, Stolen: cr.Winner == 0}
	for _, pe := range d.pending[first:] {
		st.ContestIDs = append(st.ContestIDs, pe.ID)
	}
	rolled.Tactician = st
	if st.Stolen {
		rolled.First = side
	}
	return nil
}

func facesText(party, foes []int) string {
	var b strings.Builder
	for i := range party {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(party[i]) + "," + strconv.Itoa(foes[i]))
	}
	return b.String()
}

// TurnEnd passes the turn to the other side.
func (s *Service) TurnEnd() (TurnsResult, error) {
	return s.turnsCommand(func(d *decision) error {
		c, t, err := d.turnsState()
		if err != nil {
			return err
		}
		if !c.InEncounter {
			return rules.Errorf(rules.CodeRule, "no encounter is under way; start one with `ltscamp encounter start`")
		}
		if !t.Active {
			return rules.Errorf(rules.CodeRule, "no turn is under way in encounter %d: roll initiative first (`ltscamp initiative`)", c.Encounter)
		}
		return d.emit(events.TurnsStream, events.TurnEnded{Encounter: c.Encounter, Turn: t.Turn, Round: t.Round(), Side: t.Side()})
	})
}

// Surprise is a side's surprise at the start of an encounter.
type Surprise struct {
	// Side is "party" or "foes".
	Side string
	// Alertness names a character of the other side with the Alertness
	// skill, who "negates surprise on 3/IQ" (3/IQ+Alertness), with the
	// faces entered (nil: rolled).
	Alertness      string
	AlertnessFaces []int
	// Stalker, when set, names a character with the Stalker skill who
	// tries for surprise of his own at the start of the battle: 2020/2021
	// 3/DX+Stalker with StalkerFaces; 2010 a contest of his DX+Stalker
	// against the IQ of StalkerAgainst (a combatant of the other side),
	// with StalkerFaces and AgainstFaces (nil: rolled). Side may be empty
	// when only the Stalker tries.
	Stalker, StalkerAgainst    string
	StalkerFaces, AgainstFaces []int
}

// declareSurprise gives sp.Side surprise in the encounter just started,
// unless an Alertness check negates it.
func (d *decision) declareSurprise(c *projections.Campaign, number int, sp Surprise) error {
	side := strings.ToLower(strings.TrimSpace(sp.Side))
	if side == "" && strings.TrimSpace(sp.Alertness) == "" && sp.AlertnessFaces == nil && strings.TrimSpace(sp.Stalker) != "" {
		return d.stalker(c, number, sp)
	}
	switch side {
	case events.SideParty, events.SideFoes:
	default:
		return rules.Errorf(rules.CodeInvalid, "--surprise %q: choose party or foes", sp.Side)
	}
	version, err := d.s.store.StreamVersion(events.TurnsStream)
	if err != nil {
		return err
	}
	d.expect(events.TurnsStream, version)
	ev := events.InitiativeSurprise{Encounter: number, Side: side, Edition: string(c.Edition)}
	if strings.TrimSpace(sp.Alertness) != "" {
		if ev.Alertness, err = d.alertness(c, side, sp); err != nil {
			return err
		}
	} else if sp.AlertnessFaces != nil {
		return rules.Errorf(rules.CodeInvalid, "--alertness-dice goes with --alertness NAME")
	}
	if err := d.emit(events.TurnsStream, ev); err != nil {
		return err
	}
	return d.stalker(c, number, sp)
}

// stalker rolls sp.Stalker's try for surprise of his own, the character's
// and not his side's: 2020/2021 "At beginning of combat, character (not
// party) gets surprise on 3/DX" (3/DX+Stalker, as a skill adds its level);
// 2010 "gets a free turn by winning a DX check against the opponent's IQ"
// (DX+Stalker against IQ: 2010 rolls "his attribute (+skill)"). The roll
// or contest is its own event, re-rollable with karma.
func (d *decision) stalker(c *projections.Campaign, number int, sp Surprise) error {
	if strings.TrimSpace(sp.Stalker) == "" {
		if strings.TrimSpace(sp.StalkerAgainst) != "" || sp.StalkerFaces != nil || sp.AgainstFaces != nil {
			return rules.Errorf(rules.CodeInvalid, "--stalker-against and the Stalker's dice go with --stalker NAME")
		}
		return nil
	}
	version, err := d.s.store.StreamVersion(events.TurnsStream)
	if err != nil {
		return err
	}
	d.expect(events.TurnsStream, version)
	who, err := d.combatant(sp.Stalker)
	if err != nil {
		return err
	}
	if who.sheet.SkillLevel("stalker") == 0 {
		return rules.Errorf(rules.CodeRule, "%s lacks the Stalker skill", who.sheet.Name)
	}
	side := projections.SideOfStream(who.stream)
	ev := events.InitiativeStalker{Encounter: number, ID: who.member.ID, Name: who.sheet.Name, Side: side, Edition: string(c.Edition)}
	if c.Edition == rules.Edition2010 {
		if strings.TrimSpace(sp.StalkerAgainst) == "" {
			return rules.Errorf(rules.CodeInvalid, "--stalker %s: in 2010 he wins \"a DX check against the opponent's IQ\": name the opponent with --stalker-against NAME", who.sheet.Name)
		}
		opp, err := d.combatant(sp.StalkerAgainst)
		if err != nil {
			return err
		}
		if projections.SideOfStream(opp.stream) == side {
			return rules.Errorf(rules.CodeInvalid, "%s and %s are on the same side; a Stalker surprises the other side", who.sheet.Name, opp.sheet.Name)
		}
		var sides [2]parsedSide
		for i, spec := range []string{who.sheet.Name + ":DX+Stalker", opp.sheet.Name + ":IQ"} {
			if sides[i], err = d.contestSide(c.Edition, spec); err != nil {
				return err
			}
		}
		cr, err := d.resolveContest(c.Edition, sides, [2][]int{sp.StalkerFaces, sp.AgainstFaces}, [2]bool{true, true}, [2]events.ContestSide{})
		if err != nil {
			return err
		}
		cr.Reason = "Stalker: a free turn"
		first := len(d.pending)
		if err := d.emitContest(sides, cr, [2]string{}); err != nil {
			return err
		}
		for _, pe := range d.pending[first:] {
			ev.ContestIDs = append(ev.ContestIDs, pe.ID)
		}
		ev.Against, ev.Free = opp.sheet.Name, cr.Winner == 0
		return d.emit(events.TurnsStream, ev)
	}
	if strings.TrimSpace(sp.StalkerAgainst) != "" || sp.AgainstFaces != nil {
		return rules.Errorf(rules.CodeInvalid, "in %s a Stalker rolls 3/DX alone (\"gets surprise on 3/DX\"): leave out --stalker-against", c.Edition)
	}
	expr, err := rules.ParseExpr("3/DX+Stalker")
	if err != nil {
		return err
	}
	roll, stream, _, err := d.roll(c.Edition, expr, who.sheet.Name, sp.StalkerFaces, nil)
	if err != nil {
		return err
	}
	roll.Reason = "Stalker: surprise"
	if err := d.emit(stream, roll); err != nil {
		return err
	}
	ev.RollID = d.pending[len(d.pending)-1].ID
	if err := d.suitOnCheck(roll, ev.RollID); err != nil {
		return err
	}
	ev.Free = roll.Outcome == "pass"
	return d.emit(events.TurnsStream, ev)
}

// alertness rolls sp.Alertness's check against the surprise of side.
func (d *decision) alertness(c *projections.Campaign, side string, sp Surprise) (*events.SurpriseCheck, error) {
	who, err := d.combatant(sp.Alertness)
	if err != nil {
		return nil, err
	}
	if projections.SideOfStream(who.stream) == side {
		return nil, rules.Errorf(rules.CodeInvalid, "%s is on the side with surprise (the %s); Alertness negates the other side's surprise", who.sheet.Name, side)
	}
	if who.sheet.SkillLevel("alertness") == 0 {
		return nil, rules.Errorf(rules.CodeRule, "%s lacks the Alertness skill (\"negates surprise on 3/IQ\")", who.sheet.Name)
	}
	expr, err := rules.ParseExpr("3/IQ+Alertness")
	if err != nil {
		return nil, err
	}
	roll, stream, _, err := d.roll(c.Edition, expr, who.sheet.Name, sp.AlertnessFaces, nil)
	if err != nil {
		return nil, err
	}
	roll.Reason = "Alertness: negate surprise"
	if err := d.emit(stream, roll); err != nil {
		return nil, err
	}
	rollID := d.pending[len(d.pending)-1].ID
	if err := d.suitOnCheck(roll, rollID); err != nil {
		return nil, err
	}
	return &events.SurpriseCheck{ID: who.member.ID, Name: who.sheet.Name, RollID: rollID, Negated: roll.Outcome == "pass"}, nil
}

// turnAction checks that a may act now, in an encounter whose turns are
// tracked: a combatant who reacted "loses his next turn". force, the GM's
// reason, overrules the lost turn and is recorded. Without initiative no
// turn is tracked and every action is allowed.
func (d *decision) turnAction(a *character, force string) error {
	force = strings.TrimSpace(force)
	c, t, err := d.turnsState()
	if err != nil {
		return err
	}
	side := projections.SideOfStream(a.stream)
	turn := -1
	if t.Active && side != "" {
		turn = t.TurnFor(side)
	}
	if turn < 0 || !t.LosesAt(a.member.ID, turn) {
		if force != "" {
			return rules.Errorf(rules.CodeInvalid, "--force overrules a lost turn; %s has not lost this turn", a.sheet.Name)
		}
		return nil
	}
	round := projections.RoundOf(turn)
	if force == "" {
		return rules.Errorf(rules.CodeRule, "%s reacted to an attack and loses his next turn (round %d, the %s turn): he cannot act in it; pass the turn with `ltscamp turn end`, or overrule with --force REASON",
			a.sheet.Name, round, projections.SidePossessive(side))
	}
	if err := rules.CheckReason("--force", force); err != nil {
		return err
	}
	return d.emit(events.TurnsStream, events.TurnOverruled{Encounter: c.Encounter, ID: a.member.ID, Name: a.sheet.Name, Side: side, Turn: turn, Round: round, Reason: force})
}
