package campaign

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/memstore"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// TestSecondPursuerAfterAProgramRoll: when the program rolls and the winner
// would become a second pursuer of a fleeing foe, the roll stands and the
// positions stay (refusing would allow a free re-roll); with entered dice
// the maneuver is refused. The replay agrees.
func TestSecondPursuerAfterAProgramRoll(t *testing.T) {
	// The program's dice: Zed rolls 1,1,1 and Yan 6,6,6 in the last maneuver.
	s, err := Init(memstore.New(), "t", rules.Edition2021, Options{VerifyKept: true, Now: fixedClock(), Actor: "gm", Entropy: rand.New(rand.NewSource(1)), Roller: rules.NewGivenFaces([]int{1, 1, 1, 6, 6, 6})})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"X", "Y", "Z"} {
		if _, err := s.ShipNew(n, "C1, E1, O1, L1, d6/1", ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.DogfightStart([]string{"X", "Y", "Z"}); err != nil {
		t.Fatal(err)
	}
	steps := []ManeuverRequest{
		// Z and Y tie from disengaged: now turning.
		{Ship: "Z", Against: "Y", Pilot: "Zed:DX12", OpponentPilot: "Yan:DX12", Faces: [2][]int{{3, 3, 3}, {3, 3, 3}}},
		// X maneuvers against Y, engaged with Z: unopposed, X takes pursuit
		// and Y flees X.
		{Ship: "X", Against: "Y", Pilot: "Xan:DX12"},
	}
	for i, st := range steps {
		if _, err := s.DogfightManeuver(st); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	// Entered dice: Z would pursue Y, which X already pursues: refused.
	entered := ManeuverRequest{Ship: "Z", Against: "Y", Pilot: "Zed:DX12", OpponentPilot: "Yan:DX12", Faces: [2][]int{{1, 1, 1}, {6, 6, 6}}}
	if _, err := s.DogfightManeuver(entered); rules.CodeOf(err) != rules.CodeRule || !strings.Contains(err.Error(), "Y is already pursued by X") {
		t.Fatalf("entered dice: %v", err)
	}
	// Program dice: the roll stands, positions stay.
	res, err := s.DogfightManeuver(ManeuverRequest{Ship: "Z", Against: "Y", Pilot: "Zed:DX12", OpponentPilot: "Yan:DX12"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Maneuver.Explanation, "only one craft can pursue a fleeing foe: the positions stay") {
		t.Fatalf("explanation %q", res.Maneuver.Explanation)
	}
	for _, p := range res.Dogfight.Pairs {
		if p.A == "Y" && p.B == "Z" && (p.APosition != "turning" || p.BPosition != "turning") {
			t.Fatalf("Y/Z after the blocked pursuit: %+v", p)
		}
	}
	log, err := s.Store().Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if w := projections.Replay(log, nil); len(w.Violations) != 0 {
		t.Fatalf("violations: %+v", w.Violations)
	}
}
