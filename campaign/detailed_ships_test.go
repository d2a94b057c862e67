package campaign

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/memstore"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor"
	"github.com/ltscamp/ltscamp/rules/interceptor/interceptortest"
)

// shipCampaign is a new campaign with one detailed ship, name, built from
// sp; roller rolls its dice (nil: the default roller).
func shipCampaign(t *testing.T, roller rules.Roller, name string, sp interceptor.Spec) *Service {
	t.Helper()
	s, err := Init(memstore.New(), "test", rules.Edition2021, Options{VerifyKept: true, Now: fixedClock(), Actor: "gm", Entropy: rand.New(rand.NewSource(1)), Roller: roller})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.DetailedShipNew(name, sp, name+".yaml"); err != nil {
		t.Fatal(err)
	}
	return s
}

func gullCampaign(t *testing.T, roller rules.Roller) *Service {
	t.Helper()
	return shipCampaign(t, roller, "Space Gull", interceptortest.SpaceGull())
}

// mustHit makes a hit on a detailed ship that must succeed.
func mustHit(t *testing.T, s *Service, req DetailedHitRequest) DetailedHitResult {
	t.Helper()
	res, err := s.DetailedShipHit(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func laser(t *testing.T, s *Service, points, column int) DetailedHitResult {
	t.Helper()
	return mustHit(t, s, DetailedHitRequest{Ship: "Space Gull", Facing: "forward", Laser: points, Column: column})
}

func component(t *testing.T, v projections.DetailedShipView, code string) projections.DetailedComponent {
	t.Helper()
	for _, c := range v.Components {
		if c.Name == code {
			return c
		}
	}
	t.Fatalf("no component %s in %+v", code, v.Components)
	return projections.DetailedComponent{}
}

// TestSpaceGullExample is issue 14's worked example: two 6-point lasers in
// columns 3 and 5 of the forward block (80 boxes) leave 68 boxes; a third
// laser of 6 in column 3 stops 2 in the armour and puts 4 into the
// Internal Component Block.
func TestSpaceGullExample(t *testing.T) {
	s := gullCampaign(t, nil)
	laser(t, s, 6, 3)
	res := laser(t, s, 6, 5)
	if got := res.Ship.View().Armor["forward"].Intact; got != 68 {
		t.Fatalf("forward armour intact %d, want 68", got)
	}
	res = laser(t, s, 6, 3)
	armour, internal := 0, 0
	for _, p := range res.Hit.Destroyed {
		switch p.Block {
		case "forward":
			armour++
		case "internal":
			internal++
			if p.Column != 3 {
				t.Errorf("internal box %+v outside column 3", p)
			}
		}
	}
	if armour != 2 || internal != 4 || res.Hit.Wasted != 0 {
		t.Fatalf("armour %d, internal %d, wasted %d; want 2, 4, 0 (%+v)", armour, internal, res.Hit.Wasted, res.Hit)
	}
	v := res.Ship.View()
	if v.Armor["forward"].Intact != 66 || v.Internal.Destroyed != 4 || v.Hits != 3 {
		t.Errorf("view %+v", v)
	}
	// Column 3 holds F, P, P, S: the powerplant loses 2 of its 8 boxes and
	// stays up (disabled at more than half).
	if p := component(t, v, "P"); p.Lost != 2 || p.Disabled || p.Type != "Powerplant" || p.Boxes != 8 {
		t.Errorf("powerplant %+v", p)
	}
	if sd := component(t, v, "S"); sd.Lost != 1 || sd.Type != "Ship Destroyed" {
		t.Errorf("ship destroyed %+v", sd)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Errorf("verify %+v", rep.Violations)
	}
}

// TestDetailedRejectsAppendNothing: every refusal has its code and leaves
// the log as it was.
func TestDetailedRejectsAppendNothing(t *testing.T) {
	s := gullCampaign(t, nil)
	if _, err := s.ShipNew("Kit-Kat", "C1, E1, O1, L1, d6/1, M+1", ""); err != nil {
		t.Fatal(err)
	}
	bad := interceptortest.SpaceGull()
	bad.Armour.Forward = 85
	cases := []struct {
		name string
		code rules.Code
		text string
		run  func() error
	}{
		{"armour not in tens", rules.CodeInvalid, "not a multiple of ten", func() error {
			_, err := s.DetailedShipNew("Gull Two", bad, "bad.yaml")
			return err
		}},
		{"name of a detailed ship", rules.CodeConflict, "already exists", func() error {
			_, err := s.DetailedShipNew("space gull", interceptortest.SpaceGull(), "gull.yaml")
			return err
		}},
		{"name of a section ship", rules.CodeConflict, "already exists", func() error {
			_, err := s.DetailedShipNew("Kit-Kat", interceptortest.SpaceGull(), "gull.yaml")
			return err
		}},
		{"section ship named as a detailed one", rules.CodeConflict, "already exists", func() error {
			_, err := s.ShipNew("Space Gull", "E1, O1", "")
			return err
		}},
		{"bad facing", rules.CodeInvalid, "--facing", func() error {
			_, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Space Gull", Facing: "up", Laser: 6, Column: 3})
			return err
		}},
		{"column 11", rules.CodeInvalid, "--column 11", func() error {
			_, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Space Gull", Facing: "aft", Laser: 6, Column: 11})
			return err
		}},
		{"laser and template", rules.CodeInvalid, "not both", func() error {
			_, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Space Gull", Facing: "aft", Laser: 6, Template: "Block 6", Column: 3})
			return err
		}},
		{"unknown template", rules.CodeInvalid, "no damage template", func() error {
			_, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Space Gull", Facing: "aft", Template: "Nova", Column: 3})
			return err
		}},
		{"laser of 0 points through the rules", rules.CodeInvalid, "laser hit of -1", func() error {
			_, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Space Gull", Facing: "aft", Laser: -1, Column: 3})
			return err
		}},
		{"detailed hit on a section ship", rules.CodeInvalid, "Kit-Kat is a section ship", func() error {
			_, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Kit-Kat", Facing: "aft", Laser: 6, Column: 3})
			return err
		}},
		{"section hit on a detailed ship", rules.CodeInvalid, "Space Gull is a detailed (INTERCEPTOR) record", func() error {
			_, err := s.ShipHit(ShipHitRequest{Ship: "Space Gull", Damage: 3, Inflict: -1})
			return err
		}},
		{"crew on a detailed ship", rules.CodeInvalid, "section ships only", func() error {
			_, err := s.ShipCrew("Space Gull", "Engineering", []string{"Ajax"})
			return err
		}},
		{"unknown ship", rules.CodeNotFound, "did you mean \"Space Gull\"", func() error {
			_, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Space Gul", Facing: "aft", Laser: 6, Column: 3})
			return err
		}},
		{"no templates", rules.CodeInvalid, "no damage templates", func() error {
			_, err := s.ShipTemplatesAdd(nil, "t.yaml")
			return err
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := count(t, s)
			err := tc.run()
			if err == nil || rules.CodeOf(err) != tc.code || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("error %v (code %v), want code %v with %q", err, rules.CodeOf(err), tc.code, tc.text)
			}
			if after := count(t, s); after != before {
				t.Errorf("%d events appended", after-before)
			}
		})
	}
}

// TestDetailedHitRolledColumn: with no column given, the campaign's roller
// rolls a d10 and the event says it was rolled.
func TestDetailedHitRolledColumn(t *testing.T) {
	s := gullCampaign(t, rules.NewGivenFaces([]int{7}))
	res, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Space Gull", Facing: "left", Laser: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Hit.Column != 7 || res.Hit.Entered || len(res.Hit.Destroyed) != 2 || res.Hit.Destroyed[0] != (events.ShipPlace{Block: "left", Row: 1, Column: 7}) {
		t.Fatalf("hit %+v", res.Hit)
	}
}

// TestDetailedUndoRedo: two hits, the first undone: the ship shows only
// the second; redo brings the first back.
func TestDetailedUndoRedo(t *testing.T) {
	s := gullCampaign(t, nil)
	first := laser(t, s, 6, 3)
	laser(t, s, 6, 5)
	if _, err := s.Undo(UndoRequest{Target: first.Events[0].CommandID, Reason: "missed"}); err != nil {
		t.Fatal(err)
	}
	sh, err := s.DetailedShip("Space Gull", "")
	if err != nil {
		t.Fatal(err)
	}
	a := sh.Ship()
	for row := 1; row <= 6; row++ {
		c3, _ := a.ArmourBox(interceptor.Forward, row, 3)
		c5, _ := a.ArmourBox(interceptor.Forward, row, 5)
		if c3 != interceptor.Intact || c5 != interceptor.Destroyed {
			t.Fatalf("row %d: column 3 %v, column 5 %v after the undo", row, c3, c5)
		}
	}
	if v := sh.View(); v.Armor["forward"].Intact != 74 || v.Hits != 1 {
		t.Fatalf("after undo %+v", v.Armor)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Errorf("verify after undo %+v", rep.Violations)
	}
	if _, err := s.Redo(RedoRequest{Reason: "it hit"}); err != nil {
		t.Fatal(err)
	}
	sh, err = s.DetailedShip("Space Gull", "")
	if err != nil {
		t.Fatal(err)
	}
	if v := sh.View(); v.Armor["forward"].Intact != 68 || v.Hits != 2 {
		t.Fatalf("after redo %+v", v.Armor)
	}
}

// TestDetailedUndoRedecidesLaterHits: a later hit that the rules only
// allow because of an earlier one (a laser into an exploded ship) makes
// the undo of the earlier one refuse, unless cascaded. Here the later
// hit stays valid, and what it recorded is re-checked against the ship
// without the undone hit.
func TestDetailedUndoRedecidesLaterHits(t *testing.T) {
	s := gullCampaign(t, nil)
	first := laser(t, s, 6, 3)
	laser(t, s, 6, 3) // 2 in the armour, 4 inside: depends on the first
	_, err := s.Undo(UndoRequest{Target: first.Events[0].CommandID, Reason: "missed"})
	if err == nil {
		t.Fatal("an undo that makes a later hit record what the rules no longer give was allowed")
	}
	before := count(t, s)
	if _, err := s.Undo(UndoRequest{Target: first.Events[0].CommandID, Reason: "missed", Cascade: true}); err != nil {
		t.Fatal(err)
	}
	if count(t, s) == before {
		t.Fatal("the cascade appended nothing")
	}
	sh, err := s.DetailedShip("Space Gull", "")
	if err != nil {
		t.Fatal(err)
	}
	if v := sh.View(); v.Armor["forward"].Intact != 80 || v.Hits != 0 {
		t.Fatalf("after the cascade %+v", v)
	}
}

// TestVerifyCatchesForgedDetailedHit: a hit that records what the rules
// would not do, and a hit with a template the campaign never added.
func TestVerifyCatchesForgedDetailedHit(t *testing.T) {
	s := gullCampaign(t, nil)
	res := laser(t, s, 6, 3)
	stream := res.Events[0].Stream
	forged := events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: 6, Column: 5, Entered: true,
		Destroyed: []events.ShipPlace{{Block: "forward", Row: 1, Column: 5}}}}
	bad := appendRaw(t, s, stream, forged)
	tp := events.ShipTemplate{Name: "Nova", Rows: []string{"X"}}
	unknown := appendRaw(t, s, stream, events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "aft", Template: &tp, Column: 1, Entered: true,
		Destroyed: []events.ShipPlace{{Block: "aft", Row: 1, Column: 1}}}})
	rep := mustVerify(t, s)
	if rep.OK || len(rep.Violations) != 2 {
		t.Fatalf("violations %+v", rep.Violations)
	}
	if v := rep.Violations[0]; v.Seq != bad.Seq || !strings.Contains(v.Problem, "the rules destroy 6") {
		t.Errorf("first violation %+v", v)
	}
	if v := rep.Violations[1]; v.Seq != unknown.Seq || !strings.Contains(v.Problem, "has not added") {
		t.Errorf("second violation %+v", v)
	}
}

// TestDetailedTemplates: templates added are used by name and recorded
// with the hit; the samples are listed as samples.
func TestDetailedTemplates(t *testing.T) {
	s := gullCampaign(t, nil)
	nova, err := interceptor.NewTemplate("Nova", []string{".X.", "XXX"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ShipTemplatesAdd([]interceptor.Template{nova}, "t.yaml"); err != nil {
		t.Fatal(err)
	}
	list, err := s.ShipTemplates()
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1+len(interceptor.SampleTemplates()) || list[0].Name != "Nova" || list[0].Sample || list[0].Points != 4 || !list[1].Sample {
		t.Fatalf("list %+v", list)
	}
	res, err := s.DetailedShipHit(DetailedHitRequest{Ship: "Space Gull", Facing: "aft", Template: "nova", Column: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Centred on column 1: the top row's X is on column 1; the second
	// row's left X falls off the block and is wasted.
	if res.Hit.Template == nil || res.Hit.Template.Name != "Nova" || res.Hit.Sample || len(res.Hit.Destroyed) != 3 || res.Hit.Wasted != 1 {
		t.Fatalf("hit %+v", res.Hit)
	}
	res, err = s.DetailedShipHit(DetailedHitRequest{Ship: "Space Gull", Facing: "aft", Template: "Block 6", Column: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Hit.Sample || len(res.Hit.Destroyed) != 6 {
		t.Fatalf("sample hit %+v", res.Hit)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Errorf("verify %+v", rep.Violations)
	}
}

// gullE1Lost is the acceptance: lasers of 11 down column 1 and 10
// down column 2 leave E1 (Engine, 4 boxes) with 3 lost, disabled; an
// adventure is under way, on day 1.
func gullE1Lost(t *testing.T) *Service {
	t.Helper()
	s := gullCampaign(t, nil)
	if _, err := s.AdventureStart("Dry dock"); err != nil {
		t.Fatal(err)
	}
	laser(t, s, 11, 1)
	res := laser(t, s, 10, 2)
	if c := component(t, res.Ship.View(), "E1"); c.Lost != 3 || !c.Disabled {
		t.Fatalf("E1 %+v, want 3 lost and disabled", c)
	}
	return s
}

func repair(t *testing.T, s *Service, code string, boxes int) DetailedRepairResult {
	t.Helper()
	res, err := s.DetailedShipRepair(DetailedRepairRequest{Ship: "Space Gull", Component: code, Boxes: boxes})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestDetailedRepairAcceptance: E1 repaired by 3 boxes at the book's 2
// hours a box (ENGINE, book l.421) takes 6 h of day 1; undo brings the 3
// boxes and the clock back.
func TestDetailedRepairAcceptance(t *testing.T) {
	s := gullE1Lost(t)
	res := repair(t, s, "E1", 3)
	r := res.Repair
	if c := component(t, res.Ship.View(), "E1"); c.Lost != 0 || c.Disabled {
		t.Errorf("after the repair E1 %+v, want 0 lost", c)
	}
	if r.Minutes != 360 || r.MinutesPerBox != 120 || r.From == nil || r.Until == nil ||
		*r.From != (events.ShipClock{Adventure: 1, Day: 1}) || *r.Until != (events.ShipClock{Adventure: 1, Day: 1, Minute: 360}) || res.Days != 0 {
		t.Fatalf("repair %+v from %v until %v", r, r.From, r.Until)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
	if _, err := s.Undo(UndoRequest{Reason: "no yard"}); err != nil {
		t.Fatal(err)
	}
	sh, err := s.DetailedShip("Space Gull", "")
	if err != nil {
		t.Fatal(err)
	}
	if c := component(t, sh.View(), "E1"); c.Lost != 3 {
		t.Errorf("after undo E1 lost %d, want 3", c.Lost)
	}
	// The clock is back: the next repair starts at the day's start.
	if r := repair(t, s, "E1", 1).Repair; r.From.Minute != 0 || r.Until.Minute != 120 {
		t.Errorf("after undo the next repair runs %v → %v, want 00:00 → 02:00", *r.From, *r.Until)
	}
}

// TestDetailedRepairPastMidnight: repairs run on from one another; one
// past midnight ends the day as day next does (day.advanced, same
// command), and undo takes the day back.
func TestDetailedRepairPastMidnight(t *testing.T) {
	s := gullE1Lost(t)
	repair(t, s, "E1", 2) // 00:00 → 04:00
	laser(t, s, 12, 3)    // P, P, S
	laser(t, s, 12, 4)    // P, P, S
	res := repair(t, s, "S", 0)
	r := res.Repair
	if r.Boxes != 2 || r.Minutes != 24*60 || res.Days != 1 || *r.Until != (events.ShipClock{Adventure: 1, Day: 2, Minute: 240}) {
		t.Fatalf("Ship Destroyed repair %+v until %v, days %d", r, r.Until, res.Days)
	}
	last := res.Events[len(res.Events)-1]
	if last.Type != events.TypeDayAdvanced {
		t.Errorf("the repair's last event is %s, want day.advanced", last.Type)
	}
	c, err := s.campaignNow()
	if err != nil || c.Day != 2 {
		t.Fatalf("campaign on day %d (%v), want 2", c.Day, err)
	}
	if r := repair(t, s, "E1", 1).Repair; *r.From != (events.ShipClock{Adventure: 1, Day: 2, Minute: 240}) {
		t.Errorf("the next repair starts at %v, want day 2 04:00", *r.From)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
	for range 2 {
		if _, err := s.Undo(UndoRequest{Reason: "not yet"}); err != nil {
			t.Fatal(err)
		}
	}
	if c, _ := s.campaignNow(); c.Day != 1 {
		t.Errorf("after undo the campaign is on day %d, want 1", c.Day)
	}
	// A day next starts the new day's clock at its start.
	if _, err := s.DayNext(1); err != nil {
		t.Fatal(err)
	}
	if r := repair(t, s, "S", 1).Repair; *r.From != (events.ShipClock{Adventure: 1, Day: 2}) {
		t.Errorf("after day next the repair starts at %v, want day 2 00:00", *r.From)
	}
}

// TestDetailedRepairRefusals: each refusal has its code (exit 2 for
// CodeInvalid, 4 for CodeRule) and appends nothing.
func TestDetailedRepairRefusals(t *testing.T) {
	s := gullE1Lost(t)
	cases := []struct {
		name      string
		code      rules.Code
		text      string
		component string
		boxes     int
	}{
		{"more boxes than it has", rules.CodeInvalid, "it has 4, so repair 1 to 4", "E1", 5},
		{"more boxes than it lost", rules.CodeRule, "it has lost 3 of 4", "E1", 4},
		{"nothing lost", rules.CodeRule, "has lost no boxes", "E2", 1},
		{"Free boxes: no repair time", rules.CodeRule, "Free has no repair time", "F", 1},
		{"armour", rules.CodeRule, "armour is not a component", "forward", 1},
		{"armour by name", rules.CodeRule, "armour is not a component", "armour", 1},
		{"unknown code", rules.CodeInvalid, "did you mean E1", "E3", 1},
		{"no such turret", rules.CodeInvalid, "there is no T1", "T1:E1", 1},
		{"bad turret syntax", rules.CodeInvalid, "T<n>:CODE", "X:E1", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := count(t, s)
			_, err := s.DetailedShipRepair(DetailedRepairRequest{Ship: "Space Gull", Component: tc.component, Boxes: tc.boxes})
			if err == nil || rules.CodeOf(err) != tc.code || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("error %v (code %v), want code %v with %q", err, rules.CodeOf(err), tc.code, tc.text)
			}
			if after := count(t, s); after != before {
				t.Errorf("%d events appended", after-before)
			}
		})
	}
	if _, err := s.EncounterStart("Boarders"); err != nil {
		t.Fatal(err)
	}
	before := count(t, s)
	if _, err := s.DetailedShipRepair(DetailedRepairRequest{Ship: "Space Gull", Component: "E1"}); rules.CodeOf(err) != rules.CodeRule || !strings.Contains(fmt.Sprint(err), "during encounter 1") {
		t.Errorf("a repair during an encounter: %v", err)
	}
	if count(t, s) != before {
		t.Errorf("a refused repair appended")
	}
}

// TestVerifyCatchesForgedDetailedRepair: a repair that restores more than
// the rules do, one that claims less time than the book gives, and one
// whose clock does not run on from the day's last repair.
func TestVerifyCatchesForgedDetailedRepair(t *testing.T) {
	s := gullE1Lost(t)
	good := repair(t, s, "E1", 1) // 00:00 → 02:00
	stream := good.Events[0].Stream
	at := &events.GameTime{Adventure: 1, Day: 1}
	forge := func(p events.DetailedShipRepaired) int64 {
		return appendRawCommand(t, s, at, rawEvent{stream, p})[0].Seq
	}
	clock := func(from, until int) (*events.ShipClock, *events.ShipClock) {
		return &events.ShipClock{Adventure: 1, Day: 1, Minute: from}, &events.ShipClock{Adventure: 1, Day: 1, Minute: until}
	}
	f, u := clock(120, 135)
	cheap := forge(events.DetailedShipRepaired{Code: "E1", Type: "engine", Boxes: 1, Restored: []events.ShipPlace{{Block: "internal", Row: 2, Column: 1}},
		LostBefore: 2, LostAfter: 1, MinutesPerBox: 15, Minutes: 15, From: f, Until: u})
	f, u = clock(0, 120)
	early := forge(events.DetailedShipRepaired{Code: "E1", Type: "engine", Boxes: 1, Restored: []events.ShipPlace{{Block: "internal", Row: 2, Column: 2}},
		LostBefore: 1, LostAfter: 0, MinutesPerBox: 120, Minutes: 120, From: f, Until: u})
	rep := mustVerify(t, s)
	if rep.OK || len(rep.Violations) != 2 {
		t.Fatalf("violations %+v", rep.Violations)
	}
	if v := rep.Violations[0]; v.Seq != cheap || !strings.Contains(v.Problem, "the book gives 120") {
		t.Errorf("first violation %+v", v)
	}
	if v := rep.Violations[1]; v.Seq != early || !strings.Contains(v.Problem, "the clock gives day 1, 02:15") {
		t.Errorf("second violation %+v", v)
	}
}
