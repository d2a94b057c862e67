package campaign

import (
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor"
	"github.com/ltscamp/ltscamp/rules/interceptor/interceptortest"
)

// addBrick adds "Brick", a template 3 boxes wide and 4 rows deep: on the
// Tern's Dorsal turret it takes the 2 armour rows and both internal rows
// of three columns, so two bricks take 6 of the 10 Turret Structure boxes
// and disable it (more than half), while the turret still stands.
func addBrick(t *testing.T, s *Service) {
	t.Helper()
	tp, err := interceptor.NewTemplate("Brick", []string{"XXX", "XXX", "XXX", "XXX"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ShipTemplatesAdd([]interceptor.Template{tp}, "brick.yaml"); err != nil {
		t.Fatal(err)
	}
}

// brickOnDorsal lowers the Brick onto Dorsal's column, turret roll 1.
func brickOnDorsal(t *testing.T, s *Service, column, jam int) DetailedHitResult {
	t.Helper()
	req := DetailedHitRequest{Ship: "Tern", Facing: "forward", Template: "Brick", Column: column, TurretRoll: 1}
	if jam != 0 {
		req.JamDice = []int{jam}
	}
	return mustHit(t, s, req)
}

// TestDetailedTurretJam: TURRET STRUCTURE (book l.409): "If this system is
// disabled, roll the die. On a 1, the turret is jammed facing towards the
// ship's front, with a 2 meaning that the turret is facing to the right
// front, and so on in a clockwise direction ... On a 7-10, the weapons are
// unable to fire at all". The hit that disables it makes the roll, entered
// or rolled, and records it; ship show says where the turret points.
func TestDetailedTurretJam(t *testing.T) {
	for _, tc := range []struct {
		name      string
		entered   int
		rolled    []int
		facing    int
		abandoned bool
		state     string
	}{
		{"entered 3", 3, nil, 3, false, "jammed facing the right rear (3)"},
		{"entered 1", 1, nil, 1, false, "jammed facing the front (1)"},
		{"rolled 6", 0, []int{6}, 6, false, "jammed facing the left front (6)"},
		{"rolled 8", 0, []int{8}, 0, true, "weapons abandoned"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := shipCampaign(t, rules.NewGivenFaces(tc.rolled), "Tern", interceptortest.Tern())
			addBrick(t, s)
			first := brickOnDorsal(t, s, 5, 0)
			if len(first.Hit.JamRolls) != 0 || first.Ship.View().Turrets[0].Jammed {
				t.Fatalf("3 of 10 structure boxes: jam rolls %+v", first.Hit.JamRolls)
			}
			res := brickOnDorsal(t, s, 8, tc.entered)
			if len(res.Hit.JamRolls) != 1 {
				t.Fatalf("jam rolls %+v (disabled %+v)", res.Hit.JamRolls, res.Hit.Disabled)
			}
			r := res.Hit.JamRolls[0]
			face := tc.entered
			if face == 0 {
				face = tc.rolled[0]
			}
			if r.Kind != "turret_jam" || r.Turret != 1 || r.Station != "T" || !equalInts(r.Faces, []int{face}) || r.Entered != (tc.entered != 0) ||
				r.JamFacing != tc.facing || r.Abandoned != tc.abandoned || r.Moot {
				t.Fatalf("jam roll %+v", r)
			}
			tv := res.Ship.View().Turrets[0]
			if !tv.Jammed || tv.JamFacing != tc.facing || tv.Destroyed || tv.State != tc.state {
				t.Fatalf("turret %+v, want %q", tv, tc.state)
			}
			if rep := mustVerify(t, s); !rep.OK {
				t.Fatalf("verify %+v", rep.Violations)
			}
			// Undone, the turret is no longer jammed.
			if _, err := s.Undo(UndoRequest{Target: res.Events[0].CommandID, Reason: "wrong turret"}); err != nil {
				t.Fatal(err)
			}
			sh, err := s.DetailedShip("Tern", "")
			if err != nil {
				t.Fatal(err)
			}
			if tv := sh.View().Turrets[0]; tv.Jammed || tv.State != "standing" {
				t.Fatalf("after undo: %+v", tv)
			}
		})
	}
}

// TestDetailedTurretJamMootAndRefusals: a hit that destroys the turret as
// it disables the structure makes the jam roll moot (the weapons are
// gone); --jam-roll is refused when no jam roll is called for, or when it
// is moot, and appends nothing.
func TestDetailedTurretJamMootAndRefusals(t *testing.T) {
	s := shipCampaign(t, nil, "Tern", interceptortest.Tern())
	addBrick(t, s)
	before := count(t, s)
	_, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Tern", Facing: "forward", Template: "Brick", Column: 5, TurretRoll: 1, JamDice: []int{4}})
	if err == nil || !strings.Contains(err.Error(), "no turret jam roll is called for") {
		t.Fatalf("--jam-roll with no jam: %v", err)
	}
	if count(t, s) != before {
		t.Fatal("a refused hit appended")
	}
	addWall(t, s, 6)
	_, err = s.DetailedShipHit(DetailedHitRequest{Ship: "Tern", Facing: "forward", Template: "Wall", Column: 5, TurretRoll: 1, JamDice: []int{4}})
	if err == nil || !strings.Contains(err.Error(), "moot") {
		t.Fatalf("--jam-roll on a destroyed turret: %v", err)
	}
	res, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Tern", Facing: "forward", Template: "Wall", Column: 5, TurretRoll: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hit.JamRolls) != 1 || !res.Hit.JamRolls[0].Moot || len(res.Hit.JamRolls[0].Faces) != 0 || res.Hit.TurretDestroyed != 1 {
		t.Fatalf("jam rolls %+v", res.Hit.JamRolls)
	}
	if st := res.Ship.View().Turrets[0].State; st != "destroyed" {
		t.Fatalf("turret %q", st)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
}

// TestVerifyCatchesForgedJamRoll: a jam roll whose recorded result is not
// what its face gives, or a hit that leaves out the jam roll, is caught.
func TestVerifyCatchesForgedJamRoll(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(made events.DetailedShipHit) events.DetailedShipHit
		want string
	}{
		{"wrong facing", func(made events.DetailedShipHit) events.DetailedShipHit {
			made.JamRolls = []events.DetailedShipRoll{made.JamRolls[0]}
			made.JamRolls[0].JamFacing = 5 // a 2 is the right front
			return made
		}, "turret jam roll recorded turret_jam of turret 1: 2 (entered), jammed facing the left rear (5)"},
		{"no jam roll", func(made events.DetailedShipHit) events.DetailedShipHit {
			made.JamRolls = nil
			return made
		}, "recorded 0 rolls; the rules call for 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := shipCampaign(t, nil, "Tern", interceptortest.Tern())
			addBrick(t, s)
			first := brickOnDorsal(t, s, 5, 0)
			e := appendRaw(t, s, first.Events[0].Stream, tc.edit(forgeSecondBrick(t, s)))
			rep := mustVerify(t, s)
			if len(rep.Violations) != 1 || rep.Violations[0].Seq != e.Seq || !strings.Contains(rep.Violations[0].Problem, tc.want) {
				t.Fatalf("violations %+v, want %q at seq %d", rep.Violations, tc.want, e.Seq)
			}
		})
	}
}

// forgeSecondBrick makes the second Brick on Dorsal as the rules make it,
// jam roll 2, without appending it.
func forgeSecondBrick(t *testing.T, s *Service) events.DetailedShipHit {
	t.Helper()
	sh, err := s.DetailedShip("Tern", "")
	if err != nil {
		t.Fatal(err)
	}
	hit := events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Template: &events.ShipTemplate{Name: "Brick", Rows: []string{"XXX", "XXX", "XXX", "XXX"}},
		Column: 8, Entered: true, TurretChance: 1, TurretRoll: 1, TurretEntered: true, Turret: 1}}
	two := func() (int, bool, error) { return 2, true, nil }
	c := sh
	made, err := c.MakeHit(&hit, two, two)
	if err != nil {
		t.Fatal(err)
	}
	return made
}
