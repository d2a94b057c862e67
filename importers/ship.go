package importers

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor"
)

// The keys of a detailed ship record file (docs/interceptor.md, "The
// record file"). They are functions, not variables, so that nothing can
// change them.
func shipRecordKeys() []string {
	return []string{"name", "armor", "internal", "components", "cargo", "occupied_hangars", "externals", "turrets", "crew"}
}
func turretKeys() []string   { return []string{"name", "armor", "internal", "components", "cargo"} }
func externalKeys() []string { return []string{"name", "type", "facing", "column"} }
func crewKeys() []string     { return []string{"name", "race", "station"} }
func facingKeys() []string {
	fs := interceptor.Facings()
	return []string{string(fs[0]), string(fs[1]), string(fs[2]), string(fs[3])}
}

// shipShape tells what a ship record holds, for an empty or shapeless file.
const shipShape = "a ship record is a mapping with name:, armor:, internal: and components:, and may have cargo:, occupied_hangars:, externals:, turrets: and crew:"

// ParseShipRecord parses a detailed ship record file (INTERCEPTOR, issue 14)
// into the Spec that interceptor.NewShip takes. name is the file's name as
// the user gave it, used in errors. The file's form is checked first: its
// keys (an unknown key is named, with the nearest known one), types,
// required fields, rows ten cells wide, codes that are in the components
// list, component types, cargo contents, facings, columns and races. Then
// the record goes through interceptor.NewShip, and a record it refuses is
// refused here, at the line of the part it refuses. So a Spec returned
// without error is one NewShip accepts.
//
// Any problem is a *FileError, the first one found, carrying
// rules.CodeInvalid; no Spec is returned then.
func ParseShipRecord(name string, data []byte, f Format) (interceptor.Spec, error) {
	r := treeReader{file: name, what: "a ship record", shape: shipShape}
	root, err := r.root(data, f)
	if err != nil {
		return interceptor.Spec{}, err
	}
	sp, pl, err := r.ship(root)
	if err != nil {
		return interceptor.Spec{}, err
	}
	if _, err := interceptor.NewShip(sp); err != nil {
		return interceptor.Spec{}, r.refused(sp, pl, err)
	}
	return sp, nil
}

// RosterDetailedRecord reads the detailed record of a roster's ship: the
// mapping a record file holds, given inline under the row's detailed: key,
// whose name: may be left out (the row's name is the ship's). Problems are
// *FileError values with the line in the roster, as ParseShipRecord's.
func RosterDetailedRecord(file string, v *yaml.Node, name string) (interceptor.Spec, error) {
	r := treeReader{file: file, what: "a detailed ship record", shape: shipShape}
	if v.Kind != yaml.MappingNode {
		return interceptor.Spec{}, r.errorf(v.Line, "detailed: must be a ship record, a mapping with armor:, internal: and components: (see docs/interceptor.md)")
	}
	node := v
	if _, named := mappingValue(v, "name"); !named {
		// The row's name, as if the record had said it.
		c := *v
		c.Content = append([]*yaml.Node{
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: "name", Line: v.Line},
			{Kind: yaml.ScalarNode, Tag: "!!str", Value: name, Line: v.Line},
		}, v.Content...)
		node = &c
	}
	sp, pl, err := r.ship(node)
	if err != nil {
		return interceptor.Spec{}, err
	}
	if _, err := interceptor.NewShip(sp); err != nil {
		return interceptor.Spec{}, r.refused(sp, pl, err)
	}
	return sp, nil
}

// mappingValue returns the value of key in mapping m (any case).
func mappingValue(m *yaml.Node, key string) (*yaml.Node, bool) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if strings.EqualFold(strings.TrimSpace(m.Content[i].Value), key) {
			return m.Content[i+1], true
		}
	}
	return nil, false
}

// shipPlaces holds the lines of a record's parts, to place a refusal of
// interceptor.NewShip.
type shipPlaces struct {
	name      int
	armour    [4]int
	hull      blockPlaces
	externals []int
	turrets   []turretPlaces
	crew      []int
}

// blockPlaces holds the lines of an Internal Component Block's parts.
type blockPlaces struct {
	internal, cargo, occupied int
}

// turretPlaces holds the lines of a turret's parts.
type turretPlaces struct {
	entry, armour int
	body          blockPlaces
}

// ship reads the record's mapping.
func (r treeReader) ship(root *yaml.Node) (interceptor.Spec, shipPlaces, error) {
	var sp interceptor.Spec
	var pl shipPlaces
	fs, err := r.fields(root, "the ship record", shipRecordKeys(), []string{"name", "armor", "internal", "components"})
	if err != nil {
		return sp, pl, err
	}
	pl.name = fs["name"].val.Line
	if sp.Name, err = r.name(fs["name"].val, "the ship's name"); err != nil {
		return sp, pl, err
	}
	if sp.Armour, pl.armour, err = r.armour(fs["armor"].val); err != nil {
		return sp, pl, err
	}
	b, err := r.block(fs, "the ship's", true)
	if err != nil {
		return sp, pl, err
	}
	sp.Internal, sp.Components, sp.Cargo, sp.OccupiedHangars, pl.hull = b.internal, b.components, b.cargo, b.occupied, b.places
	if v, ok := present(fs, "externals"); ok {
		items, err := r.list(v, "externals", "[{name: Port Rack, type: External Hardpoint, facing: left, column: 3}]")
		if err != nil {
			return sp, pl, err
		}
		for i, item := range items {
			e, err := r.external(item, i+1)
			if err != nil {
				return sp, pl, err
			}
			sp.Externals = append(sp.Externals, e)
			pl.externals = append(pl.externals, item.Line)
		}
	}
	if v, ok := present(fs, "turrets"); ok {
		items, err := r.list(v, "turrets", "[{name: Dorsal, armor: 20, internal: [...], components: {...}}]")
		if err != nil {
			return sp, pl, err
		}
		names := map[string]int{}
		for i, item := range items {
			t, tp, err := r.turret(item, i+1)
			if err != nil {
				return sp, pl, err
			}
			key := strings.ToLower(t.Name)
			if line, dup := names[key]; dup {
				return sp, pl, r.errorf(item.Line, "turret %q: the turret at line %d has that name too: turrets are told apart by name", t.Name, line)
			}
			names[key] = item.Line
			sp.Turrets = append(sp.Turrets, t)
			pl.turrets = append(pl.turrets, tp)
		}
	}
	if v, ok := present(fs, "crew"); ok {
		items, err := r.list(v, "crew", "[{name: Marcos, race: Human, station: C}]")
		if err != nil {
			return sp, pl, err
		}
		for i, item := range items {
			c, err := r.crewman(item, i+1, sp.Components)
			if err != nil {
				return sp, pl, err
			}
			sp.Crew = append(sp.Crew, c)
			pl.crew = append(pl.crew, item.Line)
		}
	}
	return sp, pl, nil
}

// present returns the value of an optional key, when it is given and not
// null.
func present(fs map[string]field, key string) (*yaml.Node, bool) {
	f, ok := fs[key]
	if !ok || isNull(f.val) {
		return nil, false
	}
	return f.val, true
}

// armour reads a ship's armor: boxes per facing, every facing given.
func (r treeReader) armour(v *yaml.Node) (interceptor.ArmourSpec, [4]int, error) {
	var a interceptor.ArmourSpec
	var lines [4]int
	if v.Kind != yaml.MappingNode {
		return a, lines, r.errorf(v.Line, "armor gives the boxes of each facing, such as {forward: 80, aft: 40, left: 40, right: 40}, not %s", shown(v))
	}
	fs, err := r.fields(v, "armor", facingKeys(), facingKeys())
	if err != nil {
		return a, lines, err
	}
	for i, key := range facingKeys() {
		val := fs[key].val
		n, err := r.number(val, "the "+key+" armor", 0, interceptor.MaxArmour)
		if err != nil {
			return a, lines, err
		}
		lines[i] = val.Line
		setFacing(&a, i, n)
	}
	return a, lines, nil
}

// setFacing sets the boxes of the ith facing of interceptor.Facings.
func setFacing(a *interceptor.ArmourSpec, i, n int) {
	*[4]*int{&a.Forward, &a.Aft, &a.Left, &a.Right}[i] = n
}

// parsedBlock is an Internal Component Block as a record gives it.
type parsedBlock struct {
	internal   [][]string
	components map[string]string
	cargo      map[string]string
	occupied   []string
	places     blockPlaces
}

// block reads the internal, components, cargo and (for the hull,
// withHangars) occupied_hangars keys of a ship or turret; whose is "the
// ship's" or "turret \"Dorsal\"'s".
func (r treeReader) block(fs map[string]field, whose string, withHangars bool) (parsedBlock, error) {
	var b parsedBlock
	var err error
	if b.components, err = r.components(fs["components"].val, whose+" components"); err != nil {
		return b, err
	}
	codes := sortedCodes(b.components)
	b.places.internal = fs["internal"].key.Line
	if b.internal, err = r.internal(fs["internal"].val, whose+" internal block", b.components, codes); err != nil {
		return b, err
	}
	if v, ok := present(fs, "cargo"); ok {
		b.places.cargo = fs["cargo"].key.Line
		if b.cargo, err = r.cargo(v, whose+" cargo", b.components, codes); err != nil {
			return b, err
		}
	}
	if v, ok := present(fs, "occupied_hangars"); ok && withHangars {
		b.places.occupied = fs["occupied_hangars"].key.Line
		items, err := r.list(v, "occupied_hangars", "[H]")
		if err != nil {
			return b, err
		}
		for _, item := range items {
			code, err := r.code(item, "an occupied hangar", b.components, codes)
			if err != nil {
				return b, err
			}
			b.occupied = append(b.occupied, code)
		}
	}
	return b, nil
}

// components reads a components mapping: code to component type name.
func (r treeReader) components(v *yaml.Node, what string) (map[string]string, error) {
	if v.Kind != yaml.MappingNode || len(v.Content) == 0 {
		return nil, r.errorf(v.Line, "%s must map each code to its type, such as {F: Free, E1: Engine, C: Cockpit}", what)
	}
	out := map[string]string{}
	lines := map[string]int{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, t := v.Content[i], v.Content[i+1]
		code, ok := scalar(k)
		code = strings.TrimSpace(code)
		if !ok || !validCode(code) {
			return nil, r.errorf(k.Line, "%s: the code %s is not 1 to %d letters or digits", what, shown(k), interceptor.MaxCodeLength)
		}
		if line, dup := lines[code]; dup {
			return nil, r.errorf(k.Line, "%s: the code %s is given twice (also at line %d)", what, code, line)
		}
		name, err := r.text(t, fmt.Sprintf("the type of component %s", code))
		if err != nil {
			return nil, err
		}
		if _, err := interceptor.ParseComponentType(name); err != nil {
			return nil, r.at(t.Line, rules.Errorf(rules.CodeInvalid, "component %s: %v", code, err))
		}
		lines[code] = k.Line
		out[code] = name
	}
	return out, nil
}

// validCode reports whether code is a component code: 1 to
// interceptor.MaxCodeLength ASCII letters or digits.
func validCode(code string) bool {
	if code == "" || len(code) > interceptor.MaxCodeLength {
		return false
	}
	for _, c := range code {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

func sortedCodes(comps map[string]string) []string {
	codes := make([]string, 0, len(comps))
	for c := range comps {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	return codes
}

// code reads a component code that must be in the components list.
func (r treeReader) code(v *yaml.Node, what string, comps map[string]string, codes []string) (string, error) {
	s, ok := scalar(v)
	s = strings.TrimSpace(s)
	if !ok || s == "" {
		return "", r.errorf(v.Line, "%s must be a component code, not %s", what, shown(v))
	}
	if _, ok := comps[s]; !ok {
		return "", r.errorf(v.Line, "%s is %q, which is not in the components list%s", what, s, codeHint(s, codes))
	}
	return s, nil
}

// codeHint suggests the code that differs only in case, else lists the
// codes: with codes one or two letters long, any two are a typo apart.
func codeHint(s string, codes []string) string {
	for _, c := range codes {
		if strings.EqualFold(c, s) {
			return fmt.Sprintf(": did you mean %s? (codes are case-sensitive)", c)
		}
	}
	if len(codes) > 24 {
		return fmt.Sprintf(" (its codes are %s...)", strings.Join(codes[:24], ", "))
	}
	return fmt.Sprintf(" (its codes are %s)", strings.Join(codes, ", "))
}

// internal reads an Internal Component Block: rows of
// interceptor.Columns codes, outermost first.
func (r treeReader) internal(v *yaml.Node, what string, comps map[string]string, codes []string) ([][]string, error) {
	rows, err := r.list(v, what, "[[F, F, F, F, F, F, F, F, F, F], ...], one list of ten codes per row")
	if err != nil {
		return nil, err
	}
	switch {
	case len(rows) == 0:
		return nil, r.errorf(v.Line, "%s has no rows", what)
	case len(rows) > interceptor.MaxInternalRows:
		return nil, r.errorf(rows[interceptor.MaxInternalRows].Line, "%s has %d rows: at most %d", what, len(rows), interceptor.MaxInternalRows)
	}
	out := make([][]string, len(rows))
	for i, row := range rows {
		if row.Kind != yaml.SequenceNode {
			return nil, r.errorf(row.Line, "row %d of %s must be a list of %d codes, such as [E1, E1, P, P, C, C, P, P, E2, E2], not %s", i+1, what, interceptor.Columns, shown(row))
		}
		if len(row.Content) != interceptor.Columns {
			// book l.335: damage goes on "in that column", under the armour.
			return nil, r.errorf(row.Line, "row %d of %s has %d cells: every row is %d wide, the same columns as the armour above it", i+1, what, len(row.Content), interceptor.Columns)
		}
		out[i] = make([]string, interceptor.Columns)
		for j, cell := range row.Content {
			if out[i][j], err = r.code(cell, fmt.Sprintf("row %d column %d of %s", i+1, j+1, what), comps, codes); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// cargo reads what the Cargo components hold: code to contents.
func (r treeReader) cargo(v *yaml.Node, what string, comps map[string]string, codes []string) (map[string]string, error) {
	if v.Kind != yaml.MappingNode {
		return nil, r.errorf(v.Line, "%s must map each Cargo code to its contents, such as {K: loaded, M: missile reloads}", what)
	}
	contents := []string{string(interceptor.CargoEmpty), string(interceptor.CargoLoaded), string(interceptor.CargoMissileReloads)}
	out := map[string]string{}
	lines := map[string]int{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, c := v.Content[i], v.Content[i+1]
		code, err := r.code(k, "a code in "+what, comps, codes)
		if err != nil {
			return nil, err
		}
		if line, dup := lines[code]; dup {
			return nil, r.errorf(k.Line, "%s: %s is given twice (also at line %d)", what, code, line)
		}
		s, ok := scalar(c)
		norm := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "_", " ")
		if !ok || !slices.Contains(contents, norm) {
			hint := ""
			if ok {
				if sug, found := rules.Suggest(norm, contents); found {
					hint = fmt.Sprintf(": did you mean %q?", sug)
				}
			}
			return nil, r.errorf(c.Line, "cargo %s holds %s%s (contents are empty, loaded or missile reloads)", code, shown(c), hint)
		}
		lines[code] = k.Line
		out[code] = norm
	}
	return out, nil
}

// external reads the nth external system.
func (r treeReader) external(m *yaml.Node, n int) (interceptor.ExternalSpec, error) {
	var e interceptor.ExternalSpec
	what := label(m, "external system", n)
	fs, err := r.fields(m, what, externalKeys(), externalKeys())
	if err != nil {
		return e, err
	}
	if e.Name, err = r.name(fs["name"].val, what+"'s name"); err != nil {
		return e, err
	}
	if e.Type, err = r.text(fs["type"].val, what+"'s type"); err != nil {
		return e, err
	}
	if _, err := interceptor.ParseComponentType(e.Type); err != nil {
		return e, r.at(fs["type"].val.Line, rules.Errorf(rules.CodeInvalid, "%s: %v", what, err))
	}
	v := fs["facing"].val
	s, ok := scalar(v)
	facing := interceptor.Facing(strings.ToLower(strings.TrimSpace(s)))
	if !ok || !facing.Valid() {
		hint := ""
		if sug, found := rules.Suggest(string(facing), facingKeys()); ok && found {
			hint = fmt.Sprintf(": did you mean %q?", sug)
		}
		return e, r.errorf(v.Line, "%s is on facing %s%s (facings are forward, aft, left and right)", what, shown(v), hint)
	}
	e.Facing = facing
	if e.Column, err = r.number(fs["column"].val, what+"'s column", 1, interceptor.Columns); err != nil {
		return e, err
	}
	return e, nil
}

// turret reads the nth turret.
func (r treeReader) turret(m *yaml.Node, n int) (interceptor.TurretSpec, turretPlaces, error) {
	var t interceptor.TurretSpec
	tp := turretPlaces{entry: m.Line}
	what := label(m, "turret", n)
	fs, err := r.fields(m, what, turretKeys(), []string{"name", "armor", "internal", "components"})
	if err != nil {
		return t, tp, err
	}
	if t.Name, err = r.name(fs["name"].val, what+"'s name"); err != nil {
		return t, tp, err
	}
	a := fs["armor"].val
	tp.armour = a.Line
	if a.Kind == yaml.MappingNode {
		return t, tp, r.errorf(a.Line, "%s has one armour block: give its boxes as one number, such as armor: 20", what)
	}
	if t.Armour, err = r.number(a, what+"'s armor", 0, interceptor.MaxArmour); err != nil {
		return t, tp, err
	}
	b, err := r.block(fs, what+"'s", false)
	if err != nil {
		return t, tp, err
	}
	t.Internal, t.Components, t.Cargo, tp.body = b.internal, b.components, b.cargo, b.places
	return t, tp, nil
}

// crewman reads the nth crewman, whose station is a code of the hull's
// components.
func (r treeReader) crewman(m *yaml.Node, n int, comps map[string]string) (interceptor.CrewSpec, error) {
	var c interceptor.CrewSpec
	what := label(m, "crewman", n)
	fs, err := r.fields(m, what, crewKeys(), crewKeys())
	if err != nil {
		return c, err
	}
	if c.Name, err = r.name(fs["name"].val, what+"'s name"); err != nil {
		return c, err
	}
	if c.Race, err = r.text(fs["race"].val, what+"'s race"); err != nil {
		return c, err
	}
	if _, err := interceptor.ParseRace(c.Race); err != nil {
		return c, r.at(fs["race"].val.Line, rules.Errorf(rules.CodeInvalid, "%s: %v", what, err))
	}
	if c.Station, err = r.code(fs["station"].val, what+"'s station", comps, sortedCodes(comps)); err != nil {
		return c, err
	}
	return c, nil
}

// refused places err, interceptor.NewShip's refusal of sp, at the line of
// the part it is about. NewShip checks a record part by part (name,
// armour facing by facing, the hull's block, externals, turrets, crew) and
// reports the first problem; building the record up part by part in that
// order, the first part whose addition NewShip refuses is that problem's
// place.
func (r treeReader) refused(sp interceptor.Spec, pl shipPlaces, err error) error {
	free := func() [][]string {
		row := make([]string, interceptor.Columns)
		for i := range row {
			row[i] = "F"
		}
		return [][]string{row}
	}
	freeComps := map[string]string{"F": "Free"}
	cur := interceptor.Spec{Name: sp.Name, Internal: free(), Components: freeComps}
	type step struct {
		line int
		add  func(*interceptor.Spec)
	}
	steps := []step{{pl.name, func(*interceptor.Spec) {}}}
	for i, n := range [4]int{sp.Armour.Forward, sp.Armour.Aft, sp.Armour.Left, sp.Armour.Right} {
		steps = append(steps, step{pl.armour[i], func(s *interceptor.Spec) {
			setFacing(&s.Armour, i, n)
		}})
	}
	steps = append(steps,
		step{pl.hull.internal, func(s *interceptor.Spec) { s.Internal, s.Components = sp.Internal, sp.Components }},
		step{pl.hull.cargo, func(s *interceptor.Spec) { s.Cargo = sp.Cargo }},
		step{pl.hull.occupied, func(s *interceptor.Spec) { s.OccupiedHangars = sp.OccupiedHangars }},
	)
	for i, e := range sp.Externals {
		steps = append(steps, step{pl.externals[i], func(s *interceptor.Spec) { s.Externals = append(s.Externals, e) }})
	}
	for i, t := range sp.Turrets {
		tp := pl.turrets[i]
		first := tp.armour
		if i >= interceptor.MaxTurrets {
			first = tp.entry // the refusal is of the turret, one too many
		}
		steps = append(steps,
			step{first, func(s *interceptor.Spec) {
				s.Turrets = append(s.Turrets, interceptor.TurretSpec{Name: t.Name, Armour: t.Armour, Internal: free(), Components: freeComps})
			}},
			step{tp.body.internal, func(s *interceptor.Spec) {
				s.Turrets[len(s.Turrets)-1].Internal, s.Turrets[len(s.Turrets)-1].Components = t.Internal, t.Components
			}},
			step{tp.body.cargo, func(s *interceptor.Spec) { s.Turrets[len(s.Turrets)-1].Cargo = t.Cargo }},
		)
	}
	for i, c := range sp.Crew {
		steps = append(steps, step{pl.crew[i], func(s *interceptor.Spec) { s.Crew = append(s.Crew, c) }})
	}
	for _, st := range steps {
		st.add(&cur)
		if _, e := interceptor.NewShip(cur); e != nil {
			return r.at(st.line, e)
		}
	}
	return r.at(0, err) // NewShip refused the whole but no part: say so without a place
}
