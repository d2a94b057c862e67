package campaign

import (
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
		return "", 0, rules.Errorf(rules.CodeRule, "%s has not attacked %s in this encounter: there is nothing to counterattack", t.sheet.Name, a.sheet.Name)
	}
	if x.attack.DamageToCome() {
		return "", 0, rules.Errorf(rules.CodeRule, "%s's hit on %s (seq %d) waits for its damage: a defender counterattacks once he survives the attack; settle it first (`ltscamp damage dice`)", t.sheet.Name, a.sheet.Name, x.event.Seq)
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
	return x.event.ID, x.event.Seq, nil
}
