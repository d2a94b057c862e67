package campaign

import (
	"slices"

	"github.com/ltscamp/ltscamp/rules"
)

// Who names the characters a party-wide verb acts on: the named party
// members, or, with Party, every living party member.
type Who struct {
	Names []string
	// Party is every living party member: the roster's characters (not
	// foes) who are not dead. The unconscious and the mortally wounded
	// are living.
	Party bool
}

// chosen resolves who a party-wide verb acts on, before anything is
// emitted: every name must be a party member (an unknown name is not
// found, and the whole command appends nothing), none named twice, and
// named and --party are not both given. A dead member named is refused
// with dead(name) when dead is not nil; --party skips the dead. what says
// the verb, for the messages.
func (d *decision) chosen(w Who, what string, dead func(name string) error) ([]*character, error) {
	return d.chosenBy(w, what, (*decision).character, dead)
}

// chosenBy is chosen with the names found by find: (*decision).combatant
// for verbs that also act on foes.
func (d *decision) chosenBy(w Who, what string, find func(d *decision, name string) (*character, error), dead func(name string) error) ([]*character, error) {
	if w.Party && len(w.Names) > 0 {
		return nil, rules.Errorf(rules.CodeInvalid, "%s: name characters or give --party (every living party member), not both", what)
	}
	if w.Party {
		chars, err := d.members()
		if err != nil {
			return nil, err
		}
		var out []*character
		for _, c := range chars {
			if c.sheet.Alive() {
				out = append(out, c)
			}
		}
		if len(out) == 0 {
			return nil, rules.Errorf(rules.CodeRule, "%s: the party has no living member", what)
		}
		return out, nil
	}
	if len(w.Names) == 0 {
		return nil, rules.Errorf(rules.CodeInvalid, "%s: name one or more characters, or give --party", what)
	}
	seen := map[string]bool{}
	out := make([]*character, 0, len(w.Names))
	for _, name := range w.Names {
		c, err := find(d, name)
		if err != nil {
			return nil, err
		}
		if seen[c.member.ID] {
			return nil, rules.Errorf(rules.CodeInvalid, "%s is named twice", c.sheet.Name)
		}
		seen[c.member.ID] = true
		out = append(out, c)
	}
	if dead != nil {
		for _, c := range out {
			if !c.sheet.Alive() {
				return nil, dead(c.sheet.Name)
			}
		}
	}
	return out, nil
}

// resting resolves who rests: the named (none dead, nor died in this
// command), or, named none, every party member living after the deaths
// this command resolved.
func (d *decision) resting(names []string, died []string) ([]*character, error) {
	deadErr := func(name string) error {
		return rules.Errorf(rules.CodeRule, "%s is dead and cannot rest", name)
	}
	if len(names) > 0 {
		chars, err := d.chosen(Who{Names: names}, "rest", deadErr)
		if err != nil {
			return nil, err
		}
		for _, c := range chars {
			if slices.Contains(died, c.sheet.Name) {
				return nil, deadErr(c.sheet.Name)
			}
		}
		return chars, nil
	}
	return d.livingAfter(died)
}

// livingAfter is every party member alive after the deaths this command
// resolved (died): the whole party for a time step, the dead skipped.
func (d *decision) livingAfter(died []string) ([]*character, error) {
	chars, err := d.members()
	if err != nil {
		return nil, err
	}
	var out []*character
	for _, c := range chars {
		if c.sheet.Alive() && !slices.Contains(died, c.sheet.Name) {
			out = append(out, c)
		}
	}
	return out, nil
}
