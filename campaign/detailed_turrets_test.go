package campaign

import (
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor"
	"github.com/ltscamp/ltscamp/rules/interceptor/interceptortest"
)

// threeTurrets is tern with two more turrets like Dorsal: the chance is
// 3 / 2 rounded up, 2.
func threeTurrets() interceptor.Spec {
	sp := interceptortest.Tern()
	sp.Name = "Triton"
	for _, name := range []string{"Ventral", "Aft"} {
		t := sp.Turrets[0]
		t.Name = name
		sp.Turrets = append(sp.Turrets, t)
	}
	return sp
}

// TestDetailedTurretRoll: the turret chance is the number of turrets / 2,
// rounding up, at least 1 (TURRETS, book l.341): Tern's one turret is hit
// on a 1, Triton's three on a 1 or 2; with several turrets a second die
// picks which. The rolls are the campaign roller's unless entered, and
// the hit records them.
func TestDetailedTurretRoll(t *testing.T) {
	for _, tc := range []struct {
		name   string
		spec   interceptor.Spec
		faces  []int // column, turret roll, picks
		req    DetailedHitRequest
		chance int
		roll   int
		picks  []int
		turret int
	}{
		{"Tern, rolled 1: the turret", interceptortest.Tern(), []int{4, 1}, DetailedHitRequest{}, 1, 1, nil, 1},
		{"Tern, rolled 2: the hull", interceptortest.Tern(), []int{4, 2}, DetailedHitRequest{}, 1, 2, nil, 0},
		{"Tern, entered 1", interceptortest.Tern(), []int{4}, DetailedHitRequest{TurretRoll: 1}, 1, 1, nil, 1},
		{"Triton, rolled 2, pick 3", threeTurrets(), []int{4, 2, 3}, DetailedHitRequest{}, 2, 2, []int{3}, 3},
		{"Triton, rolled 3: the hull", threeTurrets(), []int{4, 3}, DetailedHitRequest{}, 2, 3, nil, 0},
		{"Triton, entered 1, pick 2", threeTurrets(), []int{4}, DetailedHitRequest{TurretRoll: 1, TurretPick: 2}, 2, 1, []int{2}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := shipCampaign(t, rules.NewGivenFaces(tc.faces), tc.spec.Name, tc.spec)
			req := tc.req
			req.Ship, req.Facing, req.Laser = tc.spec.Name, "forward", 3
			res, err := s.DetailedShipHit(req)
			if err != nil {
				t.Fatal(err)
			}
			h := res.Hit
			entered := tc.req.TurretRoll != 0
			if h.TurretChance != tc.chance || h.TurretRoll != tc.roll || !equalInts(h.TurretPicks, tc.picks) || h.Turret != tc.turret || h.TurretEntered != entered {
				t.Fatalf("hit %+v", h)
			}
			// Where the laser went: 2 rows of turret armour and 1 internal
			// box, or 3 rows of the hull's forward armour.
			want := events.ShipPlace{Turret: tc.turret, Block: "armour", Row: 1, Column: 4}
			if tc.turret == 0 {
				want.Block = "forward"
			}
			if len(h.Destroyed) != 3 || h.Destroyed[0] != want {
				t.Fatalf("destroyed %+v", h.Destroyed)
			}
			if rep := mustVerify(t, s); !rep.OK {
				t.Fatalf("verify %+v", rep.Violations)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// wall is a damage template 21 boxes wide: centred on any column it covers
// the whole block, so 6 rows of it take Dorsal's 2 armour rows and 2
// internal rows, and 2 rows pass into the hull.
func wall(rows int) *events.ShipTemplate {
	t := &events.ShipTemplate{Name: "Wall"}
	for range rows {
		t.Rows = append(t.Rows, strings.Repeat("X", 21))
	}
	return t
}

func addWall(t *testing.T, s *Service, rows int) {
	t.Helper()
	w := wall(rows)
	tp, err := interceptor.NewTemplate(w.Name, w.Rows)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ShipTemplatesAdd([]interceptor.Template{tp}, "wall.yaml"); err != nil {
		t.Fatal(err)
	}
}

// TestDetailedTurretDestroyedResidual: "Once a turret is destroyed, any
// residual damage passes into the ship's hull" (book l.341). The Wall's
// six rows take Dorsal's 4 and put 2 rows into the forward facing (the 20
// boxes under the block; the cells past its sides are wasted); then
// no turret stands, and a hit makes no turret roll.
func TestDetailedTurretDestroyedResidual(t *testing.T) {
	s := shipCampaign(t, nil, "Tern", interceptortest.Tern())
	addWall(t, s, 6)
	res, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Tern", Facing: "forward", Template: "Wall", Column: 5, TurretRoll: 1})
	if err != nil {
		t.Fatal(err)
	}
	h := res.Hit
	if h.Turret != 1 || h.TurretDestroyed != 1 || h.Residual != 20 {
		t.Fatalf("hit %+v", h)
	}
	v := res.Ship.View()
	if !v.Turrets[0].Destroyed || v.Armor["forward"].Destroyed != 20 || v.Armor["forward"].Intact != 40 {
		t.Fatalf("after the hit: turret %+v, forward %+v", v.Turrets[0], v.Armor["forward"])
	}
	// No turret stands: no roll, and an entered one is refused.
	before := count(t, s)
	if _, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Tern", Facing: "aft", Laser: 1, Column: 1, TurretRoll: 1}); err == nil || !strings.Contains(err.Error(), "no turret standing") {
		t.Fatalf("a turret roll on a ship whose turret is destroyed: %v", err)
	}
	if count(t, s) != before {
		t.Fatal("a refused hit appended")
	}
	res, err = s.DetailedShipHit(DetailedHitRequest{Ship: "Tern", Facing: "aft", Laser: 1, Column: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Hit.TurretRoll != 0 || res.Hit.TurretChance != 0 || res.Hit.Turret != 0 {
		t.Fatalf("hit %+v", res.Hit)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
}

// TestDetailedTurretRefusals: bad turret dice append nothing.
func TestDetailedTurretRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, ship string
		req        DetailedHitRequest
		want       string
	}{
		{"no turrets", "Space Gull", DetailedHitRequest{TurretRoll: 1}, "Space Gull has no turrets"},
		{"pick without a roll", "Triton", DetailedHitRequest{TurretPick: 1}, "--turret-pick goes with --turret-roll"},
		{"a roll of 11", "Triton", DetailedHitRequest{TurretRoll: 11}, "1 to 10"},
		{"a pick on a hull hit", "Triton", DetailedHitRequest{TurretRoll: 3, TurretPick: 1}, "hits the hull, so no pick"},
		{"a pick with one turret", "Tern", DetailedHitRequest{TurretRoll: 1, TurretPick: 1}, "hits the only turret"},
		{"no pick", "Triton", DetailedHitRequest{TurretRoll: 2}, "give --turret-pick 1-3"},
		{"pick 4 of 3", "Triton", DetailedHitRequest{TurretRoll: 2, TurretPick: 4}, "turrets 1 to 3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := gullCampaign(t, nil)
			for _, sp := range []interceptor.Spec{interceptortest.Tern(), threeTurrets()} {
				if _, err := s.DetailedShipNew(sp.Name, sp, ""); err != nil {
					t.Fatal(err)
				}
			}
			before := count(t, s)
			req := tc.req
			req.Ship, req.Facing, req.Laser, req.Column = tc.ship, "forward", 3, 4
			_, err := s.DetailedShipHit(req)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want %q", err, tc.want)
			}
			if count(t, s) != before {
				t.Fatal("a refused hit appended")
			}
		})
	}
}

// TestDetailedTurretDestroyedPick: a pick that names a destroyed turret
// is refused when entered (the book re-rolls it) and re-rolled when the
// program rolls.
func TestDetailedTurretDestroyedPick(t *testing.T) {
	given := rules.NewGivenFaces([]int{1, 1, 1, 3})
	s := shipCampaign(t, given, "Triton", threeTurrets())
	addWall(t, s, 4)
	if _, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Triton", Facing: "forward", Template: "Wall", Column: 5, TurretRoll: 1, TurretPick: 1}); err != nil {
		t.Fatal(err)
	}
	before := count(t, s)
	_, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Triton", Facing: "forward", Laser: 1, Column: 5, TurretRoll: 1, TurretPick: 1})
	if err == nil || !strings.Contains(err.Error(), "turret 1 (Dorsal) is destroyed") || rules.CodeOf(err) != rules.CodeRule {
		t.Fatalf("a pick of a destroyed turret: %v", err)
	}
	if count(t, s) != before {
		t.Fatal("a refused hit appended")
	}
	// Rolled: column 1, turret roll 1, picks 1 (destroyed), 3.
	res, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Triton", Facing: "forward", Laser: 1})
	if err != nil {
		t.Fatal(err)
	}
	if h := res.Hit; h.Column != 1 || h.TurretRoll != 1 || !equalInts(h.TurretPicks, []int{1, 3}) || h.Turret != 3 {
		t.Fatalf("hit %+v", h)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
}

// TestVerifyCatchesForgedTurretHit: verify holds each hit's turret roll
// against the rules: a hit put on the turret by a roll that misses it, a
// hit that made no roll on a ship with a turret, a wrong chance.
func TestVerifyCatchesForgedTurretHit(t *testing.T) {
	s := shipCampaign(t, nil, "Tern", interceptortest.Tern())
	res, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Tern", Facing: "forward", Laser: 3, Column: 4, TurretRoll: 2})
	if err != nil {
		t.Fatal(err)
	}
	stream := res.Events[0].Stream
	sh, err := s.DetailedShip("Tern", "")
	if err != nil {
		t.Fatal(err)
	}
	// The forged hits record what the rules make of them on the turret,
	// so only the turret roll is wrong.
	outcome := func(p events.DetailedShipHit) events.DetailedShipHit {
		c := sh
		_, want, err := c.ApplyHit(&p)
		if err != nil {
			t.Fatal(err)
		}
		return want
	}
	forged := []events.DetailedShipHit{
		{DetailedShot: events.DetailedShot{Facing: "forward", Points: 1, Column: 9, Entered: true, TurretChance: 1, TurretRoll: 7, TurretEntered: true, Turret: 1}},
		{DetailedShot: events.DetailedShot{Facing: "forward", Points: 1, Column: 9, Entered: true, Turret: 0}},
		{DetailedShot: events.DetailedShot{Facing: "forward", Points: 1, Column: 9, Entered: true, TurretChance: 3, TurretRoll: 2, TurretEntered: true, Turret: 1}},
	}
	wants := []string{"the turret roll of 7 against 1 gives 0", "no turret roll", "turret chance of 3"}
	var seqs []int64
	for _, f := range forged {
		seqs = append(seqs, appendRaw(t, s, stream, outcome(f)).Seq)
	}
	rep := mustVerify(t, s)
	if rep.OK || len(rep.Violations) != len(forged) {
		t.Fatalf("violations %+v", rep.Violations)
	}
	for i, v := range rep.Violations {
		if v.Seq != seqs[i] || !strings.Contains(v.Problem, wants[i]) {
			t.Errorf("violation %d: %+v, want %q", i, v, wants[i])
		}
	}
}

// TestDetailedUndoTurretDestroyed: a hit made when no turret stood made
// no turret roll; undoing the hit that destroyed the turret leaves it
// with a turret standing and no roll, so the undo is refused unless
// cascaded.
func TestDetailedUndoTurretDestroyed(t *testing.T) {
	s := shipCampaign(t, nil, "Tern", interceptortest.Tern())
	addWall(t, s, 6)
	first, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Tern", Facing: "forward", Template: "Wall", Column: 5, TurretRoll: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Tern", Facing: "aft", Laser: 1, Column: 1}); err != nil {
		t.Fatal(err)
	}
	before := count(t, s)
	_, err = s.Undo(UndoRequest{Target: first.Events[0].CommandID, Reason: "missed"})
	if err == nil {
		t.Fatal("an undo that leaves a later hit without its turret roll was allowed")
	}
	if count(t, s) != before {
		t.Fatal("a refused undo appended")
	}
	if _, err := s.Undo(UndoRequest{Target: first.Events[0].CommandID, Reason: "missed", Cascade: true}); err != nil {
		t.Fatal(err)
	}
	sh, err := s.DetailedShip("Tern", "")
	if err != nil {
		t.Fatal(err)
	}
	if v := sh.View(); v.Hits != 0 || v.Turrets[0].Destroyed || v.Armor["forward"].Intact != 60 {
		t.Fatalf("after the cascade %+v", v)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
}
