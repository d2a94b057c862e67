package projections

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules/interceptor"
	"github.com/ltscamp/ltscamp/rules/interceptor/interceptortest"
)

// The detailed (INTERCEPTOR) ship fold, given a ship's events, expect
// this ship: each hit, repair and turn end applied with the rules.

// wrenSpec is a small crewed record: one row of armour a facing, a
// Cockpit (4 boxes) under forward columns 1-2, a Bridge (8) under 3-6,
// Quarters (4) under 7-8, Powerplant (4) under 9-10.
func wrenSpec() interceptor.Spec {
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

// twinTern is the Tern with a second turret, Ventral, like Dorsal.
func twinTern() interceptor.Spec {
	sp := interceptortest.Tern()
	v := sp.Turrets[0]
	v.Name = "Ventral"
	sp.Turrets = append(sp.Turrets, v)
	return sp
}

// builtShip is the first event of a ship's stream.
func builtShip(id string, sp interceptor.Spec) events.DetailedShipBuilt {
	return events.DetailedShipBuilt{ShipID: id, Name: sp.Name, File: strings.ToLower(sp.Name) + ".yaml", Record: RecordOf(sp)}
}

// laserHit is a laser of points on the forward block's column.
func laserHit(points, column int) events.DetailedShipHit {
	return events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: points, Column: column}}
}

var (
	brickTemplate = &events.ShipTemplate{Name: "Brick", Rows: []string{"XXX", "XXX", "XXX", "XXX"}}
	// slabTemplate is 11 wide and 5 deep: on a block 10 wide, all of it.
	slabTemplate = &events.ShipTemplate{Name: "Slab", Rows: []string{"XXXXXXXXXXX", "XXXXXXXXXXX", "XXXXXXXXXXX", "XXXXXXXXXXX", "XXXXXXXXXXX"}}
)

// brickOnDorsal is the Brick template (3 wide, 4 deep) on Dorsal's
// column: the turret's 2 armour rows and both internal rows.
func brickOnDorsal(column int, jam ...int) events.DetailedShipHit {
	h := events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Template: brickTemplate, Column: column, TurretChance: 1, TurretRoll: 1, Turret: 1}}
	if len(jam) > 0 {
		h.JamRolls = []events.DetailedShipRoll{{Kind: "turret_jam", Station: "T", Turret: 1, Faces: jam}}
	}
	return h
}

// shipSteps are steps on one ship's stream.
func shipSteps(stream string, payloads ...events.Payload) []step {
	out := make([]step, len(payloads))
	for i, p := range payloads {
		out[i] = step{stream, "K" + string(rune('a'+i)), p}
	}
	return out
}

// shipLog is logOf with each event at its payload's own version (logOf
// writes version 1, and a turn end of version 1 folds by the old rules).
func shipLog(t *testing.T, steps ...step) []events.Event {
	t.Helper()
	log := logOf(t, steps...)
	for i := range log {
		log[i].PayloadVersion = steps[i].payload.PayloadVersion()
	}
	return log
}

// foldShip folds a ship's events, failing the test on an error.
func foldShip(t *testing.T, log []events.Event) DetailedShip {
	t.Helper()
	var d DetailedShip
	for _, e := range log {
		if err := d.Apply(e); err != nil {
			t.Fatalf("Apply(event %d): %v", e.Seq, err)
		}
	}
	return d
}

// shipDice gives faces in order, entered, and fails when they run out.
func shipDice(faces ...int) ShipDice {
	return func() (int, bool, error) {
		if len(faces) == 0 {
			return 0, false, errors.New("out of dice")
		}
		f := faces[0]
		faces = faces[1:]
		return f, true, nil
	}
}

func componentNamed(t *testing.T, cs []DetailedComponent, code string) DetailedComponent {
	t.Helper()
	for _, c := range cs {
		if c.Name == code {
			return c
		}
	}
	t.Fatalf("no component %s in %+v", code, cs)
	return DetailedComponent{}
}

// TestDetailedShipFoldSpaceGull: issue 14's worked example (DAMAGE
// TEMPLATE, book l.327): two 6-point lasers in columns 3 and 5 of the
// Space Gull's 80-box forward block leave 68 boxes; a third in column 3
// stops 2 in the armour and puts 4 into the Internal Component Block
// (F, P, P, S): the powerplant loses 2 of its 8 boxes and stays up.
func TestDetailedShipFoldSpaceGull(t *testing.T) {
	log := shipLog(t, shipSteps("ship/G", builtShip("G", interceptortest.SpaceGull()), laserHit(6, 3), laserHit(6, 5), laserHit(6, 3))...)
	block := func(boxes, destroyed int) DetailedBlock {
		return DetailedBlock{Boxes: boxes, Intact: boxes - destroyed, Destroyed: destroyed}
	}
	comps := func(f, p, s int) []DetailedComponent {
		return []DetailedComponent{
			{Name: "C", Type: "Cockpit", Key: "cockpit", Boxes: 4}, {Name: "E1", Type: "Engine", Key: "engine", Boxes: 4},
			{Name: "E2", Type: "Engine", Key: "engine", Boxes: 4}, {Name: "F", Type: "Free", Key: "free", Boxes: 10, Lost: f},
			{Name: "P", Type: "Powerplant", Key: "powerplant", Boxes: 8, Lost: p}, {Name: "S", Type: "Ship Destroyed", Key: "ship_destroyed", Boxes: 10, Lost: s},
		}
	}
	view := func(n int, forward, internal int, c []DetailedComponent) DetailedShipView {
		return DetailedShipView{ID: "G", Name: "Space Gull", Kind: DetailedKind, File: "space gull.yaml", Hits: n - 1,
			Armor:    map[string]DetailedBlock{"forward": block(80, forward), "aft": block(40, 0), "left": block(40, 0), "right": block(40, 0)},
			Internal: block(40, internal), Components: c, Externals: []DetailedExternalView{}, Turrets: []DetailedTurretView{}, Crew: []DetailedCrewView{},
			Version: int64(n), Seq: int64(n)}
	}
	want := []DetailedShipView{
		view(1, 0, 0, comps(0, 0, 0)),
		view(2, 6, 0, comps(0, 0, 0)),
		view(3, 12, 0, comps(0, 0, 0)),
		view(4, 14, 4, comps(1, 2, 1)),
	}
	var d DetailedShip
	for i, e := range log {
		if err := d.Apply(e); err != nil {
			t.Fatal(err)
		}
		if got := d.View(); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("after event %d:\n got %+v\nwant %+v", i+1, got, want[i])
		}
		if id, p := d.Latest(); id != e.ID || p == nil {
			t.Errorf("after event %d: latest %q", i+1, id)
		}
	}
	if got := d.View(); got.Fate() != "" || got.Heading() != "detailed record (INTERCEPTOR)" {
		t.Errorf("a ship in action: fate %q, heading %q", got.Fate(), got.Heading())
	}
	// The ship before the latest event is the one after the two lasers.
	before, ok := d.Before()
	if !ok || before.Hits != 2 || before.View().Armor["forward"].Intact != 68 {
		t.Errorf("Before = %+v, %t", before.View(), ok)
	}
}

// TestDetailedHitOutcome: what the rules say a hit did, in the stored
// form, and SameDetailedOutcome holding a recorded hit against it.
func TestDetailedHitOutcome(t *testing.T) {
	var d DetailedShip
	if err := d.Apply(logOf(t, step{"ship/G", "K", builtShip("G", interceptortest.SpaceGull())})[0]); err != nil {
		t.Fatal(err)
	}
	column := func(block string, col, from, to int) []events.ShipPlace {
		var out []events.ShipPlace
		for r := from; r <= to; r++ {
			out = append(out, events.ShipPlace{Block: block, Row: r, Column: col})
		}
		return out
	}
	// Two lasers at one point of its movement: 6 in column 3, then 10 in
	// column 3 (2 armour, F, P, P, S, 4 past the bottom).
	hit := laserHit(6, 3)
	hit.MoreShots = []events.DetailedShot{{Facing: "forward", Points: 10, Column: 3}}
	hit.Source = "two lasers"
	before, want, err := d.ApplyHit(&hit)
	if err != nil {
		t.Fatal(err)
	}
	if before.Exploded() || d.Hits != 1 {
		t.Errorf("before exploded %t, hits %d", before.Exploded(), d.Hits)
	}
	first := hit.DetailedShot
	first.Destroyed = column("forward", 3, 1, 6)
	second := hit.MoreShots[0]
	second.Destroyed = append(column("forward", 3, 7, 8), column("internal", 3, 1, 4)...)
	second.Wasted = 4
	wantHit := events.DetailedShipHit{DetailedShot: first, MoreShots: []events.DetailedShot{second}, Source: "two lasers"}
	gs := want.Shots()
	if len(gs) != 2 || !slices.Equal(gs[0].Destroyed, first.Destroyed) || !slices.Equal(gs[1].Destroyed, second.Destroyed) ||
		gs[0].Wasted != 0 || gs[1].Wasted != 4 || gs[0].Points != 6 || gs[1].Points != 10 || gs[1].Column != 3 || want.Source != "two lasers" ||
		len(gs[0].Exploded)+len(gs[1].Exploded)+len(want.Widowed)+len(want.Disabled)+len(want.Rolls)+len(want.Killed) != 0 || want.ShipExploded {
		t.Fatalf("outcome:\n got %+v\nwant %+v", want, wantHit)
	}
	if diff := SameDetailedOutcome(&wantHit, want); diff != "" {
		t.Errorf("the outcome differs from itself: %s", diff)
	}
	// Each difference, found and told.
	for _, c := range []struct {
		change func(h *events.DetailedShipHit)
		want   string
	}{
		{func(h *events.DetailedShipHit) { h.MoreShots = nil }, "hit recorded 1 shots; the rules made 2"},
		{func(h *events.DetailedShipHit) { h.Destroyed = h.Destroyed[:5] },
			"shot 1 recorded 5 boxes destroyed (forward r1c3, forward r2c3, forward r3c3, forward r4c3, forward r5c3); the rules destroy 6 (forward r1c3, forward r2c3, forward r3c3, forward r4c3, forward r5c3, forward r6c3)"},
		{func(h *events.DetailedShipHit) { h.MoreShots[0].Destroyed = h.MoreShots[0].Destroyed[:5] },
			"shot 2 recorded 5 boxes destroyed (forward r7c3, forward r8c3, internal r1c3, internal r2c3, internal r3c3); the rules destroy 6 (forward r7c3, forward r8c3, internal r1c3, internal r2c3, internal r3c3, internal r4c3)"},
		{func(h *events.DetailedShipHit) { h.MoreShots[0].Exploded = []events.ShipPlace{{Block: "internal"}} }, "shot 2 recorded 1 boxes exploded; the rules give 0"},
		{func(h *events.DetailedShipHit) { h.MoreShots[0].Wasted = 3 }, "shot 2 recorded 3 points wasted (0 residual); the rules give 4 (0)"},
		{func(h *events.DetailedShipHit) { h.Residual = 1 }, "shot 1 recorded 0 points wasted (1 residual); the rules give 0 (0)"},
		{func(h *events.DetailedShipHit) { h.TurretDestroyed = 1 }, "shot 1 recorded turret 1 destroyed; the rules give 0 (0: none)"},
		{func(h *events.DetailedShipHit) { h.Widowed = []events.ShipPlace{{Block: "forward"}} }, "hit recorded 1 widowed boxes; the rules widow 0"},
		{func(h *events.DetailedShipHit) { h.ExternalsLost = []string{"H1"} }, "hit recorded 0 widowed boxes; the rules widow 0"},
		{func(h *events.DetailedShipHit) { h.Disabled = []events.ShipComponentRef{{Code: "P"}} }, "hit recorded components disabled [{0 P }]; the rules disable []"},
		{func(h *events.DetailedShipHit) { h.ShipExploded = true }, "hit recorded the ship exploded true; the rules give false"},
		{func(h *events.DetailedShipHit) { h.Killed = []string{"Mara"} }, "hit recorded [Mara] killed; the rules kill []"},
		{func(h *events.DetailedShipHit) { h.Rolls = []string{"consciousness"} }, "hit recorded the rolls [consciousness]; the rules call for []"},
		{func(h *events.DetailedShipHit) { h.CrewRolls = []events.DetailedShipRoll{{Kind: "consciousness"}} }, "hit recorded 1 rolls; the rules make 0"},
		{func(h *events.DetailedShipHit) { h.JamRolls = []events.DetailedShipRoll{{Kind: "turret_jam"}} }, "hit's turret jam roll recorded 1 rolls; the rules make 0"},
	} {
		got := wantHit
		got.MoreShots = slices.Clone(wantHit.MoreShots)
		c.change(&got)
		if diff := SameDetailedOutcome(&got, want); diff != c.want {
			t.Errorf("SameDetailedOutcome:\n got %q\nwant %q", diff, c.want)
		}
	}
	// One shot is "hit", not "shot 1".
	one := laserHit(6, 5)
	_, oneWant, err := d.ApplyHit(&one)
	if err != nil {
		t.Fatal(err)
	}
	if diff := SameDetailedOutcome(&one, oneWant); diff != "hit recorded 0 boxes destroyed (); the rules destroy 6 (forward r1c5, forward r2c5, forward r3c5, forward r4c5, forward r5c5, forward r6c5)" {
		t.Errorf("one shot: %q", diff)
	}
	// A long list is cut after six places.
	eight := column("forward", 1, 1, 8)
	if got := placeList(eight); got != "(forward r1c1, forward r2c1, forward r3c1, forward r4c1, forward r5c1, forward r6c1, …)" {
		t.Errorf("placeList of 8 = %q", got)
	}
	if got := placeList(eight[:7]); got != "(forward r1c1, forward r2c1, forward r3c1, forward r4c1, forward r5c1, forward r6c1, …)" {
		t.Errorf("placeList of 7 = %q", got)
	}
	if got := placeList(nil); got != "()" {
		t.Errorf("placeList of none = %q", got)
	}
}

// TestDetailedShipFoldCrew: a cockpit hit calls for a consciousness roll
// (COCKPIT, book l.357; a human stays conscious on 8 or less at 1 hit),
// replayed from the faces the hit recorded; a Bridge hit calls for a
// wound roll at the turn's end (l.353, l.433), an unconscious crewman a
// wake roll (l.367); a hit on the Ship Destroyed row a structural
// collapse roll (l.466), which here breaks the ship up.
func TestDetailedShipFoldCrew(t *testing.T) {
	cockpit := laserHit(2, 1)
	cockpit.CrewRolls = []events.DetailedShipRoll{{Kind: "consciousness", Crew: "Mara", Station: "C", Column: 1, Number: 8, Faces: []int{9}, Entered: true, Status: "unconscious"}}
	bridge := laserHit(2, 3)
	// Jon's wound roll: 1 of 20% wounds him, the second die (2) keeps him
	// conscious; Mara wakes on 3 (8 or less).
	turn := events.DetailedTurnEnded{
		Rolls: []events.DetailedShipRoll{{Kind: "wound", Crew: "Jon", Station: "B", Column: 1, Percent: 20, Faces: []int{1, 2}, Wounded: true, Status: "conscious"}},
		Wake:  []events.DetailedShipRoll{{Kind: "wake", Crew: "Mara", Station: "C", Column: 1, Number: 8, Faces: []int{3}, Status: "conscious"}},
	}
	log := shipLog(t, shipSteps("ship/W", builtShip("W", wrenSpec()), cockpit, bridge)...)
	d := foldShip(t, log)
	crew := func(mara, jon string, jonWounded bool) []DetailedCrewView {
		return []DetailedCrewView{{Name: "Mara", Race: "human", Station: "C", Status: mara}, {Name: "Jon", Race: "human", Station: "B", Status: jon, Wounded: jonWounded}}
	}
	if got := d.View().Crew; !reflect.DeepEqual(got, crew("unconscious", "conscious", false)) {
		t.Errorf("after the cockpit hit: %+v", got)
	}
	// The turn end as recorded (payload version 2).
	turnLog := shipLog(t, shipSteps("ship/W", builtShip("W", wrenSpec()), cockpit, bridge, turn)...)
	d = foldShip(t, turnLog)
	if got := d.View().Crew; !reflect.DeepEqual(got, crew("conscious", "conscious", true)) {
		t.Errorf("after the turn end: %+v", got)
	}
	if d.Hits != 2 || d.Version != 4 || d.Seq != 4 {
		t.Errorf("hits %d, version %d, seq %d", d.Hits, d.Version, d.Seq)
	}
	// The same ship, made by the commands' side (MakeHit, EndTurn) with
	// the same dice, records the same events.
	sh, err := interceptor.NewShip(wrenSpec())
	if err != nil {
		t.Fatal(err)
	}
	m := DetailedShip{ship: sh}
	made, err := m.MakeHit(&events.DetailedShipHit{DetailedShot: cockpit.DetailedShot}, shipDice(9), shipDice())
	if err != nil || !reflect.DeepEqual(made.CrewRolls, cockpit.CrewRolls) || !slices.Equal(made.Rolls, []string{"consciousness by Mara at C (number 8)"}) {
		t.Errorf("MakeHit = %+v, %v", made, err)
	}
	if _, err := m.MakeHit(&events.DetailedShipHit{DetailedShot: bridge.DetailedShot}, shipDice(), shipDice()); err != nil {
		t.Fatal(err)
	}
	te, err := m.EndTurn(shipDice(1, 2, 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range te.Rolls {
		te.Rolls[i].Entered = false
	}
	for i := range te.Wake {
		te.Wake[i].Entered = false
	}
	if diff := SameTurnEnd(&turn, te); diff != "" || !reflect.DeepEqual(m.View(), func() DetailedShipView {
		v := d.View()
		v.ID, v.Name, v.File, v.Version, v.Seq = "", "", "", 0, 0
		return v
	}()) {
		t.Errorf("EndTurn = %+v (%s); the made ship %+v", te, diff, m.View())
	}
	// A turn that breaks the ship up: a hit on the Ship Destroyed row,
	// and a collapse roll of 1 (above 1 holds).
	collapse := events.DetailedTurnEnded{
		Rolls: []events.DetailedShipRoll{
			{Kind: "wound", Crew: "Jon", Station: "B", Column: 2, Percent: 40, Faces: []int{9}},
			{Kind: "structural_collapse", Crew: "Mara", Number: 1, Faces: []int{1, 1}},
		},
	}
	broken := foldShip(t, shipLog(t, shipSteps("ship/W", builtShip("W", wrenSpec()), cockpit, bridge, turn, laserHit(4, 5), collapse)...))
	v := broken.View()
	if !v.BrokenUp || v.AbandonTurns == nil || v.Exploded || v.Heading() != "BROKEN UP" || !strings.HasPrefix(v.Fate(), "out of action permanently (a structural collapse); ") {
		t.Errorf("broken up: %+v, heading %q, fate %q", v, v.Heading(), v.Fate())
	}
}

// TestDetailedShipFoldReroll: a karma re-roll replaces the ship's latest
// hit: the ship is rewound to before it and the new hit applied in its
// place, so it counts once. A re-roll of any other event is refused.
func TestDetailedShipFoldReroll(t *testing.T) {
	cockpit := laserHit(2, 1)
	cockpit.CrewRolls = []events.DetailedShipRoll{{Kind: "consciousness", Crew: "Mara", Station: "C", Column: 1, Number: 8, Faces: []int{9}}}
	log := shipLog(t, shipSteps("ship/W", builtShip("W", wrenSpec()), cockpit)...)
	redo := cockpit
	redo.DetailedReroll = events.DetailedReroll{Rerolls: log[1].ID, RerolledBy: "Mara", RerolledRoll: 1}
	redo.CrewRolls = []events.DetailedShipRoll{{Kind: "consciousness", Crew: "Mara", Station: "C", Column: 1, Number: 8, Faces: []int{3}}}
	log = shipLog(t, shipSteps("ship/W", builtShip("W", wrenSpec()), cockpit, redo)...)
	d := foldShip(t, log)
	if d.Hits != 1 || d.View().Crew[0].Status != "conscious" || d.View().Internal.Destroyed != 1 || d.Version != 3 {
		t.Errorf("after the re-roll: hits %d, %+v", d.Hits, d.View())
	}
	if id, _ := d.Latest(); id != log[2].ID {
		t.Errorf("latest %q, want the re-roll", id)
	}
	if b, ok := d.Before(); !ok || b.Hits != 0 {
		t.Errorf("before the re-roll: %+v, %t", b, ok)
	}
	// A re-roll of the hit before the latest.
	stale := redo
	stale.Rerolls = log[1].ID
	bad := shipLog(t, shipSteps("ship/W", builtShip("W", wrenSpec()), cockpit, laserHit(1, 9), stale)...)
	var s DetailedShip
	for _, e := range bad[:3] {
		if err := s.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Apply(bad[3]); err == nil || !strings.Contains(err.Error(), "event 4: a re-roll of "+log[1].ID+", which is not the ship's latest event") {
		t.Errorf("a stale re-roll: %v", err)
	}
	if s.Hits != 2 || s.Version != 3 {
		t.Errorf("the refused re-roll changed the ship: hits %d, version %d", s.Hits, s.Version)
	}
	// A re-roll as the first event: there is nothing before it.
	var first DetailedShip
	if err := first.Apply(logOf(t, step{"ship/W", "K", redo})[0]); err == nil {
		t.Error("a re-roll of nothing folded")
	}
}

// TestDetailedShipFoldTurret: a hit on the Tern's Dorsal turret; a
// second that disables its Turret Structure (6 of 10 boxes) calls for the
// jam roll (TURRET STRUCTURE, book l.409), a 3: jammed facing the right
// rear; a third destroys the turret.
func TestDetailedShipFoldTurret(t *testing.T) {
	tern := builtShip("T", interceptortest.Tern())
	log := shipLog(t, shipSteps("ship/T", tern, brickOnDorsal(5), brickOnDorsal(8, 3))...)
	d := foldShip(t, log)
	tv := d.View().Turrets
	want := []DetailedTurretView{{Name: "Dorsal", ArmorBoxes: 20, Jammed: true, JamFacing: 3, State: "jammed facing the right rear (3)", Components: []DetailedComponent{
		{Name: "A", Type: "Cargo", Key: "cargo", Boxes: 2, Contents: "missile reloads"},
		{Name: "F", Type: "Free", Key: "free", Boxes: 4, Lost: 2},
		{Name: "G", Type: "Weapon", Key: "weapon", Boxes: 4, Lost: 4, Disabled: true},
		{Name: "T", Type: "Turret Structure", Key: "turret_structure", Boxes: 10, Lost: 6, Disabled: true},
	}}}
	if !reflect.DeepEqual(tv, want) {
		t.Errorf("turrets:\n got %+v\nwant %+v", tv, want)
	}
	// Without the jam roll the rules call for, the hit does not fold.
	noJam := shipLog(t, shipSteps("ship/T", tern, brickOnDorsal(5), brickOnDorsal(8))...)
	var s DetailedShip
	for _, e := range noJam[:2] {
		if err := s.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Apply(noJam[2]); err == nil || !strings.Contains(err.Error(), "event 3: turret jam roll: recorded 0 rolls; the rules call for 1 (turret_jam at T for turret 1)") {
		t.Errorf("a hit without its jam roll: %v", err)
	}
	if s.Hits != 1 || s.Version != 2 {
		t.Errorf("the refused hit changed the ship: hits %d, version %d", s.Hits, s.Version)
	}
	// An abandoned turret, then one destroyed.
	for _, c := range []struct {
		face  int
		state string
	}{{8, "weapons abandoned"}, {1, "jammed facing the front (1)"}} {
		d := foldShip(t, shipLog(t, shipSteps("ship/T", tern, brickOnDorsal(5), brickOnDorsal(8, c.face))...))
		if got := d.View().Turrets[0].State; got != c.state {
			t.Errorf("jam roll %d: %q, want %q", c.face, got, c.state)
		}
	}
	// The structure disabled as the turret goes: its jam roll is moot.
	gone := brickOnDorsal(5)
	gone.Template = slabTemplate
	gone.JamRolls = []events.DetailedShipRoll{{Kind: "turret_jam", Station: "T", Turret: 1}}
	d = foldShip(t, shipLog(t, shipSteps("ship/T", tern, gone)...))
	if tv := d.View().Turrets[0]; !tv.Destroyed || tv.State != "destroyed" {
		t.Errorf("a slab on Dorsal: %+v", tv)
	}
}

// TestDetailedShipFoldRepairs: a repair restores boxes with the rules
// (2 h a box of Engine, ENGINE book l.421); one that ran on the game
// clock is where the next repair of the day starts.
func TestDetailedShipFoldRepairs(t *testing.T) {
	clock := func(minute int) *events.ShipClock { return &events.ShipClock{Adventure: 1, Day: 1, Minute: minute} }
	hits := []events.Payload{builtShip("G", interceptortest.SpaceGull())}
	for c := 1; c <= 2; c++ {
		hits = append(hits, laserHit(10, c)) // 8 armour, F, E1
	}
	r1 := events.DetailedShipRepaired{Code: "E1", Boxes: 1, From: clock(0), Until: clock(120)}
	r2 := events.DetailedShipRepaired{Code: "E1", Boxes: 1}
	log := shipLog(t, shipSteps("ship/G", append(hits, r1, r2)...)...)
	var d DetailedShip
	for i, e := range log {
		if err := d.Apply(e); err != nil {
			t.Fatal(err)
		}
		e1 := componentNamed(t, d.View().Components, "E1")
		switch i {
		case 2:
			if e1.Lost != 2 || d.Repairs != 0 || d.LastRepair != nil {
				t.Errorf("after the hits: E1 %+v, repairs %d", e1, d.Repairs)
			}
		case 3:
			if e1.Lost != 1 || d.Repairs != 1 || d.LastRepair == nil || *d.LastRepair != *clock(120) || d.LastRepairSeq != 4 {
				t.Errorf("after the first repair: E1 %+v, repairs %d, last %v at %d", e1, d.Repairs, d.LastRepair, d.LastRepairSeq)
			}
		case 4:
			if e1.Lost != 0 || d.Repairs != 2 || *d.LastRepair != *clock(120) || d.LastRepairSeq != 4 || d.Version != 5 {
				t.Errorf("after the second repair: E1 %+v, repairs %d, last %v at %d", e1, d.Repairs, d.LastRepair, d.LastRepairSeq)
			}
		}
	}
	// The clock kept is a copy: changing the event's leaves it.
	r1.Until.Minute = 999
	if d.LastRepair.Minute != 120 {
		t.Errorf("the repair clock shares the event's")
	}
	out, err := d.ApplyRepair(&events.DetailedShipRepaired{Code: "S", Boxes: 1})
	if err == nil {
		t.Errorf("a repair of nothing lost: %+v", out)
	}
	// Repaired past what was lost: refused, and the ship stays.
	over := shipLog(t, shipSteps("ship/G", append(hits, events.DetailedShipRepaired{Code: "E1", Boxes: 3})...)...)
	var s DetailedShip
	for _, e := range over[:3] {
		if err := s.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Apply(over[3]); err == nil || !strings.HasPrefix(err.Error(), "event 4: ") || s.Repairs != 0 || s.Version != 3 {
		t.Errorf("an over-repair: %v; repairs %d, version %d", err, s.Repairs, s.Version)
	}
}

// TestDetailedRepairOutcomeAndSame: the outcome of a repair in the
// stored form, and SameDetailedRepair telling each difference.
func TestDetailedRepairOutcomeAndSame(t *testing.T) {
	d := foldShip(t, shipLog(t, shipSteps("ship/G", builtShip("G", interceptortest.SpaceGull()), laserHit(10, 1), laserHit(10, 2))...))
	want, err := d.ApplyRepair(&events.DetailedShipRepaired{Code: "E1", Boxes: 2})
	if err != nil {
		t.Fatal(err)
	}
	wantOut := events.DetailedShipRepaired{Code: "E1", Type: "engine", Boxes: 2, Restored: []events.ShipPlace{{Block: "internal", Row: 2, Column: 1}, {Block: "internal", Row: 2, Column: 2}},
		LostBefore: 2, LostAfter: 0, MinutesPerBox: 120, Minutes: 240, Source: want.Source}
	if !reflect.DeepEqual(want, wantOut) || !strings.Contains(want.Source, "l.421") {
		t.Errorf("outcome:\n got %+v\nwant %+v", want, wantOut)
	}
	for _, c := range []struct {
		change func(r *events.DetailedShipRepaired)
		want   string
	}{
		{func(r *events.DetailedShipRepaired) {}, ""},
		{func(r *events.DetailedShipRepaired) { r.External = true }, "repair recorded E1 as an external system true; the rules give false"},
		{func(r *events.DetailedShipRepaired) { r.Type = "cargo" }, "repair recorded E1 as cargo; the record makes it engine"},
		{func(r *events.DetailedShipRepaired) { r.Restored = r.Restored[:1] }, "repair recorded boxes restored (internal r2c1); the rules restore (internal r2c1, internal r2c2)"},
		{func(r *events.DetailedShipRepaired) { r.LostBefore = 3 }, "repair recorded E1 lost 3 → 0; the rules give 2 → 0"},
		{func(r *events.DetailedShipRepaired) { r.LostAfter = 1 }, "repair recorded E1 lost 2 → 1; the rules give 2 → 0"},
		{func(r *events.DetailedShipRepaired) { r.Minutes = 200 }, "repair recorded 200 minutes (120 a box); the book gives 240 (120 a box, " + want.Source + ")"},
		{func(r *events.DetailedShipRepaired) { r.MinutesPerBox = 60 }, "repair recorded 240 minutes (60 a box); the book gives 240 (120 a box, " + want.Source + ")"},
	} {
		got := wantOut
		got.Restored = slices.Clone(wantOut.Restored)
		c.change(&got)
		if diff := SameDetailedRepair(&got, want); diff != c.want {
			t.Errorf("SameDetailedRepair:\n got %q\nwant %q", diff, c.want)
		}
	}
	// Nothing restored is an empty list, not none.
	if out := DetailedRepairOutcome(interceptor.RepairReport{}); out.Restored == nil || len(out.Restored) != 0 {
		t.Errorf("an empty repair restored %v", out.Restored)
	}
}

// TestDetailedShipFoldErrors: a record the rules refuse, a hit or a turn
// end they refuse, an event of another stream and a payload that cannot
// be read are errors naming the event, and leave the ship as it was.
func TestDetailedShipFoldErrors(t *testing.T) {
	badRecord := builtShip("X", interceptortest.SpaceGull())
	badRecord.Record.Armour.Forward = 15 // not whole rows of ten
	if err := new(DetailedShip).Apply(logOf(t, step{"ship/X", "K", badRecord})[0]); err == nil || !strings.HasPrefix(err.Error(), "event 1: ") {
		t.Errorf("a bad record: %v", err)
	}
	gull := builtShip("G", interceptortest.SpaceGull())
	badTemplate := events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Template: &events.ShipTemplate{Name: "Bad", Rows: []string{"X?"}}, Column: 1}}
	cockpit := laserHit(2, 1)
	for _, c := range []struct {
		name string
		sp   interceptor.Spec
		p    events.Payload
		want string
	}{
		{"a hit on no facing", interceptortest.SpaceGull(), events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "up", Points: 1, Column: 1}}, "event 2: "},
		{"a hit of a bad template", interceptortest.SpaceGull(), badTemplate, "event 2: "},
		{"a second shot on no facing", interceptortest.SpaceGull(), events.DetailedShipHit{DetailedShot: laserHit(1, 1).DetailedShot, MoreShots: []events.DetailedShot{{Facing: "up", Points: 1, Column: 1}}}, "event 2: "},
		{"a cockpit hit without its roll", wrenSpec(), cockpit, "event 2: crew rolls: recorded 0 rolls; the rules call for 1 (consciousness by Mara at C (number 8))"},
		{"a turn end with rolls not called for", interceptortest.SpaceGull(), events.DetailedTurnEnded{Rolls: []events.DetailedShipRoll{{Kind: "wound", Faces: []int{1}}}}, "event 2: end of turn: recorded 1 rolls; the rules call for 0 (none)"},
		{"a turn end abandoning a crewman who is not aboard", interceptortest.SpaceGull(), events.DetailedTurnEnded{Abandoned: []string{"Nobody"}}, "event 2: "},
		{"a repair of an unknown component", interceptortest.SpaceGull(), events.DetailedShipRepaired{Code: "Z9", Boxes: 1}, "event 2: "},
		{"a section ship's event", interceptortest.SpaceGull(), events.ShipHit{}, "event 2: ship.hit does not belong on a detailed ship's record"},
		{"a ship's templates", interceptortest.SpaceGull(), events.ShipTemplatesAdded{}, "event 2: ship.templates.added does not belong on a detailed ship's record"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := builtShip("G", c.sp)
			log := logOf(t, step{"ship/G", "K1", b}, step{"ship/G", "K2", c.p})
			var d DetailedShip
			if err := d.Apply(log[0]); err != nil {
				t.Fatal(err)
			}
			before := d.View()
			if err := d.Apply(log[1]); err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("Apply = %v, want %q", err, c.want)
			}
			if got := d.View(); !reflect.DeepEqual(got, before) {
				t.Errorf("the refused event changed the ship:\n got %+v\nwant %+v", got, before)
			}
		})
	}
	_ = gull
	var d DetailedShip
	if err := d.Apply(events.Event{Seq: 3, Type: events.TypeDetailedShipHit, PayloadVersion: 1, Payload: []byte("{")}); err == nil || !strings.Contains(err.Error(), "event 3: decode ship.detailed.hit") {
		t.Errorf("a hit that is not JSON: %v", err)
	}
	// A turn end of payload version 1 that abandons ship.
	v1 := logOf(t, step{"ship/W", "K1", builtShip("W", wrenSpec())}, step{"ship/W", "K2", events.DetailedTurnEnded{Abandoned: []string{"Mara"}}})
	v1[1].PayloadVersion = 1
	d = foldShip(t, v1[:1])
	if err := d.Apply(v1[1]); err == nil || !strings.Contains(err.Error(), "event 2: a turn end of payload version 1 abandons ship (Mara): version 2 does") {
		t.Errorf("a version 1 turn end abandoning ship: %v", err)
	}
}

// TestCheckTurretRoll: a hit on a ship with a standing turret rolls the
// d10 against the book's chance (turrets / 2, rounding up, at least 1)
// and, with several turrets, which one (TURRETS, book l.341).
func TestCheckTurretRoll(t *testing.T) {
	ship := func(sp interceptor.Spec) interceptor.Ship {
		s, err := interceptor.NewShip(sp)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	gull, tern, twin := ship(interceptortest.SpaceGull()), ship(interceptortest.Tern()), ship(twinTern())
	shot := func(chance, roll, turret int, picks ...int) *events.DetailedShot {
		return &events.DetailedShot{Facing: "forward", Points: 1, Column: 1, TurretChance: chance, TurretRoll: roll, Turret: turret, TurretPicks: picks}
	}
	for _, c := range []struct {
		name string
		ship interceptor.Ship
		shot *events.DetailedShot
		want string
	}{
		{"no turret, no roll", gull, shot(0, 0, 0), ""},
		{"no turret, a roll", gull, shot(0, 3, 0), "hit recorded turret roll 3 against 0 for turret 0; Space Gull had no turret standing"},
		{"no turret, a chance", gull, shot(1, 0, 0), "hit recorded turret roll 0 against 1 for turret 0; Space Gull had no turret standing"},
		{"no turret, a turret", gull, shot(0, 0, 1), "hit recorded turret roll 0 against 0 for turret 1; Space Gull had no turret standing"},
		{"no turret, picks", gull, shot(0, 0, 0, 1), "hit recorded turret roll 0 against 0 for turret 0; Space Gull had no turret standing"},
		{"a turret, no roll", tern, shot(1, 0, 0), "hit recorded no turret roll; Tern had a turret standing (book l.341)"},
		{"a turret, a wrong chance", tern, shot(2, 1, 1), "hit recorded a turret chance of 2; with 1 turrets the book gives 1 (book l.341)"},
		{"a turret struck", tern, shot(1, 1, 1), ""},
		{"the hull struck", tern, shot(1, 2, 0), ""},
		{"the hull recorded for a turret roll", tern, shot(1, 1, 0), "hit recorded turret 0 (0: the hull); the turret roll of 1 against 1 gives 1"},
		{"a turret recorded for a hull roll", tern, shot(1, 10, 1), "hit recorded turret 1 (0: the hull); the turret roll of 10 against 1 gives 0"},
		{"picks with one turret", tern, shot(1, 1, 1, 1), "hit recorded the turret picks [1]; the roll of 1 called for none"},
		{"a pick past one turret", tern, shot(1, 1, 1, 2), "hit recorded the turret picks [2]; the roll of 1 called for none"},
		{"a roll past d10", tern, shot(1, 11, 0), "turret roll of 11 is not a d10 face (1-10)"},
		{"two turrets, the second picked", twin, shot(1, 1, 2, 2), ""},
		{"two turrets, the first picked", twin, shot(1, 1, 1, 1), ""},
		{"two turrets, no pick", twin, shot(1, 1, 1), "the turret picks [] name only destroyed turrets: roll again to see which turret is hit"},
		{"two turrets, a pick past the one that hit", twin, shot(1, 1, 1, 1, 2), "hit recorded the turret picks [1 2] past the one that hit (turret 1)"},
		{"two turrets, the hull, with picks", twin, shot(1, 4, 0, 2), "hit recorded the turret picks [2]; the roll of 4 called for none"},
		{"two turrets, the wrong one", twin, shot(1, 1, 1, 2), "hit recorded turret 1 (0: the hull); the turret roll of 1 against 1, picks 2 gives 2"},
		{"two turrets, picks told", twin, shot(1, 1, 0, 1), "hit recorded turret 0 (0: the hull); the turret roll of 1 against 1, picks 1 gives 1"},
	} {
		if got := CheckTurretRoll(c.ship, c.shot); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	if got := picksText([]int{1, 2, 1}); got != ", picks 1 2 1" {
		t.Errorf("picksText = %q", got)
	}
}

// TestCheckTurretRolls: each shot of a hit is held against the ship as
// the shots before it left it: once Dorsal is destroyed, a second shot
// has no turret to roll for.
func TestCheckTurretRolls(t *testing.T) {
	tern, err := interceptor.NewShip(interceptortest.Tern())
	if err != nil {
		t.Fatal(err)
	}
	first := events.DetailedShot{Facing: "forward", Template: slabTemplate, Column: 5, TurretChance: 1, TurretRoll: 1, Turret: 1}
	for _, c := range []struct {
		name string
		hit  events.DetailedShipHit
		want string
	}{
		{"one shot", events.DetailedShipHit{DetailedShot: first}, ""},
		{"one bad shot", events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: 1, Column: 1}}, "hit recorded no turret roll; Tern had a turret standing (book l.341)"},
		{"the turret gone, then the hull without a roll", events.DetailedShipHit{DetailedShot: first, MoreShots: []events.DetailedShot{{Facing: "forward", Points: 1, Column: 1}}}, ""},
		{"the turret gone, then a roll for it", events.DetailedShipHit{DetailedShot: first, MoreShots: []events.DetailedShot{{Facing: "forward", Points: 1, Column: 1, TurretChance: 1, TurretRoll: 1, Turret: 1}}},
			"shot 2: hit recorded turret roll 1 against 1 for turret 1; Tern had no turret standing"},
		{"a bad first of two", events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: 1, Column: 1}, MoreShots: []events.DetailedShot{first}},
			"shot 1: hit recorded no turret roll; Tern had a turret standing (book l.341)"},
		{"a bad template", events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Template: &events.ShipTemplate{Name: "Bad", Rows: []string{"?"}}, Column: 1, TurretChance: 1, TurretRoll: 2}},
			`row 1 of template "Bad" holds "?": cells are X (destroyed) or . (untouched)`},
		{"a shot the rules refuse", events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "up", Points: 1, Column: 1, TurretChance: 1, TurretRoll: 2}, MoreShots: []events.DetailedShot{{Facing: "forward", Points: 1, Column: 1}}}, ""},
	} {
		if got := CheckTurretRolls(tern, &c.hit); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestDetailedRecordRoundTrip: SpecOf(RecordOf(sp)) builds the ship sp
// does, for a record that uses every key (the Tern), and neither shares
// anything with the other.
func TestDetailedRecordRoundTrip(t *testing.T) {
	for _, sp := range []interceptor.Spec{interceptortest.Tern(), interceptortest.SpaceGull(), twinTern(), wrenSpec()} {
		r := RecordOf(sp)
		if got := SpecOf(r); !reflect.DeepEqual(got, sp) {
			t.Errorf("%s: SpecOf(RecordOf) =\n %+v\nwant %+v", sp.Name, got, sp)
		}
		if len(sp.Turrets) > 0 {
			r.Turrets[0].Internal[0][0] = "Z"
			r.Internal[0][0] = "Z"
			if sp.Turrets[0].Internal[0][0] == "Z" || sp.Internal[0][0] == "Z" {
				t.Errorf("%s: the record shares rows with the spec", sp.Name)
			}
		}
	}
	if r := RecordOf(interceptortest.Tern()); r.Externals[0] != (events.DetailedExternal{Name: "Port Rack", Type: "External Hardpoint", Facing: "left", Column: 3}) ||
		r.Crew[2] != (events.DetailedCrew{Name: "Grusk", Race: "KessRith", Station: "Q"}) || r.Armour != (events.DetailedArmour{Forward: 60, Aft: 30, Left: 30, Right: 30}) {
		t.Errorf("the Tern's record %+v", r)
	}
}

// TestShotOf: a recorded shot as the rules' Hit.
func TestShotOf(t *testing.T) {
	h, err := ShotOf(events.DetailedShot{Facing: "aft", Points: 4, Column: 7, Turret: 2})
	if err != nil || h != (interceptor.Hit{Facing: interceptor.Aft, Column: 7, Points: 4, Turret: 2}) {
		t.Errorf("a laser: %+v, %v", h, err)
	}
	h, err = ShotOf(events.DetailedShot{Facing: "left", Template: brickTemplate, Column: 2})
	if err != nil || h.Template == nil || h.Template.Name != "Brick" || h.Template.Points() != 12 || h.Points != 0 {
		t.Errorf("a template: %+v, %v", h, err)
	}
	if _, err := ShotOf(events.DetailedShot{Facing: "left", Template: &events.ShipTemplate{Name: "Empty"}, Column: 2}); err == nil {
		t.Error("an empty template makes a shot")
	}
}

// TestDescribeRoll: a roll the rules call for, in words.
func TestDescribeRoll(t *testing.T) {
	for _, c := range []struct {
		r    interceptor.Roll
		want string
	}{
		{interceptor.Roll{Kind: interceptor.RollConsciousness, Crew: "Mara", Station: "C", Column: 1, Number: 8}, "consciousness by Mara at C (number 8)"},
		{interceptor.Roll{Kind: interceptor.RollWound, Crew: "Jon", Station: "B", Percent: 20}, "wound by Jon at B (20%)"},
		{interceptor.Roll{Kind: interceptor.RollTurretJam, Station: "T", Turret: 2}, "turret_jam at T for turret 2"},
		{interceptor.Roll{Kind: interceptor.RollCollapse, Crew: "Mara", Number: 3}, "structural_collapse by Mara (number 3)"},
		{interceptor.Roll{Kind: interceptor.RollWake}, "wake"},
	} {
		if got := describeRoll(c.r); got != c.want {
			t.Errorf("describeRoll(%+v) = %q, want %q", c.r, got, c.want)
		}
	}
}

// TestRepairClock: repairs run on the game clock from where the last one
// of the day ended; one past midnight ends on a later day.
func TestRepairClock(t *testing.T) {
	for _, c := range []struct {
		from    events.ShipClock
		minutes int
		until   events.ShipClock
		days    int
	}{
		{events.ShipClock{Adventure: 1, Day: 1}, 360, events.ShipClock{Adventure: 1, Day: 1, Minute: 360}, 0},
		{events.ShipClock{Adventure: 1, Day: 1, Minute: 240}, 1440, events.ShipClock{Adventure: 1, Day: 2, Minute: 240}, 1},
		{events.ShipClock{Adventure: 2, Day: 3, Minute: 1320}, 120, events.ShipClock{Adventure: 2, Day: 4}, 1},
		{events.ShipClock{Adventure: 2, Day: 3, Minute: 1320}, 119, events.ShipClock{Adventure: 2, Day: 3, Minute: 1439}, 0},
		{events.ShipClock{Adventure: 1, Day: 1, Minute: 60}, 3 * 1440, events.ShipClock{Adventure: 1, Day: 4, Minute: 60}, 3},
	} {
		until, days := RepairClock(c.from, c.minutes)
		if until != c.until || days != c.days {
			t.Errorf("RepairClock(%+v, %d) = %+v, %d; want %+v, %d", c.from, c.minutes, until, days, c.until, c.days)
		}
	}
	last := &events.ShipClock{Adventure: 1, Day: 2, Minute: 300}
	for _, c := range []struct {
		at   events.GameTime
		last *events.ShipClock
		want events.ShipClock
	}{
		{events.GameTime{Adventure: 1, Day: 2}, last, *last},
		{events.GameTime{Adventure: 1, Day: 2, Encounter: 1}, last, *last},
		{events.GameTime{Adventure: 1, Day: 3}, last, events.ShipClock{Adventure: 1, Day: 3}},
		{events.GameTime{Adventure: 2, Day: 2}, last, events.ShipClock{Adventure: 2, Day: 2}},
		{events.GameTime{Adventure: 1, Day: 2}, nil, events.ShipClock{Adventure: 1, Day: 2}},
	} {
		if got := RepairStart(c.at, c.last); got != c.want {
			t.Errorf("RepairStart(%+v, %v) = %+v, want %+v", c.at, c.last, got, c.want)
		}
	}
	for _, c := range []struct {
		clock events.ShipClock
		want  string
	}{
		{events.ShipClock{Day: 2, Minute: 360}, "day 2, 06:00"},
		{events.ShipClock{Day: 1, Minute: 75}, "day 1, 01:15"},
		{events.ShipClock{Day: 3, Minute: 1439}, "day 3, 23:59"},
		{events.ShipClock{Day: 1}, "day 1, 00:00"},
	} {
		if got := ClockText(c.clock); got != c.want {
			t.Errorf("ClockText(%+v) = %q, want %q", c.clock, got, c.want)
		}
	}
	for _, c := range []struct {
		minutes int
		want    string
	}{{360, "6 h"}, {15, "15 min"}, {75, "1 h 15 min"}, {60, "1 h"}, {59, "59 min"}, {0, "0 min"}, {1441, "24 h 1 min"}} {
		if got := DurationText(c.minutes); got != c.want {
			t.Errorf("DurationText(%d) = %q, want %q", c.minutes, got, c.want)
		}
	}
	if MinutesPerDay != 1440 {
		t.Errorf("MinutesPerDay = %d", MinutesPerDay)
	}
}

// TestDetailedShipViewFate: what a view says of a ship out of action.
func TestDetailedShipViewFate(t *testing.T) {
	two, none := 2, 0
	for _, c := range []struct {
		v             DetailedShipView
		fate, heading string
	}{
		{DetailedShipView{}, "", "detailed record (INTERCEPTOR)"},
		{DetailedShipView{Exploded: true}, "out of action permanently", "EXPLODED"},
		{DetailedShipView{Exploded: true, BrokenUp: true, AbandonTurns: &two}, "out of action permanently", "EXPLODED"},
		{DetailedShipView{BrokenUp: true, AbandonTurns: &two}, "out of action permanently (a structural collapse); 2 turns left to abandon ship", "BROKEN UP"},
		{DetailedShipView{BrokenUp: true, AbandonTurns: &none}, "out of action permanently (a structural collapse); no turn left to abandon ship; those aboard are dead", "BROKEN UP"},
		{DetailedShipView{BrokenUp: true}, "", "BROKEN UP"},
	} {
		if f, h := c.v.Fate(), c.v.Heading(); f != c.fate || h != c.heading {
			t.Errorf("%+v: fate %q, heading %q; want %q, %q", c.v, f, h, c.fate, c.heading)
		}
	}
	for _, c := range []struct {
		st   interceptor.BoxState
		want string
	}{{interceptor.Intact, "intact"}, {interceptor.Widowed, "widowed"}, {interceptor.Destroyed, "destroyed"}} {
		if got := boxState(c.st); got != c.want {
			t.Errorf("boxState(%v) = %q", c.st, got)
		}
		var b DetailedBlock
		b.count(c.st)
		b.count(interceptor.Intact)
		want := DetailedBlock{Boxes: 2, Intact: 1}
		switch c.st {
		case interceptor.Intact:
			want.Intact = 2
		case interceptor.Widowed:
			want.Widowed = 1
		default:
			want.Destroyed = 1
		}
		if b != want {
			t.Errorf("count(%v): %+v, want %+v", c.st, b, want)
		}
	}
	for _, c := range []struct {
		t    interceptor.TurretStatus
		want string
	}{
		{interceptor.TurretStatus{}, "standing"},
		{interceptor.TurretStatus{Destroyed: true, Jammed: true}, "destroyed"},
		{interceptor.TurretStatus{Jammed: true}, "weapons abandoned"},
		{interceptor.TurretStatus{Jammed: true, JamFacing: 6}, "jammed facing the left front (6)"},
	} {
		if got := turretState(c.t); got != c.want {
			t.Errorf("turretState(%+v) = %q, want %q", c.t, got, c.want)
		}
	}
}

// TestDetailedShipViewExternalsAndWidows: the Tern's external systems
// are listed with their states; a hit that leaves armour without a path
// to its block's bottom row widows it (WIDOWED ARMOUR, book l.328).
func TestDetailedShipViewExternalsAndWidows(t *testing.T) {
	// A laser down column 3 of the left block strikes the Port Rack,
	// mounted on it, first.
	d := foldShip(t, shipLog(t, shipSteps("ship/T", builtShip("T", interceptortest.Tern()),
		events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "left", Points: 1, Column: 3, TurretChance: 1, TurretRoll: 5}})...))
	v := d.View()
	want := []DetailedExternalView{
		{Name: "Port Rack", Type: "External Hardpoint", Facing: "left", Column: 3, State: "destroyed"},
		{Name: "Rescue Pod", Type: "External Rescue Compartment", Facing: "aft", Column: 10, State: "intact"},
	}
	if !reflect.DeepEqual(v.Externals, want) {
		t.Errorf("externals:\n got %+v\nwant %+v", v.Externals, want)
	}
	// A cup-shaped template on the left block, centred on column 3,
	// leaves the box of row 1 under the Port Rack with no path of intact
	// boxes to the block's bottom row: it is widowed, and the Port Rack is
	// lost with it (WIDOWED ARMOUR, book l.328-331, l.345).
	cup := events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "left", Template: &events.ShipTemplate{Name: "Cup", Rows: []string{"X.X", "X.X", "XXX"}}, Column: 3, TurretChance: 1, TurretRoll: 5}}
	d = foldShip(t, shipLog(t, shipSteps("ship/T", builtShip("T", interceptortest.Tern()), cup)...))
	v = d.View()
	if b := v.Armor["left"]; b != (DetailedBlock{Boxes: 30, Intact: 24, Destroyed: 5, Widowed: 1}) {
		t.Errorf("left block %+v", b)
	}
	if v.Externals[0].State != "widowed" || v.Externals[1].State != "intact" {
		t.Errorf("externals %+v", v.Externals)
	}
}

// TestDetailedFleet: the fleet lists the ships built, in order; other
// events are not read.
func TestDetailedFleet(t *testing.T) {
	log := logOf(t,
		step{"ship/G", "K1", builtShip("G", interceptortest.SpaceGull())},
		step{"ship/G", "K2", laserHit(1, 1)},
		step{"ship/T", "K3", builtShip("T", interceptortest.Tern())},
	)
	var f DetailedFleet
	for _, e := range log {
		if err := f.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Apply(events.Event{Seq: 9, Type: events.TypeDetailedShipHit, PayloadVersion: 1, Payload: []byte("{")}); err != nil {
		t.Errorf("a hit was read: %v", err)
	}
	want := []ShipMember{{ID: "G", Name: "Space Gull", Seq: 1}, {ID: "T", Name: "Tern", Seq: 3}}
	if !reflect.DeepEqual(f.Ships, want) || !slices.Equal(f.Names(), []string{"Space Gull", "Tern"}) {
		t.Errorf("fleet %+v, names %q", f.Ships, f.Names())
	}
	for _, c := range []struct{ name, id string }{{"space  gull", "G"}, {" TERN ", "T"}, {"Gull", ""}} {
		m, ok := f.Find(c.name)
		if ok != (c.id != "") || m.ID != c.id {
			t.Errorf("Find(%q) = %+v, %t", c.name, m, ok)
		}
	}
	if err := f.Apply(events.Event{Seq: 10, Type: events.TypeDetailedShipBuilt, PayloadVersion: 1, Payload: []byte("{")}); err == nil || len(f.Ships) != 2 {
		t.Errorf("a bad build: %v, %d ships", err, len(f.Ships))
	}
}

// TestShipTemplates: templates added are found by name, ignoring case;
// one of a name already added replaces it; the program's samples come
// after the campaign's own.
func TestShipTemplates(t *testing.T) {
	samples := interceptor.SampleTemplates()
	if len(samples) == 0 {
		t.Fatal("no sample templates")
	}
	sample := samples[0]
	log := logOf(t,
		step{events.ShipTemplatesStream, "K1", events.ShipTemplatesAdded{Templates: []events.ShipTemplate{*brickTemplate, {Name: "Dot", Rows: []string{"X"}}}, File: "t.yaml"}},
		step{events.ShipTemplatesStream, "K2", events.ShipTemplatesAdded{Templates: []events.ShipTemplate{{Name: "brick", Rows: []string{"XX"}}, {Name: sample.Name, Rows: []string{"X"}}}}},
	)
	var ts ShipTemplates
	for _, e := range log {
		if err := ts.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	want := []events.ShipTemplate{{Name: "brick", Rows: []string{"XX"}}, {Name: "Dot", Rows: []string{"X"}}, {Name: sample.Name, Rows: []string{"X"}}}
	if !reflect.DeepEqual(ts.Templates, want) || ts.Version != 2 {
		t.Errorf("templates %+v, version %d", ts.Templates, ts.Version)
	}
	for _, c := range []struct {
		name          string
		want          events.ShipTemplate
		sample, found bool
	}{
		{"BRICK", want[0], false, true},
		{" dot ", want[1], false, true},
		{sample.Name, want[2], false, true},
		{"Nothing", events.ShipTemplate{}, false, false},
	} {
		got, isSample, ok := ts.Find(c.name)
		if !reflect.DeepEqual(got, c.want) || isSample != c.sample || ok != c.found {
			t.Errorf("Find(%q) = %+v, %t, %t", c.name, got, isSample, ok)
		}
	}
	var none ShipTemplates
	if got, isSample, ok := none.Find(strings.ToUpper(sample.Name)); !ok || !isSample || got.Name != sample.Name || !slices.Equal(got.Rows, sample.Rows()) {
		t.Errorf("Find of a sample = %+v, %t, %t", got, isSample, ok)
	}
	if err := ts.Apply(logOf(t, step{"ship/G", "K", laserHit(1, 1)})[0]); err == nil || !strings.Contains(err.Error(), "ship.detailed.hit does not belong on the templates stream") || ts.Version != 2 {
		t.Errorf("a hit on the templates stream: %v", err)
	}
	if err := ts.Apply(events.Event{Seq: 3, Type: events.TypeShipTemplatesAdded, PayloadVersion: 1, Payload: []byte("{")}); err == nil {
		t.Error("a bad payload folded")
	}
}
