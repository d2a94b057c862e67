package interceptor

import (
	"slices"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/rules"
)

// gullWithExternals is the Space Gull with an External Hardpoint on
// forward column 9 and an External Rescue Compartment on aft column 4.
func gullWithExternals(t *testing.T) Ship {
	t.Helper()
	sp := spaceGullSpec()
	sp.Externals = []ExternalSpec{
		{Name: "H1", Type: "External Hardpoint", Facing: Forward, Column: 9},
		{Name: "Rescue Pod", Type: "External Rescue Compartment", Facing: Aft, Column: 4},
	}
	return mustShip(t, sp)
}

func volley(t *testing.T, s Ship, hits ...Hit) (Ship, Report) {
	t.Helper()
	n, rep, err := s.Volley(hits)
	if err != nil {
		t.Fatalf("Volley(%+v): %v", hits, err)
	}
	return n, rep
}

func externalState(s Ship, name string) BoxState {
	for _, e := range s.Externals() {
		if e.Name == name {
			return e.State
		}
	}
	return 255
}

// TestRepairExternal: a laser of 1 on forward column 9 takes the External
// Hardpoint first (book l.345); it comes back at the book's 1 hour
// (HARDPOINT (INTERNAL OR EXTERNAL), book l.397), and the next hit on the
// column takes it first again.
func TestRepairExternal(t *testing.T) {
	s, rep := volley(t, gullWithExternals(t), laser(Forward, 9, 1))
	if externalState(s, "H1") != Destroyed || !slices.Equal(rep.Destroyed, []Place{{Block: "external", Column: 9}}) {
		t.Fatalf("laser 1 on column 9: H1 %v, destroyed %v", externalState(s, "H1"), rep.Destroyed)
	}
	n, r, err := s.RepairExternal("h1") // any case
	if err != nil {
		t.Fatal(err)
	}
	want := RepairReport{Component: ComponentRef{Code: "H1", Type: ExternalHardpoint}, External: true,
		Restored: []Place{{Block: "external", Row: 0, Column: 9}}, MinutesPerBox: 60, Minutes: 60, LostBefore: 1, LostAfter: 0}
	if !slices.Equal(r.Restored, want.Restored) {
		t.Errorf("restored %v, want %v", r.Restored, want.Restored)
	}
	if r.Component != want.Component || !r.External || r.MinutesPerBox != 60 || r.Minutes != 60 || r.LostBefore != 1 || r.LostAfter != 0 {
		t.Errorf("report %+v, want %+v (1 hour a box, book l.397)", r, want)
	}
	if externalState(n, "H1") != Intact || externalState(s, "H1") != Destroyed {
		t.Errorf("after the repair H1 is %v (want intact); the ship it was called on has %v (want destroyed)", externalState(n, "H1"), externalState(s, "H1"))
	}
	// The repaired hardpoint is again the first box of its column.
	n, rep = volley(t, n, laser(Forward, 9, 1))
	if externalState(n, "H1") != Destroyed || !slices.Equal(rep.Destroyed, []Place{{Block: "external", Column: 9}}) || column(n, Forward, 9) != "oooooooo" {
		t.Errorf("a hit after the repair: H1 %v, destroyed %v, column %s", externalState(n, "H1"), rep.Destroyed, column(n, Forward, 9))
	}
	if !slices.Contains(rep.Disabled, ComponentRef{Code: "H1", Type: ExternalHardpoint}) {
		t.Errorf("a hit after the repair does not disable H1 again: %v", rep.Disabled)
	}
}

// TestRepairExternalRescue: an External Rescue Compartment takes the
// book's 2 hours (RESCUE COMPARTMENT, book l.449).
func TestRepairExternalRescue(t *testing.T) {
	s, _ := volley(t, gullWithExternals(t), laser(Aft, 4, 1))
	n, r, err := s.RepairExternal("Rescue Pod")
	if err != nil {
		t.Fatal(err)
	}
	if r.Minutes != 120 || r.MinutesPerBox != 120 || r.Component.Type != ExternalRescue || !r.External || externalState(n, "Rescue Pod") != Intact {
		t.Errorf("report %+v, Rescue Pod %v; want 120 minutes and intact", r, externalState(n, "Rescue Pod"))
	}
}

// TestRepairExternalRefused: an unknown name, an intact external, one
// whose top armour box went with it (a laser of 2), one widowed by a
// template spreading from the next column, and an exploded ship.
func TestRepairExternalRefused(t *testing.T) {
	s := gullWithExternals(t)
	through, _ := volley(t, s, laser(Forward, 9, 2)) // H1, then armour row 1
	if externalState(through, "H1") != Destroyed || column(through, Forward, 9) != "xooooooo" {
		t.Fatalf("laser 2 on column 9: H1 %v, column %s", externalState(through, "H1"), column(through, Forward, 9))
	}
	// Block 6 centred on column 8 rests on its armour row 1: its right
	// cells take rows 1 and 2 of column 9 under H1, which is then lost
	// with its widowed armour (book l.345).
	widowed, _ := volley(t, s, templateHit(t, Forward, 8, "Block 6"))
	if externalState(widowed, "H1") != Widowed || column(widowed, Forward, 9) != "xxoooooo" {
		t.Fatalf("Block 6 on column 8: H1 %v, column 9 %s", externalState(widowed, "H1"), column(widowed, Forward, 9))
	}
	// Every powerplant box gone: the ship explodes (book l.419).
	exploded, _ := volley(t, s, laser(Forward, 9, 1), laser(Forward, 3, 11), laser(Forward, 4, 11), laser(Forward, 7, 11), laser(Forward, 8, 11))
	if !exploded.Exploded() || externalState(exploded, "H1") != Destroyed {
		t.Fatalf("the ship did not explode (%t) or H1 is %v", exploded.Exploded(), externalState(exploded, "H1"))
	}
	cases := []struct {
		name string
		ship Ship
		ext  string
		code rules.Code
		text string
	}{
		{"unknown name", s, "H2", CodeInvalid, `no external system "H2" to repair: Space Gull has H1, Rescue Pod`},
		{"a component's code", through, "E1", CodeInvalid, `no external system "E1"`},
		{"intact", s, "H1", CodeRule, "has lost nothing"},
		{"armour under it destroyed", through, "H1", CodeRule, "the top armour box of forward column 9 under it is gone"},
		{"widowed with its armour", widowed, "H1", CodeRule, "the book gives armour no repair time"},
		{"exploded", exploded, "H1", CodeRule, "has exploded"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n, r, err := tc.ship.RepairExternal(tc.ext)
			if err == nil || CodeOf(err) != tc.code || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("error %v, want code %v with %q", err, tc.code, tc.text)
			}
			if len(r.Restored) != 0 || externalState(n, "H1") != externalState(tc.ship, "H1") {
				t.Errorf("a refused repair changed something: %+v", r)
			}
		})
	}
	if _, _, err := mustShip(t, spaceGullSpec()).RepairExternal("H1"); CodeOf(err) != CodeInvalid || !strings.Contains(err.Error(), "has none") {
		t.Errorf("a ship with no external systems: %v", err)
	}
	// A name not found is at no index: -1, never one a caller could use.
	for _, sh := range []Ship{s, mustShip(t, spaceGullSpec())} {
		if i, err := sh.external("H2"); i != -1 || err == nil {
			t.Errorf("external(H2) = %d, %v; want -1 and an error", i, err)
		}
	}
}
