package projections

import "slices"

// Clone returns a copy of the sheet that shares nothing with it: a fold
// of later events into one leaves the other as it was.
func (s *Sheet) Clone() *Sheet {
	c := *s
	c.Skills = slices.Clone(s.Skills)
	c.ArmorItems = slices.Clone(s.ArmorItems)
	c.Combat.TreatedBy = slices.Clone(s.Combat.TreatedBy)
	if s.Armor != nil {
		a := *s.Armor
		c.Armor = &a
	}
	if s.Weapon != nil {
		w := *s.Weapon
		w.Flags = slices.Clone(w.Flags)
		c.Weapon = &w
	}
	return &c
}
