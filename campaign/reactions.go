package campaign

import (
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// counterable returns the ID of the attack that a's counterattack on t
// answers: the latest attack in effect of the encounter by t on a. All
// editions, "Counterattack": "A defender surviving an attack may
// immediately counterattack by striking or shooting his attacker"; 2021
// "A defender not dodging"; "A defender can react to ONE attacker, but
// loses his next turn." So the attack must be settled (its damage dealt:
// he survived it), not dodged, and not already answered.
func (d *decision) counterable(a, t *character, req AttackRequest) (string, int64, error) {
	switch {
	case req.HitOnly || req.Dodge || req.DodgeFaces != nil:
		return "", 0, rules.Errorf(rules.CodeInvalid, "--counter records the whole counterattack: no --hit-only or --dodge with it")
	case req.Force != "":
		return "", 0, rules.Errorf(rules.CodeInvalid, "--force overrules a lost turn; a counterattack is no action of a turn")
	case t == nil:
		return "", 0, rules.Errorf(rules.CodeRule, "%s can counterattack only an attacker on the roster; %q is not", a.sheet.Name, req.Target)
	}
	return d.reactable(a, t, "counterattack")
}

// reactable returns the ID and seq of the attack that a's reaction (verb:
// "counterattack" or "tackle") on t answers: the latest attack in effect
// of the encounter by t on a, settled, not dodged and not answered yet by
// a counterattack or a tackle.
func (d *decision) reactable(a, t *character, verb string) (string, int64, error) {
	all, replacedBy, err := d.encounterAttacks()
	if err != nil {
		return "", 0, err
	}
	var x *pendingHit
	for i := range all {
		h := &all[i]
		if _, gone := replacedBy[h.event.ID]; gone {
			continue
		}
		if h.attack.AttackerID == t.member.ID && h.attack.TargetID == a.member.ID && h.attack.Counters == "" {
			x = h
		}
	}
	if x == nil {
		return "", 0, rules.Errorf(rules.CodeRule, "%s has not attacked %s in this encounter: there is nothing to %s", t.sheet.Name, a.sheet.Name, verb)
	}
	if x.attack.DamageToCome() {
		return "", 0, rules.Errorf(rules.CodeRule, "%s's hit on %s (seq %d) waits for its damage: a defender reacts once he survives the attack; settle it first (`ltscamp damage dice`)", t.sheet.Name, a.sheet.Name, x.event.Seq)
	}
	if x.attack.Dodge != nil {
		return "", 0, rules.Errorf(rules.CodeRule, "%s already reacted to %s's attack (seq %d) by dodging: a defender reacts to ONE attacker", a.sheet.Name, t.sheet.Name, x.event.Seq)
	}
	// The attack and those it replaced (re-rolls, completions): a
	// counterattack on any of them is a reaction to it already.
	chain := map[string]bool{x.event.ID: true}
	byID := map[string]*pendingHit{}
	for i := range all {
		byID[all[i].event.ID] = &all[i]
	}
	for h := x; h != nil; {
		next := h.attack.Rerolls
		if next == "" {
			next = h.attack.Completes
		}
		chain[next] = next != ""
		h = byID[next]
	}
	for _, h := range all {
		if chain[h.attack.Counters] {
			return "", 0, rules.Errorf(rules.CodeRule, "%s already counterattacked %s's attack (seq %d, answered at seq %d): a defender reacts to ONE attacker", a.sheet.Name, t.sheet.Name, x.event.Seq, h.event.Seq)
		}
	}
	tackles, err := d.encounterTackles()
	if err != nil {
		return "", 0, err
	}
	for _, e := range tackles {
		if chain[e.tackle.Reacts] {
			return "", 0, rules.Errorf(rules.CodeRule, "%s already tackled %s in answer to his attack (seq %d, answered at seq %d): a defender reacts to ONE attacker", a.sheet.Name, t.sheet.Name, x.event.Seq, e.seq)
		}
	}
	return x.event.ID, x.event.Seq, nil
}

// tackleReaction is a tackle recorded as a reaction.
type tackleReaction struct {
	seq    int64
	tackle *events.ContestTackle
}

// encounterTackles returns the tackles in effect of the encounter under
// way that answer an attack.
func (d *decision) encounterTackles() ([]tackleReaction, error) {
	camp, err := d.campaignState()
	if err != nil || !camp.InEncounter {
		return nil, err
	}
	rv, err := d.revertsState()
	if err != nil {
		return nil, err
	}
	starts, err := d.s.store.Read(events.Query{Streams: []string{events.CampaignStream}, Types: []string{events.TypeEncounterStarted}, Limit: 64, Last: true})
	if err != nil {
		return nil, err
	}
	var from int64
	for _, e := range starts {
		if rv.InEffect(e) {
			from = e.Seq
		}
	}
	evs, err := d.s.store.Read(events.Query{AfterSeq: from, Types: []string{events.TypeContestResolved}})
	if err != nil {
		return nil, err
	}
	var out []tackleReaction
	for _, e := range evs {
		if !rv.InEffect(e) {
			continue
		}
		p, err := events.Decode(e)
		if err != nil {
			return nil, err
		}
		if cr := p.(*events.ContestResolved); cr.Tackle != nil && cr.Tackle.Reacts != "" {
			out = append(out, tackleReaction{seq: e.Seq, tackle: cr.Tackle})
		}
	}
	return out, nil
}

// TackleRequest is what `tackle` asks for.
type TackleRequest struct {
	Tackler, Foe string
	// Faces per side (tackler, foe), entered by hand; nil to roll.
	Faces [2][]int
	// React makes the tackle the tackler's reaction to the latest attack
	// of Foe on him: no action of his turn; he loses his next turn.
	React bool
	// Force, the GM's reason, overrules a lost turn (an action only).
	Force string
}

// TackleResult is a recorded tackle.
type TackleResult struct {
	Events  []events.Event
	Contest events.ContestResolved
	// Reacts is the seq of the attack a tackle as a reaction answers.
	Reacts int64
}

// Tackle records a tackle: a DX contest of tackler and foe, decided by
// rules.TackleOutcome. All editions, "An attacker can attack ONE foe per
// turn. He can strike, shoot, tackle, or grapple a foe"; 2021 "A defender
// can react to ONE attacker, but loses his next turn. He can dodge,
// counterattack, or tackle his attacker."
func (s *Service) Tackle(req TackleRequest) (TackleResult, error) {
	var out TackleResult
	res, err := s.execute(func(d *decision) error {
		out = TackleResult{}
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		if !camp.InEncounter {
			return rules.Errorf(rules.CodeRule, "tackles happen in an encounter: start one with `ltscamp encounter start`")
		}
		if camp.Edition == rules.Edition2010 {
			// The 2010 book has no tackle: "Tackle" came with 2020.
			return rules.Errorf(rules.CodeRule, "edition 2010 has no tackle (the rule came with the 2020 book): record the DX contest with `ltscamp contest A:DX B:DX` and what followed with a note")
		}
		a, err := d.combatant(req.Tackler)
		if err != nil {
			return err
		}
		f, err := d.combatant(req.Foe)
		if err != nil {
			return err
		}
		if a.member.ID == f.member.ID {
			return rules.Errorf(rules.CodeInvalid, "%s cannot tackle himself", a.sheet.Name)
		}
		var reacts string
		if req.React {
			if strings.TrimSpace(req.Force) != "" {
				return rules.Errorf(rules.CodeInvalid, "--force overrules a lost turn; a tackle as a reaction is no action of a turn")
			}
			if reacts, out.Reacts, err = d.reactable(a, f, "tackle"); err != nil {
				return err
			}
		} else if err := d.turnAction(a, req.Force); err != nil {
			return err
		}
		sides := [2]parsedSide{tackleSide(a), tackleSide(f)}
		cr, err := d.resolveContest(camp.Edition, sides, req.Faces, [2]bool{true, true}, [2]events.ContestSide{})
		if err != nil {
			return err
		}
		tST, fST := a.sheet.Attributes.Get(rules.ST), f.sheet.Attributes.Get(rules.ST)
		cr.Tackle = &events.ContestTackle{
			TacklerID: a.member.ID, Tackler: a.sheet.Name, FoeID: f.member.ID, Foe: f.sheet.Name,
			TacklerST: tST, FoeST: fST, Outcome: rules.TackleOutcome(cr.Winner == 0, tST, fST), Reacts: reacts,
		}
		out.Contest = cr
		return d.emitContest(sides, cr, [2]string{})
	})
	if err != nil {
		return out, err
	}
	out.Events = res.Events
	return out, nil
}

// tackleSide is c's side of a tackle: 3/DX.
func tackleSide(c *character) parsedSide {
	return parsedSide{char: c, expr: "3/DX", side: rules.ContestSide{
		Name: c.sheet.Name, Attribute: rules.DX, AttributeValue: c.sheet.Attributes.Get(rules.DX),
		Restriction: c.sheet.Restriction(), Curses: c.sheet.Curses,
	}}
}
