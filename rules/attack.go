package rules

import (
	"cmp"
	"fmt"
	"strings"
)

// SkillBonus says where a combat skill's levels go on one attack. Its string
// value is stored in events.
type SkillBonus string

// The skill bonus choices. All editions, "COMBAT" skills: "Each level is
// +1DX to hit OR +1 damage; decide before attacking. Multiple levels cannot
// be split." The whole level goes to one of them.
const (
	// BonusNone uses no skill.
	BonusNone SkillBonus = ""
	// BonusHit adds the skill level to DX for the hit roll.
	BonusHit SkillBonus = "hit"
	// BonusDamage adds the skill level to the damage roll.
	BonusDamage SkillBonus = "damage"
)

// ParseSkillBonus reads "hit", "damage", or "" / "none" for no bonus,
// case-insensitively; anything else is a CodeInvalid error.
func ParseSkillBonus(s string) (SkillBonus, error) {
	switch t := strings.ToLower(strings.TrimSpace(s)); t {
	case "", "none":
		return BonusNone, nil
	case "hit", "damage":
		return SkillBonus(t), nil
	}
	return "", Errorf(CodeInvalid, "unknown skill bonus %q: a combat skill goes to hit or to damage", strings.TrimSpace(s))
}

// BonusSource says who placed a combat skill's level on an attack. Its
// string value is stored in events.
type BonusSource string

// The sources of a skill bonus.
const (
	// SourceNone: events recorded before the standing choice existed,
	// which placed the level only when --skill-bonus was given.
	SourceNone BonusSource = ""
	// SourceFlag: --skill-bonus on this attack.
	SourceFlag BonusSource = "flag"
	// SourceStanding: the attacker's standing choice (`char set NAME
	// --skill-bonus`, hit unless set).
	SourceStanding BonusSource = "standing"
)

// AutoHit says why an attack hits without a hit roll. Its string value is
// stored in events.
type AutoHit string

// The attacks that hit without a roll.
const (
	// AutoHitNone: a 3/DX hit roll is made.
	AutoHitNone AutoHit = ""
	// AutoHitGrapple: a grappler attacks the foe he grapples, having won
	// the ST check. 2010 "Grappling Attack": "The character winning a ST
	// check hits his opponent"; 2020 "Grappling Options": "The grappler
	// winning ST can: (1) Roll damage on his foe"; 2021: "He who wins ST
	// can: 1. Roll damage".
	AutoHitGrapple AutoHit = "grapple"
	// AutoHitOutside: an attack into a grappling space from outside it.
	// 2020 "Outside Attacks": "Characters attacking into a grappling space
	// automatically hit and roll damage." Only 2020 states it.
	AutoHitOutside AutoHit = "outside"
)

// ParseAutoHit reads a stored AutoHit value.
func ParseAutoHit(s string) (AutoHit, error) {
	switch a := AutoHit(s); a {
	case AutoHitNone, AutoHitGrapple, AutoHitOutside:
		return a, nil
	}
	return "", Errorf(CodeInvalid, "unknown automatic hit %q (grapple or outside)", s)
}

// OutsideAttacks reports whether edition ed states that attacks into a
// grappling space hit automatically: 2020 "Outside Attacks". 2010 and 2021
// say only that grapplers fight each other.
func OutsideAttacks(ed Edition) bool { return ed.orDefault() == Edition2020 }

// SkillPlacement is where an attack's combat skill level goes, and why.
type SkillPlacement struct {
	// Bonus is where the level goes; BonusNone puts it on nothing.
	Bonus SkillBonus
	// Source says who chose: --skill-bonus or the standing choice.
	Source BonusSource
	// Note says why the level is not where the choice put it, or "".
	Note string
}

// PlaceSkillBonus decides where the attacker's level in the weapon's
// combat skill goes on one attack. All editions, "COMBAT" skills: "Each
// level is +1DX to hit OR +1 damage; decide before attacking." The level
// goes where --skill-bonus says (flagGiven), else where the attacker's
// standing choice says (hit unless he set damage): a level is never
// dropped unsaid.
//
// An attack with no hit roll (auto) can only take the level on damage, so
// a standing choice of hit goes to damage and --skill-bonus hit is
// refused. Grappling, the Unarmed skill adds to ST in the ST check and not
// to the attack: 2020/2021 "Unarmed +1 striking; +1ST grappling", 2010
// "Unarmed: +1 damage or +1ST grappling" (read as: striking, damage;
// grappling, ST).
func PlaceSkillBonus(ed Edition, w Weapon, level int, standing, flag SkillBonus, flagGiven, grappling bool, auto AutoHit) (SkillPlacement, error) {
	ed = ed.orDefault()
	sk, hasSkill := WeaponSkill(ed, w)
	skill := "a combat skill"
	if hasSkill {
		skill = sk.NameIn(ed)
	}
	if flagGiven {
		if flag != BonusNone && flag != BonusHit && flag != BonusDamage {
			return SkillPlacement{}, Errorf(CodeInvalid, "unknown skill bonus %q: a combat skill goes to hit or to damage", string(flag))
		}
		if flag != BonusNone && level == 0 {
			return SkillPlacement{}, Errorf(CodeRule, "there is no %s level to put on %s with %s", skill, flag, withArticle(w.Name))
		}
	}
	if level == 0 {
		return SkillPlacement{Source: SourceNone}, nil
	}
	if grappling && sk.Key == "unarmed" {
		if flagGiven && flag != BonusNone {
			return SkillPlacement{}, Errorf(CodeRule, "grappling, %s %d adds to ST in the ST check (contest NAME:ST+%s), not to the attack: leave out --skill-bonus", skill, level, skill)
		}
		note := fmt.Sprintf("%s %d: on ST in the ST check (contest NAME:ST+%s), not here", skill, level, skill)
		src := SourceStanding
		if flagGiven {
			src = SourceFlag
		}
		return SkillPlacement{Source: src, Note: note}, nil
	}
	if flagGiven {
		if flag == BonusHit && auto != AutoHitNone {
			return SkillPlacement{}, Errorf(CodeInvalid, "%s makes no hit roll, so %s cannot go to hit: use --skill-bonus damage, or leave it out", autoHitPhrase(auto), skill)
		}
		return SkillPlacement{Bonus: flag, Source: SourceFlag}, nil
	}
	bonus := cmp.Or(standing, BonusHit)
	if bonus != BonusHit && bonus != BonusDamage {
		return SkillPlacement{}, Errorf(CodeInvalid, "unknown standing skill bonus %q: a combat skill goes to hit or to damage", string(bonus))
	}
	if bonus == BonusHit && auto != AutoHitNone {
		return SkillPlacement{Bonus: BonusDamage, Source: SourceStanding, Note: "no hit roll to put it on"}, nil
	}
	return SkillPlacement{Bonus: bonus, Source: SourceStanding}, nil
}

// autoHitPhrase names an attack that hits without a roll.
func autoHitPhrase(a AutoHit) string {
	if a == AutoHitOutside {
		return "an attack into a grappling space"
	}
	return "a grappling attack"
}

// AttackInput is everything one attack needs: the attacker, his weapon and
// skill, and the target.
type AttackInput struct {
	// Edition is the campaign's edition ("" means DefaultEdition).
	Edition Edition
	// Attacker is the attacker's name, for messages.
	Attacker string
	// AttackerDX is his raw DX; AttackerRestriction (armour) lowers it.
	AttackerDX          int
	AttackerRestriction int
	// AttackerST is checked against the weapon's heft and, for unarmed
	// attacks, compared with TargetST.
	AttackerST int
	// AttackerCurses is his curse level: +1 per level on the hit roll's
	// total, -1 per level on the damage.
	AttackerCurses int
	// Weapon is a row of the edition's weapon table (LookupWeapon).
	Weapon Weapon
	// SkillName names the combat skill used (key, name or alias) and
	// SkillLevel is the attacker's level in it; Bonus says where the whole
	// level goes. With BonusNone the skill is ignored.
	SkillName  string
	SkillLevel int
	Bonus      SkillBonus
	// Target is the target's name, for messages.
	Target string
	// TargetST is compared with AttackerST for unarmed attacks; 0 means
	// unknown and gives no bonus.
	TargetST int
	// TargetArmor is the armour the target wears, every item of it:
	// "reduce the damage he suffers by the cumulative rating of his
	// armor". Nil for none.
	TargetArmor []Armor
	// IgnoreArmor skips the target's armour whatever the weapon.
	IgnoreArmor bool
	// Grappling is an attack of two grapplers, after a won ST contest: only
	// bare hands and (G) weapons, and an unarmed one ignores armour.
	// With AutoHitGrapple it makes no hit roll and, in 2020, the stronger
	// grappler adds one to the damage. Grappling with AutoHitNone is how
	// grappling attacks were recorded before (with a hit roll, and no
	// Strength Advantage); it is kept so that old logs still verify.
	Grappling bool
	// AutoHit is why the attack hits without a hit roll: AutoHitGrapple
	// (with Grappling) or AutoHitOutside (2020 only, not Grappling).
	AutoHit AutoHit
	// FatigueSetting sets an (F) weapon to fatigue.
	FatigueSetting bool
}

// AttackOutcome is one resolved attack.
type AttackOutcome struct {
	// Hit is the 3/DX hit roll at adjusted DX (+ the skill level with
	// BonusHit), the curse added to its total. An attack with AutoHit
	// makes none: Hit.Pass is true and it has no faces.
	Hit CheckOutcome
	// Damage is the damage roll; nil on a miss (no damage dice are rolled).
	Damage *DamageOutcome
	// BeforeArmor is the damage after the curse, the edition's minimum and
	// the weapon's minimum of 1 before armour.
	BeforeArmor int
	// ArmorStopped is how much of BeforeArmor the armour stopped.
	ArmorStopped int
	// Taken is the points the target takes: BeforeArmor - ArmorStopped.
	Taken int
	// Fatigue reports that Taken are fatigue points, not damage: (U)
	// weapons always, (F) weapons set to fatigue.
	Fatigue bool
	// Scatters reports a missed explosive: "If thrower misses, randomly
	// place blast center adjacent to original target hex." Who is inside
	// the five-hex circle depends on the board; roll its damage with
	// ResolveDamage for each character caught.
	Scatters bool
	// Modifiers lists every adjustment, each Source prefixed "hit: ",
	// "damage: " or "armour: ".
	Modifiers []Modifier
	// Explanation is a sentence with the numbers.
	Explanation string
}

// validate rejects attacks that are malformed (CodeInvalid) or that the
// rules forbid before any die is rolled (CodeRule), and returns the
// combat skill's display name when a bonus is taken.
func (in AttackInput) validate(ed Edition) (skillName string, err error) {
	w := in.Weapon
	switch {
	case w.Key == "":
		return "", Errorf(CodeInvalid, "%s attacks with no weapon: look one up with LookupWeapon (unarmed is \"unarmed\")", in.Attacker)
	case in.AttackerDX < 0:
		return "", Errorf(CodeInvalid, "DX %d is not an attribute value", in.AttackerDX)
	case in.AttackerRestriction < 0:
		return "", Errorf(CodeInvalid, "armour restriction %d is negative", in.AttackerRestriction)
	case in.AttackerCurses < 0:
		return "", Errorf(CodeInvalid, "curse level %d is negative", in.AttackerCurses)
	case in.SkillLevel < 0:
		return "", Errorf(CodeInvalid, "skill level %d is negative", in.SkillLevel)
	case in.Bonus != BonusNone && in.Bonus != BonusHit && in.Bonus != BonusDamage:
		return "", Errorf(CodeInvalid, "unknown skill bonus %q: a combat skill goes to hit or to damage", string(in.Bonus))
	case w.Damage == nil:
		// "Flashbang (T) (S)": no damage rating. "(S) When thrown, your
		// side gets surprise."
		return "", Errorf(CodeRule, "%s deals no damage: when thrown, %s's side gets surprise", withArticle(w.Name), in.Attacker)
	case in.FatigueSetting && !w.Has(FlagFatigueSetting) && !w.Has(FlagUnarmed):
		return "", Errorf(CodeRule, "%s cannot be set to fatigue: only (F) weapons can", withArticle(w.Name))
	case in.AutoHit != AutoHitNone && in.AutoHit != AutoHitGrapple && in.AutoHit != AutoHitOutside:
		return "", Errorf(CodeInvalid, "unknown automatic hit %q (grapple or outside)", string(in.AutoHit))
	case in.AutoHit == AutoHitGrapple && !in.Grappling:
		return "", Errorf(CodeInvalid, "only a grappler's attack on the foe he grapples hits for winning ST")
	case in.AutoHit == AutoHitOutside && in.Grappling:
		return "", Errorf(CodeInvalid, "an attack into a grappling space comes from outside it: it is not a grappler's attack")
	case in.AutoHit == AutoHitOutside && !OutsideAttacks(ed):
		return "", Errorf(CodeRule, "edition %s states no rule for attacks into a grappling space (only 2020: \"Characters attacking into a grappling space automatically hit\"): roll the hit as usual", ed)
	case in.AutoHit != AutoHitNone && in.Bonus == BonusHit:
		return "", Errorf(CodeInvalid, "%s makes no hit roll, so a combat skill cannot go to hit", autoHitPhrase(in.AutoHit))
	case in.Grappling && !w.Has(FlagUnarmed) && !w.Has(FlagGrappling):
		// "(G) Only G weapons can be used grappling."
		return "", Errorf(CodeRule, "%s cannot be used grappling: only bare hands and (G) weapons can", withArticle(w.Name))
	}
	if err := CheckHeft(ed, in.Attacker, in.AttackerST, w); err != nil {
		return "", err
	}
	if in.Bonus == BonusNone {
		return "", nil
	}
	if in.SkillLevel == 0 {
		return "", Errorf(CodeRule, "%s has no %s level to add to %s", in.Attacker, cmp.Or(in.SkillName, "combat skill"), in.Bonus)
	}
	used, err := LookupSkill(ed, in.SkillName)
	if err != nil {
		return "", err
	}
	fits, ok := WeaponSkill(ed, w)
	if !ok {
		return "", Errorf(CodeRule, "no combat skill adds to %s: %s does not help with it", withArticle(w.Name), used.NameIn(ed))
	}
	if fits.Key != used.Key {
		return "", Errorf(CodeRule, "%s does not help with %s: that takes %s", used.NameIn(ed), withArticle(w.Name), fits.NameIn(ed))
	}
	return used.NameIn(ed), nil
}

// ResolveAttack resolves one attack: the hit roll with hit, then, on a hit
// only, the damage roll with damage, the weapon's minimum and the target's
// armour. A nil damage resolves the hit alone: on a hit, Damage stays nil
// and nothing is taken (Fatigue says what the points to come will be),
// the damage to come after the target has seen the hit ("He views the attacker's hit roll, but not damage roll, before
// deciding to dodge"). An automatic weapon's every shot is its own attack ("Shooter must
// pass 3/DX per shot to hit; roll damage per hit").
//
// The rules it encodes, all editions unless named:
//   - "Hitting a Foe": 3/DX at DX less the armour restriction; a curse adds
//     one per level to the total; with BonusHit the whole skill level adds
//     to DX ("Each level is +1DX to hit OR +1 damage ... Multiple levels
//     cannot be split").
//   - "Damage (D)": the weapon's dice plus its modifier, plus the skill
//     level with BonusDamage, plus 1 for an unarmed attacker stronger than
//     his target ("(U) ... +1 if the attacker is stronger"), less one per
//     curse level, then the edition minimum (DamageMinimum: 2020/2021
//     "minimum of one"), then the weapon's own minimum ("* Any roll deals a
//     minimum 1 before armor"; 2010 "Club (min 1 damage)").
//   - "Armor (A)": "reduce the damage he suffers by the cumulative rating of
//     his armor", never below 0; "(B) Does not protect against bullets";
//     2021 "Unarmed attacks do d3 damage (no armor)".
//   - (U) weapons deal fatigue only; (F) weapons may be set to fatigue.
func ResolveAttack(in AttackInput, hit, damage Roller) (AttackOutcome, error) {
	ed, err := resolveEdition(in.Edition)
	if err != nil {
		return AttackOutcome{}, err
	}
	skill, err := in.validate(ed)
	if err != nil {
		return AttackOutcome{}, err
	}
	w := in.Weapon
	if in.AutoHit != AutoHitNone {
		return resolveHit(ed, in, skill, CheckOutcome{Pass: true}, damage)
	}
	ci := CheckInput{
		Edition:        ed,
		Expr:           CheckExpr{Dice: 3, Attribute: DX, Mode: CheckPlain},
		AttributeValue: in.AttackerDX,
		Restriction:    in.AttackerRestriction,
		Curses:         in.AttackerCurses,
	}
	if in.Bonus == BonusHit {
		ci.Expr.Skill, ci.Expr.Mode = skill, CheckAssisted
		ci.SkillName, ci.SkillLevel = skill, in.SkillLevel
	}
	check, err := ResolveCheck(ci, hit)
	if err != nil {
		return AttackOutcome{}, err
	}
	if !check.Pass {
		out := AttackOutcome{Hit: check, Modifiers: prefixed("hit: ", check.Modifiers)}
		out.Explanation = fmt.Sprintf("%s misses %s %s (%s).", in.Attacker, in.Target, weaponPhrase(w), hitText(in, check))
		if w.Has(FlagExplosive) {
			out.Scatters = true
			out.Explanation += " The blast centre lands on a random hex adjacent to the target; the blast fills a five-hex circle around it."
		}
		return out, nil
	}
	return resolveHit(ed, in, skill, check, damage)
}

// hitText tells how the attack hit or missed: its 3/DX, or why it made
// none.
func hitText(in AttackInput, check CheckOutcome) string {
	switch in.AutoHit {
	case AutoHitGrapple:
		return "no hit roll: he won the ST check"
	case AutoHitOutside:
		return "no hit roll: an attack into a grappling space hits"
	}
	return fmt.Sprintf("3/DX: total %d against %d", check.Total, check.Target)
}

// resolveHit rolls the damage of an attack that hit, and the armour.
func resolveHit(ed Edition, in AttackInput, skill string, check CheckOutcome, damage Roller) (AttackOutcome, error) {
	w := in.Weapon
	out := AttackOutcome{Hit: check}
	out.Modifiers = prefixed("hit: ", check.Modifiers)
	how := hitText(in, check)
	if damage == nil {
		// The hit alone: "He views the attacker's hit roll, but not
		// damage roll, before deciding to dodge."
		out.Explanation = fmt.Sprintf("%s hits %s %s (%s); the damage is to come.", in.Attacker, in.Target, weaponPhrase(w), how)
		// The points to come are fatigue for (U) and (F)-set weapons.
		out.Fatigue = w.Has(FlagUnarmed) || (w.Has(FlagFatigueSetting) && in.FatigueSetting)
		return out, nil
	}
	var extra []Modifier
	if in.Bonus == BonusDamage {
		extra = append(extra, Modifier{Source: "skill " + skill, Value: in.SkillLevel, Applies: AppliesTotal})
	}
	if w.Has(FlagUnarmed) && in.TargetST > 0 && in.AttackerST > in.TargetST {
		// (U): "+1 if the attacker is stronger".
		extra = append(extra, Modifier{Source: fmt.Sprintf("stronger (ST %d against %d)", in.AttackerST, in.TargetST), Value: 1, Applies: AppliesTotal})
	} else if StrengthAdvantage(ed) && in.AutoHit == AutoHitGrapple && in.TargetST > 0 && in.AttackerST > in.TargetST {
		// 2020 "Strength Advantage": "While grappling, a stronger
		// character adds one to his damage roll." Bare hands already add
		// that one by (U); a (G) weapon adds it here.
		extra = append(extra, Modifier{Source: fmt.Sprintf("strength advantage (ST %d against %d)", in.AttackerST, in.TargetST), Value: 1, Applies: AppliesTotal})
	}
	dmg, err := resolveDamage(ed, *w.Damage, extra, in.AttackerCurses, damage)
	if err != nil {
		return AttackOutcome{}, err
	}
	out.Damage = &dmg
	out.Modifiers = append(out.Modifiers, prefixed("damage: ", dmg.Modifiers)...)
	if dmg.MinimumApplied {
		source := fmt.Sprintf("damage: edition %s minimum of %d", ed, DamageMinimum(ed))
		if DamageMinimum(ed) == 0 {
			source = "damage: never negative"
		}
		out.Modifiers = append(out.Modifiers, Modifier{Source: source, Value: dmg.Total - dmg.Raw, Applies: AppliesTotal})
	}
	out.BeforeArmor = dmg.Total
	if w.MinOneBeforeArmor && out.BeforeArmor < 1 {
		out.Modifiers = append(out.Modifiers, Modifier{Source: "damage: " + w.Label + " minimum 1 before armour", Value: 1 - out.BeforeArmor, Applies: AppliesTotal})
		out.BeforeArmor = 1
	}
	out.Fatigue = w.Has(FlagUnarmed) || (w.Has(FlagFatigueSetting) && in.FatigueSetting)

	armourText := ""
	if worn := in.TargetArmor; len(worn) > 0 {
		protection := 0
		var counted, bulletless []string
		switch {
		case in.IgnoreArmor:
			armourText = fmt.Sprintf(", the %s %s", ArmorNames(worn), agree(len(worn), "does not count", "do not count"))
		case w.Has(FlagUnarmed) && in.Grappling:
			// 2010 "Grappling Attack": "an unarmed grappling attack
			// negates armor"; 2020 "Grappling Options": "Unarmed
			// grappling" does d3 with no armour; 2021 "Grappling
			// Options": "Unarmed attacks do d3 damage (no armor)". A
			// plain unarmed blow is met by armour like any other.
			armourText = fmt.Sprintf(", the %s %s against an unarmed grappling attack", ArmorNames(worn), agree(len(worn), "does not count", "do not count"))
		default:
			// "Reduce the damage he suffers by the cumulative rating of
			// his armor": every item worn counts, but "(B) Does not
			// protect against bullets."
			var stops []Armor
			for _, a := range worn {
				if a.NoBullets && w.Missile {
					bulletless = append(bulletless, a.Name)
					continue
				}
				protection += a.Protection
				stops = append(stops, a)
				counted = append(counted, a.Name)
			}
			if len(bulletless) > 0 {
				armourText = fmt.Sprintf(", the %s %s against bullets", joinAnd(bulletless), agree(len(bulletless), "does not protect", "do not protect"))
			}
			counted = []string{ArmorNames(stops)}
		}
		out.ArmorStopped = min(protection, out.BeforeArmor)
		if protection > 0 {
			armourText += fmt.Sprintf(", the %s %s %d", counted[0], agree(len(worn)-len(bulletless), "stops", "stop"), out.ArmorStopped)
		}
		if out.ArmorStopped > 0 {
			out.Modifiers = append(out.Modifiers, Modifier{Source: "armour: " + counted[0], Value: -out.ArmorStopped, Applies: AppliesTotal})
		}
	}
	out.Taken = out.BeforeArmor - out.ArmorStopped
	kind := "damage"
	if out.Fatigue {
		kind = "fatigue"
	}
	out.Explanation = fmt.Sprintf("%s hits %s %s (%s); %s rolls %s for %d%s, and %s takes %d %s.",
		in.Attacker, in.Target, weaponPhrase(w), how, w.Damage, joinFaces(dmg.Faces), out.BeforeArmor,
		armourText, in.Target, out.Taken, kind)
	return out, nil
}

// StrengthAdvantage reports whether edition ed adds one to a stronger
// grappler's damage: 2020 "Strength Advantage". 2010 and 2021 state it for
// unarmed blows only ("(U) ... +1 if the attacker is stronger").
func StrengthAdvantage(ed Edition) bool { return ed.orDefault() == Edition2020 }

// weaponPhrase is "with a Dagger", or "unarmed".
func weaponPhrase(w Weapon) string {
	if w.Has(FlagUnarmed) {
		return "unarmed"
	}
	return "with " + withArticle(w.Name)
}

// prefixed copies mods with prefix before each Source.
func prefixed(prefix string, mods []Modifier) []Modifier {
	out := make([]Modifier, 0, len(mods))
	for _, m := range mods {
		m.Source = prefix + m.Source
		out = append(out, m)
	}
	return out
}

// joinFaces renders faces as "5,2".
func joinFaces(faces []int) string {
	parts := make([]string, len(faces))
	for i, f := range faces {
		parts[i] = fmt.Sprint(f)
	}
	return strings.Join(parts, ",")
}
