package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Character creation limits, all editions, "New Characters": "new
// characters start with ST8, DX8, IQ8, and eight discretionary points (32
// total). Characters begin with four points of skills, two of which can be
// combat skills."
const (
	// CreationPoints is the exact attribute total of a new character.
	CreationPoints = 32
	// MinAttribute is the lowest value of any attribute.
	MinAttribute = 8
	// CreationSkillPoints is the most skill levels a new character has.
	CreationSkillPoints = 4
	// CreationCombatSkillPoints is the most of those in combat skills.
	CreationCombatSkillPoints = 2
	// HumanAttributeCap2020 is edition 2020's cap on a human's attribute
	// total ("Increasing Attributes": "Human characters max out at 42
	// attribute points").
	HumanAttributeCap2020 = 42
)

// ValidateNewCharacter checks a new character against the creation rules of
// edition ed. A blank name is a CodeInvalid error. Otherwise every problem
// found (attribute total, attributes below the minimum, too many skill or
// combat skill points, skills listed twice, skills not in the edition,
// levels below 1) is listed, with its numbers, in one error: CodeInvalid
// when an attribute is outside MinAttribute to MaxCreationAttribute (a
// number out of its range, as docs/limits.md lists it), CodeRule
// otherwise. Fewer than four skill points is allowed.
func ValidateNewCharacter(ed Edition, name string, a Attributes, skills []SkillLevel) error {
	ed, err := resolveEdition(ed)
	if err != nil {
		return err
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return Errorf(CodeInvalid, "a character needs a name")
	}
	var problems []string
	// An attribute past any sane bound is named, not summed: three huge
	// values could wrap round to a total of 32.
	sane := true
	for _, at := range AttributeNames() {
		if v := a.Get(at); v < -MaxFoeAttribute || v > MaxFoeAttribute {
			sane = false
		}
	}
	if total := a.Total(); sane && total != CreationPoints {
		problems = append(problems, fmt.Sprintf("%d attribute points, a new character has exactly %d (ST%d DX%d IQ%d + %d discretionary)",
			total, CreationPoints, MinAttribute, MinAttribute, MinAttribute, CreationPoints-3*MinAttribute))
	}
	// An attribute outside 8 to 16 is a number out of its range
	// (docs/limits.md), refused as bad input; the total and the skill
	// budgets are the creation rules a character in range must meet.
	code := CodeRule
	for _, at := range AttributeNames() {
		switch v := a.Get(at); {
		case v < MinAttribute:
			code = CodeInvalid
			problems = append(problems, fmt.Sprintf("%s %d is below the minimum of %d", at, v, MinAttribute))
		case v > MaxCreationAttribute:
			code = CodeInvalid
			problems = append(problems, fmt.Sprintf("%s %d is above the most a new character can have, %d (%d points with the other two at %d)", at, v, MaxCreationAttribute, CreationPoints, MinAttribute))
		}
	}
	var points, combat int
	var combatParts []string
	seen := map[string]bool{}
	for _, sl := range skills {
		sk, known := skillByKey(sl.Skill.Key)
		label := sl.Skill.NameIn(ed)
		if known {
			label = sk.NameIn(ed)
		}
		if label == "" {
			label = sl.Skill.Key
		}
		switch {
		case !known:
			problems = append(problems, fmt.Sprintf("%q is not a known skill", label))
			continue
		case !sk.In(ed):
			problems = append(problems, fmt.Sprintf("%s is not a skill in edition %s", label, ed))
		}
		if seen[sk.Key] {
			problems = append(problems, fmt.Sprintf("%s is listed twice", label))
			continue
		}
		seen[sk.Key] = true
		if sl.Level < 1 {
			problems = append(problems, fmt.Sprintf("%s %d is not a skill level (1 or more)", label, sl.Level))
			continue
		}
		points += sl.Level
		if sk.Combat() {
			combat += sl.Level
			combatParts = append(combatParts, fmt.Sprintf("%s %d", label, sl.Level))
		}
	}
	if points > CreationSkillPoints {
		problems = append(problems, fmt.Sprintf("%d skill points, at most %d", points, CreationSkillPoints))
	}
	if combat > CreationCombatSkillPoints {
		problems = append(problems, fmt.Sprintf("%d combat skill points (%s), at most %d", combat, strings.Join(combatParts, ", "), CreationCombatSkillPoints))
	}
	if len(problems) > 0 {
		return Errorf(code, "cannot create %s: %s", name, strings.Join(problems, "; "))
	}
	return nil
}

// ParseAttributeValue reads an attribute value typed in a form: a whole
// number of at least MinAttribute. Errors are CodeInvalid, so it can serve
// as a form validator.
func ParseAttributeValue(s string) (int, error) {
	t := strings.TrimSpace(s)
	n, err := strconv.Atoi(t)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return 0, Errorf(CodeInvalid, "%q is far too large for an attribute", t)
		}
		return 0, Errorf(CodeInvalid, "%q is not a whole number; attributes are whole numbers of %d or more", t, MinAttribute)
	}
	if n < MinAttribute {
		return 0, Errorf(CodeInvalid, "%d is below the minimum of %d", n, MinAttribute)
	}
	return n, nil
}

// CreationPointsLeft returns the attribute points a new character still has
// to place: CreationPoints minus the total, negative when over.
func CreationPointsLeft(a Attributes) int {
	return CreationPoints - a.Total()
}

// MaxFoeAttribute bounds a foe's attributes: the books set no ceiling on
// the monsters and machines a GM fields, but a number past it is a typing
// slip, and it keeps every sum far from overflow.
const MaxFoeAttribute = 99

// ValidateFoe checks a foe, a non-player combatant the GM fields. Foes are
// not held to the creation rules (the 32 points, the attribute minimum of
// 8, the skill budget): any attribute from 1 to MaxFoeAttribute will do.
func ValidateFoe(name string, a Attributes) error {
	if strings.TrimSpace(name) == "" {
		return Errorf(CodeInvalid, "a foe needs a name")
	}
	var problems []string
	for _, at := range AttributeNames() {
		if v := a.Get(at); v < 1 || v > MaxFoeAttribute {
			problems = append(problems, fmt.Sprintf("%s %d (give 1 to %d)", at, v, MaxFoeAttribute))
		}
	}
	if len(problems) > 0 {
		return Errorf(CodeInvalid, "foe %s: %s", strings.TrimSpace(name), strings.Join(problems, "; "))
	}
	return nil
}
