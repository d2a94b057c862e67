package projections

import (
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

// foldTurns folds the steps of logOf into Turns, as the campaign does.
func foldTurnsOf(t *testing.T, steps ...step) Turns {
	t.Helper()
	var tr Turns
	for _, e := range logOf(t, steps...) {
		p, err := events.Decode(e)
		if err != nil {
			t.Fatal(err)
		}
		tr.Apply(e, p)
	}
	return tr
}

const pirateStream = "foe/P"

func blow(attacker, attackerID, target, targetID string, dodged bool) events.AttackMade {
	a := events.AttackMade{AttackerID: attackerID, Attacker: attacker, TargetID: targetID, Target: target}
	if dodged {
		a.Dodge = &events.AttackRoll{Expr: "3/DX", Faces: []int{3, 3, 3}}
	}
	return a
}

// 2021 "Initiative": "each side rolls one die. The side rolling the higher
// die moves first. Players alternate turns"; "A defender can react to ONE
// attacker, but loses his next turn."
func TestTurnsFold(t *testing.T) {
	start := []step{
		{events.CampaignStream, "K1", events.EncounterStarted{Number: 1, Title: "Pirates"}},
		{events.TurnsStream, "K2", events.InitiativeRolled{Encounter: 1, Party: []int{5}, Foes: []int{2}, First: events.SideParty}},
		{ajaxStream, "K3", blow("Ajax", "A", "Pirate", "P", false)},
	}
	tr := foldTurnsOf(t, start...)
	if !tr.Active || tr.Turn != 1 || tr.Side() != events.SideParty || tr.Round() != 1 || tr.Acted["A"] != 3 {
		t.Fatalf("after the party's first attack: %+v", tr)
	}
	// The pirate's attack passes the turn; Hector dodges it.
	steps := append(start, step{pirateStream, "K4", blow("Pirate", "P", "Hector", "H", true)})
	tr = foldTurnsOf(t, steps...)
	if tr.Turn != 2 || tr.Side() != events.SideFoes || tr.Acted["A"] != 0 || tr.Acted["P"] != 4 {
		t.Fatalf("the foes' first action did not pass the turn: %+v", tr)
	}
	if !tr.Losing("H") || tr.Loses["H"] != 3 || tr.LosesAt("H", 2) {
		t.Fatalf("Hector dodged in turn 2 and loses turn 3 (his side's next): %+v", tr.Loses)
	}
	// Hector acting in turn 3 with no overrule breaks the rule; with one
	// it does not.
	broke := foldTurnsOf(t, append(steps, step{"character/H", "K5", blow("Hector", "H", "Pirate", "P", false)})...)
	if len(broke.Broken) != 1 || broke.Broken[0].Name != "Hector" || broke.Broken[0].Round != 2 {
		t.Fatalf("Hector's action in his lost turn: %+v", broke.Broken)
	}
	allowed := foldTurnsOf(t, append(steps,
		step{events.TurnsStream, "K5", events.TurnOverruled{Encounter: 1, ID: "H", Name: "Hector", Side: events.SideParty, Turn: 3, Round: 2, Reason: "r"}},
		step{"character/H", "K5", blow("Hector", "H", "Pirate", "P", false)})...)
	if len(allowed.Broken) != 0 || allowed.Turn != 3 {
		t.Fatalf("an overruled turn: %+v", allowed)
	}
	// turn end passes the lost turn: the mark is spent.
	passed := foldTurnsOf(t, append(steps,
		step{events.TurnsStream, "K5", events.TurnEnded{Encounter: 1, Turn: 2, Round: 1, Side: events.SideFoes}},
		step{events.TurnsStream, "K6", events.TurnEnded{Encounter: 1, Turn: 3, Round: 2, Side: events.SideParty}})...)
	if passed.Turn != 4 || passed.Losing("H") || passed.Round() != 2 || passed.Side() != events.SideFoes {
		t.Fatalf("after two turn ends: %+v", passed)
	}
	// The encounter's end clears the tracker.
	ended := foldTurnsOf(t, append(steps, step{events.CampaignStream, "K5", events.EncounterEnded{Number: 1, Outcome: "victory"}})...)
	if ended.Active || ended.Losing("H") {
		t.Fatalf("after the encounter: %+v", ended)
	}
}

// "The side with surprise gets one free unopposed turn, and then takes the
// first turn" (2010, 2020, 2021).
func TestTurnsSurprise(t *testing.T) {
	steps := []step{
		{events.CampaignStream, "K1", events.EncounterStarted{Number: 1}},
		{events.TurnsStream, "K1", events.InitiativeSurprise{Encounter: 1, Side: events.SideFoes}},
		{pirateStream, "K2", blow("Pirate", "P", "Ajax", "A", true)},
	}
	tr := foldTurnsOf(t, steps...)
	if tr.Turn != 0 || tr.Side() != events.SideFoes || tr.Round() != 0 || !strings.Contains(tr.TurnText(), "free turn") {
		t.Fatalf("the surprise turn: %+v %q", tr, tr.TurnText())
	}
	// Ajax dodged in the free turn; the foes take the first turn too, so
	// he loses turn 2, the party's first.
	if tr.Loses["A"] != 2 {
		t.Fatalf("Ajax loses turn %d, want 2", tr.Loses["A"])
	}
	tr = foldTurnsOf(t, append(steps, step{events.TurnsStream, "K3", events.TurnEnded{Encounter: 1, Turn: 0, Side: events.SideFoes}})...)
	if tr.Turn != 1 || tr.Side() != events.SideFoes || tr.Round() != 1 {
		t.Fatalf("after the free turn the foes take the first: %+v", tr)
	}
	// Initiative rolled anyway changes nothing: surprise decided the order.
	tr = foldTurnsOf(t, append(steps, step{events.TurnsStream, "K3", events.InitiativeRolled{Encounter: 1, Party: []int{6}, Foes: []int{1}, First: events.SideParty}})...)
	if tr.Turn != 0 || tr.First != events.SideFoes {
		t.Fatalf("initiative after surprise: %+v", tr)
	}
}

// Without initiative no turn is tracked: old logs and scripts attack and
// dodge as they always did.
func TestTurnsInactiveWithoutInitiative(t *testing.T) {
	tr := foldTurnsOf(t,
		step{events.CampaignStream, "K1", events.EncounterStarted{Number: 1}},
		step{pirateStream, "K2", blow("Pirate", "P", "Ajax", "A", true)},
		step{ajaxStream, "K3", blow("Ajax", "A", "Pirate", "P", false)},
	)
	if tr.Active || len(tr.Broken) != 0 || len(tr.Actions) != 0 || tr.TurnText() != "no initiative rolled" {
		t.Fatalf("no initiative: %+v", tr)
	}
}

func TestInitiativeProblem(t *testing.T) {
	tests := []struct {
		party, foes []int
		first, want string
	}{
		{[]int{5}, []int{2}, events.SideParty, ""},
		{[]int{2}, []int{5}, events.SideFoes, ""},
		{[]int{3, 2}, []int{3, 6}, events.SideFoes, ""},
		{[]int{5}, []int{2}, events.SideFoes, "gives the first turn to the party"},
		{[]int{3}, []int{3}, events.SideParty, "ends on a tie"},
		{[]int{4, 2}, []int{3, 6}, events.SideFoes, "no tie"},
		{[]int{7}, []int{2}, events.SideParty, "1 to 6"},
		{[]int{5}, nil, events.SideParty, "one die of each side"},
	}
	for _, tt := range tests {
		got := InitiativeProblem(&events.InitiativeRolled{Party: tt.party, Foes: tt.foes, First: tt.first})
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%v against %v, %s first: %q, want %q", tt.party, tt.foes, tt.first, got, tt.want)
		}
	}
}

func TestReplayChecksTurns(t *testing.T) {
	enc := []step{
		{events.CampaignStream, "K4", events.AdventureStarted{Number: 1, Title: "a"}},
		{events.CampaignStream, "K5", events.EncounterStarted{Number: 1}},
	}
	tests := []struct {
		name string
		last step
		want string
	}{
		{"good initiative", step{events.TurnsStream, "K6", events.InitiativeRolled{Encounter: 1, Party: []int{5}, Foes: []int{2}, First: events.SideParty}}, ""},
		{"hand-edited winner", step{events.TurnsStream, "K6", events.InitiativeRolled{Encounter: 1, Party: []int{5}, Foes: []int{2}, First: events.SideFoes}}, "gives the first turn to the party"},
		{"another encounter", step{events.TurnsStream, "K6", events.InitiativeRolled{Encounter: 2, Party: []int{5}, Foes: []int{2}, First: events.SideParty}}, "not under way"},
		{"off its stream", step{events.CampaignStream, "K6", events.InitiativeRolled{Encounter: 1, Party: []int{5}, Foes: []int{2}, First: events.SideParty}}, "not \"turns\""},
		{"a turn not lost overruled", step{events.TurnsStream, "K6", events.TurnOverruled{Encounter: 1, ID: "A", Name: "Ajax", Turn: 1}}, "had not lost it"},
		{"a Stalker's roll not in the log", step{events.TurnsStream, "K6", events.InitiativeStalker{Encounter: 1, ID: "A", Name: "Ajax", Side: events.SideParty, RollID: "R", Free: true, Edition: "2021"}}, "Stalker roll (R) is not in this encounter"},
		{"a 2010 Stalker with a roll", step{events.TurnsStream, "K6", events.InitiativeStalker{Encounter: 1, ID: "A", Name: "Ajax", Side: events.SideParty, RollID: "R", Edition: "2010"}}, "is a contest of DX against the opponent's IQ"},
		{"a Stalker of no side", step{events.TurnsStream, "K6", events.InitiativeStalker{Encounter: 1, ID: "A", Name: "Ajax", Side: "gm", RollID: "R", Edition: "2021"}}, "not the party or the foes"},
		{"a turn ended with none tracked", step{events.TurnsStream, "K6", events.TurnEnded{Encounter: 1, Turn: 1}}, "not under way"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps := append(append(goodStart("2021"), enc...), tt.last)
			w := Replay(logOf(t, steps...), nil)
			if tt.want == "" {
				if len(w.Violations) != 0 {
					t.Fatalf("violations: %+v", w.Violations)
				}
				return
			}
			if len(w.Violations) == 0 || w.Violations[0].Seq != 6 || !strings.Contains(w.Violations[0].Problem, tt.want) {
				t.Fatalf("violations %+v, want one at seq 6 containing %q", w.Violations, tt.want)
			}
		})
	}
}

// A karma re-roll of an initiative die is held to the initiative in
// effect, the other side's die kept, and the karma spent on it.
func TestReplayChecksInitiativeRerolls(t *testing.T) {
	enc := []step{
		{events.CampaignStream, "K4", events.AdventureStarted{Number: 1, Title: "a"}},
		{events.CampaignStream, "K5", events.EncounterStarted{Number: 1}},
		{events.TurnsStream, "K6", events.InitiativeRolled{Encounter: 1, Party: []int{2}, Foes: []int{5}, First: events.SideFoes}},
	}
	kira := &events.InitiativeKarma{ID: "A", Name: "Ajax", Side: events.SideParty}
	tests := []struct {
		name string
		last events.InitiativeRolled
		want string
	}{
		{"no karma spent", events.InitiativeRolled{Encounter: 1, Party: []int{6}, Foes: []int{5}, First: events.SideParty, Karma: kira}, "no karma or wish of Ajax"},
		{"the kept die changed", events.InitiativeRolled{Encounter: 1, Party: []int{6}, Foes: []int{4}, First: events.SideParty, Karma: kira}, "the foes' die changed too"},
		{"no payer named", events.InitiativeRolled{Encounter: 1, Party: []int{6}, Foes: []int{5}, First: events.SideParty}, "who paid for it"},
		{"another initiative", events.InitiativeRolled{Encounter: 1, Party: []int{6}, Foes: []int{5}, First: events.SideParty, Karma: kira, Rerolls: "X"}, "not the initiative in effect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			steps := append(append(goodStart("2021"), enc...), step{events.TurnsStream, "K7", tt.last})
			log := logOf(t, steps...)
			last := &log[len(log)-1]
			if tt.last.Rerolls == "" {
				// Point the re-roll at the initiative rolled before it.
				p := tt.last
				p.Rerolls = log[len(log)-2].ID
				steps[len(steps)-1] = step{events.TurnsStream, "K7", p}
				log = logOf(t, steps...)
				last = &log[len(log)-1]
			}
			w := Replay(log, nil)
			if len(w.Violations) == 0 || w.Violations[0].Seq != last.Seq || !strings.Contains(w.Violations[0].Problem, tt.want) {
				t.Fatalf("violations %+v, want one at seq %d containing %q", w.Violations, last.Seq, tt.want)
			}
		})
	}
}
