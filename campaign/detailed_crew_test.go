package campaign

import (
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor"
)

// wren is a small crewed record: one row of armour a facing, a Cockpit
// (4 boxes) under forward columns 1-2, a Bridge (8) under 3-6, Quarters
// (4) under 7-8.
func wren() interceptor.Spec {
	return interceptor.Spec{
		Name:   "Wren",
		Armour: interceptor.ArmourSpec{Forward: 10, Aft: 10, Left: 10, Right: 10},
		Internal: [][]string{
			{"C", "C", "B", "B", "B", "B", "Q", "Q", "P", "P"},
			{"C", "C", "B", "B", "B", "B", "Q", "Q", "P", "P"},
			{"E", "E", "S", "S", "S", "S", "S", "S", "S", "S"},
		},
		Components: map[string]string{"C": "Cockpit", "B": "Bridge", "Q": "Quarters", "P": "Powerplant", "E": "Engine", "S": "Ship Destroyed"},
		Crew:       []interceptor.CrewSpec{{Name: "Mara", Race: "Human", Station: "C"}, {Name: "Jon", Race: "Human", Station: "B"}},
	}
}

func wrenHit(t *testing.T, s *Service, points, column int, dice []int) DetailedHitResult {
	t.Helper()
	return mustHit(t, s, DetailedHitRequest{Ship: "Wren", Facing: "forward", Laser: points, Column: column, CrewDice: dice})
}

func crewman(t *testing.T, sh projections.DetailedShip, name string) projections.DetailedCrewView {
	t.Helper()
	for _, c := range sh.View().Crew {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no crewman %s", name)
	return projections.DetailedCrewView{}
}

// TestDetailedCockpitConsciousness: a cockpit hit calls for a roll on the
// Consciousness Table (COCKPIT, book l.357): a human stays conscious on 8
// or less at 1 hit. The die is entered (--crew-dice) or rolled; the hit
// records it and the crewman's status follows it.
func TestDetailedCockpitConsciousness(t *testing.T) {
	s := shipCampaign(t, nil, "Wren", wren())
	res := wrenHit(t, s, 2, 1, []int{9})
	if len(res.Hit.CrewRolls) != 1 {
		t.Fatalf("crew rolls %+v", res.Hit.CrewRolls)
	}
	r := res.Hit.CrewRolls[0]
	if r.Kind != "consciousness" || r.Crew != "Mara" || r.Column != 1 || r.Number != 8 || !equalInts(r.Faces, []int{9}) || !r.Entered || r.Status != "unconscious" {
		t.Errorf("roll %+v", r)
	}
	if c := crewman(t, res.Ship, "Mara"); c.Status != "unconscious" {
		t.Errorf("Mara %+v", c)
	}
	// The second hit finds her out: no roll is called for.
	res = wrenHit(t, s, 1, 1, nil)
	if len(res.Hit.CrewRolls) != 0 {
		t.Errorf("a hit on an unconscious crewman's cockpit rolled %+v", res.Hit.CrewRolls)
	}

	rolled := shipCampaign(t, rules.NewGivenFaces([]int{3}), "Wren", wren())
	res = wrenHit(t, rolled, 2, 1, nil)
	if r := res.Hit.CrewRolls; len(r) != 1 || r[0].Entered || !equalInts(r[0].Faces, []int{3}) || r[0].Status != "conscious" {
		t.Errorf("rolled %+v", r)
	}
	for _, sv := range []*Service{s, rolled} {
		if rep := mustVerify(t, sv); !rep.OK {
			t.Errorf("verify %+v", rep.Violations)
		}
	}
}

// TestDetailedCockpitFourthHitKills: the fourth hit on a cockpit kills
// its crewman, with no roll (book l.365).
func TestDetailedCockpitFourthHitKills(t *testing.T) {
	s := shipCampaign(t, nil, "Wren", wren())
	wrenHit(t, s, 2, 1, []int{1})
	wrenHit(t, s, 1, 1, []int{1})
	wrenHit(t, s, 2, 2, []int{1}) // the armour and row 1 of column 2: the 3rd hit
	res := wrenHit(t, s, 1, 2, nil)
	if c := crewman(t, res.Ship, "Mara"); c.Status != "dead" || len(res.Hit.CrewRolls) != 0 {
		t.Errorf("after 4 hits Mara %+v, rolls %+v", c, res.Hit.CrewRolls)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Errorf("verify %+v", rep.Violations)
	}
}

func TestDetailedCrewDiceRefusals(t *testing.T) {
	s := shipCampaign(t, nil, "Wren", wren())
	before := count(t, s)
	cases := []struct {
		req  DetailedHitRequest
		text string
	}{
		{DetailedHitRequest{Ship: "Wren", Facing: "forward", Laser: 2, Column: 1, CrewDice: []int{9, 2}}, "the rolls took 1"},
		{DetailedHitRequest{Ship: "Wren", Facing: "forward", Laser: 2, Column: 1, CrewDice: []int{11}}, "1 to 10"},
		{DetailedHitRequest{Ship: "Wren", Facing: "forward", Laser: 2, Column: 4, CrewDice: []int{3}}, "no crew roll is called for"},
	}
	for _, c := range cases {
		_, err := s.DetailedShipHit(c.req)
		if err == nil || !strings.Contains(err.Error(), c.text) || rules.CodeOf(err) != rules.CodeInvalid {
			t.Errorf("%+v: %v, want %q", c.req.CrewDice, err, c.text)
		}
	}
	if _, err := s.DetailedShipTurnEnd("Wren", nil); err == nil || !strings.Contains(err.Error(), "no rolls due") {
		t.Errorf("turn-end with nothing due: %v", err)
	}
	wrenHit(t, s, 2, 4, nil) // the Bridge: Jon's wound roll is due
	mid := count(t, s)
	for _, dice := range [][]int{{5, 5}, {2}, {0}} {
		if _, err := s.DetailedShipTurnEnd("Wren", dice); err == nil {
			t.Errorf("turn-end --dice %v was accepted", dice)
		}
	}
	if count(t, s) != mid || mid != before+1 {
		t.Errorf("refusals appended: %d, %d, %d", before, mid, count(t, s))
	}
}

// TestDetailedTurnEnd: the Bridge hit this turn calls for Jon's wound roll
// at the turn's end (1 of 8 boxes: 20%, column 1); wounded by a 2, he then
// rolls on column 1 and a 9 knocks him out. The wake rolls of the next
// Decision Phase follow: Mara (out since her cockpit hit) wakes on a 3,
// Jon stays out on a 9. Undo puts them back; verify replays it.
func TestDetailedTurnEnd(t *testing.T) {
	s := shipCampaign(t, nil, "Wren", wren())
	wrenHit(t, s, 2, 1, []int{9})
	wrenHit(t, s, 2, 4, nil)
	res, err := s.DetailedShipTurnEnd("Wren", []int{2, 9, 3, 9})
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Turn.Rolls; len(r) != 1 || r[0].Kind != "wound" || r[0].Crew != "Jon" || r[0].Percent != 20 || r[0].Column != 1 || !r[0].Wounded || r[0].Status != "unconscious" || !equalInts(r[0].Faces, []int{2, 9}) {
		t.Errorf("end-of-turn rolls %+v", r)
	}
	if w := res.Turn.Wake; len(w) != 2 || w[0].Crew != "Mara" || w[0].Status != "conscious" || w[1].Crew != "Jon" || w[1].Status != "unconscious" {
		t.Errorf("wake rolls %+v", w)
	}
	if c := crewman(t, res.Ship, "Jon"); c.Status != "unconscious" || !c.Wounded {
		t.Errorf("Jon %+v", c)
	}
	if c := crewman(t, res.Ship, "Mara"); c.Status != "conscious" {
		t.Errorf("Mara %+v", c)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
	// The next turn: only Jon's wake roll is due (the Bridge was not hit).
	res2, err := s.DetailedShipTurnEnd("Wren", []int{4})
	if err != nil {
		t.Fatal(err)
	}
	if len(res2.Turn.Rolls) != 0 || len(res2.Turn.Wake) != 1 || res2.Turn.Wake[0].Status != "conscious" {
		t.Errorf("second turn %+v", res2.Turn)
	}
	for _, e := range []events.Event{res2.Events[0], res.Events[0]} {
		if _, err := s.Undo(UndoRequest{Target: e.CommandID, Reason: "not yet"}); err != nil {
			t.Fatal(err)
		}
	}
	sh, err := s.DetailedShip("Wren", "")
	if err != nil {
		t.Fatal(err)
	}
	if c := crewman(t, sh, "Jon"); c.Status != "conscious" || c.Wounded {
		t.Errorf("Jon after undo %+v", c)
	}
	if c := crewman(t, sh, "Mara"); c.Status != "unconscious" {
		t.Errorf("Mara after undo %+v", c)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Errorf("verify after undo %+v", rep.Violations)
	}
}

// TestTogCingulumBridge is the book's example (BRIDGE, l.355): the TOG
// CINGULUM's Bridge of 50 boxes has taken 15; each crewman rolls against a
// 30% wound chance, and the wounded roll on the "2 Hits" column (6 or
// less for a human to stay conscious).
func TestTogCingulumBridge(t *testing.T) {
	b := []string{"B", "B", "B", "B", "B", "B", "B", "B", "B", "B"}
	sp := interceptor.Spec{
		Name:       "TOG Cingulum",
		Internal:   [][]string{b, b, b, b, b, {"P", "P", "P", "P", "P", "P", "P", "P", "P", "P"}, {"S", "S", "S", "S", "S", "S", "S", "S", "S", "S"}},
		Components: map[string]string{"B": "Bridge", "P": "Powerplant", "S": "Ship Destroyed"},
	}
	names := []string{"Ast", "Bel", "Cor", "Dax"}
	for _, n := range names {
		sp.Crew = append(sp.Crew, interceptor.CrewSpec{Name: n, Race: "Human", Station: "B"})
	}
	s := shipCampaign(t, nil, "Cingulum", sp)
	for col := 1; col <= 3; col++ {
		if _, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Cingulum", Facing: "forward", Laser: 5, Column: col}); err != nil {
			t.Fatal(err)
		}
	}
	// Ast 4: unhurt. Bel 3, 6: wounded, conscious. Cor 3, 7: wounded, out.
	// Dax 1, 1: wounded, conscious. Then Cor's wake roll: 6 wakes him.
	res, err := s.DetailedShipTurnEnd("Cingulum", []int{4, 3, 6, 3, 7, 1, 1, 6})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		wounded bool
		status  string
	}{{false, "conscious"}, {true, "conscious"}, {true, "unconscious"}, {true, "conscious"}}
	if len(res.Turn.Rolls) != 4 {
		t.Fatalf("rolls %+v", res.Turn.Rolls)
	}
	for i, r := range res.Turn.Rolls {
		if r.Crew != names[i] || r.Percent != 30 || r.Column != 2 || r.Wounded != want[i].wounded || r.Status != want[i].status {
			t.Errorf("roll %d: %+v, want 30%%, column 2, %+v", i, r, want[i])
		}
	}
	if w := res.Turn.Wake; len(w) != 1 || w[0].Crew != "Cor" || w[0].Number != 6 || w[0].Status != "conscious" {
		t.Errorf("wake %+v", w)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Errorf("verify %+v", rep.Violations)
	}
}

// TestVerifyCatchesForgedCrewRolls: a hit whose consciousness roll
// records a status its face does not give, and a turn's end whose wound
// roll does the same, are caught.
func TestVerifyCatchesForgedCrewRolls(t *testing.T) {
	s := shipCampaign(t, nil, "Wren", wren())
	res := wrenHit(t, s, 1, 5, nil) // armour only
	stream := res.Events[0].Stream
	sh, err := s.DetailedShip("Wren", "")
	if err != nil {
		t.Fatal(err)
	}
	hit := events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: 2, Column: 1, Entered: true}}
	c := sh
	nine := func() (int, bool, error) { return 9, true, nil }
	forged, err := c.MakeHit(&hit, nine, nine)
	if err != nil {
		t.Fatal(err)
	}
	forged.CrewRolls[0].Status = "conscious" // a 9 is over her 8
	bad := appendRaw(t, s, stream, forged)

	c = sh
	if _, err := c.MakeHit(&forged, nine, nine); err != nil {
		t.Fatal(err)
	}
	hit2 := events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: 2, Column: 4, Entered: true}}
	bridge, err := c.MakeHit(&hit2, nine, nine)
	if err != nil {
		t.Fatal(err)
	}
	appendRaw(t, s, stream, bridge)
	turn, err := c.EndTurn(func() (int, bool, error) { return 2, true, nil }, nil)
	if err != nil {
		t.Fatal(err)
	}
	turn.Rolls[0].Wounded = false
	badTurn := appendRaw(t, s, stream, turn)
	rep := mustVerify(t, s)
	var seqs []int64
	for _, v := range rep.Violations {
		seqs = append(seqs, v.Seq)
	}
	if rep.OK || len(rep.Violations) != 2 || rep.Violations[0].Seq != bad.Seq || !strings.Contains(rep.Violations[0].Problem, "the rules give consciousness by Mara") ||
		rep.Violations[1].Seq != badTurn.Seq || !strings.Contains(rep.Violations[1].Problem, "wound by Jon") {
		t.Fatalf("violations %+v", rep.Violations)
	}
}
