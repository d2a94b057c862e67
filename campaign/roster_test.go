package campaign

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor/interceptortest"
)

func rosterRow(line int, name string, st, dx, iq int, skills ...string) RosterCharacter {
	return RosterCharacter{Source: Source{File: "party.yaml", Line: line}, Name: name, ST: st, DX: dx, IQ: iq, Skills: skills}
}

// TestImportRoster brings in a party as one command: characters, their
// equipment, a ship owned and crewed by them.
func TestImportRoster(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	vess := rosterRow(2, "Vess", 11, 11, 10, "Pilot:1", "Gunner:1")
	vess.Weapon, vess.Armor = "Handgun", "Flak Vest"
	r := Roster{
		Characters: []RosterCharacter{vess, rosterRow(8, "Brann", 14, 10, 8, "Unarmed:2")},
		Ships: []RosterShip{{Source: Source{File: "party.yaml", Line: 12}, Name: "Lark", Record: "Engineering1, Operations1, Living1, d6/1, M+1",
			Owner: "Vess", Crew: []RosterCrew{{Section: "Operations", Names: []string{"Vess"}}, {Section: "Living", Names: []string{"Brann"}}}}},
	}
	before := count(t, s)
	dry, err := s.ImportRoster(r, true)
	if err != nil {
		t.Fatalf("dry run: %v", err)
	}
	if count(t, s) != before {
		t.Fatal("a dry run appended events")
	}
	if !dry.DryRun || len(dry.Characters) != 2 || len(dry.Ships) != 1 || dry.Events != 7 {
		t.Fatalf("dry run = %d characters, %d ships, %d events; want 2, 1, 7", len(dry.Characters), len(dry.Ships), dry.Events)
	}
	res, err := s.ImportRoster(r, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := count(t, s) - before; got != 7 || res.Events != 7 {
		t.Fatalf("appended %d events (result says %d), want 7: 2 created, 2 equipped, 1 built, 2 crewed", got, res.Events)
	}
	v, err := s.Sheet("Vess")
	if err != nil {
		t.Fatal(err)
	}
	if v.Weapon == nil || v.Weapon.Name != "Handgun" || v.Armor == nil || v.Armor.Name != "Flak Vest" || v.SkillLevel("pilot") != 1 || v.SkillLevel("gunner") != 1 {
		t.Fatalf("Vess = %+v", v)
	}
	lark, err := s.Ship("Lark", "")
	if err != nil {
		t.Fatal(err)
	}
	if lark.Owner != "Vess" || lark.Sections[1].Name != "Operations" || strings.Join(lark.Sections[1].Crew, ",") != "Vess" || strings.Join(lark.Sections[2].Crew, ",") != "Brann" {
		t.Fatalf("Lark = %+v", lark)
	}
	// One command: a single undo takes the whole import back.
	log, err := s.Log(LogFilter{})
	if err != nil {
		t.Fatal(err)
	}
	cmds := map[string]bool{}
	for _, e := range log[len(log)-7:] {
		cmds[e.Event.CommandID] = true
	}
	if len(cmds) != 1 {
		t.Fatalf("the import is %d commands, want 1", len(cmds))
	}
	if rep, err := s.Verify(); err != nil || !rep.OK {
		t.Fatalf("verify after the import: %v %+v", err, rep.Violations)
	}
}

// TestImportRosterListsEveryBadRow: every row the rules refuse is named,
// and nothing is appended.
func TestImportRosterListsEveryBadRow(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	weak := rosterRow(6, "Weakling", 8, 12, 12)
	weak.Weapon = "Heavy Laser Rifle"
	r := Roster{
		Characters: []RosterCharacter{
			rosterRow(2, "Ok1", 10, 12, 10),
			rosterRow(3, "TooMany", 14, 14, 14),
			rosterRow(4, "ajax", 10, 12, 10),
			rosterRow(5, "Ok1", 10, 12, 10),
			weak,
			rosterRow(7, "Skilled", 10, 12, 10, "Basket Weaving:1"),
		},
		Ships: []RosterShip{{Source: Source{File: "party.yaml", Line: 9}, Name: "Wreck", Record: "Engineering9"},
			{Source: Source{File: "party.yaml", Line: 11}, Name: "Lark", Record: "Operations1", Crew: []RosterCrew{{Section: "Operations", Names: []string{"Nobody"}}}}},
	}
	before := count(t, s)
	_, err := s.ImportRoster(r, false)
	var re *RosterError
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want a RosterError", err)
	}
	if count(t, s) != before {
		t.Fatal("a refused import appended events")
	}
	var at []string
	for _, p := range re.Problems {
		at = append(at, p.Source.String()+" "+p.Name)
	}
	want := []string{"party.yaml:3 TooMany", "party.yaml:4 ajax", "party.yaml:5 Ok1", "party.yaml:6 Weakling", "party.yaml:7 Skilled", "party.yaml:9 Wreck", "party.yaml:11 Lark"}
	if strings.Join(at, "; ") != strings.Join(want, "; ") {
		t.Fatalf("problems at\n %v\nwant\n %v\n(%v)", at, want, err)
	}
	msg := err.Error()
	for _, phrase := range []string{"7 problems", "nothing was changed", "already in the party", "created twice", "weapon"} {
		if !strings.Contains(msg, phrase) {
			t.Errorf("the error does not say %q:\n%s", phrase, msg)
		}
	}
	if _, err := s.ImportRoster(Roster{}, false); rules.CodeOf(err) != rules.CodeInvalid {
		t.Fatalf("empty roster: %v", err)
	}
}

// TestImportRosterResultIsTheLogRead: what an import returns is what
// reading the log afterwards gives, sheet for sheet and ship for ship
// (the result is folded from the events it appended, not read back one
// character at a time), in a campaign that already has a party.
func TestImportRosterResultIsTheLogRead(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	vess := rosterRow(2, "Vess", 11, 11, 10, "Pilot:1", "Gunner:1")
	vess.Weapon, vess.Armor = "Handgun", "Flak Vest"
	tern := interceptortest.Tern()
	r := Roster{
		Characters: []RosterCharacter{vess, rosterRow(8, "Brann", 14, 10, 8, "Unarmed:2"), rosterRow(9, "Cole", 12, 12, 8)},
		Ships: []RosterShip{
			{Source: Source{File: "party.yaml", Line: 12}, Name: "Lark", Record: "Engineering1, Operations1, Living1, d6/1, M+1",
				Owner: "Vess", Crew: []RosterCrew{{Section: "Operations", Names: []string{"Vess", "Ajax"}}, {Section: "Living", Names: []string{"Brann"}}}},
			{Source: Source{File: "party.yaml", Line: 20}, Name: "Tern", Detailed: &tern},
		},
	}
	res, err := s.ImportRoster(r, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Characters) != 3 || len(res.Ships) != 1 || len(res.DetailedShips) != 1 {
		t.Fatalf("imported %d characters, %d ships, %d detailed ships", len(res.Characters), len(res.Ships), len(res.DetailedShips))
	}
	for _, got := range res.Characters {
		want, err := s.Sheet(got.Name)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the import returned\n%+v\nthe log reads\n%+v", got.Name, got, want)
		}
	}
	want, err := s.Ship("Lark", "")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.Ships[0], want) {
		t.Errorf("Lark: the import returned\n%+v\nthe log reads\n%+v", res.Ships[0], want)
	}
	wantD, err := s.DetailedShip("Tern", "")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(res.DetailedShips[0], wantD) {
		t.Errorf("Tern: the import returned\n%+v\nthe log reads\n%+v", res.DetailedShips[0], wantD)
	}
}

// TestImportRosterReadsInProportion: an import reads the log about as much
// for 80 characters as for 20, and never once per character (it used to
// read the roster back once per character it created: 80 characters read
// sixteen times what 20 did).
func TestImportRosterReadsInProportion(t *testing.T) {
	read := func(n int) int {
		s := newCampaign(t, rules.Edition2021)
		mustCreate(t, s, "Ajax", 12, 11, 9)
		var r Roster
		for i := range n {
			row := rosterRow(i+2, fmt.Sprintf("R%d", i), 12, 11, 9, "Pilot:1")
			row.Weapon = "Handgun"
			r.Characters = append(r.Characters, row)
		}
		cs, c := counted(t, s)
		res, err := cs.ImportRoster(r, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Characters) != n {
			t.Fatalf("imported %d characters, want %d", len(res.Characters), n)
		}
		return c.events
	}
	small, large := read(20), read(80)
	if large > 2*small {
		t.Fatalf("an import of 20 characters read %d events, of 80 %d: more than twice as many", small, large)
	}
}
