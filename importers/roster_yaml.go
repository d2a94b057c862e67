package importers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/ltscamp/ltscamp/campaign"
)

// The keys of YAML and JSON rosters.
var (
	rosterKeys    = []string{"characters", "ships"}
	characterKeys = []string{"name", "st", "dx", "iq", "skills", "weapon", "armor"}
	shipKeys      = []string{"name", "record", "detailed", "owner", "crew"}
)

// parseTree reads a YAML or JSON roster. JSON is checked as JSON first
// (YAML would take things JSON does not), then both are read through the
// same YAML node tree, whose nodes carry their lines.
func parseTree(name string, data []byte, f Format, ps *problems) campaign.Roster {
	var r campaign.Roster
	at := func(line int) campaign.Source { return campaign.Source{File: name, Line: line} }
	if f == FormatJSON {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			var se *json.SyntaxError
			line := 0
			if errors.As(err, &se) {
				line = 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
			}
			ps.add(at(line), "", "not JSON: %v", err)
			return r
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			ps.add(at(0), "", "the file is empty: a roster has a characters: list, a ships: list, or both")
			return r
		}
		ps.add(at(yamlErrorLine(err)), "", "not %s: %v", strings.ToUpper(string(f)), strings.TrimPrefix(err.Error(), "yaml: "))
		return r
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		ps.add(at(extra.Line), "", "a second document: a roster is one document")
		return r
	}
	if bad := findAlias(&doc); bad != nil {
		ps.add(at(bad.Line), "", "YAML anchors and aliases are not accepted in a roster: write each value out")
		return r
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		ps.add(at(root.Line), "", "the roster must be a mapping with a characters: list, a ships: list, or both")
		return r
	}
	eachKey(root, rosterKeys, "", at, ps, func(key string, v *yaml.Node) {
		if v.Tag == "!!null" {
			return
		}
		if v.Kind != yaml.SequenceNode {
			ps.add(at(v.Line), key, "must be a list (- name: ...)")
			return
		}
		for _, item := range v.Content {
			if item.Kind != yaml.MappingNode {
				ps.add(at(item.Line), key, "each entry must be a mapping (name: ..., ...)")
				continue
			}
			switch key {
			case "characters":
				if c, ok := characterRow(item, at, ps); ok {
					r.Characters = append(r.Characters, c)
				}
			case "ships":
				if s, ok := shipRow(item, at, ps); ok {
					r.Ships = append(r.Ships, s)
				}
			}
		}
	})
	return r
}

// eachKey calls f for each key of mapping m, in order, after checking it
// is one of known (the spelling "armour" counts as "armor"); an unknown
// key is a problem naming the known ones.
func eachKey(m *yaml.Node, known []string, field string, at func(int) campaign.Source, ps *problems, f func(key string, v *yaml.Node)) {
	seen := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		key := strings.ToLower(strings.TrimSpace(k.Value))
		if key == "armour" {
			key = "armor"
		}
		if k.Kind != yaml.ScalarNode || !contains(known, key) {
			ps.add(at(k.Line), field, "unknown key %q: the keys are %s", k.Value, strings.Join(known, ", "))
			continue
		}
		if line, dup := seen[key]; dup {
			ps.add(at(k.Line), key, "given twice (also at line %d)", line)
			continue
		}
		seen[key] = k.Line
		f(key, v)
	}
}

// scalar returns a node's text when it is a plain value.
func scalar(v *yaml.Node) (string, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return "", false
	}
	return v.Value, true
}

// characterRow reads one character of a roster.
func characterRow(m *yaml.Node, at func(int) campaign.Source, ps *problems) (campaign.RosterCharacter, bool) {
	row := campaign.RosterCharacter{Source: at(m.Line), Fields: map[string]campaign.Source{}}
	before := len(ps.list)
	got := map[string]bool{}
	eachKey(m, characterKeys, "", at, ps, func(key string, v *yaml.Node) {
		row.Fields[key] = at(v.Line)
		got[key] = true
		switch key {
		case "name":
			s, ok := scalar(v)
			row.Name = strings.TrimSpace(s)
			if !ok {
				ps.add(at(v.Line), key, "must be text")
			} else if msg := checkName(row.Name); msg != "" {
				ps.add(at(v.Line), key, "%s", msg)
			}
		case "st", "dx", "iq":
			s, ok := scalar(v)
			n, msg := parseAttribute(s)
			if !ok {
				msg = "must be a whole number"
			}
			if msg != "" {
				ps.add(at(v.Line), key, "%s", msg)
			}
			switch key {
			case "st":
				row.ST = n
			case "dx":
				row.DX = n
			default:
				row.IQ = n
			}
		case "skills":
			row.Skills = skillsOf(v, at, ps)
		case "weapon", "armor":
			s, ok := scalar(v)
			if !ok && v.Tag != "!!null" {
				ps.add(at(v.Line), key, "must be the name of an item of the edition's table")
			}
			if key == "weapon" {
				row.Weapon = strings.TrimSpace(s)
			} else {
				row.Armor = strings.TrimSpace(s)
			}
		}
	})
	for _, req := range characterKeys[:4] {
		if !got[req] {
			ps.add(at(m.Line), req, "is missing: a character needs name, st, dx and iq")
		}
	}
	return row, len(ps.list) == before
}

// skillsOf reads a character's skills: a mapping from skill to level, or
// a list of "Name:Level".
func skillsOf(v *yaml.Node, at func(int) campaign.Source, ps *problems) []string {
	switch v.Kind {
	case yaml.MappingNode:
		var out []string
		for i := 0; i+1 < len(v.Content); i += 2 {
			k, lv := v.Content[i], v.Content[i+1]
			name, ok1 := scalar(k)
			level, ok2 := scalar(lv)
			n, msg := parseLevel(level)
			switch {
			case !ok1 || strings.TrimSpace(name) == "":
				ps.add(at(k.Line), "skills", "a skill needs a name")
			case !ok2 || msg != "":
				ps.add(at(lv.Line), "skills", "%s: the level %s", name, map[bool]string{true: msg, false: "must be a whole number"}[ok2])
			default:
				out = append(out, fmt.Sprintf("%s:%d", strings.TrimSpace(name), n))
			}
		}
		return out
	case yaml.SequenceNode:
		var out []string
		for _, it := range v.Content {
			s, ok := scalar(it)
			if !ok || strings.TrimSpace(s) == "" {
				ps.add(at(it.Line), "skills", "each skill is written Name:Level")
				continue
			}
			out = append(out, strings.TrimSpace(s))
		}
		return out
	case yaml.ScalarNode:
		if v.Tag == "!!null" {
			return nil
		}
	}
	ps.add(at(v.Line), "skills", "must be a mapping from skill to level, such as {Pilot: 1, Medic: 2}")
	return nil
}

// parseLevel reads a skill level: a whole number from 1 to 99.
func parseLevel(s string) (int, string) {
	n, msg := parseAttribute(s)
	if msg != "" {
		return 0, strings.Replace(msg, "an attribute", "a level", 1)
	}
	return n, ""
}

// shipRow reads one star craft of a roster.
func shipRow(m *yaml.Node, at func(int) campaign.Source, ps *problems) (campaign.RosterShip, bool) {
	row := campaign.RosterShip{Source: at(m.Line), Fields: map[string]campaign.Source{}}
	before := len(ps.list)
	got := map[string]bool{}
	var detailed *yaml.Node
	eachKey(m, shipKeys, "", at, ps, func(key string, v *yaml.Node) {
		row.Fields[key] = at(v.Line)
		got[key] = true
		switch key {
		case "name", "record", "owner":
			s, ok := scalar(v)
			s = strings.TrimSpace(s)
			switch {
			case !ok && !(key == "owner" && v.Tag == "!!null"):
				ps.add(at(v.Line), key, "must be text")
			case key == "name":
				if msg := checkName(s); msg != "" {
					ps.add(at(v.Line), key, "%s", msg)
				}
				row.Name = s
			case key == "record":
				if s == "" {
					ps.add(at(v.Line), key, "is empty: write the ship record, such as \"Engineering1, Operations1, d6/1, M+1\"")
				}
				row.Record = s
			default:
				row.Owner = s
			}
		case "crew":
			row.Crew = crewOf(v, at, ps)
		case "detailed":
			detailed = v
		}
	})
	switch {
	case !got["name"]:
		ps.add(at(m.Line), "name", "is missing: a ship needs a name and a record")
	case detailed != nil && got["record"]:
		ps.add(at(detailed.Line), "detailed", "a ship has a record (a section ship) or a detailed record (INTERCEPTOR), not both")
	case detailed != nil:
		sp, err := RosterDetailedRecord(at(detailed.Line).File, detailed, row.Name)
		if err != nil {
			line, msg := detailed.Line, err.Error()
			var fe *FileError
			if errors.As(err, &fe) {
				if fe.Line > 0 {
					line = fe.Line
				}
				msg = fe.Err.Error()
			}
			ps.add(at(line), "detailed", "%s", msg)
		} else {
			row.Detailed = &sp
		}
	case !got["record"]:
		ps.add(at(m.Line), "record", "is missing: a ship needs a name and a record (or a detailed record)")
	}
	return row, len(ps.list) == before
}

// crewOf reads a ship's crew: a mapping from section to a name or a list
// of names, in the order given.
func crewOf(v *yaml.Node, at func(int) campaign.Source, ps *problems) []campaign.RosterCrew {
	if v.Tag == "!!null" {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		ps.add(at(v.Line), "crew", "must be a mapping from section to names, such as {Operations: Vess, Living: [Brann, Kira]}")
		return nil
	}
	var out []campaign.RosterCrew
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, names := v.Content[i], v.Content[i+1]
		section, ok := scalar(k)
		if !ok || strings.TrimSpace(section) == "" {
			ps.add(at(k.Line), "crew", "a section needs a name")
			continue
		}
		c := campaign.RosterCrew{Section: strings.TrimSpace(section)}
		var list []*yaml.Node
		switch names.Kind {
		case yaml.ScalarNode:
			list = []*yaml.Node{names}
		case yaml.SequenceNode:
			list = names.Content
		}
		for _, n := range list {
			s, ok := scalar(n)
			if !ok || strings.TrimSpace(s) == "" {
				ps.add(at(n.Line), "crew", "%s: each crew member is a character's name", c.Section)
				continue
			}
			c.Names = append(c.Names, strings.TrimSpace(s))
		}
		if len(c.Names) == 0 {
			ps.add(at(names.Line), "crew", "%s: name who crews it", c.Section)
			continue
		}
		out = append(out, c)
	}
	return out
}

// findAlias returns the first node that is an alias or carries an anchor.
// Aliases are refused: they let a small file stand for a huge one.
func findAlias(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return n
	}
	for _, c := range n.Content {
		if bad := findAlias(c); bad != nil {
			return bad
		}
	}
	return nil
}

// yamlErrorLine finds the line a YAML error names ("yaml: line 3: ..."),
// the smallest when it names several; 0 when it names none.
func yamlErrorLine(err error) int {
	var te *yaml.TypeError
	msg := err.Error()
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	var lines []int
	for _, part := range strings.Split(msg, "line ")[1:] {
		n := 0
		for _, c := range part {
			if c < '0' || c > '9' {
				break
			}
			n = n*10 + int(c-'0')
		}
		if n > 0 {
			lines = append(lines, n)
		}
	}
	if len(lines) == 0 {
		return 0
	}
	sort.Ints(lines)
	return lines[0]
}
