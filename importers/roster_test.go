package importers

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/campaign"
)

// issueYAML is the roster the issue says must load as written.
const issueYAML = `characters:
  - name: Vess
    st: 11
    dx: 11
    iq: 10
    skills: {Pilot: 1, Gunner: 1}
ships:
  - name: Lark
    record: "Engineering1, Operations1, Living1, d6/1, M+1"
    crew: {Operations: Vess}
`

const issueJSON = `{
  "characters": [
    {"name": "Vess", "st": 11, "dx": 11, "iq": 10, "skills": {"Pilot": 1, "Gunner": 1}}
  ],
  "ships": [
    {"name": "Lark", "record": "Engineering1, Operations1, Living1, d6/1, M+1", "crew": {"Operations": "Vess"}}
  ]
}
`

// values strips the places from a roster, to compare what it says.
func values(r campaign.Roster) campaign.Roster {
	for i := range r.Characters {
		r.Characters[i].Source, r.Characters[i].Fields = campaign.Source{}, nil
	}
	for i := range r.Ships {
		r.Ships[i].Source, r.Ships[i].Fields = campaign.Source{}, nil
	}
	return r
}

var vess = campaign.RosterCharacter{Name: "Vess", ST: 11, DX: 11, IQ: 10, Skills: []string{"Pilot:1", "Gunner:1"}}

var lark = campaign.RosterShip{Name: "Lark", Record: "Engineering1, Operations1, Living1, d6/1, M+1", Crew: []campaign.RosterCrew{{Section: "Operations", Names: []string{"Vess"}}}}

func TestParseRosterIssueExamples(t *testing.T) {
	want := campaign.Roster{Characters: []campaign.RosterCharacter{vess}, Ships: []campaign.RosterShip{lark}}
	for _, tc := range []struct {
		name       string
		data       string
		f          Format
		char, ship int // the rows' lines
		crewField  int
	}{
		{"party.yaml", issueYAML, FormatYAML, 2, 8, 10},
		{"party.json", issueJSON, FormatJSON, 3, 6, 6},
	} {
		r, err := ParseRoster(tc.name, []byte(tc.data), tc.f)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.Characters[0].Source != (campaign.Source{File: tc.name, Line: tc.char}) || r.Ships[0].Source.Line != tc.ship || r.Ships[0].Fields["crew"].Line != tc.crewField {
			t.Errorf("%s: places %+v, %+v, crew %+v", tc.name, r.Characters[0].Source, r.Ships[0].Source, r.Ships[0].Fields["crew"])
		}
		if got := values(r); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got  %+v\n want %+v", tc.name, got, want)
		}
	}
}

// TestParseRosterCSV reads CSV as spreadsheets save it.
func TestParseRosterCSV(t *testing.T) {
	data := "\xef\xbb\xbfName, ST ,dx,iq,skills,weapon,armour\r\n" +
		"\"Smith, Jr.\",10,12,10,\"Pilot:1; Medic :1;\",Handgun,\r\n" +
		"\r\n" +
		"Brann,14,10,8,Unarmed:2,,Flak Vest\r\n"
	r, err := ParseRoster("party.csv", []byte(data), FormatCSV)
	if err != nil {
		t.Fatal(err)
	}
	want := []campaign.RosterCharacter{
		{Name: "Smith, Jr.", ST: 10, DX: 12, IQ: 10, Skills: []string{"Pilot:1", "Medic:1"}, Weapon: "Handgun"},
		{Name: "Brann", ST: 14, DX: 10, IQ: 8, Skills: []string{"Unarmed:2"}, Armor: "Flak Vest"},
	}
	if r.Characters[1].Source.Line != 4 || r.Characters[0].Fields["st"] != (campaign.Source{File: "party.csv", Line: 2, Column: 2}) {
		t.Fatalf("places: %+v %+v", r.Characters[1].Source, r.Characters[0].Fields["st"])
	}
	if got := values(r).Characters; !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
	// Columns in another order, the optional ones left out.
	r, err = ParseRoster("p.csv", []byte("iq,dx,st,name\n10,12,10,Kira\n"), FormatCSV)
	if err != nil || len(r.Characters) != 1 || r.Characters[0].ST != 10 || r.Characters[0].DX != 12 || r.Characters[0].Name != "Kira" {
		t.Fatalf("reordered columns: %+v, %v", r, err)
	}
}

// TestParseRosterProblems: every bad row is named, by line (and column and
// field), and nothing else comes back.
func TestParseRosterProblems(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		f          Format
		want       []string // each problem's place and field, in order
		say        string
	}{
		{"bad.csv", "name,st,dx,iq\nOk,10,12,10\nOdd,eleven,12,10\n,10,12,10\nBig,10,12,100\nShort,10\n", FormatCSV,
			[]string{"bad.csv:3:2: st", "bad.csv:4:1: name", "bad.csv:5:4: iq", "bad.csv:6"}, "not a whole number"},
		{"cols.csv", "name,st,dx,iq,dex\n", FormatCSV, []string{"cols.csv:1:5"}, `unknown column "dex"`},
		{"req.csv", "name,st,dx\nA,1,2\n", FormatCSV, []string{"req.csv:1"}, `no "iq" column`},
		{"dup.csv", "name,st,dx,iq\nKira,10,12,10\nkira,10,12,10\n", FormatCSV, []string{"dup.csv:3: name"}, "also the name of the character at line 2"},
		{"skills.csv", "name,st,dx,iq,skills\nA,10,12,10,Pilot:1;;Medic:1\n", FormatCSV, []string{"skills.csv:2:5: skills"}, "skill 2 is empty"},
		{"quote.csv", "name,st,dx,iq\n\"Open,10,12,10\n", FormatCSV, []string{"quote.csv:2"}, "quote"},
		{"latin1.csv", "name,st,dx,iq\nZo\xeb,10,12,10\n", FormatCSV, []string{"latin1.csv:2"}, "not UTF-8"},
		{"empty.csv", "", FormatCSV, []string{"empty.csv:0"}, "empty"},
		{"header.csv", "name,st,dx,iq\n", FormatCSV, []string{"header.csv:0"}, "the roster is empty"},
		{"typo.yaml", "characters:\n  - name: A\n    st: 10\n    dex: 12\n    iq: 10\n", FormatYAML,
			[]string{"typo.yaml:4", "typo.yaml:2: dx"}, `unknown key "dex"`},
		{"types.yaml", "characters:\n  - name: A\n    st: eleven\n    dx: 12\n    iq: 10\n    skills: 3\n  - name: B\n    st: 10\n    dx: 12\n    iq: [1]\n", FormatYAML,
			[]string{"types.yaml:3: st", "types.yaml:6: skills", "types.yaml:10: iq"}, "not a whole number"},
		{"alias.yaml", "base: &b {st: 10}\ncharacters:\n  - *b\n", FormatYAML, []string{"alias.yaml:1"}, "aliases"},
		{"two.yaml", "characters: []\n---\nships: []\n", FormatYAML, []string{"two.yaml:2"}, "second document"},
		{"list.yaml", "- name: A\n", FormatYAML, []string{"list.yaml:1"}, "must be a mapping"},
		{"ship.yaml", "ships:\n  - name: Lark\n    crew: {Operations: [Vess, ~]}\n", FormatYAML,
			[]string{"ship.yaml:3: crew", "ship.yaml:2: record"}, "is missing"},
		{"dupkey.json", `{"characters": [{"name": "A", "name": "B", "st": 1, "dx": 1, "iq": 1}]}`, FormatJSON, []string{"dupkey.json:1: name"}, "given twice"},
		{"syntax.json", "{\n  \"characters\": [\n    {\"name\": \"A\",}\n  ]\n}", FormatJSON, []string{"syntax.json:3"}, "not JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := ParseRoster(tc.name, []byte(tc.data), tc.f)
			var re *RosterError
			if !errors.As(err, &re) {
				t.Fatalf("err = %v (roster %+v), want a RosterError", err, r)
			}
			if len(r.Characters)+len(r.Ships) > 0 {
				t.Errorf("a bad roster came back with rows: %+v", r)
			}
			var got []string
			for _, p := range re.Problems {
				s := p.Source.String()
				if p.Field != "" {
					s += ": " + p.Field
				}
				got = append(got, s)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("problems at %q, want %q\n%v", got, tc.want, err)
			}
			if !strings.Contains(err.Error(), tc.say) {
				t.Errorf("the error does not say %q:\n%v", tc.say, err)
			}
		})
	}
}

func TestRosterFormat(t *testing.T) {
	for _, tc := range []struct {
		name, flag string
		want       Format
		bad        string
	}{
		{"party.csv", "", FormatCSV, ""},
		{"PARTY.YML", "", FormatYAML, ""},
		{"party.yaml", "", FormatYAML, ""},
		{"party.json", "", FormatJSON, ""},
		{"party.txt", "json", FormatJSON, ""},
		{"-", "YAML", FormatYAML, ""},
		{"-", "", "", "--format"},
		{"party.txt", "", "", "cannot tell the format"},
		{"party.csv", "xml", "", "choose csv, yaml or json"},
	} {
		got, err := RosterFormat(tc.name, tc.flag)
		if tc.bad != "" {
			if err == nil || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("RosterFormat(%q, %q) = %q, %v; want an error saying %q", tc.name, tc.flag, got, err, tc.bad)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("RosterFormat(%q, %q) = %q, %v; want %q", tc.name, tc.flag, got, err, tc.want)
		}
	}
}
