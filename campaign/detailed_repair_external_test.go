package campaign

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor"
	"github.com/ltscamp/ltscamp/rules/interceptor/interceptortest"
)

// gullExternalsCampaign is a campaign with the Space Gull carrying an
// External Hardpoint (H1) on forward column 9 and an External Rescue
// Compartment (Rescue Pod) on aft column 4, and an adventure under way on
// day 1.
func gullExternalsCampaign(t *testing.T) *Service {
	t.Helper()
	sp := interceptortest.SpaceGull()
	sp.Externals = []interceptor.ExternalSpec{
		{Name: "H1", Type: "External Hardpoint", Facing: interceptor.Forward, Column: 9},
		{Name: "Rescue Pod", Type: "External Rescue Compartment", Facing: interceptor.Aft, Column: 4},
	}
	s := shipCampaign(t, nil, "Space Gull", sp)
	if _, err := s.AdventureStart("Dry dock"); err != nil {
		t.Fatal(err)
	}
	return s
}

func externalHit(t *testing.T, s *Service, facing string, points, column int) DetailedHitResult {
	t.Helper()
	return mustHit(t, s, DetailedHitRequest{Ship: "Space Gull", Facing: facing, Laser: points, Column: column})
}

func externalView(t *testing.T, v projections.DetailedShipView, name string) projections.DetailedExternalView {
	t.Helper()
	for _, e := range v.Externals {
		if e.Name == name {
			return e
		}
	}
	t.Fatalf("no external system %s in %+v", name, v.Externals)
	return projections.DetailedExternalView{}
}

func gullNow(t *testing.T, s *Service) projections.DetailedShipView {
	t.Helper()
	sh, err := s.DetailedShip("Space Gull", "")
	if err != nil {
		t.Fatal(err)
	}
	return sh.View()
}

// TestDetailedRepairExternal: a laser of 1 on forward column 9 takes H1
// (book l.345); `ship repair "Space Gull" h1` brings it back in the book's
// 1 hour (HARDPOINT (INTERNAL OR EXTERNAL), l.397) on the game clock;
// verify is clean; undo makes it destroyed again and gives the hour back.
func TestDetailedRepairExternal(t *testing.T) {
	s := gullExternalsCampaign(t)
	hit := externalHit(t, s, "forward", 1, 9)
	if len(hit.Hit.Destroyed) != 1 || hit.Hit.Destroyed[0] != (events.ShipPlace{Block: "external", Column: 9}) {
		t.Fatalf("laser 1 on column 9 destroyed %v, want H1", hit.Hit.Destroyed)
	}
	if e := externalView(t, hit.Ship.View(), "H1"); e.State != "destroyed" {
		t.Fatalf("after the hit H1 is %s", e.State)
	}
	res := repair(t, s, "h1", 0)
	r := res.Repair
	if !r.External || r.Code != "H1" || r.Turret != 0 || r.Type != string(interceptor.ExternalHardpoint) || r.Boxes != 1 ||
		r.LostBefore != 1 || r.LostAfter != 0 || r.MinutesPerBox != 60 || r.Minutes != 60 ||
		len(r.Restored) != 1 || r.Restored[0] != (events.ShipPlace{Block: "external", Column: 9}) {
		t.Fatalf("repair %+v", r)
	}
	if r.From == nil || r.Until == nil || *r.From != (events.ShipClock{Adventure: 1, Day: 1}) ||
		*r.Until != (events.ShipClock{Adventure: 1, Day: 1, Minute: 60}) || res.Days != 0 {
		t.Fatalf("repair ran %v → %v, %d days; want day 1 00:00 → 01:00", r.From, r.Until, res.Days)
	}
	if len(res.Events) != 1 || res.Events[0].Type != events.TypeDetailedShipRepaired || !strings.Contains(string(res.Events[0].Payload), `"external":true`) {
		t.Fatalf("events %+v", res.Events)
	}
	if e := externalView(t, res.Ship.View(), "H1"); e.State != "intact" {
		t.Errorf("after the repair H1 is %s", e.State)
	}
	if v := res.Ship.View(); v.Repairs != 1 {
		t.Errorf("repairs %d, want 1", v.Repairs)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
	// The repaired hardpoint is the column's first box again.
	again := externalHit(t, s, "forward", 1, 9)
	if len(again.Hit.Destroyed) != 1 || again.Hit.Destroyed[0].Block != "external" {
		t.Errorf("a hit after the repair destroyed %v, want H1", again.Hit.Destroyed)
	}
	if _, err := s.Undo(UndoRequest{Reason: "missed"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(UndoRequest{Reason: "no yard"}); err != nil {
		t.Fatal(err)
	}
	if e := externalView(t, gullNow(t, s), "H1"); e.State != "destroyed" {
		t.Errorf("after the undo H1 is %s, want destroyed", e.State)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify after undo %+v", rep.Violations)
	}
	// The clock is back: the next repair starts at the day's start.
	if r := repair(t, s, "H1", 1).Repair; r.From.Minute != 0 || r.Until.Minute != 60 {
		t.Errorf("after undo the repair runs %v → %v, want 00:00 → 01:00", *r.From, *r.Until)
	}
}

// TestDetailedRepairExternalRescue: the External Rescue Compartment takes
// the book's 2 hours (RESCUE COMPARTMENT, l.449), and a repair of it that
// runs past midnight names it in the day's reason.
func TestDetailedRepairExternalRescue(t *testing.T) {
	s := gullExternalsCampaign(t)
	externalHit(t, s, "forward", 11, 1) // 8 armour, F, E1, E1
	externalHit(t, s, "forward", 10, 2) // 8 armour, F, E1
	externalHit(t, s, "forward", 12, 3) // 8 armour, F, P, P, S
	externalHit(t, s, "forward", 12, 4) // 8 armour, F, P, P, S
	externalHit(t, s, "aft", 1, 4)      // Rescue Pod
	repair(t, s, "S", 1)                // 12 h: 00:00 → 12:00
	repair(t, s, "P", 4)                // 4 h: → 16:00
	repair(t, s, "E1", 3)               // 6 h: → 22:00
	res := repair(t, s, "rescue pod", 0)
	r := res.Repair
	if !r.External || r.Code != "Rescue Pod" || r.Minutes != 120 || r.MinutesPerBox != 120 || res.Days != 1 ||
		*r.Until != (events.ShipClock{Adventure: 1, Day: 2}) {
		t.Fatalf("repair %+v until %v, days %d", r, r.Until, res.Days)
	}
	last := res.Events[len(res.Events)-1]
	var day events.DayAdvanced
	if err := json.Unmarshal(last.Payload, &day); err != nil || last.Type != events.TypeDayAdvanced {
		t.Fatalf("last event %s: %v", last.Type, err)
	}
	if !strings.Contains(day.Reason, "external system Rescue Pod") {
		t.Errorf("day.advanced reason %q does not name the external system", day.Reason)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify %+v", rep.Violations)
	}
}

// TestDetailedRepairExternalRefusals: each refusal has its code and
// appends nothing.
func TestDetailedRepairExternalRefusals(t *testing.T) {
	s := gullExternalsCampaign(t)
	externalHit(t, s, "forward", 2, 9) // H1, then the armour under it
	externalHit(t, s, "aft", 1, 4)     // Rescue Pod
	cases := []struct {
		name      string
		code      rules.Code
		text      string
		component string
		boxes     int
	}{
		{"armour under it gone", rules.CodeRule, "the top armour box of forward column 9 under it is gone", "H1", 0},
		{"intact", rules.CodeRule, "has lost nothing", "Rescue Pod", 0},
		{"two boxes", rules.CodeInvalid, "an external system is one box", "Rescue Pod", 2},
		{"did you mean", rules.CodeInvalid, "did you mean Rescue Pod?", "Rescue Pd", 0},
		{"names listed", rules.CodeInvalid, "its external systems are H1, Rescue Pod", "Nothing", 0},
		{"not on a turret", rules.CodeInvalid, "there is no T1", "T1:H1", 0},
	}
	// The rescue pod repaired first, so that "intact" has one to refuse.
	repair(t, s, "Rescue Pod", 1)
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
}

// TestVerifyCatchesForgedExternalRepair: an external repair that claims
// less time than the book gives, and one of a hardpoint whose armour is
// gone, which the rules refuse.
func TestVerifyCatchesForgedExternalRepair(t *testing.T) {
	s := gullExternalsCampaign(t)
	externalHit(t, s, "forward", 1, 9) // H1
	good := repair(t, s, "H1", 0)      // 00:00 → 01:00
	externalHit(t, s, "forward", 2, 9) // H1 again, and the armour under it
	externalHit(t, s, "aft", 1, 4)     // Rescue Pod
	stream := good.Events[0].Stream
	at := &events.GameTime{Adventure: 1, Day: 1}
	forge := func(p events.DetailedShipRepaired) int64 {
		return appendRawCommand(t, s, at, rawEvent{stream, p})[0].Seq
	}
	clock := func(from, until int) (*events.ShipClock, *events.ShipClock) {
		return &events.ShipClock{Adventure: 1, Day: 1, Minute: from}, &events.ShipClock{Adventure: 1, Day: 1, Minute: until}
	}
	f, u := clock(60, 120)
	cheap := forge(events.DetailedShipRepaired{External: true, Code: "Rescue Pod", Type: string(interceptor.ExternalRescue), Boxes: 1,
		Restored: []events.ShipPlace{{Block: "external", Column: 4}}, LostBefore: 1, LostAfter: 0, MinutesPerBox: 60, Minutes: 60, From: f, Until: u})
	f, u = clock(120, 180)
	bare := forge(events.DetailedShipRepaired{External: true, Code: "H1", Type: string(interceptor.ExternalHardpoint), Boxes: 1,
		Restored: []events.ShipPlace{{Block: "external", Column: 9}}, LostBefore: 1, LostAfter: 0, MinutesPerBox: 60, Minutes: 60, From: f, Until: u})
	rep := mustVerify(t, s)
	if rep.OK || len(rep.Violations) != 2 {
		t.Fatalf("violations %+v", rep.Violations)
	}
	if v := rep.Violations[0]; v.Seq != cheap || !strings.Contains(v.Problem, "the book gives 120") {
		t.Errorf("first violation %+v", v)
	}
	if v := rep.Violations[1]; v.Seq != bare || !strings.Contains(v.Problem, "armour box of forward column 9 under it is gone") {
		t.Errorf("second violation %+v", v)
	}
}
