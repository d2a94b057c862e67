package rules

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The 2021 dogfight example (2020 is the same text): "Ajax (DX11, pilot+1)
// and Hector (DX12, pilot+1) each pilot gunboats. Each gunboat is: C1, E1,
// O1, L1, d6/1, M+0. Both craft are disengaged."
var (
	ajaxPilot   = ContestSide{Name: "Ajax", AttributeValue: 11, SkillLevel: 1}
	hectorPilot = ContestSide{Name: "Hector", AttributeValue: 12, SkillLevel: 1}
)

// Faces with the example's totals.
var (
	roll3  = []int{1, 1, 1}
	roll6  = []int{2, 2, 2}
	roll12 = []int{4, 4, 4}
	roll13 = []int{6, 4, 3}
	roll15 = []int{5, 5, 5}
)

// maneuverStep is one row of a dogfight: who maneuvers on whom from which
// position, the dice, the choice, and the result.
type maneuverStep struct {
	name            string
	ed              Edition
	mover, target   ContestSide
	moverPos        Position
	moverF, targetF []int
	choice          Choice
	winner          string
	moverAfter      Position
	targetAfter     Position
	options         []Choice
	chosen          Choice
	explain         string
}

func runManeuverSteps(t *testing.T, steps []maneuverStep) {
	t.Helper()
	for _, s := range steps {
		t.Run(fmt.Sprintf("%s/%s", s.ed, s.name), func(t *testing.T) {
			in := ManeuverInput{
				Edition: s.ed, Mover: s.mover.Name, Target: s.target.Name, MoverPos: s.moverPos,
				MoverPilot: s.mover, TargetPilot: s.target, Choice: s.choice,
			}
			out, err := ResolveManeuver(in, NewGivenFaces(s.moverF), NewGivenFaces(s.targetF))
			if err != nil {
				t.Fatal(err)
			}
			if out.Winner != s.winner || out.MoverPos != s.moverAfter || out.TargetPos != s.targetAfter {
				t.Errorf("winner %q, %s %s, %s %s; want %q, %s, %s", out.Winner, s.mover.Name, out.MoverPos, s.target.Name, out.TargetPos,
					s.winner, s.moverAfter, s.targetAfter)
			}
			if !reflect.DeepEqual(out.Options, s.options) || out.Chosen != s.chosen {
				t.Errorf("options %v chosen %q; want %v %q", out.Options, out.Chosen, s.options, s.chosen)
			}
			if out.Contest == nil || out.Unopposed {
				t.Fatalf("want a contest, got %+v", out)
			}
			if s.explain != "" && out.Explanation != s.explain {
				t.Errorf("Explanation = %q\n         want %q", out.Explanation, s.explain)
			}
		})
	}
}

// Examples 1 to 1b of 2020/2021 "DOG FIGHTS", step by step.
func TestDogfightExample(t *testing.T) {
	var steps []maneuverStep
	for _, ed := range []Edition{Edition2020, Edition2021} {
		steps = append(steps,
			// "Ajax maneuvers on Hector, rolling 12. Hector rolls 15. Ajax wins,
			// and takes the pursuit position on Hector."
			maneuverStep{name: "1", ed: ed, mover: ajaxPilot, target: hectorPilot, moverPos: Disengaged,
				moverF: roll12, targetF: roll15, winner: "Ajax", moverAfter: Pursuit, targetAfter: Fleeing,
				options: []Choice{ChoicePursue}, chosen: ChoicePursue,
				explain: "Hector's 15 exceeds DX 13 (DX 12, skill Pilot +1); Ajax wins with 12 on DX 12 (DX 11, skill Pilot +1). Ajax takes the pursuit position on Hector."},
			// "Hector is fleeing Ajax. He maneuvers on Ajax, rolling 13. Ajax
			// rolls 6. Hector wins. Rather than disengage, Hector elects to
			// take the turning position on Ajax."
			maneuverStep{name: "1a", ed: ed, mover: hectorPilot, target: ajaxPilot, moverPos: Fleeing,
				moverF: roll13, targetF: roll6, choice: ChoiceTurn, winner: "Hector", moverAfter: Turning, targetAfter: Turning,
				options: []Choice{ChoiceTurn, ChoiceDisengage}, chosen: ChoiceTurn,
				explain: "Hector wins with 13 on DX 13 (DX 12, skill Pilot +1) against Ajax's 6 on DX 12 (DX 11, skill Pilot +1). " +
					"Hector takes the turning position on Ajax: both craft are side by side, facing opposite directions."},
			// The same with the default choice.
			maneuverStep{name: "1a default", ed: ed, mover: hectorPilot, target: ajaxPilot, moverPos: Fleeing,
				moverF: roll13, targetF: roll6, winner: "Hector", moverAfter: Turning, targetAfter: Turning,
				options: []Choice{ChoiceTurn, ChoiceDisengage}, chosen: ChoiceTurn},
			// "Ajax rolls 13, Hector rolls 3. Hector wins, and he elects to
			// take the pursuit position against Ajax." The target wins:
			// "Regardless of the player taking the turn".
			maneuverStep{name: "1b", ed: ed, mover: ajaxPilot, target: hectorPilot, moverPos: Turning,
				moverF: roll13, targetF: roll3, choice: ChoicePursue, winner: "Hector", moverAfter: Fleeing, targetAfter: Pursuit,
				options: []Choice{ChoicePursue, ChoiceDisengage}, chosen: ChoicePursue,
				explain: "Ajax's 13 exceeds DX 12 (DX 11, skill Pilot +1); Hector wins with 3 on DX 13 (DX 12, skill Pilot +1). Hector takes the pursuit position on Ajax."},
			maneuverStep{name: "1b default", ed: ed, mover: ajaxPilot, target: hectorPilot, moverPos: Turning,
				moverF: roll13, targetF: roll3, winner: "Hector", moverAfter: Fleeing, targetAfter: Pursuit,
				options: []Choice{ChoicePursue, ChoiceDisengage}, chosen: ChoicePursue},
			// 1a with disengage instead: both disengaged.
			maneuverStep{name: "1a disengage", ed: ed, mover: hectorPilot, target: ajaxPilot, moverPos: Fleeing,
				moverF: roll13, targetF: roll6, choice: ChoiceDisengage, winner: "Hector", moverAfter: Disengaged, targetAfter: Disengaged,
				options: []Choice{ChoiceTurn, ChoiceDisengage}, chosen: ChoiceDisengage,
				explain: "Hector wins with 13 on DX 13 (DX 12, skill Pilot +1) against Ajax's 6 on DX 12 (DX 11, skill Pilot +1). Hector disengages from Ajax."},
			// A pursuer who wins remains in pursuit (2020/2021: no other
			// option); here the target, Ajax, is the pursuer.
			maneuverStep{name: "pursuer wins", ed: ed, mover: hectorPilot, target: ajaxPilot, moverPos: Fleeing,
				moverF: roll15, targetF: roll12, winner: "Ajax", moverAfter: Fleeing, targetAfter: Pursuit,
				options: []Choice{ChoiceMaintain}, chosen: ChoiceMaintain,
				explain: "Hector's 15 exceeds DX 13 (DX 12, skill Pilot +1); Ajax wins with 12 on DX 12 (DX 11, skill Pilot +1). Ajax remains in pursuit of Hector."},
		)
	}
	runManeuverSteps(t, steps)
}

// The same steps under 2010 "Maneuver": "A pursuer can maintain pursuit or
// disengage. A fleer becomes neutral with his opponent. A neutral craft can
// pursue or disengage."
func TestDogfightExample2010(t *testing.T) {
	ed := Edition2010
	runManeuverSteps(t, []maneuverStep{
		// 2010 is silent on a disengaged winner: the 2021 rule, pursuit.
		{name: "1", ed: ed, mover: ajaxPilot, target: hectorPilot, moverPos: Disengaged,
			moverF: roll12, targetF: roll15, winner: "Ajax", moverAfter: Pursuit, targetAfter: Fleeing,
			options: []Choice{ChoicePursue}, chosen: ChoicePursue,
			explain: "Hector's 15 exceeds DX 13 (DX 12, skill Spacecraft Pilot +1); Ajax wins with 12 on DX 12 (DX 11, skill Spacecraft Pilot +1). " +
				"Ajax takes the pursuit position on Hector (edition 2010 does not say; the 2021 rule is used)."},
		// The fleer that wins becomes neutral: no other option.
		{name: "1a", ed: ed, mover: hectorPilot, target: ajaxPilot, moverPos: Fleeing,
			moverF: roll13, targetF: roll6, winner: "Hector", moverAfter: Turning, targetAfter: Turning,
			options: []Choice{ChoiceTurn}, chosen: ChoiceTurn,
			explain: "Hector wins with 13 on DX 13 (DX 12, skill Spacecraft Pilot +1) against Ajax's 6 on DX 12 (DX 11, skill Spacecraft Pilot +1). " +
				"Hector takes the neutral position on Ajax: both craft are side by side, facing opposite directions."},
		{name: "1b", ed: ed, mover: ajaxPilot, target: hectorPilot, moverPos: Turning,
			moverF: roll13, targetF: roll3, winner: "Hector", moverAfter: Fleeing, targetAfter: Pursuit,
			options: []Choice{ChoicePursue, ChoiceDisengage}, chosen: ChoicePursue},
		{name: "1b disengage", ed: ed, mover: ajaxPilot, target: hectorPilot, moverPos: Turning,
			moverF: roll13, targetF: roll3, choice: ChoiceDisengage, winner: "Hector", moverAfter: Disengaged, targetAfter: Disengaged,
			options: []Choice{ChoicePursue, ChoiceDisengage}, chosen: ChoiceDisengage},
		// A 2010 pursuer may disengage or maintain (default).
		{name: "pursuer maintains", ed: ed, mover: hectorPilot, target: ajaxPilot, moverPos: Fleeing,
			moverF: roll15, targetF: roll12, winner: "Ajax", moverAfter: Fleeing, targetAfter: Pursuit,
			options: []Choice{ChoiceMaintain, ChoiceDisengage}, chosen: ChoiceMaintain},
		{name: "pursuer disengages", ed: ed, mover: hectorPilot, target: ajaxPilot, moverPos: Fleeing, choice: ChoiceDisengage,
			moverF: roll15, targetF: roll12, winner: "Ajax", moverAfter: Disengaged, targetAfter: Disengaged,
			options: []Choice{ChoiceMaintain, ChoiceDisengage}, chosen: ChoiceDisengage},
	})
}

func TestManeuverTiesAndBothFail(t *testing.T) {
	twin := ContestSide{Name: "Achilles", AttributeValue: 12, SkillLevel: 1}
	rows := []struct {
		ed                   Edition
		name                 string
		pos                  Position
		mf, tf               []int
		choice               Choice
		moverAfter, tgtAfter Position
		explainHas           string
	}{
		// "If disengaged foes tie, they are now turning."
		{Edition2021, "disengaged tie", Disengaged, []int{3, 3, 4}, []int{4, 3, 3}, "", Turning, Turning,
			"Hector and Achilles both total 10 against 13; it is a tie. Disengaged foes that tie are now turning."},
		{Edition2020, "disengaged tie", Disengaged, []int{3, 3, 4}, []int{4, 3, 3}, "", Turning, Turning, "are now turning."},
		{Edition2010, "disengaged tie", Disengaged, []int{3, 3, 4}, []int{4, 3, 3}, "", Turning, Turning,
			"it is a tie. Disengaged foes that tie are now neutral (edition 2010 does not say; the 2021 rule is used)."},
		// "On a tie, positions remain unchanged."
		{Edition2021, "pursuit tie", Pursuit, []int{3, 3, 4}, []int{4, 3, 3}, "", Pursuit, Fleeing,
			"it is a tie. On a tie, positions remain unchanged: Hector is pursuit, Achilles fleeing."},
		{Edition2021, "turning tie", Turning, []int{3, 3, 4}, []int{4, 3, 3}, ChoicePursue, Turning, Turning, "positions remain unchanged"},
		{Edition2010, "fleeing tie", Fleeing, []int{3, 3, 4}, []int{4, 3, 3}, "", Fleeing, Pursuit,
			"On a tie, positions remain unchanged (edition 2010 does not say; the 2021 rule is used): Hector is fleeing, Achilles pursuit."},
		// 2010 "If both sides fail, craft remain as they are", even disengaged.
		{Edition2010, "both fail", Disengaged, roll15, roll15, "", Disengaged, Disengaged,
			"both fail. Craft remain as they are: Hector is disengaged, Achilles disengaged."},
		{Edition2021, "both fail", Disengaged, roll15, roll15, "", Disengaged, Disengaged,
			"both fail. Craft remain as they are (edition 2021 does not say; the 2010 rule is used)"},
		{Edition2021, "both fail turning", Turning, roll15, []int{6, 6, 6}, ChoiceDisengage, Turning, Turning, "Craft remain as they are"},
	}
	for _, r := range rows {
		t.Run(fmt.Sprintf("%s/%s", r.ed, r.name), func(t *testing.T) {
			out, err := ResolveManeuver(ManeuverInput{Edition: r.ed, Mover: "Hector", Target: "Achilles", MoverPos: r.pos,
				MoverPilot: hectorPilot, TargetPilot: twin, Choice: r.choice}, NewGivenFaces(r.mf), NewGivenFaces(r.tf))
			if err != nil {
				t.Fatal(err)
			}
			if out.Winner != "" || out.MoverPos != r.moverAfter || out.TargetPos != r.tgtAfter || out.Options != nil || out.Chosen != "" {
				t.Errorf("got %+v; want no winner, %s/%s", out, r.moverAfter, r.tgtAfter)
			}
			if !strings.Contains(out.Explanation, r.explainHas) {
				t.Errorf("Explanation = %q, want it to contain %q", out.Explanation, r.explainHas)
			}
		})
	}
}

// A tie on totals with different targets is won by the higher target; the
// maneuver bonus counts there too. 2020/2021 "Maneuver" Example 1: "the
// craft's pilot has an effective DX12 when trying to win checks against his
// enemy pilot's DX10".
func TestManeuverBonus(t *testing.T) {
	pilot := ContestSide{Name: "Pilot A", AttributeValue: 11}
	enemy := ContestSide{Name: "Pilot B", AttributeValue: 10}
	c, err := ResolvePilotContest(Edition2021, pilot, enemy, 1, 0, NewGivenFaces([]int{4, 4, 4}), NewGivenFaces([]int{3, 3, 4}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Sides[0].Target != 12 || c.Sides[1].Target != 10 || c.Winner != 0 {
		t.Fatalf("targets %d/%d winner %d; want 12/10, 0", c.Sides[0].Target, c.Sides[1].Target, c.Winner)
	}
	wantMods := []Modifier{{Source: "maneuver M+1", Value: 1, Applies: AppliesTarget}}
	if !reflect.DeepEqual(c.Sides[0].Modifiers, wantMods) || len(c.Sides[1].Modifiers) != 0 {
		t.Errorf("modifiers %+v / %+v", c.Sides[0].Modifiers, c.Sides[1].Modifiers)
	}
	if want := "Pilot A wins with 12 on DX 12 (DX 11, maneuver M+1 +1) against Pilot B's 10 on DX 10."; c.Explanation != want {
		t.Errorf("Explanation = %q\nwant          %q", c.Explanation, want)
	}
	// Equal totals in 2020 and 2021: a tie, whatever the targets ("On a
	// tie, positions remain unchanged"; the dogfight's own rule, not the
	// general contest's tie-break).
	ajaxM := ajaxPilot
	for _, ed := range []Edition{Edition2020, Edition2021} {
		c, err = ResolvePilotContest(ed, hectorPilot, ajaxM, 0, 2, NewGivenFaces([]int{3, 3, 4}), NewGivenFaces([]int{4, 3, 3}))
		if err != nil {
			t.Fatal(err)
		}
		if c.Winner != -1 || c.Outcome != ContestTie || c.Sides[1].Target != 14 {
			t.Fatalf("%s: winner %d, %s, target %d; want a tie with Ajax on 14", ed, c.Winner, c.Outcome, c.Sides[1].Target)
		}
		want := fmt.Sprintf("Hector and Ajax both total 10: in a dogfight a tie is a tie, whatever the pilots' targets (edition %s).", ed)
		if c.Explanation != want {
			t.Errorf("Explanation = %q\nwant          %q", c.Explanation, want)
		}
		if len(c.Sides[1].Modifiers) == 0 || c.Sides[1].Modifiers[len(c.Sides[1].Modifiers)-1].Source != "maneuver M+2" {
			t.Errorf("the maneuver bonus is not listed apart: %+v", c.Sides[1].Modifiers)
		}
	}
	// 2010 states no dogfight tie rule: its contest rule stands, and the
	// higher target, with the bonus, wins the tie.
	c, err = ResolvePilotContest(Edition2010, hectorPilot, ajaxM, 0, 2, NewGivenFaces([]int{3, 3, 4}), NewGivenFaces([]int{4, 3, 3}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Winner != 1 || c.Sides[1].Target != 14 {
		t.Fatalf("2010: winner %d target %d; want Ajax (1) on 14", c.Winner, c.Sides[1].Target)
	}
	// Both over, and one over, with a bonus and a curse.
	cursed := ContestSide{Name: "Paris", AttributeValue: 10, SkillLevel: 2, Curses: 1, Restriction: 1}
	c, err = ResolvePilotContest(Edition2010, cursed, hectorPilot, 1, 1, NewGivenFaces(roll15), NewGivenFaces(roll15))
	if err != nil {
		t.Fatal(err)
	}
	if want := "Paris's 15 exceeds DX 11 (DX 10, armour restriction -1, skill Spacecraft Pilot +2, maneuver M+1 +1, curse ×1 -1) and Hector's 15 exceeds DX 14 (DX 12, skill Spacecraft Pilot +1, maneuver M+1 +1); both fail."; c.Explanation != want {
		t.Errorf("Explanation = %q\nwant          %q", c.Explanation, want)
	}
	c, err = ResolvePilotContest(Edition2010, cursed, hectorPilot, 1, 1, NewGivenFaces(roll15), NewGivenFaces(roll3))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.Explanation, "Paris's 15 exceeds DX 11 (") || !strings.Contains(c.Explanation, "; Hector wins with 3 on DX 14") {
		t.Errorf("Explanation = %q", c.Explanation)
	}
	c, err = ResolvePilotContest(Edition2010, ContestSide{AttributeValue: 12}, ContestSide{AttributeValue: 12}, 1, 1, NewGivenFaces(roll6), NewGivenFaces(roll6))
	if err != nil {
		t.Fatal(err)
	}
	if want := "The first pilot and the second pilot both total 6 against 13; it is a tie."; c.Explanation != want || c.Outcome != ContestTie {
		t.Errorf("Explanation = %q, want %q", c.Explanation, want)
	}
	// Through ResolveManeuver: the Kit-Kat's M+1 turns a loss into a win.
	out, err := ResolveManeuver(ManeuverInput{Mover: "Kit-Kat", Target: "Raider", MoverPos: Disengaged,
		MoverPilot: ContestSide{Name: "Ajax", AttributeValue: 11}, TargetPilot: ContestSide{Name: "Paris", AttributeValue: 11},
		MoverM: 1}, NewGivenFaces(roll12), NewGivenFaces([]int{3, 3, 4}))
	if err != nil {
		t.Fatal(err)
	}
	if out.Winner != "Kit-Kat" || out.MoverPos != Pursuit {
		t.Errorf("got %+v", out)
	}
	if want := "Ajax wins with 12 on DX 12 (DX 11, maneuver M+1 +1) against Paris's 10 on DX 11. Kit-Kat takes the pursuit position on Raider."; out.Explanation != want {
		t.Errorf("Explanation = %q\nwant          %q", out.Explanation, want)
	}
}

// 2020/2021 "Unopposed Maneuver": "A spacecraft maneuvering against an
// already engaged opponent automatically takes pursuit."
func TestUnopposedManeuver(t *testing.T) {
	for _, ed := range Editions() {
		t.Run(string(ed), func(t *testing.T) {
			in := ManeuverInput{Edition: ed, Mover: "Ajax", Target: "Hector", MoverPos: Disengaged,
				MoverPilot: ajaxPilot, TargetPilot: hectorPilot, TargetEngagedElsewhere: true}
			out, err := ResolveManeuver(in, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if out.Contest != nil || !out.Unopposed || out.Winner != "Ajax" || out.MoverPos != Pursuit || out.TargetPos != Fleeing ||
				out.Chosen != ChoicePursue || !reflect.DeepEqual(out.Options, []Choice{ChoicePursue}) {
				t.Fatalf("got %+v", out)
			}
			want := "Hector is engaged with another craft, so Ajax's maneuver is unopposed: Ajax takes the pursuit position on Hector."
			if ed == Edition2010 {
				want = strings.TrimSuffix(want, ".") + " (edition 2010 does not say; the 2021 rule is used)."
			}
			if out.Explanation != want {
				t.Errorf("Explanation = %q, want %q", out.Explanation, want)
			}
			in.Choice = ChoiceDisengage
			_, err = ResolveManeuver(in, nil, nil)
			wantError(t, err, CodeInvalid, "Ajax maneuvers on Hector, who is engaged with another craft, and automatically takes pursuit: it cannot disengage")
			in.Choice = ""
			_, err = ApplyManeuver(in, &ContestOutcome{Outcome: ContestTie, Winner: -1})
			wantError(t, err, CodeInvalid, "Ajax's maneuver on Hector is unopposed (Hector is engaged with another craft): no pilot check is rolled")
		})
	}
	// Already engaged with the target: an ordinary contest.
	out, err := ResolveManeuver(ManeuverInput{Mover: "Hector", Target: "Ajax", MoverPos: Fleeing, MoverPilot: hectorPilot, TargetPilot: ajaxPilot,
		TargetEngagedElsewhere: true}, NewGivenFaces(roll13), NewGivenFaces(roll6))
	if err != nil || out.Contest == nil || out.Unopposed || out.MoverPos != Turning {
		t.Fatalf("engaged pair: %+v, %v", out, err)
	}
	_, err = ApplyManeuver(ManeuverInput{Mover: "Hector", Target: "Ajax", MoverPos: Fleeing}, nil)
	wantError(t, err, CodeInvalid, "Hector's maneuver on Ajax needs a pilot check: only a maneuver against a foe engaged with another craft is unopposed")
}

func TestManeuverErrors(t *testing.T) {
	base := ManeuverInput{Mover: "Ajax", Target: "Hector", MoverPos: Disengaged, MoverPilot: ajaxPilot, TargetPilot: hectorPilot}
	with := func(f func(*ManeuverInput)) ManeuverInput {
		in := base
		f(&in)
		return in
	}
	rows := []struct {
		name   string
		in     ManeuverInput
		mf, tf []int
		code   Code
		msg    string
	}{
		{"neither has the choice", with(func(in *ManeuverInput) { in.Choice = ChoiceDisengage }), nil, nil, CodeInvalid,
			"neither craft can disengage: Ajax (disengaged) can only pursue; Hector (disengaged) can only pursue"},
		{"turning winner cannot turn", with(func(in *ManeuverInput) { in.MoverPos, in.Choice = Turning, ChoiceTurn }), roll12, roll15, CodeInvalid,
			"neither craft can turn: Ajax (turning) can pursue or disengage; Hector (turning) can pursue or disengage"},
		{"fleer cannot maintain", with(func(in *ManeuverInput) { in.MoverPos, in.Choice = Fleeing, ChoiceMaintain }), roll12, roll15, CodeInvalid,
			"Ajax wins from the fleeing position and can turn or disengage, not maintain"},
		{"2010 fleer cannot disengage", with(func(in *ManeuverInput) { in.Edition, in.MoverPos, in.Choice = Edition2010, Fleeing, ChoiceDisengage }), roll12, roll15, CodeInvalid,
			"Ajax wins from the fleeing position and can only turn, not disengage"},
		// The fleeing target could disengage had he won; the pursuer cannot.
		{"2021 pursuer cannot disengage", with(func(in *ManeuverInput) { in.MoverPos, in.Choice = Pursuit, ChoiceDisengage }), roll12, roll15, CodeInvalid,
			"Ajax wins from the pursuit position and can only maintain, not disengage"},
		{"unknown choice", with(func(in *ManeuverInput) { in.Choice = "loop" }), nil, nil, CodeInvalid,
			`unknown choice "loop": use disengage, turn, pursue or maintain`},
		{"unknown position", with(func(in *ManeuverInput) { in.MoverPos = "" }), nil, nil, CodeInvalid,
			`unknown position "" for Ajax: use pursuit, fleeing, turning or disengaged`},
		{"unknown position 2010", with(func(in *ManeuverInput) { in.Edition, in.MoverPos = Edition2010, "behind" }), nil, nil, CodeInvalid,
			`unknown position "behind" for Ajax: use pursuit, fleeing, neutral or disengaged`},
		{"DIW", with(func(in *ManeuverInput) { in.MoverDIW = true }), nil, nil, CodeRule,
			"Ajax is dead in the water and cannot maneuver: a DIW craft can no longer move or fire"},
		{"engaged elsewhere", with(func(in *ManeuverInput) { in.MoverEngagedElsewhere = true }), nil, nil, CodeRule,
			"Ajax is engaged with other craft and can only maneuver against those foes, not against Hector"},
		{"negative M", with(func(in *ManeuverInput) { in.TargetM = -1 }), roll12, roll15, CodeInvalid, "Hector's maneuver bonus M-1 is negative"},
		{"M past 99", with(func(in *ManeuverInput) { in.MoverM = 100 }), roll12, roll15, CodeInvalid, "Ajax's maneuver bonus M+100 is out of range (0 to 99)"},
		{"pilot on ST", with(func(in *ManeuverInput) { in.MoverPilot.Attribute = ST }), roll12, roll15, CodeInvalid,
			`Ajax's pilot check is on DX, not ST ("operate star craft on 3/DX")`},
		{"edition", with(func(in *ManeuverInput) { in.Edition = "2030" }), nil, nil, CodeInvalid, `unknown edition "2030": choose 2010, 2020 or 2021`},
		{"missing faces", base, roll12, nil, CodeInvalid, "3d6 needs 3 faces, only 0 given"},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			_, err := ResolveManeuver(r.in, NewGivenFaces(r.mf), NewGivenFaces(r.tf))
			wantError(t, err, r.code, r.msg)
		})
	}
	_, err := ApplyManeuver(base, &ContestOutcome{Outcome: ContestWin, Winner: 2})
	wantError(t, err, CodeInvalid, "a won contest has winner 2: want 0 (the mover) or 1 (the target)")
}

// Roll first, choose after: ResolvePilotContest then ApplyManeuver.
func TestApplyManeuverAfterTheRoll(t *testing.T) {
	c, err := ResolvePilotContest(Edition2021, hectorPilot, ajaxPilot, 0, 0, NewGivenFaces(roll13), NewGivenFaces(roll6))
	if err != nil {
		t.Fatal(err)
	}
	in := ManeuverInput{Mover: "Hector", Target: "Ajax", MoverPos: Fleeing}
	options, def := ManeuverChoices(Edition2021, Fleeing)
	if !reflect.DeepEqual(options, []Choice{ChoiceTurn, ChoiceDisengage}) || def != ChoiceTurn {
		t.Fatalf("ManeuverChoices = %v, %q", options, def)
	}
	in.Choice = ChoiceDisengage
	out, err := ApplyManeuver(in, &c)
	if err != nil || out.MoverPos != Disengaged || out.TargetPos != Disengaged {
		t.Fatalf("got %+v, %v", out, err)
	}
}

func TestManeuverChoices(t *testing.T) {
	rows := []struct {
		ed   Edition
		pos  Position
		opts []Choice
		def  Choice
	}{
		{Edition2021, Pursuit, []Choice{ChoiceMaintain}, ChoiceMaintain},
		{Edition2021, Fleeing, []Choice{ChoiceTurn, ChoiceDisengage}, ChoiceTurn},
		{Edition2021, Turning, []Choice{ChoicePursue, ChoiceDisengage}, ChoicePursue},
		{Edition2021, Disengaged, []Choice{ChoicePursue}, ChoicePursue},
		{Edition2020, Fleeing, []Choice{ChoiceTurn, ChoiceDisengage}, ChoiceTurn},
		{Edition2010, Pursuit, []Choice{ChoiceMaintain, ChoiceDisengage}, ChoiceMaintain},
		{Edition2010, Fleeing, []Choice{ChoiceTurn}, ChoiceTurn},
		{Edition2010, Turning, []Choice{ChoicePursue, ChoiceDisengage}, ChoicePursue},
		{Edition2010, Disengaged, []Choice{ChoicePursue}, ChoicePursue},
		{Edition2021, "", nil, ChoiceDefault},
	}
	for _, r := range rows {
		opts, def := ManeuverChoices(r.ed, r.pos)
		if !reflect.DeepEqual(opts, r.opts) || def != r.def {
			t.Errorf("ManeuverChoices(%s, %q) = %v, %q; want %v, %q", r.ed, r.pos, opts, def, r.opts, r.def)
		}
	}
}

func TestPositions(t *testing.T) {
	if SideBySide(Edition2010) != "neutral" || SideBySide(Edition2020) != "turning" || SideBySide(Edition2021) != "turning" || SideBySide("") != "turning" {
		t.Error("SideBySide: want neutral in 2010, turning otherwise")
	}
	if Turning.Label(Edition2010) != "neutral" || Turning.Label(Edition2021) != "turning" || Pursuit.Label(Edition2010) != "pursuit" {
		t.Error("Label")
	}
	for p, m := range map[Position]Position{Pursuit: Fleeing, Fleeing: Pursuit, Turning: Turning, Disengaged: Disengaged} {
		if p.Mirror() != m {
			t.Errorf("%s.Mirror() = %s, want %s", p, p.Mirror(), m)
		}
	}
	for in, want := range map[string]Position{"Pursuit": Pursuit, " neutral ": Turning, "TURNING": Turning, "disengaged": Disengaged, "fleeing": Fleeing} {
		if got, err := ParsePosition(in); err != nil || got != want {
			t.Errorf("ParsePosition(%q) = %q, %v", in, got, err)
		}
	}
	_, err := ParsePosition("behind")
	wantError(t, err, CodeInvalid, `unknown position "behind": use pursuit, fleeing, turning (neutral) or disengaged`)
	for in, want := range map[string]Choice{"": ChoiceDefault, "Turn": ChoiceTurn, "neutral": ChoiceTurn, "pursuit": ChoicePursue, "maintain": ChoiceMaintain, "disengage": ChoiceDisengage} {
		if got, err := ParseChoice(in); err != nil || got != want {
			t.Errorf("ParseChoice(%q) = %q, %v", in, got, err)
		}
	}
	_, err = ParseChoice("flee")
	wantError(t, err, CodeInvalid, `unknown choice "flee": use disengage, turn, pursue or maintain`)
}

func TestFireCheck(t *testing.T) {
	won := &ContestOutcome{Outcome: ContestWin, Winner: 0}
	lost := &ContestOutcome{Outcome: ContestWin, Winner: 1}
	tie := &ContestOutcome{Outcome: ContestTie, Winner: -1}
	rows := []struct {
		ed      Edition
		kind    FireKind
		pos     Position
		first   bool
		contest *ContestOutcome
		diw     bool
		want    string
		code    Code
		msg     string
	}{
		// Pursuit: 3/DX+GUNNER from the pursuit position, all editions.
		{Edition2021, FirePursuit, Pursuit, false, nil, false, "3/DX+Gunner", "", ""},
		{Edition2020, FirePursuit, Pursuit, true, nil, false, "3/DX+Gunner", "", ""},
		{Edition2010, FirePursuit, Pursuit, false, nil, false, "3/DX+Gunner", "", ""},
		{Edition2021, FirePursuit, Fleeing, false, nil, false, "", CodeRule,
			"Hector's craft is fleeing its target: a craft fires from pursuit only on the target it is pursuing"},
		{Edition2021, FirePursuit, Turning, false, nil, false, "", CodeRule,
			"Hector's craft is turning with its target: a craft fires from pursuit only on the target it is pursuing"},
		{Edition2010, FirePursuit, Turning, false, nil, false, "", CodeRule,
			"Hector's craft is neutral with its target: a craft fires from pursuit only on the target it is pursuing"},
		{Edition2021, FirePursuit, Disengaged, false, nil, false, "", CodeRule,
			"Hector's craft is disengaged from its target: a craft fires from pursuit only on the target it is pursuing"},
		// Firing run: 4/DX+GUNNER when disengaged; 2010 after a won PILOT check.
		{Edition2021, FireRun, Disengaged, false, nil, false, "4/DX+Gunner", "", ""},
		{Edition2020, FireRun, Disengaged, true, nil, false, "4/DX+Gunner", "", ""},
		{Edition2021, FireRun, Disengaged, false, lost, false, "4/DX+Gunner", "", ""},
		{Edition2010, FireRun, Disengaged, false, won, false, "4/DX+Gunner", "", ""},
		{Edition2010, FireRun, Disengaged, false, nil, false, "", CodeRule,
			"in edition 2010 a firing run needs a won PILOT check (+M) against the target first"},
		{Edition2010, FireRun, Disengaged, false, lost, false, "", CodeRule,
			"Hector's craft did not win the PILOT check against its target: in edition 2010 only an attacker winning it can fire on a firing run"},
		{Edition2010, FireRun, Disengaged, false, tie, false, "", CodeRule,
			"Hector's craft did not win the PILOT check against its target: in edition 2010 only an attacker winning it can fire on a firing run"},
		{Edition2021, FireRun, Pursuit, false, nil, false, "", CodeRule,
			"Hector's craft is pursuing its target: a firing run is made on a target the craft is disengaged from"},
		{Edition2010, FireRun, Fleeing, false, won, false, "", CodeRule,
			"Hector's craft is fleeing its target: a firing run is made on a target the craft is disengaged from"},
		// Facing firing run: first turn, 2020/2021, 3/DX+GUNNER.
		{Edition2021, FireFacing, Disengaged, true, nil, false, "3/DX+Gunner", "", ""},
		{Edition2020, FireFacing, Disengaged, true, nil, false, "3/DX+Gunner", "", ""},
		{Edition2021, FireFacing, Disengaged, false, nil, false, "", CodeRule, "a facing firing run is made only on the first turn of a dogfight"},
		{Edition2010, FireFacing, Disengaged, true, nil, false, "", CodeRule, "edition 2010 has no facing firing run: fire from pursuit or make a firing run"},
		{Edition2021, FireFacing, Pursuit, true, nil, false, "", CodeRule, "Hector's craft is pursuit: a facing firing run is made by a craft disengaged from its foe"},
		// DIW and bad input.
		{Edition2021, FirePursuit, Pursuit, false, nil, true, "", CodeRule, "Hector's craft is dead in the water and cannot fire"},
		{Edition2021, "broadside", Pursuit, false, nil, false, "", CodeInvalid, `unknown kind of fire "broadside": use pursuit, run or facing`},
		{Edition2021, FirePursuit, "", false, nil, false, "", CodeInvalid, `unknown position "" for Hector's craft: use pursuit, fleeing, turning or disengaged`},
		{"1984", FirePursuit, Pursuit, false, nil, false, "", CodeInvalid, `unknown edition "1984": choose 2010, 2020 or 2021`},
	}
	for _, r := range rows {
		t.Run(fmt.Sprintf("%s/%s/%s/first=%v", r.ed, r.kind, r.pos, r.first), func(t *testing.T) {
			expr, err := FireCheck(FireInput{Edition: r.ed, Kind: r.kind, Gunner: "Hector", GunnerDX: 12,
				AttackerPos: r.pos, FirstRound: r.first, PilotContest: r.contest, DIW: r.diw})
			if r.code != "" {
				wantError(t, err, r.code, r.msg)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if expr.String() != r.want || expr.Mode != CheckAssisted {
				t.Errorf("FireCheck = %s (%s), want %s assisted", expr, expr.Mode, r.want)
			}
		})
	}
}

// 2020/2021 Example 1c: "Hector is pursuing Ajax ... Hector fires on Ajax.
// Hector rolls 9, and hits Ajax's craft." Then 1d-1g: d6 rolls 3, the
// shields stop 1, cargo and engineering are destroyed: DIW.
func TestFireExample1c(t *testing.T) {
	for _, ed := range Editions() {
		t.Run(string(ed), func(t *testing.T) {
			hit, err := ResolveFire(FireInput{Edition: ed, Kind: FirePursuit, Gunner: "Hector", GunnerDX: 12, AttackerPos: Pursuit},
				NewGivenFaces([]int{2, 3, 4}))
			if err != nil {
				t.Fatal(err)
			}
			if !hit.Pass || hit.Total != 9 || hit.Target != 12 {
				t.Fatalf("got %+v; want 9 against 12, a hit", hit)
			}
			gunboat := mustShip(t, ed, "C1, E1, O1, L1, d6/1, M+0")
			dmg, err := ResolveDamage(ed, DiceExpr{Count: gunboat.WeaponDice, Sides: 6}, 0, NewGivenFaces([]int{3}))
			if err != nil {
				t.Fatal(err)
			}
			out, _, err := ApplyShipHit(gunboat, nil, dmg.Total, -1)
			if err != nil {
				t.Fatal(err)
			}
			if out.Inflicted != 2 || !out.DIW {
				t.Errorf("got %+v", out)
			}
		})
	}
}

func TestResolveFire(t *testing.T) {
	// Gunner+2, DX 11 less restriction 1, cursed once: 4/DX+Gunner on a firing run.
	out, err := ResolveFire(FireInput{Kind: FireRun, Gunner: "Ajax", GunnerDX: 11, GunnerSkill: 2, Restriction: 1, Curses: 1, AttackerPos: Disengaged},
		NewGivenFaces([]int{3, 3, 3, 3}))
	if err != nil {
		t.Fatal(err)
	}
	if out.Target != 12 || out.Total != 13 || out.Pass || len(out.Faces) != 4 {
		t.Errorf("got %+v; want 13 against 12, a miss", out)
	}
	wantMods := []Modifier{
		{Source: "armour restriction", Value: -1, Applies: AppliesTarget},
		{Source: "skill Gunner", Value: 2, Applies: AppliesTarget},
		{Source: "curse ×1", Value: 1, Applies: AppliesTotal},
	}
	if !reflect.DeepEqual(out.Modifiers, wantMods) {
		t.Errorf("Modifiers = %+v", out.Modifiers)
	}
	// Without the skill anyone may fire (assisted): DX alone.
	out, err = ResolveFire(FireInput{Edition: Edition2010, Kind: FirePursuit, Gunner: "Paris", GunnerDX: 9, AttackerPos: Pursuit}, NewGivenFaces([]int{3, 3, 3}))
	if err != nil || !out.Pass || out.Target != 9 {
		t.Errorf("got %+v, %v", out, err)
	}
	_, err = ResolveFire(FireInput{Kind: FirePursuit, Gunner: "Paris", GunnerDX: 9, AttackerPos: Fleeing}, NewGivenFaces([]int{3, 3, 3}))
	wantError(t, err, CodeRule, "Paris's craft is fleeing its target: a craft fires from pursuit only on the target it is pursuing")
	// A 2010 firing run: the PILOT check first, then 4/DX+Gunner.
	pc, err := ResolvePilotContest(Edition2010, ajaxPilot, hectorPilot, 1, 0, NewGivenFaces(roll12), NewGivenFaces(roll6))
	if err != nil {
		t.Fatal(err)
	}
	out, err = ResolveFire(FireInput{Edition: Edition2010, Kind: FireRun, Gunner: "Ajax", GunnerDX: 11, AttackerPos: Disengaged, PilotContest: &pc},
		NewGivenFaces([]int{2, 2, 2, 2}))
	if err != nil || !out.Pass {
		t.Errorf("2010 firing run: %+v, %v", out, err)
	}
}

func TestPositionAfterFire(t *testing.T) {
	if PositionAfterFire(FireRun, Disengaged) != Disengaged || PositionAfterFire(FireFacing, Disengaged) != Disengaged || PositionAfterFire(FirePursuit, Pursuit) != Pursuit {
		t.Error("PositionAfterFire")
	}
}

// All editions, "Exiting": "Except on the first round of a dogfight, any
// disengaged craft can exit the dogfight during its turn."
func TestExitAllowed(t *testing.T) {
	if err := ExitAllowed(Disengaged, false); err != nil {
		t.Errorf("disengaged, later round: %v", err)
	}
	wantError(t, ExitAllowed(Disengaged, true), CodeRule, "no craft can exit on the first round of a dogfight")
	wantError(t, ExitAllowed(Pursuit, false), CodeRule, "only a disengaged craft can exit the dogfight; it is in the pursuit position")
	wantError(t, ExitAllowed(Turning, false), CodeRule, "only a disengaged craft can exit the dogfight; it is in the turning position")
	wantError(t, ExitAllowed("gone", false), CodeInvalid, `unknown position "gone": use pursuit, fleeing, turning or disengaged`)
}

// A target dead in the water "can no longer move or fire": it may still win
// the mover's pilot check, but then nobody moves; a disengaged tie leaves it
// where it is too. The mover who wins takes his choice as ever.
func TestManeuverOnATargetDeadInTheWater(t *testing.T) {
	rows := []struct {
		name                 string
		mf, tf               []int
		winner               string
		moverAfter, tgtAfter Position
		explain              string
	}{
		{"the target wins", roll6, roll12, "Hector", Disengaged, Disengaged,
			"Hector wins with 12 on DX 13 (DX 12, skill Pilot +1) against Ajax's 6 on DX 12 (DX 11, skill Pilot +1). " +
				"Hector wins but is dead in the water and cannot move: Ajax is disengaged, Hector disengaged."},
		{"the mover wins", roll12, roll6, "Ajax", Pursuit, Fleeing,
			"Ajax wins with 12 on DX 12 (DX 11, skill Pilot +1) against Hector's 6 on DX 13 (DX 12, skill Pilot +1). " +
				"Ajax takes the pursuit position on Hector."},
		{"a disengaged tie", []int{3, 3, 4}, []int{4, 3, 3}, "", Disengaged, Disengaged,
			"both total 10: in a dogfight a tie is a tie, whatever the pilots' targets (edition 2021). On a tie, positions remain unchanged: Ajax is disengaged, Hector disengaged."},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			out, err := ResolveManeuver(ManeuverInput{Edition: Edition2021, Mover: "Ajax", Target: "Hector", MoverPos: Disengaged,
				MoverPilot: ajaxPilot, TargetPilot: hectorPilot, TargetDIW: true}, NewGivenFaces(r.mf), NewGivenFaces(r.tf))
			if err != nil {
				t.Fatal(err)
			}
			if out.Winner != r.winner || out.MoverPos != r.moverAfter || out.TargetPos != r.tgtAfter {
				t.Errorf("winner %q, %s/%s; want %q, %s/%s", out.Winner, out.MoverPos, out.TargetPos, r.winner, r.moverAfter, r.tgtAfter)
			}
			if !strings.HasSuffix(out.Explanation, r.explain) {
				t.Errorf("Explanation = %q\nwant it to end %q", out.Explanation, r.explain)
			}
		})
	}
}

// Each pilot's maneuver bonus is listed apart from his Pilot level, and only
// his own: a side with M+0 lists its skill alone, in a win and in a tie.
func TestPilotContestListsEachBonusApart(t *testing.T) {
	skill := func(v int) Modifier {
		return Modifier{Source: "skill Pilot", Value: v, Applies: AppliesTarget}
	}
	bonus := func(v int) Modifier {
		return Modifier{Source: fmt.Sprintf("maneuver M+%d", v), Value: v, Applies: AppliesTarget}
	}
	rows := []struct {
		name    string
		aM, bM  int
		af, bf  []int
		outcome string
		aMods   []Modifier
		bMods   []Modifier
		explain string
	}{
		{"the second has M+1", 0, 1, roll12, roll6, ContestWin, []Modifier{skill(1)}, []Modifier{skill(1), bonus(1)},
			"Hector wins with 12 on DX 13 (DX 12, skill Pilot +1) against Ajax's 6 on DX 13 (DX 11, skill Pilot +1, maneuver M+1 +1)."},
		{"the first has M+2", 2, 0, roll6, roll12, ContestWin, []Modifier{skill(1), bonus(2)}, []Modifier{skill(1)},
			"Ajax wins with 12 on DX 12 (DX 11, skill Pilot +1) against Hector's 6 on DX 15 (DX 12, skill Pilot +1, maneuver M+2 +2)."},
		{"a tie, the first has M+1", 1, 0, []int{3, 3, 4}, []int{4, 3, 3}, ContestTie, []Modifier{skill(1), bonus(1)}, []Modifier{skill(1)},
			"Hector and Ajax both total 10: in a dogfight a tie is a tie, whatever the pilots' targets (edition 2021)."},
		{"a tie, the second has M+1", 0, 1, []int{3, 3, 4}, []int{4, 3, 3}, ContestTie, []Modifier{skill(1)}, []Modifier{skill(1), bonus(1)},
			"Hector and Ajax both total 10 against 13; it is a tie."},
		{"the most bonus, M+99", 99, 0, roll6, roll12, ContestWin, []Modifier{skill(1), bonus(99)}, []Modifier{skill(1)},
			"Ajax wins with 12 on DX 12 (DX 11, skill Pilot +1) against Hector's 6 on DX 112 (DX 12, skill Pilot +1, maneuver M+99 +99)."},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			c, err := ResolvePilotContest(Edition2021, hectorPilot, ajaxPilot, r.aM, r.bM, NewGivenFaces(r.af), NewGivenFaces(r.bf))
			if err != nil {
				t.Fatal(err)
			}
			if c.Outcome != r.outcome {
				t.Errorf("outcome %s, want %s", c.Outcome, r.outcome)
			}
			if c.Explanation != r.explain {
				t.Errorf("Explanation = %q\nwant          %q", c.Explanation, r.explain)
			}
			if !reflect.DeepEqual(c.Sides[0].Modifiers, r.aMods) || !reflect.DeepEqual(c.Sides[1].Modifiers, r.bMods) {
				t.Errorf("modifiers %+v / %+v\nwant      %+v / %+v", c.Sides[0].Modifiers, c.Sides[1].Modifiers, r.aMods, r.bMods)
			}
		})
	}
}
