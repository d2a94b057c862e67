package campaign

import (
	"fmt"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// Encounter foes. The foes a GM fields for one fight belong to it: those
// `encounter start --foes` adds, and those `foe add` adds while an
// encounter is under way (unless --keep). When the encounter ends they
// leave the roster, dead or fled, each with a foe.removed in the
// encounter end's command (so undo brings them back), and their names are
// free for the next fight. A foe added outside any encounter, or with
// --keep, is a standing foe: he stays until `foe remove`.

// addEncounterFoes adds the foes an encounter opens with to encounter n.
func (d *decision) addEncounterFoes(n int, foes []NewFoe) error {
	for _, nf := range foes {
		if nf.Keep {
			return rules.Errorf(rules.CodeInvalid, "foe %s: the foes of `encounter start --foes` leave with the encounter; add a standing foe with `ltscamp foe add --keep`", nf.Name)
		}
		nf.encounter = n
		if _, err := d.addFoes(nf); err != nil {
			return err
		}
	}
	return nil
}

// dismissEncounterFoes takes the foes of the encounter that ends off the
// roster.
func (d *decision) dismissEncounterFoes(number int, title string) error {
	r, err := d.rosterState()
	if err != nil {
		return err
	}
	for _, m := range r.EncounterFoes() {
		c, err := d.characterByMember(m)
		if err != nil {
			return err
		}
		reason := fmt.Sprintf("encounter %d%s ended", number, titled(title))
		if err := d.emitApplied(c.stream, events.FoeRemoved{Reason: reason}, r.Apply, c.sheet.Apply); err != nil {
			return err
		}
	}
	return nil
}
