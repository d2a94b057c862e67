package campaign

import (
	"fmt"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// WishUse spends a wish on a character: 2020/2021 revive fully, even the
// just killed; 2010 negates all damage.
func (s *Service) WishUse(name string) (projections.Sheet, events.CharacterRevived, error) {
	var rev events.CharacterRevived
	sh, _, err := s.onCharacter(name, func(d *decision, camp *projections.Campaign, c *character) error {
		if c.sheet.Wishes < 1 {
			return rules.Errorf(rules.CodeRule, "%s has no wish to use", c.sheet.Name)
		}
		eff, err := rules.UseWish(camp.Edition, c.sheet.Name, c.sheet.Body(), !c.sheet.Alive())
		if err != nil {
			return err
		}
		if err := d.emit(c.stream, events.WishSpent{For: "revive"}); err != nil {
			return err
		}
		rev = events.CharacterRevived{DamageTo: eff.DamageTo, FatigueTo: eff.FatigueTo, Revived: eff.Revives, Rule: eff.Rule, Edition: string(camp.Edition)}
		return d.emit(c.stream, rev)
	})
	return sh, rev, err
}

// CurseLift lifts one curse level by a method the edition allows: a wish or
// the highest attribute (2020/2021); a wish, 3 karma or 10 XP (2010).
func (s *Service) CurseLift(name, by string) (projections.Sheet, events.CurseLifted, error) {
	var cl events.CurseLifted
	sh, _, err := s.onCharacter(name, func(d *decision, camp *projections.Campaign, c *character) error {
		m, err := rules.ParseLiftMethod(by)
		if err != nil {
			return err
		}
		if !c.sheet.Alive() {
			return rules.Errorf(rules.CodeRule, "%s is dead", c.sheet.Name)
		}
		sh := c.sheet
		lift, err := rules.LiftCurse(camp.Edition, sh.Name, sh.Curses, sh.Attributes, sh.Wishes, sh.Karma, sh.XP.Unspent, m)
		if err != nil {
			return err
		}
		cl = events.CurseLifted{Method: string(lift.Method), Wishes: lift.Wishes, Karma: lift.Karma, XP: lift.XP, Rule: lift.Rule, Edition: string(camp.Edition)}
		if lift.Attribute != "" {
			cl.Attribute, cl.From, cl.To = string(lift.Attribute), lift.AttributeFrom, lift.AttributeTo
		}
		return d.emit(c.stream, cl)
	})
	return sh, cl, err
}

// StorytellResult reports a storyteller's attempt.
type StorytellResult struct {
	Roll events.RollMade
	// Karma is the points given in all (0 on a failed check), Members who
	// received them, and Amounts how many each.
	Karma    int
	Members  []string
	Amounts  []int
	RollSeq  int64
	Narrator string
}

// Storytell has a Storyteller attempt 3/IQ+Storyteller: on a pass he
// distributes one karma point per Storyteller level to the party, each to
// a living member he chooses (to names them, one point a name; a member may
// be named more than once), to be used within the game day (it expires when
// the day ends). 2020, 2021 "Storyteller": "distribute one karma point per
// Storytelling level to the party".
func (s *Service) Storytell(name string, faces []int, to []string) (StorytellResult, error) {
	var out StorytellResult
	res, err := s.execute(func(d *decision) error {
		out = StorytellResult{}
		c, err := d.inAdventure("storytelling")
		if err != nil {
			return err
		}
		ed := c.Edition
		teller, err := d.character(name)
		if err != nil {
			return err
		}
		out.Narrator = teller.sheet.Name
		if !teller.sheet.Alive() || teller.sheet.Body().Incapacitated() {
			return rules.Errorf(rules.CodeRule, "%s is %s and cannot tell stories", teller.sheet.Name, teller.sheet.Status)
		}
		sk, err := rules.LookupSkill(ed, "storyteller")
		if err != nil {
			// Edition 2010 has no Storyteller: a rule, not a typo.
			if _, rerr := rules.StorytellerKarma(ed, 0, rules.CheckOutcome{}); rerr != nil {
				return rerr
			}
			return err
		}
		level := teller.sheet.SkillLevel(sk.Key)
		if _, err := rules.StorytellerKarma(ed, level, rules.CheckOutcome{Pass: true}); err != nil {
			return err
		}
		story, err := d.storyRecipients(teller.sheet.Name, level, to)
		if err != nil {
			return err
		}
		check := rules.StorytellerCheck()
		check.Skill = sk.NameIn(ed)
		expr := rules.Expr{Check: &check}
		rm, stream, _, err := d.roll(ed, expr, teller.sheet.Name, faces, nil)
		if err != nil {
			return err
		}
		rm.Reason = "storytelling"
		if err := d.emit(stream, rm); err != nil {
			return err
		}
		out.Roll = rm
		rollID := d.pending[len(d.pending)-1].ID
		if err := d.suitOnCheck(rm, rollID); err != nil {
			return err
		}
		karma, err := rules.StorytellerKarma(ed, level, rules.CheckOutcome{Pass: rm.Outcome == "pass", Total: rm.Total, Target: rm.Target})
		if err != nil {
			return err
		}
		out.Karma = karma
		if karma == 0 {
			return nil
		}
		out.Members, out.Amounts, err = d.tell(teller, story, rollID)
		return err
	})
	if err == nil {
		out.RollSeq = res.Events[0].Seq
	}
	return out, err
}

// story is who receives a story's karma: each recipient once, in the order
// first named, with the points he gets.
type story struct {
	recipients []*character
	amounts    map[string]int
}

// storyRecipients resolves a story's recipients, chosen before the dice:
// one karma point a name, as many names as the teller's level.
func (d *decision) storyRecipients(teller string, level int, to []string) (story, error) {
	st := story{amounts: map[string]int{}}
	if len(to) != level {
		return st, rules.Errorf(rules.CodeInvalid, "%s's Storyteller %d gives %s in all: name %s with --to (a member may be named more than once); %d named",
			teller, level, projections.Count(level, "karma point", "karma points"), projections.Count(level, "recipient", "recipients"), len(to))
	}
	for _, n := range to {
		c, err := d.character(n)
		if err != nil {
			return st, err
		}
		if !c.sheet.Alive() {
			return st, rules.Errorf(rules.CodeRule, "%s is dead and can receive no karma", c.sheet.Name)
		}
		if st.amounts[c.member.ID] == 0 {
			st.recipients = append(st.recipients, c)
		}
		st.amounts[c.member.ID]++
	}
	return st, nil
}

// tell grants a told story's karma (lasting the game day) and says who got
// how much.
func (d *decision) tell(teller *character, st story, rollID string) (names []string, amounts []int, err error) {
	for _, ch := range st.recipients {
		n := st.amounts[ch.member.ID]
		names, amounts = append(names, ch.sheet.Name), append(amounts, n)
		g := events.KarmaGranted{Amount: n, Reason: fmt.Sprintf("%s's storytelling", teller.sheet.Name), ExpiresAtDayEnd: true, StorytellerID: teller.member.ID, RollID: rollID}
		if err := d.emitApplied(ch.stream, g, ch.sheet.Apply); err != nil {
			return nil, nil, err
		}
	}
	return names, amounts, nil
}

// KarmaToXP spends karma points as XP, one for one (edition 2010 only).
func (s *Service) KarmaToXP(name string, n int) (projections.Sheet, error) {
	sh, _, err := s.onCharacter(name, func(d *decision, camp *projections.Campaign, c *character) error {
		// 2010 "Karma/Wish": "A character can use ... a karma point as one XP."
		if err := rules.KarmaToXP(camp.Edition, c.sheet.Name, c.sheet.Karma, n); err != nil {
			return err
		}
		if err := rules.CheckQuantity(rules.QtyKarmaToXP, n); err != nil {
			return err
		}
		if err := d.emit(c.stream, events.KarmaSpent{Amount: n, For: "xp"}); err != nil {
			return err
		}
		return d.emit(c.stream, events.XPAwarded{Amount: n, Reason: fmt.Sprintf("%s taken as XP", projections.Count(n, "karma point", "karma points")), Source: "karma"})
	})
	return sh, err
}

// onCharacter decides a command about one character and returns his sheet
// after it.
func (s *Service) onCharacter(name string, decide func(d *decision, camp *projections.Campaign, c *character) error) (projections.Sheet, events.AppendResult, error) {
	return s.onSomeone(name, (*decision).character, decide)
}

// onCombatant is onCharacter for a party member or a foe.
func (s *Service) onCombatant(name string, decide func(d *decision, camp *projections.Campaign, c *character) error) (projections.Sheet, events.AppendResult, error) {
	return s.onSomeone(name, (*decision).combatant, decide)
}

func (s *Service) onSomeone(name string, find func(d *decision, name string) (*character, error), decide func(d *decision, camp *projections.Campaign, c *character) error) (projections.Sheet, events.AppendResult, error) {
	var who *character
	res, d, err := s.executeDecided(func(d *decision) error {
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		c, err := find(d, name)
		if err != nil {
			return err
		}
		who = c
		return decide(d, camp, c)
	})
	if err != nil {
		return projections.Sheet{}, res, err
	}
	sheets, err := s.sheetsAfter(d, res, who)
	if err != nil {
		return projections.Sheet{}, res, err
	}
	return sheets[0], res, nil
}
