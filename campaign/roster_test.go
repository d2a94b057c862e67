package campaign

import (
	"errors"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/rules"
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
