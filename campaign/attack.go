package campaign

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// AttackRequest is what `attack` asks for.
type AttackRequest struct {
	Attacker string
	Target   string
	// Weapon overrides the wielded weapon ("" = the equipped one, else
	// unarmed).
	Weapon string
	// Bonus puts the weapon's combat skill level on "hit" or "damage" (or
	// "none"), overriding the attacker's standing choice; "" leaves it to
	// the standing choice (`char set NAME --skill-bonus`, hit unless set).
	Bonus string
	// HitFaces and DamageFaces are physical dice; nil means the program
	// rolls. Damage dice entered with a hit roll that misses are kept,
	// unused, for a karma re-roll of the hit.
	HitFaces, DamageFaces []int
	// Dodge, when set, has the target try to dodge (3/DX) after a hit,
	// with DodgeFaces entered or rolled.
	Dodge      bool
	DodgeFaces []int
	// TargetST is the strength of a target outside the roster (for the
	// unarmed "+1 if stronger").
	TargetST int
	// Fatigue sets an F weapon to fatigue.
	Fatigue bool
	// Thrown throws a (T) weapon (grenades are always thrown).
	Thrown bool
	// Grappling is an attack between grapplers (bare hands or a (G)
	// weapon; unarmed, it ignores armour), by the one who won the ST
	// check: it hits with no hit roll.
	Grappling bool
	// Outside is an attack into a grappling space from outside it: in
	// edition 2020 it hits with no hit roll ("Outside Attacks").
	Outside bool
	// Force is the GM's reason to let the attacker act in a turn he lost
	// by reacting (campaign/turns.go).
	Force string
	// HitOnly records the hit alone: on a hit the damage waits for the
	// target's dodge (Service.Dodge) or its dice (Service.CompleteDamage).
	HitOnly bool
	// Counter makes the attack a counterattack: the attacker answers the
	// latest attack in effect by TARGET on him, as his reaction. It is no
	// action of his turn, and he loses his next turn.
	Counter bool

	// placement, for a karma re-roll, keeps where the first attack put
	// the skill level; legacyGrapple re-rolls a grappling attack recorded
	// before grapples stopped rolling to hit.
	placement     *rules.SkillPlacement
	legacyGrapple bool
	// completes is the attack whose damage was to come that this one
	// completes (a dodge, or the damage dice).
	completes *replaced
	// counters is the ID of the attack a counterattack answers.
	counters string
}

// AttackResult reports an attack.
type AttackResult struct {
	Attack events.AttackMade
	Events []events.Event
	// Target is the target's sheet after the attack (party members and
	// foes only).
	Target *projections.Sheet
	// Completed is the seq of the attack whose damage was to come that
	// this one completes (0: none).
	Completed int64
	// Countered is the seq of the attack that this counterattack answers
	// (0: none).
	Countered int64
}

// Attack resolves one attack as one command: the hit roll at adjusted DX
// (plus the combat skill to hit or to damage, chosen before the roll), the
// damage roll with curse, edition minimum and armour, and the damage
// applied to the target. Either side may be a party member or a foe.
func (s *Service) Attack(req AttackRequest) (AttackResult, error) {
	var out AttackResult
	res, err := s.execute(func(d *decision) error {
		out = AttackResult{}
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		if !camp.InEncounter {
			return rules.Errorf(rules.CodeRule, "attacks happen in an encounter: start one with `ltscamp encounter start`")
		}
		a, err := d.combatant(req.Attacker)
		if err != nil {
			return err
		}
		if !req.Counter {
			if err := d.turnAction(a, req.Force); err != nil {
				return err
			}
		}
		var t *character
		if r, err := d.rosterState(); err != nil {
			return err
		} else if m, ok := r.FindAny(req.Target); ok {
			if t, err = d.characterByMember(m); err != nil {
				return err
			}
		}
		if req.Counter {
			id, seq, err := d.counterable(a, t, req)
			if err != nil {
				return err
			}
			req.counters, out.Countered = id, seq
			out.Attack, err = d.attack(camp.Edition, a, t, req, nil)
			return err
		}
		if h, ok, err := d.hitToComplete(a, req); err != nil {
			return err
		} else if ok {
			// `attack A T --damage-dice D` after A's hit alone on T
			// completes that hit: its damage dice, come later.
			ar := completion(h, req.DamageFaces)
			ar.HitOnly = false
			out.Completed = h.event.Seq
			out.Attack, err = d.complete(camp.Edition, h, ar)
			return err
		}
		out.Attack, err = d.attack(camp.Edition, a, t, req, nil)
		return err
	})
	if err != nil {
		return out, err
	}
	out.Events = res.Events
	out.Target = s.attackTarget(out.Attack)
	return out, nil
}

// attackTarget reads the sheet of an attack's target after it, when he is
// on the roster.
func (s *Service) attackTarget(am events.AttackMade) *projections.Sheet {
	if am.TargetID == "" {
		return nil
	}
	if r, err := s.Sheet(am.Target); err == nil {
		return &r
	}
	return nil
}

// replaced is an attack a karma re-roll replaces: the attack, its event and
// command IDs, and the set of dice rolled again.
type replaced struct {
	attack  *events.AttackMade
	id      string
	command string
	which   string
}

// attack decides an attack of a on t (nil: someone off the roster, named
// in req.Target) and emits it with what follows: a space suit's failure,
// the points the target takes. A re-roll passes the attack it replaces.
func (d *decision) attack(ed rules.Edition, a, t *character, req AttackRequest, re *replaced) (events.AttackMade, error) {
	if (!a.sheet.Alive() || a.sheet.Body().Incapacitated()) && req.completes == nil {
		return events.AttackMade{}, rules.Errorf(rules.CodeRule, "%s is %s and cannot attack", a.sheet.Name, a.sheet.Status)
	}
	w, err := d.wielded(ed, a, req.Weapon)
	if err != nil {
		return events.AttackMade{}, err
	}
	in := rules.AttackInput{Edition: ed, Attacker: a.sheet.Name, AttackerDX: a.sheet.Attributes.DX, AttackerRestriction: a.sheet.Restriction(),
		AttackerST: a.sheet.Attributes.ST, AttackerCurses: a.sheet.Curses, Weapon: w, Target: strings.TrimSpace(req.Target), TargetST: req.TargetST,
		FatigueSetting: req.Fatigue, Grappling: req.Grappling}
	switch {
	case req.Grappling && req.Outside:
		return events.AttackMade{}, rules.Errorf(rules.CodeInvalid, "--grapple and --outside: a grappler attacks the foe he grapples (--grapple); --outside is someone else attacking into their space")
	case req.Grappling && !req.legacyGrapple:
		in.AutoHit = rules.AutoHitGrapple
	case req.Outside:
		in.AutoHit = rules.AutoHitOutside
	}
	skill, level := weaponSkillOf(ed, a, w)
	pl, err := placeSkill(ed, a, w, level, in, req)
	if err != nil {
		return events.AttackMade{}, err
	}
	in.Bonus = pl.Bonus
	if pl.Bonus != rules.BonusNone {
		in.SkillName, in.SkillLevel = skill, level
	}
	if t != nil {
		if t.member.ID == a.member.ID {
			return events.AttackMade{}, rules.Errorf(rules.CodeInvalid, "%s cannot attack himself", a.sheet.Name)
		}
		if !t.sheet.Alive() {
			return events.AttackMade{}, rules.Errorf(rules.CodeRule, "%s is already dead", t.sheet.Name)
		}
		in.Target, in.TargetST = t.sheet.Name, t.sheet.Attributes.ST
		in.TargetArmor = t.sheet.RulesArmor()
	} else if in.Target == "" {
		return events.AttackMade{}, rules.Errorf(rules.CodeInvalid, "name the TARGET")
	} else if err := rules.CheckName("target", in.Target); err != nil {
		return events.AttackMade{}, err
	} else if in.TargetST != 0 {
		if err := rules.CheckQuantity(rules.QtyTargetST, in.TargetST); err != nil {
			return events.AttackMade{}, err
		}
	}
	hitRoller, hitGiven := d.s.dice(req.HitFaces)
	if in.AutoHit != rules.AutoHitNone {
		// No hit roll: --dice, if given, are not one (the attack line
		// says they were not used).
		hitRoller, hitGiven = rules.NewGivenFaces(nil), nil
	}
	dmgRoller, dmgGiven := d.s.dice(req.DamageFaces)
	if req.HitOnly {
		switch {
		case in.AutoHit != rules.AutoHitNone:
			return events.AttackMade{}, rules.Errorf(rules.CodeInvalid, "%s makes no hit roll, so there is no hit to record alone: give its damage dice, or let the program roll them", autoHitName(in.AutoHit))
		case req.DamageFaces != nil:
			return events.AttackMade{}, rules.Errorf(rules.CodeInvalid, "the hit alone leaves the damage to come: leave out the damage dice, or record the whole attack")
		}
		dmgRoller = nil
	}
	o, err := rules.ResolveAttack(in, hitRoller, dmgRoller)
	if err != nil {
		return events.AttackMade{}, err
	}
	if err := leftover(hitGiven, len(req.HitFaces), "the hit roll"); err != nil {
		return events.AttackMade{}, err
	}
	var spare []int
	if o.Damage == nil && req.DamageFaces != nil {
		// The table rolled hit and damage together and the hit missed:
		// the damage dice are kept, unused, for a re-roll of the hit.
		if spare, err = spareDamage(w, req.DamageFaces); err != nil {
			return events.AttackMade{}, err
		}
	} else if err := leftover(dmgGiven, len(req.DamageFaces), "the damage roll"); err != nil {
		return events.AttackMade{}, err
	}
	am := attackEvent(ed, a, in, w, o, req)
	am.SpareDamage = spare
	am.HitOnly = req.HitOnly
	am.BonusFrom, am.BonusNote = string(pl.Source), pl.Note
	if pl.Source != rules.SourceNone && level > 0 {
		// The level is recorded wherever it went, nothing included.
		am.Skill, am.SkillLevel = skill, level
	}
	if am.Thrown, err = rules.Thrown(w, req.Thrown); err != nil {
		return events.AttackMade{}, err
	}
	if t != nil {
		am.TargetID = t.member.ID
	}
	var dodged *dodgeCheck
	if (req.Dodge || req.DodgeFaces != nil) && in.AutoHit != rules.AutoHitNone {
		return events.AttackMade{}, rules.Errorf(rules.CodeRule, "%s cannot dodge: the attack makes no hit roll to dodge, and a grappler leaves the grapple only by winning ST", in.Target)
	}
	if req.Dodge || req.DodgeFaces != nil {
		// A re-roll carries the first attack's damage dice, which a dodge
		// that now succeeds simply leaves unrolled.
		dmgFaces := req.DamageFaces
		if re != nil {
			dmgFaces = nil
		}
		if dodged, err = d.dodge(ed, t, w, &o, &am, req.DodgeFaces, dmgFaces); err != nil {
			return events.AttackMade{}, err
		}
	}
	am.Counters = req.counters
	if re != nil {
		am.Rerolls, am.Rerolled = re.id, re.which
		am.Counters = re.attack.Counters
		keepEntered(&am, re)
	}
	if c := req.completes; c != nil {
		// The hit (and a dodge tried) are the first record's own dice.
		am.Completes = c.id
		am.Hit.Entered = c.attack.Hit.Entered
		if am.Dodge != nil && c.attack.Dodge != nil {
			am.Dodge.Entered = c.attack.Dodge.Entered
		}
	}
	if err := d.emit(a.stream, am); err != nil {
		return events.AttackMade{}, err
	}
	attackID := d.pending[len(d.pending)-1].ID
	// "(SS) Space suit: if the character rolls all sixes on any check ... the suit is R=3."
	if (re == nil && req.completes == nil) || (re != nil && re.which == "hit") {
		if err := d.suitCheck(a, o.Hit, attackID); err != nil {
			return events.AttackMade{}, err
		}
	}
	if dodged != nil && (re == nil || re.which == "dodge") && (req.completes == nil || req.completes.attack.Dodge == nil) {
		if err := d.suitCheck(dodged.who, dodged.check, attackID); err != nil {
			return events.AttackMade{}, err
		}
	}
	if re != nil && t != nil {
		if err := d.withdraw(t, re, attackID); err != nil {
			return events.AttackMade{}, err
		}
	}
	if t != nil && am.Taken > 0 {
		if _, err := d.applyPoints(t, am.Taken, am.Fatigue, am.ArmorStopped, fmt.Sprintf("%s's %s", a.sheet.Name, w.Name), attackID); err != nil {
			return events.AttackMade{}, err
		}
	}
	return am, nil
}

// weaponSkillOf returns the combat skill that adds to w, as the edition
// names it, and the attacker's level in it (0 when none adds or he lacks
// it).
func weaponSkillOf(ed rules.Edition, a *character, w rules.Weapon) (string, int) {
	sk, ok := rules.WeaponSkill(ed, w)
	if !ok {
		return "", 0
	}
	return sk.NameIn(ed), a.sheet.SkillLevel(sk.Key)
}

// placeSkill decides where the attacker's level in the weapon's combat
// skill goes: where --skill-bonus says, else his standing choice
// (rules.PlaceSkillBonus); a re-roll keeps the first attack's placement.
func placeSkill(ed rules.Edition, a *character, w rules.Weapon, level int, in rules.AttackInput, req AttackRequest) (rules.SkillPlacement, error) {
	if req.placement != nil {
		return *req.placement, nil
	}
	given := strings.TrimSpace(req.Bonus) != ""
	flag, err := rules.ParseSkillBonus(req.Bonus)
	if err != nil {
		return rules.SkillPlacement{}, rules.Errorf(rules.CodeInvalid, "--skill-bonus %q: choose hit or damage", req.Bonus)
	}
	if given && flag != rules.BonusNone && level == 0 {
		return rules.SkillPlacement{}, rules.Errorf(rules.CodeRule, "%s has no combat skill for %s, so there is no bonus to put on %s", a.sheet.Name, w.Name, flag)
	}
	return rules.PlaceSkillBonus(ed, w, level, a.sheet.StandingBonus(), flag, given, in.Grappling, in.AutoHit)
}

// keepEntered marks the sets of dice a re-roll kept as the first attack
// recorded them: typed in from physical dice, or rolled by the program.
func keepEntered(am *events.AttackMade, re *replaced) {
	first := re.attack
	if re.which != "hit" {
		am.Hit.Entered = first.Hit.Entered
	}
	if re.which != "dodge" && am.Dodge != nil && first.Dodge != nil {
		am.Dodge.Entered = first.Dodge.Entered
	}
	if re.which != "damage" && am.Damage != nil && first.Damage != nil && slices.Equal(am.Damage.Faces, first.Damage.Faces) {
		am.Damage.Entered = first.Damage.Entered
	}
}

// spareDamage checks damage dice entered for an attack that missed: the
// weapon's number of dice, each a face of a d6.
func spareDamage(w rules.Weapon, faces []int) ([]int, error) {
	if w.Damage == nil {
		return nil, rules.Errorf(rules.CodeInvalid, "%s rolls no damage dice: leave out --damage-dice", w.Name)
	}
	if len(faces) != w.Damage.Count {
		return nil, rules.Errorf(rules.CodeInvalid, "the damage roll (%s) takes %s, %d given", w.Damage, projections.Count(w.Damage.Count, "face", "faces"), len(faces))
	}
	for _, f := range faces {
		if f < 1 || f > w.Damage.Sides {
			return nil, rules.Errorf(rules.CodeInvalid, "damage face %d is not a face of a d%d", f, w.Damage.Sides)
		}
	}
	return append([]int(nil), faces...), nil
}

// withdraw takes back, from the target, the points the replaced attack
// dealt him in its command (which is in effect, or it could not be
// re-rolled): only that command's events are read.
func (d *decision) withdraw(t *character, re *replaced, rerollID string) error {
	evs, err := d.s.store.Read(events.Query{CommandIDs: []string{re.command}, Streams: []string{t.stream}, TypePrefix: events.TypeDamageTaken})
	if err != nil {
		return err
	}
	for _, e := range evs {
		p, err := events.Decode(e)
		if err != nil {
			return err
		}
		dt := p.(*events.DamageTaken)
		if dt.AttackID != re.id || dt.Damage+dt.Fatigue == 0 {
			continue
		}
		w := events.DamageWithdrawn{AttackID: re.id, RerollID: rerollID, Damage: min(dt.Damage, t.sheet.Damage), Fatigue: min(dt.Fatigue, t.sheet.Fatigue)}
		if err := d.emitApplied(t.stream, w, t.sheet.Apply); err != nil {
			return err
		}
	}
	return nil
}

// wielded returns the weapon an attack uses: the one named, the one
// equipped, or bare hands; the heft is checked.
func (d *decision) wielded(ed rules.Edition, a *character, name string) (rules.Weapon, error) {
	switch {
	case strings.TrimSpace(name) != "":
	case a.sheet.Weapon != nil:
		name = a.sheet.Weapon.Item
	default:
		name = "unarmed"
	}
	w, err := rules.LookupWeapon(ed, name)
	if err != nil {
		return w, err
	}
	return w, rules.CheckHeft(ed, a.sheet.Name, a.sheet.Attributes.ST, w)
}

func attackRoll(expr string, faces []int, entered bool, sum, total, target int, outcome string, mods []rules.Modifier) events.AttackRoll {
	if faces == nil {
		faces = []int{}
	}
	return events.AttackRoll{Expr: expr, Faces: faces, Entered: entered, Sum: sum, Modifiers: modifiers(mods), Total: total, Target: target, Outcome: outcome}
}

func attackEvent(ed rules.Edition, a *character, in rules.AttackInput, w rules.Weapon, o rules.AttackOutcome, req AttackRequest) events.AttackMade {
	outcome := "miss"
	if o.Hit.Pass {
		outcome = "hit"
	}
	am := events.AttackMade{
		AttackerID: a.member.ID, Attacker: a.sheet.Name, Target: in.Target, TargetST: in.TargetST, Weapon: w.Key, WeaponName: w.Name,
		Bonus: string(in.Bonus), Skill: in.SkillName, SkillLevel: in.SkillLevel, Curses: in.AttackerCurses, DX: in.AttackerDX, Restriction: in.AttackerRestriction,
		Grappling: in.Grappling, AutoHit: string(in.AutoHit),
		Hit:         attackRoll("3/DX", o.Hit.Faces, req.HitFaces != nil, o.Hit.Sum, o.Hit.Total, o.Hit.Target, outcome, o.Hit.Modifiers),
		BeforeArmor: o.BeforeArmor, ArmorStopped: o.ArmorStopped, Taken: o.Taken, Fatigue: o.Fatigue, Explanation: o.Explanation, Edition: string(ed),
	}
	if in.AutoHit != rules.AutoHitNone {
		// No hit roll was made: no dice, no target, a hit.
		am.Hit = events.AttackRoll{Faces: []int{}, Modifiers: []events.Modifier{}, Outcome: "hit"}
	}
	if len(in.TargetArmor) > 0 {
		am.Armor = rules.ArmorNames(in.TargetArmor)
	}
	if o.Damage != nil {
		dr := attackRoll(w.Damage.String(), o.Damage.Faces, req.DamageFaces != nil, o.Damage.Sum, o.Damage.Total, 0, "", o.Damage.Modifiers)
		am.Damage = &dr
	}
	return am
}

// dodgeCheck is a target's dodge roll, for his space suit.
type dodgeCheck struct {
	who   *character
	check rules.CheckOutcome
}

// dodge lets a target on the roster who was hit try to dodge: 3/DX at
// adjusted DX ("He views the attacker's hit roll, but not damage roll,
// before deciding to dodge"), where the rules let him (rules.CanDodge).
func (d *decision) dodge(ed rules.Edition, t *character, w rules.Weapon, o *rules.AttackOutcome, am *events.AttackMade, faces, damageFaces []int) (*dodgeCheck, error) {
	if t == nil {
		return nil, rules.Errorf(rules.CodeInvalid, "only the dodge of a party member or a foe on the roster is rolled here; for someone else, enter the attack as a miss")
	}
	if err := rules.CanDodge(ed, t.sheet.Name, w, am.Thrown); err != nil {
		return nil, err
	}
	if !o.Hit.Pass {
		return nil, rules.Errorf(rules.CodeInvalid, "the attack missed; there is nothing to dodge")
	}
	roller, given := d.s.dice(faces)
	check, err := rules.ResolveCheck(rules.CheckInput{Edition: ed, Expr: rules.CheckExpr{Dice: 3, Attribute: rules.DX, Mode: rules.CheckPlain},
		AttributeValue: t.sheet.Attributes.DX, Restriction: t.sheet.Restriction(), Curses: t.sheet.Curses}, roller)
	if err != nil {
		return nil, err
	}
	if err := leftover(given, len(faces), "the dodge"); err != nil {
		return nil, err
	}
	outcome := "fail"
	if check.Pass {
		outcome = "pass"
		if damageFaces != nil {
			return nil, rules.Errorf(rules.CodeInvalid, "%s dodged (%d vs %d), so there is no damage roll: leave out --damage-dice", t.sheet.Name, check.Total, check.Target)
		}
		am.Taken, am.Damage, am.BeforeArmor, am.ArmorStopped = 0, nil, 0, 0
		am.Explanation = fmt.Sprintf("%s hits %s (3/DX: total %d against %d), but %s dodges (3/DX: total %d against %d): no damage is rolled.", am.Attacker, am.Target, am.Hit.Total, am.Hit.Target, t.sheet.Name, check.Total, check.Target)
	} else {
		am.Explanation += fmt.Sprintf(" %s failed to dodge.", t.sheet.Name)
	}
	dr := attackRoll("3/DX", check.Faces, faces != nil, check.Sum, check.Total, check.Target, outcome, check.Modifiers)
	am.Dodge = &dr
	return &dodgeCheck{who: t, check: check}, nil
}

// autoHitName names an attack that hits without a roll.
func autoHitName(a rules.AutoHit) string {
	if a == rules.AutoHitOutside {
		return "an attack into a grappling space"
	}
	return "a grappling attack"
}

// pendingHit is an attack in effect whose damage is to come.
type pendingHit struct {
	event  events.Event
	attack *events.AttackMade
}

// encounterAttacks returns the attacks in effect of the encounter under
// way, oldest first, and, by event ID, the later attack in effect that
// completes or re-rolls each one it replaces.
func (d *decision) encounterAttacks() ([]pendingHit, map[string]events.Event, error) {
	camp, err := d.campaignState()
	if err != nil || !camp.InEncounter {
		return nil, nil, err
	}
	rv, err := d.revertsState()
	if err != nil {
		return nil, nil, err
	}
	// The encounter's start: the last encounter.started in effect.
	starts, err := d.s.store.Read(events.Query{Streams: []string{events.CampaignStream}, Types: []string{events.TypeEncounterStarted}, Limit: 64, Last: true})
	if err != nil {
		return nil, nil, err
	}
	var from int64
	for _, e := range starts {
		if rv.InEffect(e) {
			from = e.Seq
		}
	}
	evs, err := d.s.store.Read(events.Query{AfterSeq: from, Types: []string{events.TypeAttackMade}})
	if err != nil {
		return nil, nil, err
	}
	var all []pendingHit
	replacedBy := map[string]events.Event{}
	for _, e := range evs {
		if !rv.InEffect(e) {
			continue
		}
		p, err := events.Decode(e)
		if err != nil {
			return nil, nil, err
		}
		am := p.(*events.AttackMade)
		if g, ok := am.GameTimeOf(); ok && (g.Adventure != camp.Adventure || g.Encounter != camp.Encounter) {
			continue
		}
		for _, id := range []string{am.Rerolls, am.Completes} {
			if id != "" {
				replacedBy[id] = e
			}
		}
		all = append(all, pendingHit{event: e, attack: am})
	}
	return all, replacedBy, nil
}

// pendingHits returns the attacks of the encounter under way whose damage
// is to come (events.AttackMade.DamageToCome), oldest first: attacks in
// effect that no later attack in effect completes or re-rolls.
func (d *decision) pendingHits() ([]pendingHit, error) {
	all, replacedBy, err := d.encounterAttacks()
	if err != nil {
		return nil, err
	}
	var out []pendingHit
	for _, h := range all {
		if _, gone := replacedBy[h.event.ID]; h.attack.DamageToCome() && !gone {
			out = append(out, h)
		}
	}
	return out, nil
}

// hitToComplete returns a's latest hit on req.Target whose damage is to
// come, when req gives that damage and nothing else (`attack A T
// --damage-dice D`): the damage dice of that hit, come later.
func (d *decision) hitToComplete(a *character, req AttackRequest) (*pendingHit, bool, error) {
	if req.DamageFaces == nil || req.HitFaces != nil || req.HitOnly || req.Dodge || req.DodgeFaces != nil ||
		req.Grappling || req.Outside || req.Weapon != "" || req.Bonus != "" || req.Thrown || req.Fatigue || req.TargetST != 0 {
		return nil, false, nil
	}
	hits, err := d.pendingHits()
	if err != nil {
		return nil, false, err
	}
	for i := len(hits) - 1; i >= 0; i-- {
		h := hits[i]
		if h.attack.AttackerID == a.member.ID && strings.EqualFold(h.attack.Target, strings.TrimSpace(req.Target)) {
			return &h, true, nil
		}
	}
	return nil, false, nil
}

// completedBy returns the attack in effect that completes the attack with
// ID id in the encounter under way, if one does.
func (d *decision) completedBy(id string) (events.Event, bool, error) {
	all, _, err := d.encounterAttacks()
	if err != nil {
		return events.Event{}, false, err
	}
	for _, h := range all {
		if h.attack.Completes == id {
			return h.event, true, nil
		}
	}
	return events.Event{}, false, nil
}

// noHitsToCome refuses to leave an encounter while a hit's damage is to
// come: it is never dropped unsaid. A hit that can no longer be settled
// (its attacker has left the roster, its target has died since) waits for
// nothing.
func (d *decision) noHitsToCome(what string) error {
	hits, err := d.pendingHits()
	if err != nil {
		return err
	}
	for _, h := range hits {
		if ok, err := d.settleable(h); err != nil {
			return err
		} else if !ok {
			continue
		}
		return rules.Errorf(rules.CodeRule, "%s's hit on %s (seq %d) waits for its damage; settle it before %s: `ltscamp dodge %s` or `ltscamp damage dice` (or `ltscamp undo` the hit)",
			h.attack.Attacker, h.attack.Target, h.event.Seq, what, quoteName(h.attack.Target))
	}
	return nil
}

// settleable reports whether a hit whose damage is to come can still be
// settled: its attacker is on the roster, and its target, if on the
// roster, is alive.
func (d *decision) settleable(h pendingHit) (bool, error) {
	r, err := d.rosterState()
	if err != nil {
		return false, err
	}
	var attacker, target *projections.Member
	for _, m := range append(slices.Clip(r.Members), r.Foes...) {
		switch m.ID {
		case h.attack.AttackerID:
			attacker = &m
		case h.attack.TargetID:
			target = &m
		}
	}
	if attacker == nil || (h.attack.TargetID != "" && target == nil) {
		return false, nil
	}
	if target == nil {
		return true, nil
	}
	t, err := d.characterByMember(*target)
	if err != nil {
		return false, err
	}
	return t.sheet.Alive(), nil
}

// quoteName quotes a name with a space for a command line.
func quoteName(name string) string {
	if strings.ContainsAny(name, " \t") {
		return fmt.Sprintf("%q", name)
	}
	return name
}

// DodgeRequest is what `dodge` asks for.
type DodgeRequest struct {
	// Name is the target who dodges the latest hit on him.
	Name string
	// Faces are his 3/DX; nil means the program rolls.
	Faces []int
	// DamageFaces are the attacker's damage dice, used if the dodge
	// fails; nil leaves the damage to come (`damage dice`).
	DamageFaces []int
}

// Dodge has a target answer the latest hit on him whose damage is to
// come: 3/DX at his adjusted DX. All editions, "Dodge": "He views the
// attacker's hit roll, but not damage roll, before deciding to dodge." A
// passed dodge settles the attack with no damage; a failed one leaves the
// damage to come, or deals it with DamageFaces. The attack is recorded
// again, complete so far, pointing at the one it completes.
func (s *Service) Dodge(req DodgeRequest) (AttackResult, error) {
	return s.completeHit(func(d *decision, camp *projections.Campaign) (*pendingHit, AttackRequest, error) {
		if !camp.InEncounter {
			return nil, AttackRequest{}, rules.Errorf(rules.CodeRule, "dodges happen in an encounter: there is none under way")
		}
		t, err := d.combatant(req.Name)
		if err != nil {
			return nil, AttackRequest{}, err
		}
		hits, err := d.pendingHits()
		if err != nil {
			return nil, AttackRequest{}, err
		}
		var h *pendingHit
		for i := range hits {
			if hits[i].attack.TargetID == t.member.ID {
				h = &hits[i]
			}
		}
		if h == nil {
			return nil, AttackRequest{}, rules.Errorf(rules.CodeRule, "no hit on %s waits for a dodge: record the hit alone first (`ltscamp attack ATTACKER %s a,b,c`), or dodge within the attack (--dodge)", t.sheet.Name, quoteName(t.sheet.Name))
		}
		if h.attack.Dodge != nil {
			return nil, AttackRequest{}, rules.Errorf(rules.CodeRule, "%s already tried to dodge %s's hit (seq %d); its damage is to come: `ltscamp damage dice`", t.sheet.Name, h.attack.Attacker, h.event.Seq)
		}
		ar := completion(h, req.DamageFaces)
		ar.Dodge, ar.DodgeFaces = true, req.Faces
		return h, ar, nil
	})
}

// completeHit decides again, and records complete so far, the hit whose
// damage is to come that pick chooses, with the request pick makes of it
// (Dodge, CompleteDamage).
func (s *Service) completeHit(pick func(d *decision, camp *projections.Campaign) (*pendingHit, AttackRequest, error)) (AttackResult, error) {
	var out AttackResult
	res, err := s.execute(func(d *decision) error {
		out = AttackResult{}
		camp, err := d.campaignState()
		if err != nil {
			return err
		}
		h, ar, err := pick(d, camp)
		if err != nil {
			return err
		}
		out.Completed = h.event.Seq
		out.Attack, err = d.complete(camp.Edition, h, ar)
		return err
	})
	if err != nil {
		return out, err
	}
	out.Events = res.Events
	out.Target = s.attackTarget(out.Attack)
	return out, nil
}

// CompleteDamageRequest completes a hit whose damage is to come.
type CompleteDamageRequest struct {
	// Target names the target of the hit; "" takes the latest hit whose
	// damage is to come, whoever it hit.
	Target string
	// Faces are the damage dice; nil means the program rolls.
	Faces []int
}

// CompleteDamage rolls (or records) the damage of a hit whose damage is
// to come, with the armour, and deals it: the attack is recorded again,
// complete, pointing at the one it completes.
func (s *Service) CompleteDamage(req CompleteDamageRequest) (AttackResult, error) {
	return s.completeHit(func(d *decision, _ *projections.Campaign) (*pendingHit, AttackRequest, error) {
		hits, err := d.pendingHits()
		if err != nil {
			return nil, AttackRequest{}, err
		}
		var h *pendingHit
		for i := range hits {
			if req.Target == "" || strings.EqualFold(strings.TrimSpace(req.Target), hits[i].attack.Target) {
				h = &hits[i]
			}
		}
		if h == nil {
			who := ""
			if req.Target != "" {
				who = " on " + strings.TrimSpace(req.Target)
			}
			return nil, AttackRequest{}, rules.Errorf(rules.CodeRule, "no hit%s waits for its damage: `ltscamp attack ATTACKER TARGET a,b,c` records a hit alone", who)
		}
		ar := completion(h, req.Faces)
		ar.HitOnly = false
		return h, ar, nil
	})
}

// completion is the request that decides a hit whose damage is to come
// again, with its own hit dice and dodge: with damage faces it deals the
// damage; without, the damage stays to come.
func completion(h *pendingHit, damageFaces []int) AttackRequest {
	first := h.attack
	ar := AttackRequest{Target: first.Target, Weapon: first.Weapon, Bonus: first.Bonus, TargetST: first.TargetST,
		Fatigue: first.Fatigue, Thrown: first.Thrown, HitFaces: first.Hit.Faces, DamageFaces: damageFaces, HitOnly: damageFaces == nil,
		placement: &rules.SkillPlacement{Bonus: rules.SkillBonus(first.Bonus), Source: rules.BonusSource(first.BonusFrom), Note: first.BonusNote},
		completes: &replaced{attack: first, id: h.event.ID, command: h.event.CommandID}}
	if first.Dodge != nil {
		ar.Dodge, ar.DodgeFaces = true, first.Dodge.Faces
	}
	return ar
}

// complete decides a hit whose damage is to come again with ar.
func (d *decision) complete(ed rules.Edition, h *pendingHit, ar AttackRequest) (events.AttackMade, error) {
	a, err := d.memberByID(h.attack.AttackerID)
	if err != nil {
		return events.AttackMade{}, err
	}
	ar.Attacker = a.sheet.Name
	var t *character
	if h.attack.TargetID != "" {
		if t, err = d.memberByID(h.attack.TargetID); err != nil {
			return events.AttackMade{}, err
		}
	}
	return d.attack(ed, a, t, ar, nil)
}
