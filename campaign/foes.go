package campaign

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// NewFoe is what `foe add` asks for: a non-player combatant, held to no
// creation rule, with the gear he carries.
type NewFoe struct {
	Name       string
	Attributes rules.Attributes
	// Skills are written "Name:Level".
	Skills []string
	// Weapon names an item of the edition's table ("" for none), and
	// Armor the armour he wears, in layers.
	Weapon string
	Armor  []string
	// Gear are the items a stat line names after the attributes: each is
	// the edition's weapon or armour of that name (one weapon at most).
	Gear []string
	// Count, when 1 or more, adds that many foes numbered after the name:
	// "Pirate 1", "Pirate 2"... (0: one foe of the name as given).
	Count int
	// Keep makes a foe added during an encounter a standing one: he stays
	// on the roster when the encounter ends. A foe added outside any
	// encounter always stays.
	Keep bool
	// encounter is the encounter he belongs to, when a command that opens
	// it adds him (0: the encounter under way, unless Keep).
	encounter int
}

// maxFoeCount bounds the count of foes one stat line or --count adds.
const maxFoeCount = 99

// ParseFoeLine reads a quick stat line, "Pirate:ST12,DX11,IQ9": a name,
// then every attribute once, in any order; then, optionally, the weapon
// and armour he carries, and " xN" for N numbered foes, as in
// "Pirate:ST12,DX12,IQ9,cutlass,flak vest x3" (skills come by flag).
func ParseFoeLine(line string) (NewFoe, error) {
	line = strings.TrimSpace(line)
	i := strings.Index(line, ":")
	if i <= 0 {
		return NewFoe{}, rules.Errorf(rules.CodeInvalid, "foe %q: write NAME with --st --dx --iq, or a stat line Name:ST12,DX11,IQ9", line)
	}
	nf := NewFoe{Name: strings.TrimSpace(line[:i])}
	body := line[i+1:]
	if j := strings.LastIndexAny(body, " \t"); j >= 0 {
		if n, ok := foeCount(body[j+1:]); ok {
			if n < 1 || n > maxFoeCount {
				return NewFoe{}, rules.Errorf(rules.CodeInvalid, "foe %q: x%d foes (give x1 to x%d)", line, n, maxFoeCount)
			}
			nf.Count, body = n, body[:j]
		}
	}
	seen := map[rules.Attribute]bool{}
	for _, part := range strings.Split(body, ",") {
		part = strings.TrimSpace(part)
		if len(seen) == len(rules.AttributeNames()) {
			// ST, DX and IQ given: the rest is gear.
			if part == "" {
				return NewFoe{}, rules.Errorf(rules.CodeInvalid, "foe %q: an empty item between commas", line)
			}
			if at, _, ok := foeAttribute(part); ok {
				return NewFoe{}, rules.Errorf(rules.CodeInvalid, "foe %q: %s is given twice", line, at)
			}
			nf.Gear = append(nf.Gear, part)
			continue
		}
		if len(part) < 3 {
			return NewFoe{}, rules.Errorf(rules.CodeInvalid, "foe %q: %q is not an attribute such as ST12", line, part)
		}
		at, err := rules.ParseAttribute(part[:2])
		if err != nil {
			return NewFoe{}, rules.Errorf(rules.CodeInvalid, "foe %q: %q is not an attribute such as ST12 (the weapon and armour come after ST, DX and IQ)", line, part)
		}
		v, err := strconv.Atoi(strings.TrimSpace(part[2:]))
		if err != nil {
			return NewFoe{}, rules.Errorf(rules.CodeInvalid, "foe %q: %s needs a number, as in %s12", line, at, at)
		}
		if seen[at] {
			return NewFoe{}, rules.Errorf(rules.CodeInvalid, "foe %q: %s is given twice", line, at)
		}
		seen[at] = true
		nf.Attributes = nf.Attributes.With(at, v)
	}
	for _, at := range rules.AttributeNames() {
		if !seen[at] {
			return NewFoe{}, rules.Errorf(rules.CodeInvalid, "foe %q: the stat line lacks %s (write Name:ST12,DX11,IQ9)", line, at)
		}
	}
	return nf, nil
}

// foeCount reads the " xN" that ends a stat line ("x3", "X3", "×3").
func foeCount(word string) (int, bool) {
	for _, x := range []string{"x", "X", "×"} {
		if rest, ok := strings.CutPrefix(word, x); ok && rest != "" {
			n, err := strconv.Atoi(rest)
			return n, err == nil
		}
	}
	return 0, false
}

// foeAttribute reads an attribute and its value, such as "ST12".
func foeAttribute(part string) (rules.Attribute, int, bool) {
	if len(part) < 3 {
		return "", 0, false
	}
	at, err := rules.ParseAttribute(part[:2])
	if err != nil {
		return "", 0, false
	}
	v, err := strconv.Atoi(strings.TrimSpace(part[2:]))
	return at, v, err == nil
}

// nameFree refuses a name the party or the foes already use: a name in a
// command must say whom it means.
func nameFree(r *projections.Roster, name string) error {
	if m, ok := r.Find(name); ok {
		if m.Seq == 0 {
			return rules.Errorf(rules.CodeConflict, "a character named %q is created twice", m.Name)
		}
		return rules.Errorf(rules.CodeConflict, "a character named %q is already in the party (created at seq %d); choose another name", m.Name, m.Seq)
	}
	if m, ok := r.FindFoe(name); ok {
		if m.Seq == 0 {
			return rules.Errorf(rules.CodeConflict, "a foe named %q is added twice", m.Name)
		}
		return rules.Errorf(rules.CodeConflict, "a foe named %q is already on the roster (added at seq %d); choose another name, or `ltscamp foe remove %s` first", m.Name, m.Seq, m.Name)
	}
	return nil
}

// AddFoe puts a foe on the roster, with his weapon and armour, as one
// command. With a Count, it adds the numbered foes and returns the first
// (AddFoes returns them all).
func (s *Service) AddFoe(nf NewFoe) (projections.Sheet, error) {
	sheets, err := s.AddFoes(nf)
	if err != nil {
		return projections.Sheet{}, err
	}
	return sheets[0], nil
}

// AddFoes puts a foe, or Count numbered foes, on the roster as one
// command, and returns their sheets in the order added.
func (s *Service) AddFoes(nf NewFoe) ([]projections.Sheet, error) {
	var names []string
	_, err := s.execute(func(d *decision) error {
		names = names[:0]
		cs, err := d.addFoes(nf)
		for _, c := range cs {
			names = append(names, c.sheet.Name)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	sheets := make([]projections.Sheet, 0, len(names))
	for _, n := range names {
		sh, err := s.FoeSheet(n)
		if err != nil {
			return nil, err
		}
		sheets = append(sheets, sh)
	}
	return sheets, nil
}

// addFoes adds the foe nf describes, or nf.Count of them numbered after
// his name, continuing after the highest number of that name on the
// roster (reinforcements of Pirate 1..3 are Pirate 4 on).
func (d *decision) addFoes(nf NewFoe) ([]*character, error) {
	if nf.Count == 0 {
		c, err := d.addFoe(nf)
		if err != nil {
			return nil, err
		}
		return []*character{c}, nil
	}
	if nf.Count < 0 || nf.Count > maxFoeCount {
		return nil, rules.Errorf(rules.CodeInvalid, "--count %d: add 1 to %d foes", nf.Count, maxFoeCount)
	}
	base := projections.NormalizeName(nf.Name)
	r, err := d.rosterState()
	if err != nil {
		return nil, err
	}
	next := 1
	for _, m := range r.Foes {
		if n, err := strconv.Atoi(strings.TrimPrefix(m.Name, base+" ")); err == nil && strings.HasPrefix(m.Name, base+" ") && n >= next {
			next = n + 1
		}
	}
	var out []*character
	for k := range nf.Count {
		one := nf
		one.Name, one.Count = fmt.Sprintf("%s %d", base, next+k), 0
		c, err := d.addFoe(one)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// addFoe decides foe.added and the foe's gear, and adds him to the
// decision's roster.
func (d *decision) addFoe(nf NewFoe) (*character, error) {
	name := projections.NormalizeName(nf.Name)
	camp, err := d.campaignState()
	if err != nil {
		return nil, err
	}
	if name == "" {
		return nil, rules.Errorf(rules.CodeInvalid, "a foe needs a name")
	}
	if err := rules.CheckName("foe name", strings.TrimSpace(nf.Name)); err != nil {
		return nil, err
	}
	if strings.ContainsAny(name, ":,") {
		return nil, rules.Errorf(rules.CodeInvalid, "foe name %q: names may not contain ':' or ',' (they separate names in commands)", name)
	}
	r, err := d.rosterState()
	if err != nil {
		return nil, err
	}
	if err := nameFree(r, name); err != nil {
		return nil, err
	}
	if err := rules.ValidateFoe(name, nf.Attributes); err != nil {
		return nil, err
	}
	skills, err := ParseSkills(camp.Edition, nf.Skills)
	if err != nil {
		return nil, err
	}
	id := d.s.newID()
	c := &character{member: projections.Member{ID: id, Name: name, Foe: true}, stream: events.FoeStream(id)}
	d.expect(c.stream, 0)
	p := events.FoeAdded{FoeID: id, Name: name, Edition: string(camp.Edition),
		Attributes: events.Attributes{ST: nf.Attributes.ST, DX: nf.Attributes.DX, IQ: nf.Attributes.IQ}, Skills: []events.SkillLevel{}, Encounter: nf.encounter}
	if p.Encounter == 0 && camp.InEncounter && !nf.Keep {
		// A foe added during an encounter leaves the roster at its end.
		p.Encounter = camp.Encounter
	}
	weapon, armor, err := foeGear(camp.Edition, name, nf)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, sl := range skills {
		if seen[sl.Skill.Key] {
			return nil, rules.Errorf(rules.CodeInvalid, "foe %s: skill %s is given twice", name, sl.Skill.NameIn(camp.Edition))
		}
		seen[sl.Skill.Key] = true
		if sl.Level < 1 || sl.Level > rules.MaxFoeAttribute {
			return nil, rules.Errorf(rules.CodeInvalid, "foe %s: skill %s at level %d (give 1 to %d)", name, sl.Skill.NameIn(camp.Edition), sl.Level, rules.MaxFoeAttribute)
		}
		p.Skills = append(p.Skills, events.SkillLevel{Skill: sl.Skill.Key, Name: sl.Skill.NameIn(camp.Edition), Level: sl.Level})
	}
	if err := d.emitApplied(c.stream, p, r.Apply, c.sheet.Apply, c.rolls.Apply); err != nil {
		return nil, err
	}
	d.chars[id] = c
	if weapon != "" {
		if err := d.equip(camp.Edition, c, SlotWeapon, weapon); err != nil {
			return nil, err
		}
	}
	for _, a := range armor {
		if err := d.equip(camp.Edition, c, SlotArmor, a); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// foeGear sorts a foe's gear: --weapon and --armor as given, and each item
// of his stat line the edition's weapon or armour of that name. An unknown
// item is refused with the weapon table's nearest name.
func foeGear(ed rules.Edition, name string, nf NewFoe) (string, []string, error) {
	weapon, armor := strings.TrimSpace(nf.Weapon), slices.Clone(nf.Armor)
	for _, item := range nf.Gear {
		if _, err := rules.LookupArmor(ed, item); err == nil {
			armor = append(armor, item)
			continue
		}
		w, err := rules.LookupWeapon(ed, item)
		if err != nil {
			return "", nil, rules.Errorf(rules.CodeOf(err), "foe %s: %v (a stat line names weapons and armour after ST, DX and IQ)", name, err)
		}
		if weapon != "" {
			first := weapon
			if fw, err := rules.LookupWeapon(ed, weapon); err == nil {
				first = fw.Name
			}
			return "", nil, rules.Errorf(rules.CodeInvalid, "foe %s: two weapons, %s and %s; a foe wields one", name, first, w.Name)
		}
		weapon = item
	}
	return weapon, armor, nil
}

// RemoveFoe takes a foe off the roster; his stream stays in the log.
func (s *Service) RemoveFoe(name, reason string) (projections.Sheet, error) {
	var id string
	_, err := s.execute(func(d *decision) error {
		r, err := d.rosterState()
		if err != nil {
			return err
		}
		m, ok := r.FindFoe(name)
		if !ok {
			if _, err := findCombatant(r, name); err != nil {
				return err
			}
			return rules.Errorf(rules.CodeRule, "%s is a party member, not a foe; only foes are removed", projections.NormalizeName(name))
		}
		c, err := d.characterByMember(m)
		if err != nil {
			return err
		}
		id = m.ID
		if err := rules.CheckReason("--reason", strings.TrimSpace(reason)); err != nil {
			return err
		}
		return d.emit(c.stream, events.FoeRemoved{Reason: strings.TrimSpace(reason)})
	})
	if err != nil {
		return projections.Sheet{}, err
	}
	v, err := s.view("")
	if err != nil {
		return projections.Sheet{}, err
	}
	c, _, err := s.loadCharacter(projections.Member{ID: id, Foe: true}, &v.rv, 0)
	if err != nil {
		return projections.Sheet{}, err
	}
	return c.sheet, nil
}

// FoeSheet returns a foe's sheet (his stats, gear, damage and fatigue).
func (s *Service) FoeSheet(name string) (projections.Sheet, error) {
	v, err := s.view("")
	if err != nil {
		return projections.Sheet{}, err
	}
	r, err := v.roster()
	if err != nil {
		return projections.Sheet{}, err
	}
	m, ok := r.FindFoe(name)
	if !ok {
		if pm, ok := r.Find(name); ok {
			return projections.Sheet{}, rules.Errorf(rules.CodeNotFound, "%s is a party member, not a foe: `ltscamp sheet %s` shows him", pm.Name, pm.Name)
		}
		for _, m := range slices.Backward(r.Left) {
			if strings.EqualFold(m.Name, projections.NormalizeName(name)) {
				return projections.Sheet{}, rules.Errorf(rules.CodeNotFound, "no foe %q on the roster: he left it (added at seq %d); `ltscamp foe list --all` shows the foes who left", m.Name, m.Seq)
			}
		}
		if len(r.Foes) == 0 {
			return projections.Sheet{}, rules.Errorf(rules.CodeNotFound, "no foe %q: there are no foes; add one with `ltscamp foe add`", projections.NormalizeName(name))
		}
		if near, ok := rules.Suggest(projections.NormalizeName(name), r.FoeNames()); ok {
			return projections.Sheet{}, rules.Errorf(rules.CodeNotFound, "no foe %q; did you mean %q?", projections.NormalizeName(name), near)
		}
		return projections.Sheet{}, rules.Errorf(rules.CodeNotFound, "no foe %q; the foes are %s", projections.NormalizeName(name), strings.Join(quoteAll(r.FoeNames()), ", "))
	}
	c, _, err := s.loadCharacter(m, &v.rv, 0)
	if err != nil {
		return projections.Sheet{}, err
	}
	return c.sheet, nil
}

// FoeSheets returns every foe on the roster's sheet, in the order added.
func (s *Service) FoeSheets() ([]projections.Sheet, error) { return s.FoeSheetsAsOf("") }

// FoeSheetsAsOf returns the foes' sheets as they were at a point of the
// log (see SheetAsOf).
func (s *Service) FoeSheetsAsOf(asOf string) ([]projections.Sheet, error) {
	return s.rosterSheets(asOf, func(r projections.Roster) []projections.Member { return r.Foes })
}

// AllFoeSheets returns the sheets of the foes on the roster, in the order
// added, then of those who left it, in the order they left.
func (s *Service) AllFoeSheets() ([]projections.Sheet, error) {
	return s.rosterSheets("", func(r projections.Roster) []projections.Member {
		return slices.Concat(r.Foes, r.Left)
	})
}

// FoeLine is a foe's quick stat line, as `foe add` reads it back.
func FoeLine(sh projections.Sheet) string {
	return fmt.Sprintf("%s:ST%d,DX%d,IQ%d", sh.Name, sh.Attributes.ST, sh.Attributes.DX, sh.Attributes.IQ)
}
