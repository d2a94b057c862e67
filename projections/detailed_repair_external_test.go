package projections

import (
	"slices"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules/interceptor"
	"github.com/ltscamp/ltscamp/rules/interceptor/interceptortest"
)

// TestApplyRepairExternal: a recorded repair with External set repairs
// the external system of its name with the rules; the outcome says so,
// SameDetailedRepair holds External against it, and the log line names
// the external system.
func TestApplyRepairExternal(t *testing.T) {
	sp := interceptortest.SpaceGull()
	sp.Externals = []interceptor.ExternalSpec{{Name: "H1", Type: "External Hardpoint", Facing: interceptor.Forward, Column: 9}}
	s, err := interceptor.NewShip(sp)
	if err != nil {
		t.Fatal(err)
	}
	s, _, err = s.Volley([]interceptor.Hit{{Facing: interceptor.Forward, Column: 9, Points: 1}})
	if err != nil {
		t.Fatal(err)
	}
	d := &DetailedShip{ship: s}
	for _, bad := range []events.DetailedShipRepaired{
		{External: true, Code: "H1", Boxes: 2},
		{External: true, Code: "H1", Boxes: 1, Turret: 1},
		{External: true, Code: "H9", Boxes: 1},
		{Code: "H1", Boxes: 1}, // no component H1
	} {
		if _, err := d.ApplyRepair(&bad); err == nil {
			t.Errorf("ApplyRepair(%+v) succeeded", bad)
		}
	}
	if d.Repairs != 0 || d.Ship().Externals()[0].State != interceptor.Destroyed {
		t.Fatalf("a refused repair changed the ship")
	}
	want, err := d.ApplyRepair(&events.DetailedShipRepaired{External: true, Code: "h1", Boxes: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !want.External || want.Code != "H1" || want.Type != "external_hardpoint" || want.Boxes != 1 || want.Minutes != 60 || want.MinutesPerBox != 60 ||
		want.LostBefore != 1 || want.LostAfter != 0 || !slices.Equal(want.Restored, []events.ShipPlace{{Block: "external", Column: 9}}) ||
		!strings.Contains(want.Source, "l.397") {
		t.Fatalf("outcome %+v", want)
	}
	if d.Repairs != 1 || d.Ship().Externals()[0].State != interceptor.Intact {
		t.Fatalf("after the repair: repairs %d, H1 %v", d.Repairs, d.Ship().Externals()[0].State)
	}
	got := want
	if diff := SameDetailedRepair(&got, want); diff != "" {
		t.Errorf("the outcome differs from itself: %s", diff)
	}
	got.External = false
	if diff := SameDetailedRepair(&got, want); !strings.Contains(diff, "external system") {
		t.Errorf("External not compared: %q", diff)
	}
	if line := describeDetailedRepair(&want); line != "external system H1 (External Hardpoint) repaired: 1 box, 1 h" {
		t.Errorf("log line %q", line)
	}
}
