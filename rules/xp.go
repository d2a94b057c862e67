package rules

import "fmt"

// SkillPointXP is the XP price of one skill level, in every edition.
const SkillPointXP = 10

// Price is what an advance costs in XP, with the formula that produced it so
// that events and the audit can show their working.
type Price struct {
	XP      int
	Formula string
	Edition Edition
}

// AttributePrice returns the XP price of raising an attribute from current
// to current+1 in edition ed (an unknown edition is DefaultEdition).
func AttributePrice(ed Edition, current int) Price {
	ed = ed.orDefault()
	switch ed {
	case Edition2010:
		// 2010 "Advancement": "provided he spends XPs equal to the next
		// higher level. For example: an IQ13 character can spend 14XP to
		// get IQ14."
		next := current + 1
		return Price{XP: next, Formula: fmt.Sprintf("next level = %d", next), Edition: ed}
	case Edition2020:
		// 2020 "Increasing Attributes": "a number of XPs equal to his next
		// level + 5" (IQ10 → IQ11 costs 16).
		next := current + 1
		return Price{XP: next + 5, Formula: fmt.Sprintf("next level + 5 = %d + 5", next), Edition: ed}
	default:
		// 2021 "Increasing Attributes": "a number of XPs equal to his
		// current level +6" (IQ10 → IQ11 costs 16; ST12 → ST13 costs 18).
		return Price{XP: current + 6, Formula: fmt.Sprintf("current level + 6 = %d + 6", current), Edition: ed}
	}
}

// SkillPrice returns the XP price of one more level of a skill now at
// current (0 to learn it): 10 XP in every edition.
// 2010 "Advancement": "cash in 10XP for a skill"; 2020/2021 "Increasing
// Skills": "raises a skill one point by spending 10XP".
func SkillPrice(ed Edition, current int) Price {
	return Price{XP: SkillPointXP, Formula: fmt.Sprintf("%d XP a skill point", SkillPointXP), Edition: ed.orDefault()}
}

// Afford checks that a character with have XP can pay price for action
// (such as "raise ST to 13") and returns the XP left. Not enough XP is a
// CodeRule error, for example "cannot raise ST to 13: costs 18 XP, Ajax has
// 12 (edition 2021: current level + 6 = 12 + 6)".
func Afford(name, action string, have int, price Price) (left int, err error) {
	if have < price.XP {
		return have, Errorf(CodeRule, "cannot %s: costs %d XP, %s has %d (edition %s: %s)",
			action, price.XP, name, have, price.Edition, price.Formula)
	}
	return have - price.XP, nil
}

// CheckAttributeRaise checks that name may raise attribute at by one level.
// Only edition 2020 caps attributes: a human's total may not pass 42
// ("Increasing Attributes": "Human characters max out at 42 attribute
// points"); the other editions state no cap and return nil. An unknown
// attribute is a CodeInvalid error.
func CheckAttributeRaise(ed Edition, name string, a Attributes, at Attribute) error {
	if !at.Valid() {
		return Errorf(CodeInvalid, "unknown attribute %q: use ST, DX or IQ", string(at))
	}
	if ed.orDefault() != Edition2020 {
		return nil
	}
	if after := a.Total() + 1; after > HumanAttributeCap2020 {
		return Errorf(CodeRule, "cannot raise %s's %s to %d: %d attribute points would pass the human maximum of %d (edition 2020)",
			name, at, a.Get(at)+1, after, HumanAttributeCap2020)
	}
	return nil
}

// CheckSkillPurchase checks that name may buy a level of skill s, now at
// currentLevel (0 to learn it), at this point of the campaign.
//
// All editions: a new skill is learned only between adventures (2020/2021
// "Timing": "can only learn new skills between adventures"). Edition 2010
// sells every skill level only between adventures ("Advancement": "cash in
// 10XP for a skill--but only between adventures"); 2020 and 2021 let an
// existing skill be raised during play ("Timing": "may increase an
// attribute or skill during play"). Errors are CodeRule, or CodeInvalid for
// a skill the edition lacks or a negative level.
func CheckSkillPurchase(ed Edition, name string, s Skill, currentLevel int, betweenAdventures bool) error {
	ed, err := resolveEdition(ed)
	if err != nil {
		return err
	}
	skill := s.NameIn(ed)
	switch {
	case !s.In(ed):
		return Errorf(CodeInvalid, "%s is not a skill in edition %s", skill, ed)
	case currentLevel < 0:
		return Errorf(CodeInvalid, "%s's %s level %d is negative", name, skill, currentLevel)
	case currentLevel >= MaxSkillLevel:
		return Errorf(CodeRule, "%s's %s is already %d, the highest level ltscamp records", name, skill, currentLevel)
	case betweenAdventures:
		return nil
	case currentLevel == 0:
		return Errorf(CodeRule, "%s cannot learn %s during an adventure: new skills are learned only between adventures", name, skill)
	case ed == Edition2010:
		return Errorf(CodeRule, "%s cannot raise %s during an adventure: in edition 2010 skills are bought only between adventures", name, skill)
	}
	return nil
}
