package importers

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor"
	"github.com/ltscamp/ltscamp/rules/interceptor/interceptortest"
)

// readDetail reads a file of testdata/detail.
func readDetail(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "detail", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestParseShipRecordExamples(t *testing.T) {
	for _, tc := range []struct {
		file string
		f    Format
		want interceptor.Spec
	}{
		// The example as written, and as JSON (indented with tabs,
		// which YAML alone would refuse).
		{"space_gull.yaml", FormatYAML, interceptortest.SpaceGull()},
		{"space_gull.json", FormatJSON, interceptortest.SpaceGull()},
		{"tern.yaml", FormatYAML, interceptortest.Tern()},
		{"tern.json", FormatJSON, interceptortest.Tern()},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got, err := ParseShipRecord(tc.file, readDetail(t, tc.file), tc.f)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got\n%#v\nwant\n%#v", got, tc.want)
			}
			s, err := interceptor.NewShip(got)
			if err != nil {
				t.Fatalf("NewShip refuses the parsed record: %v", err)
			}
			if s.Name() != tc.want.Name {
				t.Errorf("ship name %q, want %q", s.Name(), tc.want.Name)
			}
		})
	}
}

// TestParseShipRecordSpellings: armour and armor, keys in any case, and
// "occupied hangars" with a space, all read the same.
func TestParseShipRecordSpellings(t *testing.T) {
	want := interceptortest.Tern()
	data := string(readDetail(t, "tern.yaml"))
	for _, edit := range []struct{ from, to string }{
		{"armour: {forward", "armor: {forward"},
		{"    armour: 20", "    Armor: 20"},
		{"occupied_hangars:", "Occupied Hangars:"},
		{"cargo: {K", "CARGO: {K"},
		{"{K: loaded, M: missile reloads}", "{K: Loaded, M: missile_reloads}"},
	} {
		if !strings.Contains(data, edit.from) {
			t.Fatalf("tern.yaml has no %q", edit.from)
		}
		data = strings.Replace(data, edit.from, edit.to, 1)
	}
	got, err := ParseShipRecord("tern.yaml", []byte(data), FormatYAML)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%#v\nwant\n%#v", got, want)
	}
}

// gull returns the example with its lines edited: each edit
// replaces the first occurrence of from.
func gull(t *testing.T, edits ...string) string {
	t.Helper()
	s := spaceGullYAML
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(s, edits[i]) {
			t.Fatalf("the example has no %q", edits[i])
		}
		s = strings.Replace(s, edits[i], edits[i+1], 1)
	}
	return s
}

// spaceGullYAML is the example without its comments.
const spaceGullYAML = `name: Space Gull
armor: {forward: 80, aft: 40, left: 40, right: 40}
internal:
  - [F,  F,  F, F, F, F, F, F, F,  F ]
  - [E1, E1, P, P, C, C, P, P, E2, E2]
  - [E1, E1, P, P, C, C, P, P, E2, E2]
  - [S,  S,  S, S, S, S, S, S, S,  S ]
components: {F: Free, E1: Engine, E2: Engine, P: Powerplant, C: Cockpit, S: Ship Destroyed}
`

func TestParseShipRecordBadFiles(t *testing.T) {
	for _, tc := range []struct {
		name string
		data string
		f    Format
		line int
		want string // in the message
	}{
		{"empty", "", FormatYAML, 0, "the file is empty"},
		{"only a comment", "# nothing\n", FormatYAML, 0, "the file is empty"},
		{"not a mapping", "- Space Gull\n", FormatYAML, 1, "not a ship record: a ship record is a mapping"},
		{"bad YAML", "name: [Space Gull\n", FormatYAML, 1, "not YAML: did not find expected ',' or ']'"},
		{"bad JSON", "{\n  \"name\": \"Space Gull\",\n}\n", FormatJSON, 3, "not JSON"},
		{"two documents", spaceGullYAML + "---\nname: Other\n", FormatYAML, 9, "a second document"},
		{"alias", "name: &n Gull\n" + strings.Replace(spaceGullYAML, "name: Space Gull\n", "", 1) + "extra: *n\n", FormatYAML, 1, "anchors and aliases"},
		{"typo in a key", gull(t, "components:", "componets:"), FormatYAML, 8, `unknown key "componets" in the ship record: did you mean "components"?`},
		{"typo in a facing key", gull(t, "left: 40", "lef: 40"), FormatYAML, 2, `unknown key "lef" in armor: did you mean "left"?`},
		{"armor and armour", gull(t, "internal:", "armour: {forward: 10, aft: 10, left: 10, right: 10}\ninternal:"), FormatYAML, 3, "armor and armour are the same key"},
		{"missing components", gull(t, "components: {F: Free, E1: Engine, E2: Engine, P: Powerplant, C: Cockpit, S: Ship Destroyed}\n", ""), FormatYAML, 1, "the ship record has no components"},
		{"missing facing", gull(t, ", right: 40", ""), FormatYAML, 2, "armor has no right"},
		{"armour not a number", gull(t, "aft: 40", "aft: forty"), FormatYAML, 2, `the aft armor must be a whole number, not "forty"`},
		{"armour negative", gull(t, "aft: 40", "aft: -10"), FormatYAML, 2, "the aft armor is -10: it must be 0 to 2000"},
		{"armour as one number", gull(t, "{forward: 80, aft: 40, left: 40, right: 40}", "80"), FormatYAML, 2, "armor gives the boxes of each facing"},
		{"a row of 9 cells", gull(t, "[E1, E1, P, P, C, C, P, P, E2, E2]", "[E1, P, P, C, C, P, P, E2, E2]"), FormatYAML, 5, "row 2 of the ship's internal block has 9 cells: every row is 10 wide"},
		{"a row that is text", gull(t, "[S,  S,  S, S, S, S, S, S, S,  S ]", "S S S S S S S S S S"), FormatYAML, 7, "row 4 of the ship's internal block must be a list of 10 codes"},
		{"unknown code in a row", gull(t, "[F,  F,  F, F, F, F, F, F, F,  F ]", "[F,  F,  F, F, X, F, F, F, F,  F ]"), FormatYAML, 4, `row 1 column 5 of the ship's internal block is "X", which is not in the components list (its codes are C, E1, E2, F, P, S)`},
		{"code in the wrong case", gull(t, "[E1, E1, P, P, C, C, P, P, E2, E2]", "[E1, e1, P, P, C, C, P, P, E2, E2]"), FormatYAML, 5, "did you mean E1? (codes are case-sensitive)"},
		{"unknown component type", gull(t, "P: Powerplant", "P: Powerplnt"), FormatYAML, 8, `component P: unknown component type "Powerplnt"`},
		{"bad component code", gull(t, "S: Ship Destroyed", "SHIPS: Ship Destroyed"), FormatYAML, 8, `the code "SHIPS" is not 1 to 4 letters or digits`},
		{"component code twice", gull(t, "E2: Engine", "E1: Engine"), FormatYAML, 8, "the code E1 is given twice"},
		{"name too long", gull(t, "Space Gull", strings.Repeat("G", 65)), FormatYAML, 1, "a name has at most 64"},
		// Problems interceptor.NewShip finds, placed at the part's line.
		{"cockpit of 2 boxes", gull(t, "[E1, E1, P, P, C, C, P, P, E2, E2]", "[E1, E1, P, P, P, P, P, P, E2, E2]"), FormatYAML, 3, "cockpit C of the Internal Component Block has 2 boxes: every cockpit has 4"},
		{"armour not in rows", gull(t, "left: 40", "left: 45"), FormatYAML, 2, "the left armour has 45 boxes, which is not a multiple of ten"},
		{"component with no boxes", gull(t, "S: Ship Destroyed", "S: Ship Destroyed, Q: Quarters"), FormatYAML, 3, "component Q (Quarters) of the Internal Component Block has no boxes"},
		{"cargo for a non-cargo code", spaceGullYAML + "cargo: {E1: loaded}\n", FormatYAML, 9, `cargo contents are given for "E1"`},
		{"unknown cargo contents", spaceGullYAML + "cargo: {E1: loadd}\n", FormatYAML, 9, `cargo E1 holds "loadd": did you mean "loaded"?`},
		{"external on an unarmoured facing", gull(t, "aft: 40", "aft: 0") + "externals:\n  - {name: Rack, type: External Hardpoint, facing: left, column: 1}\n  - {name: Pod, type: External Hardpoint, facing: aft, column: 2}\n", FormatYAML, 11, `external system "Pod" is on the aft facing, which has no armour`},
		{"two externals on one column", spaceGullYAML + "externals:\n  - {name: Rack, type: External Hardpoint, facing: left, column: 1}\n  - {name: Pod, type: External Hardpoint, facing: left, column: 1}\n", FormatYAML, 11, "one external system per column"},
		{"external column 11", spaceGullYAML + "externals:\n  - {name: Rack, type: External Hardpoint, facing: left, column: 11}\n", FormatYAML, 10, `external system "Rack"'s column is 11: it must be 1 to 10`},
		{"external facing typo", spaceGullYAML + "externals:\n  - {name: Rack, type: External Hardpoint, facing: rigth, column: 1}\n", FormatYAML, 10, `is on facing "rigth": did you mean "right"?`},
		{"internal component as external", spaceGullYAML + "externals:\n  - {name: Rack, type: Engine, facing: left, column: 1}\n", FormatYAML, 10, `external system "Rack" is a Engine`},
		{"crewman at an engine", spaceGullYAML + "crew:\n  - {name: Marcos, race: Human, station: C}\n  - {name: Vess, race: Naram, station: E1}\n", FormatYAML, 11, `crewman Vess is at station "E1"`},
		{"two in one cockpit", spaceGullYAML + "crew:\n  - {name: Marcos, race: Human, station: C}\n  - {name: Vess, race: Naram, station: C}\n", FormatYAML, 11, "cockpit C holds Marcos already"},
		{"unknown race", spaceGullYAML + "crew:\n  - {name: Marcos, race: Hobbit, station: C}\n", FormatYAML, 10, `crewman "Marcos": unknown race "Hobbit"`},
		{"crew station not a code", spaceGullYAML + "crew:\n  - {name: Marcos, race: Human, station: Z}\n", FormatYAML, 10, `crewman "Marcos"'s station is "Z", which is not in the components list`},
		{"crewman key typo", spaceGullYAML + "crew:\n  - {name: Marcos, race: Human, staton: C}\n", FormatYAML, 10, `unknown key "staton" in crewman "Marcos": did you mean "station"?`},
		{"turret armour not in rows", spaceGullYAML + "turrets:\n  - name: Dorsal\n    armor: 25\n    internal: [[T, T, T, T, T, T, T, T, T, T]]\n    components: {T: Turret Structure}\n", FormatYAML, 11, "Dorsal's armour has 25 boxes"},
		{"turret armour per facing", spaceGullYAML + "turrets:\n  - name: Dorsal\n    armor: {forward: 10}\n    internal: [[T, T, T, T, T, T, T, T, T, T]]\n    components: {T: Turret Structure}\n", FormatYAML, 11, `turret "Dorsal" has one armour block`},
		{"turret row of 11", spaceGullYAML + "turrets:\n  - name: Dorsal\n    armor: 20\n    internal: [[T, T, T, T, T, T, T, T, T, T, T]]\n    components: {T: Turret Structure}\n", FormatYAML, 12, `row 1 of turret "Dorsal"'s internal block has 11 cells`},
		{"turret occupied hangars", spaceGullYAML + "turrets:\n  - name: Dorsal\n    armor: 20\n    internal: [[T, T, T, T, T, T, T, T, T, T]]\n    components: {T: Turret Structure}\n    occupied_hangars: [T]\n", FormatYAML, 14, `unknown key "occupied_hangars" in turret "Dorsal"`},
		{"two turrets of one name", spaceGullYAML + "turrets:\n  - {name: Dorsal, armor: 0, internal: [[T, T, T, T, T, T, T, T, T, T]], components: {T: Turret Structure}}\n  - {name: dorsal, armor: 0, internal: [[T, T, T, T, T, T, T, T, T, T]], components: {T: Turret Structure}}\n", FormatYAML, 11, "the turret at line 10 has that name too"},
		{"JSON: a row of 9 cells", strings.Replace(string(readDetail(t, "space_gull.json")), `"F", "F", "F", "F", "F", "F", "F", "F", "F", "F"`, `"F", "F", "F", "F", "F", "F", "F", "F", "F"`, 1), FormatJSON, 5, "row 1 of the ship's internal block has 9 cells"},
		{"JSON: a key twice", "{\"name\": \"A\",\n \"name\": \"B\"}", FormatJSON, 2, `"name" is given twice in the ship record (also at line 1)`},
		{"JSON: a float", strings.Replace(string(readDetail(t, "space_gull.json")), `"aft": 40`, `"aft": 40.5`, 1), FormatJSON, 3, `the aft armor must be a whole number, not "40.5"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := "gull." + string(tc.f)
			sp, err := ParseShipRecord(file, []byte(tc.data), tc.f)
			if err == nil {
				t.Fatalf("no error; spec %+v", sp)
			}
			checkFileError(t, err, file, tc.line, tc.want)
			if !reflect.DeepEqual(sp, interceptor.Spec{}) {
				t.Errorf("an error and a spec: %+v", sp)
			}
		})
	}
}

// checkFileError checks that err is a *FileError at file:line, coded
// invalid, whose message holds want and starts with the place.
func checkFileError(t *testing.T, err error, file string, line int, want string) {
	t.Helper()
	var fe *FileError
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v (%T), want a *FileError", err, err)
	}
	if fe.File != file || fe.Line != line {
		t.Errorf("place %s:%d, want %s:%d (%v)", fe.File, fe.Line, file, line, err)
	}
	if c := rules.CodeOf(err); c != rules.CodeInvalid {
		t.Errorf("code %q, want %q", c, rules.CodeInvalid)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, file+":") {
		t.Errorf("message %q does not start with the file's name", msg)
	}
	if !strings.Contains(msg, want) {
		t.Errorf("message\n  %s\nwant it to hold\n  %s", msg, want)
	}
}

func TestParseShipRecordSize(t *testing.T) {
	data := []byte(spaceGullYAML + "# " + strings.Repeat("x", MaxDetailFile) + "\n")
	_, err := ParseShipRecord("big.yaml", data, FormatYAML)
	checkFileError(t, err, "big.yaml", 0, "larger than 1 MiB")
}

func TestParseShipRecordCSVIsNotAFormat(t *testing.T) {
	_, err := ParseShipRecord("gull.csv", []byte(spaceGullYAML), FormatCSV)
	if err == nil || !strings.Contains(err.Error(), "YAML or JSON") {
		t.Fatalf("err = %v, want one saying a record is YAML or JSON", err)
	}
}

func TestDetailFormat(t *testing.T) {
	for _, tc := range []struct {
		name, flag string
		want       Format
		err        string
	}{
		{"gull.yaml", "", FormatYAML, ""},
		{"gull.YML", "", FormatYAML, ""},
		{"gull.json", "", FormatJSON, ""},
		{"gull.txt", "JSON", FormatJSON, ""},
		{"-", "yaml", FormatYAML, ""},
		{"-", "", "", "standard input"},
		{"gull.csv", "", "", "cannot tell the format"},
		{"gull.yaml", "csv", "", `--format "csv": choose yaml or json`},
	} {
		got, err := DetailFormat(tc.name, tc.flag)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("DetailFormat(%q, %q) = %q, %v; want an error with %q", tc.name, tc.flag, got, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("DetailFormat(%q, %q) = %q, %v; want %q", tc.name, tc.flag, got, err, tc.want)
		}
	}
}

// docExample returns the first ```yaml block after the heading in
// docs/interceptor.md.
func docExample(t *testing.T, heading string) []byte {
	t.Helper()
	return docBlock(t, heading, "yaml")
}

// docBlock returns the first fenced block of the language after the
// heading in docs/interceptor.md.
func docBlock(t *testing.T, heading, lang string) []byte {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "docs", "interceptor.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "\n"+heading+"\n")
	if !ok {
		t.Fatalf("docs/interceptor.md has no heading %q", heading)
	}
	_, after, ok = strings.Cut(after, "```"+lang+"\n")
	if !ok {
		t.Fatalf("docs/interceptor.md has no %s example after %q", lang, heading)
	}
	block, _, ok := strings.Cut(after, "```")
	if !ok {
		t.Fatalf("the example after %q does not end", heading)
	}
	return []byte(block)
}

// TestShipRecordDocExample: the documented complete example is tern.yaml
// and loads.
func TestShipRecordDocExample(t *testing.T) {
	got, err := ParseShipRecord("docs/interceptor.md", docExample(t, "## The record file"), FormatYAML)
	if err != nil {
		t.Fatal(err)
	}
	if want := interceptortest.Tern(); !reflect.DeepEqual(got, want) {
		t.Fatalf("got\n%#v\nwant\n%#v", got, want)
	}
}

// FuzzParseShipRecord: never a panic; either a *FileError coded invalid at
// a place in the named file and no spec, or a spec interceptor.NewShip
// accepts.
func FuzzParseShipRecord(f *testing.F) {
	f.Add([]byte(spaceGullYAML), false)
	f.Add([]byte("name: &a Gull\nturrets: [*a, *a]\n"), false)
	f.Add([]byte("name: G\narmour: {forward: 10, aft: 0, left: 0, right: 0}\ninternal: [[C, C, C, C, F, F, F, F, F, F]]\ncomponents: {C: Cockpit, F: Free, H: Hangar}\noccupied_hangars: [H]\n"), false)
	f.Add([]byte("name: G\narmor: {forward: 10, aft: 10, left: 10, right: 10}\ninternal: [[K, K, K, K, F, F, F, F, F, F]]\ncomponents: {K: Cargo, F: Free}\ncargo: {K: missile reloads}\nexternals: [{name: R, type: External Hardpoint, facing: aft, column: 4}]\ncrew: [{name: M, race: Human, station: K}]\n"), false)
	f.Add([]byte(`{"name": "G", "armor": {"forward": 0, "aft": 0, "left": 0, "right": 0}, "internal": [["F","F","F","F","F","F","F","F","F","F"]], "components": {"F": "Free"}, "turrets": [{"name": "T", "armor": 10, "internal": [["T","T","T","T","T","T","T","T","T","T"]], "components": {"T": "Turret Structure"}}]}`), true)
	f.Add([]byte("{\"name\": 1e3}"), true)
	f.Fuzz(func(t *testing.T, data []byte, asJSON bool) {
		file, format := "f.yaml", FormatYAML
		if asJSON {
			file, format = "f.json", FormatJSON
		}
		sp, err := ParseShipRecord(file, data, format)
		if err != nil {
			var fe *FileError
			if !errors.As(err, &fe) || fe.File != file || fe.Line < 0 || rules.CodeOf(err) != rules.CodeInvalid {
				t.Fatalf("err = %v (%T), want a *FileError coded invalid", err, err)
			}
			if !reflect.DeepEqual(sp, interceptor.Spec{}) {
				t.Fatalf("an error and a spec: %+v", sp)
			}
			return
		}
		if _, err := interceptor.NewShip(sp); err != nil {
			t.Fatalf("a spec that NewShip refuses: %v\n%+v", err, sp)
		}
	})
}
