package campaign

import (
	"fmt"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// NewCharacter is what `char new` asks for.
type NewCharacter struct {
	Name       string
	Attributes rules.Attributes
	// Skills are written "Name:Level" ("Unarmed:2", "Medic").
	Skills []string
}

// ParseSkills resolves "Name:Level" skill specs in the campaign's edition.
func ParseSkills(ed rules.Edition, specs []string) ([]rules.SkillLevel, error) {
	out := make([]rules.SkillLevel, 0, len(specs))
	for _, spec := range specs {
		sl, err := rules.ParseSkillLevel(ed, spec)
		if err != nil {
			return nil, err
		}
		out = append(out, sl)
	}
	return out, nil
}

// CreateCharacter validates a new character by the edition's rules and
// records character.created.
func (s *Service) CreateCharacter(nc NewCharacter) (projections.Sheet, error) {
	var name string
	_, err := s.execute(func(d *decision) error {
		c, err := d.createCharacter(nc)
		if err == nil {
			name = c.sheet.Name
		}
		return err
	})
	if err != nil {
		return projections.Sheet{}, err
	}
	return s.Sheet(name)
}

// createCharacter decides character.created for a new character and adds
// him to the decision's roster, so the rest of the command can name him.
func (d *decision) createCharacter(nc NewCharacter) (*character, error) {
	name := projections.NormalizeName(nc.Name)
	camp, err := d.campaignState()
	if err != nil {
		return nil, err
	}
	if name == "" {
		return nil, rules.Errorf(rules.CodeInvalid, "a character needs a name")
	}
	if err := rules.CheckName("character name", strings.TrimSpace(nc.Name)); err != nil {
		return nil, err
	}
	if strings.ContainsAny(name, ":,") {
		return nil, rules.Errorf(rules.CodeInvalid, "character name %q: names may not contain ':' or ',' (they separate names in commands)", name)
	}
	r, err := d.rosterState()
	if err != nil {
		return nil, err
	}
	if err := nameFree(r, name); err != nil {
		return nil, err
	}
	skills, err := ParseSkills(camp.Edition, nc.Skills)
	if err != nil {
		return nil, err
	}
	if err := rules.ValidateNewCharacter(camp.Edition, name, nc.Attributes, skills); err != nil {
		return nil, err
	}
	id := d.s.newID()
	c := &character{member: projections.Member{ID: id, Name: name}, stream: events.CharacterStream(id)}
	d.expect(c.stream, 0)
	p := events.CharacterCreated{
		CharacterID: id, Name: name, Edition: string(camp.Edition),
		Attributes: events.Attributes{ST: nc.Attributes.ST, DX: nc.Attributes.DX, IQ: nc.Attributes.IQ},
		Skills:     []events.SkillLevel{},
	}
	for _, sl := range skills {
		p.Skills = append(p.Skills, events.SkillLevel{Skill: sl.Skill.Key, Name: sl.Skill.NameIn(camp.Edition), Level: sl.Level})
	}
	if err := d.emitApplied(c.stream, p, r.Apply, c.sheet.Apply, c.rolls.Apply); err != nil {
		return nil, err
	}
	d.chars[id] = c
	return c, nil
}

// GrantKarma gives a character karma points.
func (s *Service) GrantKarma(name string, n int, reason string) (projections.Sheet, error) {
	return s.grant(name, n, rules.QtyKarmaGrant, reason, func(reason string) events.Payload { return events.KarmaGranted{Amount: n, Reason: reason} })
}

// GrantWish gives a character wishes.
func (s *Service) GrantWish(name string, n int, reason string) (projections.Sheet, error) {
	return s.grant(name, n, rules.QtyWishGrant, reason, func(reason string) events.Payload { return events.WishGranted{Amount: n, Reason: reason} })
}

// AddCurse lays curse levels on a character: each worsens every check and
// damage roll he makes by one.
func (s *Service) AddCurse(name string, n int, reason string) (projections.Sheet, error) {
	return s.grant(name, n, rules.QtyCurseAdd, reason, func(reason string) events.Payload { return events.CurseAdded{Levels: n, Reason: reason} })
}

// grant decides a grant of n (karma, wishes, curse levels), bounded by q,
// with its reason.
func (s *Service) grant(name string, n int, q rules.Quantity, reason string, payload func(reason string) events.Payload) (projections.Sheet, error) {
	if err := rules.CheckQuantity(q, n); err != nil {
		return projections.Sheet{}, err
	}
	if err := rules.CheckReason("--reason", reason); err != nil {
		return projections.Sheet{}, err
	}
	sh, _, err := s.onCharacter(name, func(d *decision, _ *projections.Campaign, c *character) error {
		return d.emit(c.stream, payload(reason))
	})
	return sh, err
}

// AwardXP gives each named character n XP, as one command.
func (s *Service) AwardXP(names []string, n int, reason string) ([]projections.Sheet, error) {
	return s.AwardXPTo(Who{Names: names}, n, reason)
}

// AwardXPTo gives n XP to each character w names (or, with w.Party, to
// every living party member), as one command: one event each, appended
// together, undone together.
func (s *Service) AwardXPTo(w Who, n int, reason string) ([]projections.Sheet, error) {
	reason = strings.TrimSpace(reason)
	var awarded []*character
	res, d, err := s.executeDecided(func(d *decision) error {
		awarded = nil
		if err := rules.CheckQuantity(rules.QtyXPAward, n); err != nil {
			if n < 1 {
				return rules.Errorf(rules.CodeInvalid, "%v (spend XP with `ltscamp xp spend`)", err)
			}
			return err
		}
		if reason == "" {
			return rules.Errorf(rules.CodeInvalid, "an XP award needs --reason TEXT, so the ledger says why")
		}
		if err := rules.CheckReason("--reason", reason); err != nil {
			return err
		}
		if len(w.Names) == 0 && !w.Party {
			return rules.Errorf(rules.CodeInvalid, "name at least one character to award XP to, or give --party")
		}
		chars, err := d.chosen(w, "xp award", func(name string) error {
			return rules.Errorf(rules.CodeRule, "%s is dead and earns no XP (a wish may revive him)", name)
		})
		if err != nil {
			return err
		}
		for _, c := range chars {
			awarded = append(awarded, c)
			if err := d.emit(c.stream, events.XPAwarded{Amount: n, Reason: reason}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.sheetsAfter(d, res, awarded...)
}

// GrantKarmaTo gives n karma points to each character w names (or, with
// w.Party, to every living party member), as one command.
func (s *Service) GrantKarmaTo(w Who, n int, reason string) ([]projections.Sheet, error) {
	if err := rules.CheckQuantity(rules.QtyKarmaGrant, n); err != nil {
		return nil, err
	}
	if err := rules.CheckReason("--reason", reason); err != nil {
		return nil, err
	}
	var granted []*character
	res, d, err := s.executeDecided(func(d *decision) error {
		chars, err := d.chosen(w, "karma grant", nil)
		if err != nil {
			return err
		}
		granted = chars
		for _, c := range chars {
			if err := d.emit(c.stream, events.KarmaGranted{Amount: n, Reason: reason}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.sheetsAfter(d, res, granted...)
}

// Plotword records that the party acquired a plotword and gives every living
// party member 1 XP, as one command.
func (s *Service) Plotword(word string) ([]projections.Sheet, error) {
	word = strings.TrimSpace(word)
	var awarded []*character
	res, d, err := s.executeDecided(func(d *decision) error {
		awarded = nil
		if word == "" {
			return rules.Errorf(rules.CodeInvalid, "the plotword is empty")
		}
		if err := rules.CheckReason("the plotword", word); err != nil {
			return err
		}
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		if seq, ok := camp.Plotwords[projections.PlotwordKey(word)]; ok {
			return rules.Errorf(rules.CodeRule, "the party already acquired plotword %q (seq %d); a plotword gives XP once", projections.PlotwordKey(word), seq)
		}
		r, err := d.rosterState()
		if err != nil {
			return err
		}
		if err := d.emit(events.CampaignStream, events.PlotwordAcquired{Word: projections.PlotwordKey(word)}); err != nil {
			return err
		}
		for _, m := range r.Members {
			c, err := d.characterByMember(m)
			if err != nil {
				return err
			}
			if !c.sheet.Alive() {
				continue
			}
			awarded = append(awarded, c)
			// 2021 "Experience Points": when a party acquires a plotword, all characters gain one XP.
			if err := d.emit(c.stream, events.XPAwarded{Amount: 1, Reason: fmt.Sprintf("plotword %s", projections.PlotwordKey(word)), Plotword: projections.PlotwordKey(word)}); err != nil {
				return err
			}
		}
		if len(awarded) == 0 {
			return rules.Errorf(rules.CodeRule, "no living party member to receive the plotword's XP; create characters first")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.sheetsAfter(d, res, awarded...)
}

// Spend describes an XP spend: what to raise and by how many levels.
type Spend struct {
	Character string
	// Target is "ST", "DX", "IQ", "skill:NAME" or a skill's bare name.
	Target string
	Levels int
}

// SpendResult reports an XP spend.
type SpendResult struct {
	Sheet  projections.Sheet
	Spends []events.XPSpent
}

// SpendXP raises an attribute or a skill, one level at a time, each level
// priced by the edition's rules at that moment.
func (s *Service) SpendXP(sp Spend) (SpendResult, error) {
	var res SpendResult
	var spender *character
	appended, d, err := s.executeDecided(func(d *decision) error {
		res.Spends = nil
		if err := rules.CheckQuantity(rules.QtyRaiseLevels, sp.Levels); err != nil {
			return err
		}
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		c, err := d.character(sp.Character)
		if err != nil {
			return err
		}
		spender = c
		who := c.sheet.Name
		ed := camp.Edition
		target := strings.TrimSpace(sp.Target)
		total := 0
		var prices []string
		var what string
		var formula string
		skillName, isSkill := "", false
		switch {
		case len(target) > 6 && strings.EqualFold(target[:6], "skill:"):
			skillName, isSkill = target[6:], true
		default:
			if _, err := rules.ParseAttribute(target); err != nil {
				// A bare name that is no attribute is a skill's:
				// `xp spend Kira Pistol`.
				skillName, isSkill = target, true
			}
		}
		if isSkill {
			skill, err := rules.LookupSkill(ed, skillName)
			if err != nil {
				if skillName == target && len([]rune(target)) <= 2 {
					// "SX": a slip on an attribute more likely than a skill.
					return rules.Errorf(rules.CodeInvalid, "cannot spend XP on %q: name ST, DX, IQ or a skill (for example Knife)", target)
				}
				if skillName == target {
					return rules.Errorf(rules.CodeOf(err), "cannot spend XP on %q: it is not ST, DX or IQ, and %v", target, err)
				}
				return err
			}
			level := c.sheet.SkillLevel(skill.Key)
			if err := rules.CheckSkillPurchase(ed, who, skill, level, camp.BetweenAdventures()); err != nil {
				return err
			}
			name := skill.NameIn(ed)
			what = fmt.Sprintf("%s's %s", who, name)
			for i := 0; i < sp.Levels; i++ {
				p := rules.SkillPrice(ed, level+i)
				total += p.XP
				prices = append(prices, fmt.Sprint(p.XP))
				formula = p.Formula
				res.Spends = append(res.Spends, events.XPSpent{On: "skill", Skill: skill.Key, SkillName: name, From: level + i, To: level + i + 1, Price: p.XP, Formula: p.Formula, Edition: string(ed)})
			}
			what = fmt.Sprintf("%s to %d", what, level+sp.Levels)
		} else {
			at, err := rules.ParseAttribute(target)
			if err != nil {
				return rules.Errorf(rules.CodeInvalid, "cannot spend XP on %q: name ST, DX, IQ or a skill (for example Knife)", sp.Target)
			}
			attrs := c.sheet.Attributes
			from := attrs.Get(at)
			for i := 0; i < sp.Levels; i++ {
				if err := rules.CheckAttributeRaise(ed, who, attrs, at); err != nil {
					return err
				}
				cur := attrs.Get(at)
				p := rules.AttributePrice(ed, cur)
				total += p.XP
				prices = append(prices, fmt.Sprint(p.XP))
				formula = p.Formula
				res.Spends = append(res.Spends, events.XPSpent{On: "attribute", Attribute: string(at), From: cur, To: cur + 1, Price: p.XP, Formula: p.Formula, Edition: string(ed)})
				attrs = attrs.With(at, cur+1)
			}
			what = fmt.Sprintf("%s's %s to %d", who, at, from+sp.Levels)
		}
		if unspent := c.sheet.XP.Unspent; total > unspent {
			cost := fmt.Sprintf("costs %d XP", total)
			if len(prices) > 1 {
				cost = fmt.Sprintf("costs %d XP (%s)", total, strings.Join(prices, " + "))
			}
			return rules.Errorf(rules.CodeRule, "cannot raise %s: %s, %s has %d unspent (edition %s: %s)", what, cost, who, unspent, ed, formula)
		}
		for _, e := range res.Spends {
			if err := d.emit(c.stream, e); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return SpendResult{}, err
	}
	sheets, err := s.sheetsAfter(d, appended, spender)
	if err != nil {
		return SpendResult{}, err
	}
	res.Sheet = sheets[0]
	return res, nil
}

// SetSkillBonus records a character's standing choice of where the level
// of his combat skill goes on his attacks, "hit" or "damage" (all
// editions: "Each level is +1DX to hit OR +1 damage; decide before
// attacking"). Every attack without --skill-bonus follows it.
func (s *Service) SetSkillBonus(name, bonus string) (projections.Sheet, error) {
	b, err := rules.ParseSkillBonus(bonus)
	if err != nil || b == rules.BonusNone {
		return projections.Sheet{}, rules.Errorf(rules.CodeInvalid, "--skill-bonus %q: a combat skill's level goes to hit or to damage", strings.TrimSpace(bonus))
	}
	sh, _, err := s.onCombatant(name, func(d *decision, _ *projections.Campaign, c *character) error {
		prev := c.sheet.StandingBonus()
		if prev == b {
			return rules.Errorf(rules.CodeConflict, "%s's combat skill levels already go to %s; nothing was changed", c.sheet.Name, b)
		}
		return d.emit(c.stream, events.SkillBonusSet{Bonus: string(b), Previous: string(prev)})
	})
	return sh, err
}
