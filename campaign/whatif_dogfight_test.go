package campaign

import (
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// TestWhatIfDogfight: a dogfight is replayed where its rules differ by
// edition. 2020/2021 "Facing Firing Run": on the first turn a craft may
// fire on a foe facing it; 2010 has no facing run, so under 2010 the
// dogfight's line stops at that shot and its later actions are skipped,
// while the same dogfight replays unchanged under 2020.
func TestWhatIfDogfight(t *testing.T) {
	s := diceFile(t, rules.Edition2021, nil)
	mustCreate(t, s, "Ajax", 12, 11, 9, "Pilot:1")
	mustCreate(t, s, "Hector", 11, 12, 9, "Pilot:1", "Gunner:1")
	for _, n := range []string{"Ajax-boat", "Hector-boat"} {
		if _, err := s.ShipNew(n, "C1, E1, O1, L1, d6/1, M+0", ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DogfightStart([]string{"Ajax-boat", "Hector-boat"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ShipFire(FireRequest{Attacker: "Hector-boat", Target: "Ajax-boat", Gunner: "Hector", Facing: true, Faces: []int{6, 6, 6},
		TargetGunner: "Ajax", TargetFaces: []int{6, 6, 5}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DogfightManeuver(ManeuverRequest{Ship: "Ajax-boat", Against: "Hector-boat", Pilot: "Ajax", OpponentPilot: "Hector",
		Faces: [2][]int{{6, 5, 1}, {6, 5, 4}}}); err != nil {
		t.Fatal(err)
	}

	rep := replayUnder(t, s, rules.Edition2010)
	var stops, skipped int
	for _, c := range rep.Commands {
		switch {
		case c.Kind == projections.WhatIfStops && c.Character == "the dogfight":
			stops++
			if c.Type != "dogfight.fired" || !strings.Contains(c.What, "edition 2010 has no facing firing run") {
				t.Errorf("stop %+v: want the facing run refused", c)
			}
		case c.Kind == projections.WhatIfSkipped && c.Character == "the dogfight":
			skipped++
			if c.Type != "dogfight.maneuvered" {
				t.Errorf("skipped %+v: want the maneuver after the shot", c)
			}
		}
	}
	if stops != 1 || skipped != 1 {
		t.Errorf("commands %+v: want the dogfight stopped at the shot, its maneuver skipped", rep.Commands)
	}
	for _, ed := range []rules.Edition{rules.Edition2020, rules.Edition2021} {
		if rep := replayUnder(t, s, ed); len(rep.Commands) != 0 {
			t.Errorf("under %s: %+v, want nothing changed", ed, rep.Commands)
		}
	}
}

// TestWhatIfManeuverChoice: 2020/2021 "Maneuver": a fleeing craft that
// wins "can turn or disengage"; 2010: "A fleer becomes neutral with his
// opponent". Hector-boat's disengaging from flight stands under 2020 and
// stops the dogfight's line under 2010.
func TestWhatIfManeuverChoice(t *testing.T) {
	s := diceFile(t, rules.Edition2021, nil)
	mustCreate(t, s, "Ajax", 12, 11, 9, "Pilot:1")
	mustCreate(t, s, "Hector", 11, 12, 9, "Pilot:1")
	for _, n := range []string{"Ajax-boat", "Hector-boat"} {
		if _, err := s.ShipNew(n, "C1, E1, O1, L1, d6/1, M+0", ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DogfightStart([]string{"Ajax-boat", "Hector-boat"}); err != nil {
		t.Fatal(err)
	}
	for _, m := range []ManeuverRequest{
		// Ajax-boat wins from disengaged: pursuit, and Hector-boat flees.
		{Ship: "Ajax-boat", Against: "Hector-boat", Pilot: "Ajax", OpponentPilot: "Hector", Faces: [2][]int{{1, 1, 1}, {6, 6, 6}}},
		// Hector-boat, fleeing, wins and disengages.
		{Ship: "Hector-boat", Against: "Ajax-boat", Pilot: "Hector", OpponentPilot: "Ajax", Choice: "disengage", Faces: [2][]int{{1, 1, 1}, {6, 6, 6}}},
	} {
		if _, err := s.DogfightManeuver(m); err != nil {
			t.Fatal(err)
		}
	}
	rep := replayUnder(t, s, rules.Edition2010)
	if len(rep.Commands) != 1 || rep.Commands[0].Kind != projections.WhatIfStops ||
		!strings.Contains(rep.Commands[0].What, "can only turn, not disengage") {
		t.Errorf("under 2010: %+v, want the disengage refused", rep.Commands)
	}
	if rep := replayUnder(t, s, rules.Edition2020); len(rep.Commands) != 0 {
		t.Errorf("under 2020: %+v", rep.Commands)
	}
}
