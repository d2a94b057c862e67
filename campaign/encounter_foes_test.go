package campaign

import (
	"slices"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

func TestParseFoeLineGearAndCount(t *testing.T) {
	good := []struct {
		line  string
		gear  []string
		count int
	}{
		{"Pirate:ST12,DX12,IQ9,cutlass x3", []string{"cutlass"}, 3},
		{"Pirate:ST12,DX12,IQ9 x3", nil, 3},
		{"Pirate:ST12,DX12,IQ9,cutlass,flak vest X2", []string{"cutlass", "flak vest"}, 2},
		{"Drone:ST10,DX11,IQ8,handgun ×1", []string{"handgun"}, 1},
		{"Pirate:ST12,DX12,IQ9,Fire Axe (2)", []string{"Fire Axe (2)"}, 0},
		{"Pirate:ST12,DX11,IQ9", nil, 0},
	}
	for _, g := range good {
		got, err := ParseFoeLine(g.line)
		if err != nil || got.Name != strings.SplitN(g.line, ":", 2)[0] || !slices.Equal(got.Gear, g.gear) || got.Count != g.count {
			t.Errorf("ParseFoeLine(%q) = %+v, %v; want gear %q, count %d", g.line, got, err, g.gear, g.count)
		}
	}
	bad := []struct{ line, want string }{
		{"Pirate:ST12,DX12,cutlass,IQ9", `"cutlass" is not an attribute such as ST12 (the weapon and armour come after ST, DX and IQ)`},
		{"Pirate:ST12,DX12,IQ9,cutlass,DX4", "DX is given twice"},
		{"Pirate:ST12,DX12,IQ9,,cutlass", "an empty item between commas"},
		{"Pirate:ST12,DX12,IQ9,cutlass x0", "x0 foes (give x1 to x99)"},
		{"Pirate:ST12,DX12,IQ9 x100", "x100 foes"},
		{"Pirate:ST12,DX12 x3", "lacks IQ"},
	}
	for _, b := range bad {
		if _, err := ParseFoeLine(b.line); err == nil || !strings.Contains(err.Error(), b.want) || rules.CodeOf(err) != rules.CodeInvalid {
			t.Errorf("ParseFoeLine(%q) err = %v; want %q", b.line, err, b.want)
		}
	}
}

func mustLine(t *testing.T, line string) NewFoe {
	t.Helper()
	nf, err := ParseFoeLine(line)
	if err != nil {
		t.Fatal(err)
	}
	return nf
}

func foeNamesOf(t *testing.T, s *Service, all bool) []string {
	t.Helper()
	list := s.FoeSheets
	if all {
		list = s.AllFoeSheets
	}
	sheets, err := list()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, sh := range sheets {
		names = append(names, sh.Name)
	}
	return names
}

// TestEncounterFoesLeaveTheRoster: the foes of encounter start --foes, and
// those foe add adds during the encounter, leave the roster when it ends,
// dead or not, in the end's own command (undo brings them back); their
// names serve the next encounter; a standing foe (added before, or with
// Keep) stays; verify replays it all.
func TestEncounterFoesLeaveTheRoster(t *testing.T) {
	for _, ed := range []rules.Edition{rules.Edition2021, rules.Edition2010} {
		t.Run(string(ed), func(t *testing.T) {
			s := newCampaign(t, ed)
			mustCreate(t, s, "Kira", 10, 12, 10)
			if _, err := s.AddFoe(mustLine(t, "Boss:ST13,DX12,IQ11")); err != nil { // standing: no encounter
				t.Fatal(err)
			}
			if _, err := s.AdventureStart("Run"); err != nil {
				t.Fatal(err)
			}
			res, err := s.EncounterStart("Pirates", mustLine(t, "Pirate:ST12,DX12,IQ9,dagger x3"))
			if err != nil {
				t.Fatal(err)
			}
			if n := len(res.Events); n != 7 { // the start, 3 foes, 3 daggers
				t.Fatalf("encounter start appended %d events; want 7", n)
			}
			// Reinforcements continue the numbers; a kept NPC stays.
			if _, err := s.AddFoes(NewFoe{Name: "Pirate", Attributes: rules.Attributes{ST: 10, DX: 10, IQ: 10}, Count: 1}); err != nil {
				t.Fatal(err)
			}
			if _, err := s.AddFoe(NewFoe{Name: "Informer", Attributes: rules.Attributes{ST: 8, DX: 9, IQ: 12}, Keep: true}); err != nil {
				t.Fatal(err)
			}
			want := []string{"Boss", "Pirate 1", "Pirate 2", "Pirate 3", "Pirate 4", "Informer"}
			if got := foeNamesOf(t, s, false); !slices.Equal(got, want) {
				t.Fatalf("foes %q; want %q", got, want)
			}
			p1, err := s.FoeSheet("Pirate 1")
			if err != nil || p1.Weapon == nil || !strings.HasPrefix(p1.Weapon.Name, "Dagger") {
				t.Fatalf("Pirate 1: %+v, %v; want a dagger", p1.Weapon, err)
			}
			if _, _, err := s.Damage(DamageRequest{Name: "Pirate 2", Points: 24, Source: "a blast"}); err != nil {
				t.Fatal(err)
			}
			end, err := s.EncounterEnd(OutcomeVictory, nil)
			if err != nil {
				t.Fatal(err)
			}
			var removed []string
			for _, e := range end.Events {
				if e.Type == events.TypeFoeRemoved {
					removed = append(removed, end.Names[e.Stream])
				}
			}
			if want := []string{"Pirate 1", "Pirate 2", "Pirate 3", "Pirate 4"}; !slices.Equal(removed, want) {
				t.Fatalf("encounter end removed %q; want %q", removed, want)
			}
			if got, want := foeNamesOf(t, s, false), []string{"Boss", "Informer"}; !slices.Equal(got, want) {
				t.Fatalf("after the end, foes %q; want %q", got, want)
			}
			if got := foeNamesOf(t, s, true); len(got) != 6 || got[2] != "Pirate 1" {
				t.Fatalf("all foes %q", got)
			}
			if _, err := s.FoeSheet("Pirate 1"); rules.CodeOf(err) != rules.CodeNotFound {
				t.Fatalf("Pirate 1 after the end: %v; want not found", err)
			}
			// Undo of the end brings them back (Pirate 2 dead); redo takes them off.
			if _, err := s.Undo(UndoRequest{}); err != nil {
				t.Fatal(err)
			}
			if got := foeNamesOf(t, s, false); len(got) != 6 {
				t.Fatalf("after undo, foes %q; want all six", got)
			}
			if _, err := s.Redo(RedoRequest{}); err != nil {
				t.Fatal(err)
			}
			// The next encounter reuses the names.
			if _, err := s.EncounterStart("Pirates again", mustLine(t, "Pirate:ST11,DX11,IQ9 x2")); err != nil {
				t.Fatal(err)
			}
			if got, want := foeNamesOf(t, s, false), []string{"Boss", "Informer", "Pirate 1", "Pirate 2"}; !slices.Equal(got, want) {
				t.Fatalf("second encounter, foes %q; want %q", got, want)
			}
			if rep := mustVerify(t, s); !rep.OK {
				t.Fatalf("verify: %+v", rep.Violations)
			}
		})
	}
}

func TestEncounterFoesRefused(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Kira", 10, 12, 10)
	if _, err := s.AdventureStart("Run"); err != nil {
		t.Fatal(err)
	}
	before := count(t, s)
	refusals := []struct {
		foes []NewFoe
		code rules.Code
		want string
	}{
		{[]NewFoe{mustLine(t, "Pirate:ST12,DX12,IQ9,cutlas x3")}, rules.CodeInvalid, `foe Pirate 1: unknown weapon "cutlas" in edition 2021; did you mean "Cutlass"?`},
		{[]NewFoe{mustLine(t, "Pirate:ST12,DX12,IQ9,cutlass,handgun x2")}, rules.CodeInvalid, "two weapons"},
		{[]NewFoe{mustLine(t, "Kira:ST12,DX12,IQ9")}, rules.CodeConflict, `a character named "Kira" is already in the party`},
		{[]NewFoe{mustLine(t, "Pirate:ST12,DX12,IQ9 x2"), mustLine(t, "Pirate 2:ST12,DX12,IQ9")}, rules.CodeConflict, `a foe named "Pirate 2" is added twice`},
		{[]NewFoe{{Name: "Ally", Attributes: rules.Attributes{ST: 9, DX: 9, IQ: 9}, Keep: true}}, rules.CodeInvalid, "foe add --keep"},
	}
	for _, r := range refusals {
		_, err := s.EncounterStart("Pirates", r.foes...)
		if err == nil || !strings.Contains(err.Error(), r.want) || rules.CodeOf(err) != r.code {
			t.Errorf("EncounterStart(%+v) err = %v (code %v); want %q", r.foes, err, rules.CodeOf(err), r.want)
		}
	}
	if n := count(t, s); n != before {
		t.Fatalf("refusals appended %d events", n-before)
	}
}

// TestVerifyEncounterFoes: verify names a foe of an encounter not under
// way, and an encounter that ends with its foes on the roster.
func TestVerifyEncounterFoes(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Kira", 10, 12, 10)
	if _, err := s.AdventureStart("Run"); err != nil {
		t.Fatal(err)
	}
	appendRaw(t, s, events.FoeStream("F1"), events.FoeAdded{FoeID: "F1", Name: "Ghost", Edition: "2021", Attributes: events.Attributes{ST: 9, DX: 9, IQ: 9}, Encounter: 1})
	if _, err := s.EncounterStart("Trap"); err != nil {
		t.Fatal(err)
	}
	appendRaw(t, s, events.FoeStream("F2"), events.FoeAdded{FoeID: "F2", Name: "Wraith", Edition: "2021", Attributes: events.Attributes{ST: 9, DX: 9, IQ: 9}, Encounter: 1})
	appendRaw(t, s, events.CampaignStream, events.EncounterEnded{Number: 1, Outcome: OutcomeFled, Contributors: []string{}})
	rep := mustVerify(t, s)
	var problems []string
	for _, v := range rep.Violations {
		problems = append(problems, v.Problem)
	}
	want := []string{"foe Ghost belongs to encounter 1, which is not under way", "encounter 1 ended with its foe Ghost still on the roster"}
	if rep.OK || !slices.Equal(problems, want) {
		t.Fatalf("violations %q; want %q", problems, want)
	}
}
