package rules

import "fmt"

// Where a modifier applies.
const (
	// AppliesTarget marks a modifier to the number to roll under.
	AppliesTarget = "target"
	// AppliesTotal marks a modifier to the dice total.
	AppliesTotal = "total"
)

// Modifier is one adjustment to a roll, kept so that the log can show how
// a result was reached. Applies is AppliesTarget or AppliesTotal; Source
// reads like "skill Climbing", "curse ×2", "armour restriction" or
// "modifier".
type Modifier struct {
	Source  string
	Value   int
	Applies string
}

// CheckInput is everything a check needs about the character and the roll.
type CheckInput struct {
	// Edition is the campaign's edition ("" means DefaultEdition).
	Edition Edition
	// Expr is the check as written.
	Expr CheckExpr
	// AttributeValue is the character's raw value of Expr.Attribute.
	AttributeValue int
	// Restriction is the armour restriction; it lowers DX only.
	Restriction int
	// SkillName is the display name of Expr.Skill ("" for a plain check).
	SkillName string
	// SkillLevel is the character's level in the skill; 0 means he lacks it.
	SkillLevel int
	// Curses is the character's curse level.
	Curses int
}

// CheckOutcome is a resolved check.
type CheckOutcome struct {
	// Faces are the dice rolled (nil when Lacking).
	Faces []int
	// Sum is the faces added up.
	Sum int
	// Total is Sum plus the total modifiers (curses).
	Total int
	// Target is the number to roll under or on.
	Target int
	// Pass reports Total <= Target (and not Lacking).
	Pass bool
	// Margin is Target - Total; negative on a failure (0 when Lacking).
	Margin int
	// Modifiers lists every adjustment, target ones first.
	Modifiers []Modifier
	// Lacking reports a required skill the character lacks: the check
	// fails outright and no dice are rolled.
	Lacking bool
	// AllSixes reports that every face is a 6, which breaks a space suit
	// (decided by the caller, who knows the armour).
	AllSixes bool
	// Probability is the chance of passing before the roll, with curses and
	// every modifier counted (0 when Lacking).
	Probability float64
}

// CheckTarget returns the number a check must roll under or on, and the
// target modifiers that produced it: the attribute, lowered by the armour
// restriction for DX, plus the skill level for an assisted or required
// check when the character has the skill.
func CheckTarget(in CheckInput) (target int, mods []Modifier) {
	target = in.AttributeValue
	// All editions, "Restriction (R)": armour lowers DX (and only DX).
	if in.Expr.Attribute == DX && in.Restriction > 0 {
		adjusted := AdjustedDX(in.AttributeValue, in.Restriction)
		mods = append(mods, Modifier{Source: "armour restriction", Value: adjusted - target, Applies: AppliesTarget})
		target = adjusted
	}
	// "Assisted Skill Checks": "if he has Climbing 3, he adds 3 to his ST".
	// A required check adds the level in 2010 only: 2010 "SKILLS": "roll
	// his attribute (+skill) or less: Ajax (ST12 Swimming+1) must roll 13
	// or less"; 2020 and 2021 "SKILLS": "pass a three-die check against his
	// applicable attribute", the skill being only the prerequisite.
	required2010 := in.Expr.Mode == CheckRequired && in.Edition.orDefault() == Edition2010
	if in.Expr.Mode == CheckAssisted || required2010 {
		if in.SkillLevel > 0 {
			mods = append(mods, Modifier{Source: "skill " + in.skillLabel(), Value: in.SkillLevel, Applies: AppliesTarget})
			target += in.SkillLevel
		}
	}
	return target, mods
}

// skillLabel is the skill's display name, falling back to the name typed.
func (in CheckInput) skillLabel() string {
	if in.SkillName != "" {
		return in.SkillName
	}
	return in.Expr.Skill
}

// curseModifier is the total modifier for a curse level, or false for none.
// All editions, "Curse": "adds or subtracts one against all his checks and
// damage rolls, worsening the result. ... Curses are cumulative."
func curseModifier(curses, sign int) (Modifier, bool) {
	if curses <= 0 {
		return Modifier{}, false
	}
	return Modifier{Source: fmt.Sprintf("curse ×%d", curses), Value: sign * curses, Applies: AppliesTotal}, true
}

// validate rejects check inputs that cannot come from a real character.
func (in CheckInput) validate() error {
	if _, err := resolveEdition(in.Edition); err != nil {
		return err
	}
	c := in.Expr
	if c.Dice < 1 || c.Dice > MaxCheckDice {
		return Errorf(CodeInvalid, "a check rolls 1 to %d dice, not %d", MaxCheckDice, c.Dice)
	}
	if !c.Attribute.Valid() {
		return Errorf(CodeInvalid, "unknown attribute %q: use ST, DX or IQ", string(c.Attribute))
	}
	switch c.Mode {
	case CheckPlain, "":
	case CheckAssisted, CheckRequired:
		if c.Skill == "" && in.SkillName == "" {
			return Errorf(CodeInvalid, "the %s check %s names no skill", c.Mode, c)
		}
	default:
		return Errorf(CodeInvalid, "unknown check mode %q: use plain, assisted or required", string(c.Mode))
	}
	switch {
	case in.AttributeValue < 0:
		return Errorf(CodeInvalid, "%s %d is not an attribute value", c.Attribute, in.AttributeValue)
	case in.Restriction < 0:
		return Errorf(CodeInvalid, "armour restriction %d is negative", in.Restriction)
	case in.SkillLevel < 0:
		return Errorf(CodeInvalid, "skill level %d is negative", in.SkillLevel)
	case in.Curses < 0:
		return Errorf(CodeInvalid, "curse level %d is negative", in.Curses)
	}
	return nil
}

// ResolveCheck rolls a roll-under check: Expr.Dice d6 with r, plus one per
// curse level, against CheckTarget. A required skill the character lacks
// fails outright without a roll, so r is not used.
// All editions, "Passing a Check"/"Hitting a Foe": "If the total is the
// character's DX or less, he hits"; "Required Skill Checks": "If Ajax lacks
// SWIMMING ... he drowns".
func ResolveCheck(in CheckInput, r Roller) (CheckOutcome, error) {
	if err := in.validate(); err != nil {
		return CheckOutcome{}, err
	}
	target, mods := CheckTarget(in)
	out := CheckOutcome{Target: target, Modifiers: mods}
	if in.Expr.Mode == CheckRequired && in.SkillLevel <= 0 {
		out.Lacking = true
		return out, nil
	}
	curse, cursed := curseModifier(in.Curses, +1)
	if cursed {
		out.Modifiers = append(out.Modifiers, curse)
	}
	out.Probability = PassProbability(in.Expr.Dice, target, curse.Value)
	faces, err := rollChecked(r, in.Expr.Dice, 6)
	if err != nil {
		return CheckOutcome{}, err
	}
	out.Faces = faces
	out.Sum = sum(faces)
	out.Total = out.Sum + curse.Value
	out.Pass = out.Total <= target
	out.Margin = target - out.Total
	out.AllSixes = allSixes(faces)
	return out, nil
}

// allSixes reports whether faces is non-empty and every face is a 6.
// All editions, "(SS) Space suit": "if the character rolls all sixes on any
// check".
func allSixes(faces []int) bool {
	for _, f := range faces {
		if f != 6 {
			return false
		}
	}
	return len(faces) > 0
}
