package interceptor

import "strings"

// RepairExternal restores an external system (External Hardpoint, External
// Heavy Hardpoint, External Rescue Compartment; "EXTERNALLY MOUNTED"
// INTERNAL COMPONENTS, book l.343-345) lost to a hit or with widowed
// armour, between scenarios (DAMAGE CONTROL AND REPAIR, book l.479-481),
// at its type's REPAIR TIME: 1 hour for a hardpoint (HARDPOINT (INTERNAL
// OR EXTERNAL), l.397), 2 hours for a rescue compartment (RESCUE
// COMPARTMENT, l.449). An external system is one box.
//
// name is the external system's name, matched exactly or, failing that,
// in any case. An unknown name fails with CodeInvalid. An intact external
// system, an exploded ship, and an external system whose armour is gone
// fail with CodeRule: the system sits on the top armour box of its
// column, and when that box is no longer intact it would be lost again
// with it at once (l.345), while the book gives armour no repair time.
// The ship it is called on is unchanged.
//
// The report's Component is the external system (its name as Code, turret
// 0), External is set, and Restored holds its one box as hits write it:
// block "external", row 0, its column.
func (s Ship) RepairExternal(name string) (Ship, RepairReport, error) {
	i, err := s.external(name)
	if err != nil {
		return s, RepairReport{}, err
	}
	e := s.externals[i]
	rep := RepairReport{Component: ComponentRef{Code: e.Name, Type: e.Type}, External: true}
	per, err := RepairMinutes(e.Type)
	if err != nil {
		return s, rep, err
	}
	if err := s.outOfAction(); err != nil {
		return s, rep, err
	}
	if e.State == Intact {
		return s, rep, errorf(CodeRule, "external system %s (%s) has lost nothing: there is nothing to repair", e.Name, e.Type.Name())
	}
	if st, _ := s.armour[e.Facing.index()].box(1, e.Column); st != Intact {
		return s, rep, errorf(CodeRule, "external system %s (%s) cannot be repaired: the top armour box of %s column %d under it is gone, so it would be lost with it again at once (book l.345), and the book gives armour no repair time", e.Name, e.Type.Name(), e.Facing, e.Column)
	}
	n := s.clone()
	n.externals[i].State = Intact
	rep.Restored = []Place{{Block: "external", Row: 0, Column: e.Column}}
	rep.MinutesPerBox, rep.Minutes = per, per
	rep.LostBefore, rep.LostAfter = 1, 0
	return n, rep, nil
}

// ExternalNamed returns the external system named name, as RepairExternal
// finds it: the exact name, else the only one of that name in any case.
func (s Ship) ExternalNamed(name string) (External, bool) {
	i, err := s.external(name)
	if err != nil {
		return External{}, false
	}
	return s.externals[i], true
}

// external returns the index of the external system named name: the one
// of that exact name, else the only one of that name in any case. It fails
// with CodeInvalid.
func (s Ship) external(name string) (int, error) {
	name = strings.TrimSpace(name)
	for i, e := range s.externals {
		if e.Name == name {
			return i, nil
		}
	}
	found := -1
	for i, e := range s.externals {
		if strings.EqualFold(e.Name, name) {
			if found >= 0 {
				return -1, errorf(CodeInvalid, "external systems %q and %q both match %q: give the name exactly", s.externals[found].Name, e.Name, name)
			}
			found = i
		}
	}
	if found < 0 {
		if len(s.externals) == 0 {
			return -1, errorf(CodeInvalid, "no external system %q to repair: %s has none", name, s.name)
		}
		names := make([]string, len(s.externals))
		for i, e := range s.externals {
			names[i] = e.Name
		}
		return -1, errorf(CodeInvalid, "no external system %q to repair: %s has %s", name, s.name, strings.Join(names, ", "))
	}
	return found, nil
}
