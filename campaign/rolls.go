package campaign

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// RollRequest is what `roll` asks for.
type RollRequest struct {
	Expr string
	// Character rolls the dice; empty for a bare roll. A check needs one.
	Character string
	// Faces are dice entered by hand; nil means the program rolls.
	Faces  []int
	Reason string
}

// RollResult is a recorded roll.
type RollResult struct {
	Event events.Event
	Roll  events.RollMade
	// Warning is a note for the user that is not an error, such as faces
	// that were not needed.
	Warning string
}

// dice returns the roller for a command: the faces entered by hand, or the
// service's own dice.
func (s *Service) dice(faces []int) (rules.Roller, *rules.GivenFaces) {
	if faces == nil {
		return s.roller, nil
	}
	g := rules.NewGivenFaces(faces)
	return g, g
}

// leftover rejects faces that were entered but not used.
func leftover(g *rules.GivenFaces, given int, what string) error {
	if g == nil || g.Remaining() == 0 {
		return nil
	}
	return rules.Errorf(rules.CodeInvalid, "%s takes %s, %d given", what, projections.Count(given-g.Remaining(), "face", "faces"), given)
}

// Roll makes and records a roll: a check for a character, a character's
// damage roll, or a bare dice roll.
func (s *Service) Roll(req RollRequest) (RollResult, error) {
	var out RollResult
	res, err := s.execute(func(d *decision) error {
		out = RollResult{}
		expr, err := rules.ParseExpr(req.Expr)
		if err != nil {
			return err
		}
		if err := rules.CheckReason("--reason", strings.TrimSpace(req.Reason)); err != nil {
			return err
		}
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		roll, stream, warning, err := d.roll(camp.Edition, expr, req.Character, req.Faces, nil)
		if err != nil {
			return err
		}
		roll.Reason = strings.TrimSpace(req.Reason)
		out.Roll, out.Warning = roll, warning
		if err := d.emit(stream, roll); err != nil {
			return err
		}
		return d.suitOnCheck(roll, d.pending[len(d.pending)-1].ID)
	})
	if err != nil {
		return out, err
	}
	out.Event = res.Events[0]
	return out, nil
}

// suitOnCheck fails the roller's space suit when a check rolled all sixes.
func (d *decision) suitOnCheck(r events.RollMade, rollID string) error {
	if r.Kind != "check" || r.CharacterID == "" {
		return nil
	}
	c, err := d.memberByID(r.CharacterID)
	if err != nil {
		return err
	}
	return d.suitCheck(c, rules.CheckOutcome{AllSixes: allSixes(r.Faces)}, rollID)
}

func allSixes(faces []int) bool {
	if len(faces) == 0 {
		return false
	}
	for _, f := range faces {
		if f != 6 {
			return false
		}
	}
	return true
}

// roll decides one roll without emitting it. A re-roll passes the roll it
// replaces as orig: its recorded conditions (attribute, skill, restriction,
// curses) decide the new dice, not the sheet as it is now.
func (d *decision) roll(ed rules.Edition, expr rules.Expr, who string, faces []int, orig *reroll) (events.RollMade, string, string, error) {
	roller, given := d.s.dice(faces)
	rm := events.RollMade{Expr: expr.String(), Entered: faces != nil, Edition: string(ed), Modifiers: []events.Modifier{}}
	stream := events.DiceStream
	var c *character
	if strings.TrimSpace(who) != "" {
		var err error
		if c, err = d.combatant(who); err != nil {
			return rm, "", "", err
		}
		rm.CharacterID, rm.Character, stream = c.member.ID, c.sheet.Name, c.stream
		if !c.sheet.Alive() {
			return rm, "", "", rules.Errorf(rules.CodeRule, "%s is dead and rolls nothing (a wish may revive him)", c.sheet.Name)
		}
	} else {
		// Bare rolls depend on nothing earlier in their stream.
		d.expect(events.DiceStream, events.AnyVersion)
	}
	var cond events.RollMade
	switch {
	case orig != nil:
		rm.Rerolls = orig.id
		cond = orig.roll
	case c != nil:
		cond.Restriction, cond.Curses = c.sheet.Restriction(), c.sheet.Curses
		if expr.Check != nil {
			cond.AttributeValue = c.sheet.Attributes.Get(expr.Check.Attribute)
		}
	}
	rm.AttributeValue, rm.Restriction, rm.Curses = cond.AttributeValue, cond.Restriction, cond.Curses
	warning := ""
	switch {
	case expr.Check != nil:
		if c == nil {
			return rm, "", "", rules.Errorf(rules.CodeInvalid, "%s is a check against an attribute: name who rolls with --char NAME", expr)
		}
		in := rules.CheckInput{Edition: ed, Expr: *expr.Check, AttributeValue: cond.AttributeValue, Restriction: cond.Restriction, Curses: cond.Curses}
		if expr.Check.Skill != "" {
			sk, err := rules.LookupSkill(ed, expr.Check.Skill)
			if err != nil {
				return rm, "", "", err
			}
			in.SkillName, in.SkillLevel = sk.NameIn(ed), c.sheet.SkillLevel(sk.Key)
			if orig != nil {
				in.SkillLevel = orig.roll.SkillLevel
			}
			rm.SkillLevel = in.SkillLevel
			// Store the canonical skill name in the expression.
			ce := *expr.Check
			ce.Skill = in.SkillName
			rm.Expr = ce.String()
		}
		o, err := rules.ResolveCheck(in, roller)
		if err != nil {
			return rm, "", "", err
		}
		rm.Kind, rm.Dice, rm.Sides = "check", expr.Check.Dice, 6
		rm.Faces, rm.Sum, rm.Total, rm.Target, rm.Margin, rm.Probability = o.Faces, o.Sum, o.Total, o.Target, o.Margin, o.Probability
		rm.Modifiers = modifiers(o.Modifiers)
		rm.Outcome = "fail"
		if o.Pass {
			rm.Outcome = "pass"
		}
		if o.Lacking {
			rm.Note = fmt.Sprintf("%s lacks %s: a check against a skill fails outright without it", c.sheet.Name, in.SkillName)
			rm.Faces = []int{}
			if given != nil {
				warning = "no dice were rolled, so the faces given were not used"
				given = nil
			}
		}
		if o.AllSixes {
			rm.Note = strings.TrimSpace(rm.Note + " all sixes")
		}
		if err := leftover(given, len(faces), rm.Expr); err != nil {
			return rm, "", "", err
		}
	case expr.Dice != nil:
		de := *expr.Dice
		rm.Dice, rm.Sides = de.Count, de.Sides
		if c != nil {
			o, err := rules.ResolveDamage(ed, de, cond.Curses, roller)
			if err != nil {
				return rm, "", "", err
			}
			rm.Kind = "damage"
			rm.Faces, rm.Sum, rm.Total, rm.Note = o.Faces, o.Sum, o.Total, o.Note
			rm.Modifiers = modifiers(o.Modifiers)
		} else {
			fs, err := roller.Roll(de.Count, de.Sides)
			if err != nil {
				return rm, "", "", err
			}
			rm.Kind, rm.Faces = "dice", fs
			for _, f := range fs {
				rm.Sum += f
			}
			rm.Total = rm.Sum + de.Modifier
			if de.Modifier != 0 {
				rm.Modifiers = append(rm.Modifiers, events.Modifier{Source: "expression", Value: de.Modifier, Applies: "total"})
			}
		}
		rm.Outcome = "rolled"
		if err := leftover(given, len(faces), rm.Expr); err != nil {
			return rm, "", "", err
		}
	}
	return rm, stream, warning, nil
}

func modifiers(ms []rules.Modifier) []events.Modifier {
	out := make([]events.Modifier, 0, len(ms))
	for _, m := range ms {
		out = append(out, events.Modifier{Source: m.Source, Value: m.Value, Applies: m.Applies})
	}
	return out
}

// ContestRequest is what `contest` asks for: two sides written
// "NAME:ATTR[+Skill]", optionally with a dice count ("Ajax:4/ST") or, for
// someone outside the party, the attribute's value ("foe:ST12").
type ContestRequest struct {
	Sides [2]string
	// Faces per side, entered by hand; both nil to let the program roll.
	Faces  [2][]int
	Reason string
}

// ContestResult is a recorded contest.
type ContestResult struct {
	Events  []events.Event
	Contest events.ContestResolved
}

var sideRE = regexp.MustCompile(`(?i)^\s*(?:(\d+)\s*/\s*)?(ST|DX|IQ)\s*(\d+)?\s*(.*)$`)

// parsedSide is one side of a contest, before rolling.
type parsedSide struct {
	char *character // nil for someone outside the party
	side rules.ContestSide
	expr string
}

func (d *decision) contestSide(ed rules.Edition, spec string) (parsedSide, error) {
	i := strings.LastIndex(spec, ":")
	if i <= 0 {
		return parsedSide{}, rules.Errorf(rules.CodeInvalid, "bad contest side %q: write NAME:ATTR[+Skill], e.g. Ajax:ST or Hector:DX+Pilot", spec)
	}
	name, rest := strings.TrimSpace(spec[:i]), spec[i+1:]
	m := sideRE.FindStringSubmatch(rest)
	if m == nil {
		return parsedSide{}, rules.Errorf(rules.CodeInvalid, "bad contest side %q: %q is not ST, DX or IQ (write NAME:ATTR[+Skill])", spec, strings.TrimSpace(rest))
	}
	dice := "3"
	if m[1] != "" {
		dice = m[1]
	}
	exprText := dice + "/" + strings.ToUpper(m[2])
	if m[4] != "" {
		exprText += " " + m[4]
	}
	expr, err := rules.ParseExpr(exprText)
	if err != nil {
		return parsedSide{}, rules.Errorf(rules.CodeInvalid, "bad contest side %q: %v", spec, err)
	}
	ce := expr.Check
	if ce == nil {
		return parsedSide{}, rules.Errorf(rules.CodeInvalid, "bad contest side %q", spec)
	}
	ps := parsedSide{side: rules.ContestSide{Name: name, Attribute: ce.Attribute, Dice: ce.Dice}}
	if m[3] != "" {
		// Someone outside the party, with the attribute's value given.
		v, _ := strconv.Atoi(m[3])
		r, err := d.rosterState()
		if err != nil {
			return parsedSide{}, err
		}
		if mem, ok := r.FindAny(name); ok {
			whose := "in the party"
			if mem.Foe {
				whose = "a foe on the roster"
			}
			return parsedSide{}, rules.Errorf(rules.CodeInvalid, "%s is %s, so the sheet gives the attribute: write %s:%s", mem.Name, whose, mem.Name, ce.Attribute)
		}
		if ce.Skill != "" {
			return parsedSide{}, rules.Errorf(rules.CodeInvalid, "bad contest side %q: someone outside the party has no skills on record; add the skill to the value instead", spec)
		}
		ps.side.AttributeValue = v
		ps.expr = ce.String()
		return ps, nil
	}
	c, err := d.combatant(name)
	if err != nil {
		return parsedSide{}, err
	}
	ps.char = c
	ps.side.Name = c.sheet.Name
	ps.side.AttributeValue = c.sheet.Attributes.Get(ce.Attribute)
	ps.side.Restriction = c.sheet.Restriction()
	ps.side.Curses = c.sheet.Curses
	if ce.Skill != "" {
		sk, err := rules.LookupSkill(ed, ce.Skill)
		if err != nil {
			return parsedSide{}, err
		}
		ps.side.SkillName, ps.side.SkillLevel = sk.NameIn(ed), c.sheet.SkillLevel(sk.Key)
		if ce.Mode == rules.CheckRequired && ps.side.SkillLevel == 0 {
			return parsedSide{}, rules.Errorf(rules.CodeRule, "%s lacks %s and cannot take part in a contest against it", c.sheet.Name, ps.side.SkillName)
		}
		ce2 := *ce
		ce2.Skill = ps.side.SkillName
		ps.expr = ce2.String()
	} else {
		ps.expr = ce.String()
	}
	return ps, nil
}

// Contest resolves and records a contest between two sides.
func (s *Service) Contest(req ContestRequest) (ContestResult, error) {
	var out ContestResult
	res, err := s.execute(func(d *decision) error {
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		if err := rules.CheckReason("--reason", strings.TrimSpace(req.Reason)); err != nil {
			return err
		}
		var sides [2]parsedSide
		for i := range sides {
			if sides[i], err = d.contestSide(camp.Edition, req.Sides[i]); err != nil {
				return err
			}
		}
		cr, err := d.resolveContest(camp.Edition, sides, req.Faces, [2]bool{true, true}, [2]events.ContestSide{})
		if err != nil {
			return err
		}
		cr.Reason = strings.TrimSpace(req.Reason)
		out.Contest = cr
		return d.emitContest(sides, cr, [2]string{})
	})
	if err != nil {
		return out, err
	}
	out.Events = res.Events
	return out, nil
}

// resolveContest rolls the sides marked in roll (keeping the faces of the
// others from keep) and decides the contest.
func (d *decision) resolveContest(ed rules.Edition, sides [2]parsedSide, faces [2][]int, roll [2]bool, keep [2]events.ContestSide) (events.ContestResolved, error) {
	if sides[0].char != nil && sides[1].char != nil && sides[0].char.member.ID == sides[1].char.member.ID {
		return events.ContestResolved{}, rules.Errorf(rules.CodeInvalid, "%s cannot contest against himself", sides[0].side.Name)
	}
	var rollers [2]rules.Roller
	var given [2]*rules.GivenFaces
	for i := range sides {
		switch {
		case !roll[i]:
			rollers[i] = rules.NewGivenFaces(keep[i].Faces)
		default:
			rollers[i], given[i] = d.s.dice(faces[i])
		}
	}
	o, err := rules.ResolveContest(ed, sides[0].side, sides[1].side, rollers[0], rollers[1])
	if err != nil {
		return events.ContestResolved{}, err
	}
	for i := range sides {
		if given[i] != nil && given[i].Remaining() > 0 {
			return events.ContestResolved{}, rules.Errorf(rules.CodeInvalid, "%s's side of the contest takes %d faces, %d given (write NAME:4/ATTR to roll 4 dice)", sides[i].side.Name, len(o.Sides[i].Faces), len(faces[i]))
		}
	}
	cr := events.ContestResolved{Winner: o.Winner, Outcome: o.Outcome, Explanation: o.Explanation, Edition: string(ed)}
	for i, ps := range sides {
		so := o.Sides[i]
		cs := events.ContestSide{
			Name: ps.side.Name, Attribute: string(ps.side.Attribute), Value: ps.side.AttributeValue,
			Restriction: ps.side.Restriction, Curses: ps.side.Curses, Skill: ps.side.SkillName, SkillLevel: ps.side.SkillLevel,
			Dice: len(so.Faces), Modifiers: modifiers(so.Modifiers), Target: so.Target, Faces: so.Faces, Total: so.Total, Over: so.Over,
			Entered: faces[i] != nil,
		}
		if !roll[i] {
			cs.Entered = keep[i].Entered
		}
		if ps.char != nil {
			cs.CharacterID = ps.char.member.ID
		}
		cr.Sides[i] = cs
	}
	return cr, nil
}

// emitContest appends the contest to the stream of each party member in it;
// rerolls names, per side, the event it replaces in that side's stream.
func (d *decision) emitContest(sides [2]parsedSide, cr events.ContestResolved, rerolls [2]string) error {
	for i, ps := range sides {
		if ps.char == nil {
			continue
		}
		p := cr
		p.Rerolls = rerolls[i]
		if err := d.emit(ps.char.stream, p); err != nil {
			return err
		}
	}
	return nil
}
