package importers

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/rules/interceptor"
	"github.com/ltscamp/ltscamp/rules/interceptor/interceptortest"
)

// gullRoster is a roster whose second ship is the Space Gull,
// given inline as a detailed record without its name (the row's).
const gullRoster = `ships:
  - name: Kit-Kat
    record: "C1, E1, O1, L1, d6/1, M+1"
  - name: Space Gull
    detailed:
      armor: {forward: 80, aft: 40, left: 40, right: 40}
      internal:
        - [F,  F,  F, F, F, F, F, F, F,  F ]
        - [E1, E1, P, P, C, C, P, P, E2, E2]
        - [E1, E1, P, P, C, C, P, P, E2, E2]
        - [S,  S,  S, S, S, S, S, S, S,  S ]
      components: {F: Free, E1: Engine, E2: Engine, P: Powerplant, C: Cockpit, S: Ship Destroyed}
`

const gullRosterJSON = `{"ships": [
  {"name": "Space Gull", "detailed": {
    "armor": {"forward": 80, "aft": 40, "left": 40, "right": 40},
    "internal": [
      ["F", "F", "F", "F", "F", "F", "F", "F", "F", "F"],
      ["E1", "E1", "P", "P", "C", "C", "P", "P", "E2", "E2"],
      ["E1", "E1", "P", "P", "C", "C", "P", "P", "E2", "E2"],
      ["S", "S", "S", "S", "S", "S", "S", "S", "S", "S"]],
    "components": {"F": "Free", "E1": "Engine", "E2": "Engine", "P": "Powerplant", "C": "Cockpit", "S": "Ship Destroyed"}}}
]}`

// TestRosterDetailedShips: a roster ship may carry a detailed record
// instead of a section record, read as a record file is.
func TestRosterDetailedShips(t *testing.T) {
	want := interceptortest.SpaceGull()
	for _, tc := range []struct {
		name, data string
		f          Format
		ship       int
	}{
		{"party.yaml", gullRoster, FormatYAML, 1},
		{"party.json", gullRosterJSON, FormatJSON, 0},
	} {
		r, err := ParseRoster(tc.name, []byte(tc.data), tc.f)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		row := r.Ships[tc.ship]
		if row.Detailed == nil || row.Record != "" {
			t.Fatalf("%s: ship %q: detailed %v, record %q; want a detailed record only", tc.name, row.Name, row.Detailed, row.Record)
		}
		if got := *row.Detailed; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the inline record reads as\n%+v\nwant the record file's\n%+v", tc.name, got, want)
		}
		if _, err := interceptor.NewShip(*row.Detailed); err != nil {
			t.Errorf("%s: NewShip refuses the record: %v", tc.name, err)
		}
	}
	if r, _ := ParseRoster("party.yaml", []byte(gullRoster), FormatYAML); r.Ships[0].Detailed != nil {
		t.Error("a section ship came back with a detailed record")
	}
}

// TestRosterDetailedShipsRefused: each problem of a detailed row is named
// at its line in the roster.
func TestRosterDetailedShipsRefused(t *testing.T) {
	for _, tc := range []struct {
		what, data, want string
	}{
		{"both records", strings.Replace(gullRoster, "    detailed:", "    record: \"C1, E1\"\n    detailed:", 1), "party.yaml:7: detailed: a ship has a record (a section ship) or a detailed record (INTERCEPTOR), not both"},
		{"neither", "ships:\n  - name: Gull\n", "record: is missing: a ship needs a name and a record (or a detailed record)"},
		{"not a mapping", "ships:\n  - name: Gull\n    detailed: gull.yaml\n", "party.yaml:3: detailed: detailed: must be a ship record"},
		{"a short row", strings.Replace(gullRoster, "[F,  F,  F, F, F, F, F, F, F,  F ]", "[F, F, F]", 1), "party.yaml:8: detailed: row 1 of the ship's internal block has 3 cells"},
		{"an unknown code", strings.Replace(gullRoster, "[S,  S,  S, S,", "[S,  S,  Q, S,", 1), "party.yaml:11: detailed:"},
	} {
		_, err := ParseRoster("party.yaml", []byte(tc.data), FormatYAML)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: ParseRoster = %v; want it to say %q", tc.what, err, tc.want)
		}
		var re *RosterError
		if err != nil && !errors.As(err, &re) {
			t.Errorf("%s: %T is not a roster error", tc.what, err)
		}
	}
}
