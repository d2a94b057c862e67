package projections

import (
	"strings"
	"testing"

	"slices"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules/interceptor"
	"github.com/ltscamp/ltscamp/rules/interceptor/interceptortest"
)

// detailedCampaign is a log the rules would have written: the Wren and
// the Tern built, the Brick template added, hits made with the rules
// (MakeHit) on both, the Wren's turn ended (EndTurn), then two repairs of
// its cockpit during adventure 1, day 1, the second starting where the
// first ended. It returns the steps (commands K1, K2, …) and, for the
// forgeries, the index of each kind of event.
func detailedCampaign(t *testing.T) ([]step, map[string]int) {
	t.Helper()
	sh, err := interceptor.NewShip(wrenSpec())
	if err != nil {
		t.Fatal(err)
	}
	wren := DetailedShip{ship: sh}
	tsh, err := interceptor.NewShip(interceptortest.Tern())
	if err != nil {
		t.Fatal(err)
	}
	tern := DetailedShip{ship: tsh}
	cockpit, err := wren.MakeHit(&events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: 2, Column: 1, Entered: true}}, shipDice(9), shipDice())
	if err != nil {
		t.Fatal(err)
	}
	bridge, err := wren.MakeHit(&events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: 2, Column: 3}}, shipDice(), shipDice())
	if err != nil {
		t.Fatal(err)
	}
	turn, err := wren.EndTurn(shipDice(1, 2, 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	onDorsal, err := tern.MakeHit(&events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Template: brickTemplate, Column: 5, TurretChance: 1, TurretRoll: 1, Turret: 1}}, shipDice(), shipDice())
	if err != nil {
		t.Fatal(err)
	}
	power, err := wren.MakeHit(&events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: 3, Column: 9}}, shipDice(), shipDice())
	if err != nil {
		t.Fatal(err)
	}
	// The powerplant's 2 boxes lost, repaired one at a time at the book's
	// hour a box (POWERPLANT, l.419): 00:00 → 01:00 → 02:00.
	r1, err := wren.ApplyRepair(&events.DetailedShipRepaired{Code: "P", Boxes: 1})
	if err != nil {
		t.Fatal(err)
	}
	r1.Stamp = stampAt(1, 1, 0)
	r1.From, r1.Until = &events.ShipClock{Adventure: 1, Day: 1}, &events.ShipClock{Adventure: 1, Day: 1, Minute: 60}
	r2, err := wren.ApplyRepair(&events.DetailedShipRepaired{Code: "P", Boxes: 1})
	if err != nil {
		t.Fatal(err)
	}
	r2.Stamp = stampAt(1, 1, 0)
	r2.From, r2.Until = r1.Until, &events.ShipClock{Adventure: 1, Day: 1, Minute: 120}
	if r1.Minutes != 60 || r2.Minutes != 60 {
		t.Fatalf("the powerplant repairs take %d and %d minutes", r1.Minutes, r2.Minutes)
	}
	steps := []step{
		{events.CampaignStream, "", events.CampaignCreated{Name: "c", Edition: "2021"}},
		{"ship/W", "", builtShip("W", wrenSpec())},
		{"ship/T", "", builtShip("T", interceptortest.Tern())},
		{events.ShipTemplatesStream, "", events.ShipTemplatesAdded{Templates: []events.ShipTemplate{*brickTemplate}}},
		{"ship/W", "", cockpit},
		{"ship/W", "", bridge},
		{"ship/W", "", turn},
		{"ship/T", "", onDorsal},
		{"ship/W", "", power},
		{events.CampaignStream, "", events.AdventureStarted{Stamp: stampAt(1, 1, 0), Number: 1, Title: "a"}},
		{"ship/W", "", r1},
		{"ship/W", "", r2},
	}
	for i := range steps {
		steps[i].command = "K" + string(rune('A'+i))
	}
	return steps, map[string]int{"wren": 1, "tern": 2, "templates": 3, "cockpit": 4, "bridge": 5, "turn": 6, "dorsal": 7, "power": 8, "adventure": 9, "repair": 10, "repair2": 11}
}

// TestReplayDetailedShips: a log the rules wrote replays with no
// violation, and the world holds the ships as they were left.
func TestReplayDetailedShips(t *testing.T) {
	steps, _ := detailedCampaign(t)
	w := Replay(shipLog(t, steps...), nil)
	if len(w.Violations) != 0 {
		t.Fatalf("violations %+v", w.Violations)
	}
	wren, tern := w.DetailedShips["W"], w.DetailedShips["T"]
	if wren == nil || tern == nil || wren.Hits != 3 || wren.Repairs != 2 || tern.Hits != 1 || wren.Version != 7 || wren.Seq != 12 || wren.LastRepairSeq != 12 {
		t.Fatalf("ships %+v %+v", wren, tern)
	}
	if c := wren.View().Crew; c[0].Status != "conscious" || !c[1].Wounded {
		t.Errorf("Wren's crew %+v", c)
	}
	if p := componentNamed(t, wren.View().Components, "P"); p.Lost != 0 || *wren.LastRepair != (events.ShipClock{Adventure: 1, Day: 1, Minute: 120}) {
		t.Errorf("the powerplant %+v, the last repair until %v", p, wren.LastRepair)
	}
	if len(w.Templates.Templates) != 1 || w.Templates.Templates[0].Name != "Brick" {
		t.Errorf("templates %+v", w.Templates)
	}
}

// TestReplayCatchesForgedDetailedEvents: each event the rules would not
// have written is found, at its seq, with what is wrong with it.
func TestReplayCatchesForgedDetailedEvents(t *testing.T) {
	for _, c := range []struct {
		name  string
		at    string // the event changed
		forge func(p events.Payload) (events.Payload, string)
		want  string
	}{
		{"templates on a ship's stream", "templates", func(p events.Payload) (events.Payload, string) { return p, "ship/W" },
			`ship.templates.added on stream "ship/W", not "ship-templates"`},
		{"no templates", "templates", func(events.Payload) (events.Payload, string) { return events.ShipTemplatesAdded{}, "" }, "templates added, but none given"},
		{"a template the rules refuse", "templates", func(events.Payload) (events.Payload, string) {
			return events.ShipTemplatesAdded{Templates: []events.ShipTemplate{{Name: "Bad", Rows: []string{"XX"}}}}, ""
		}, `template "Bad" is 2 cells wide`},
		{"a ship built on the campaign's stream", "wren", func(p events.Payload) (events.Payload, string) { return p, "note/W" },
			`ship.detailed.built on stream "note/W", not a ship's`},
		{"a ship built on another's stream", "wren", func(p events.Payload) (events.Payload, string) { return p, "ship/X" }, "ship W built twice, or on stream ship/X"},
		{"a ship built twice", "tern", func(p events.Payload) (events.Payload, string) { return builtShip("W", wrenSpec()), "ship/W" }, "ship W built twice, or on stream ship/W"},
		{"a second ship of the same name", "tern", func(p events.Payload) (events.Payload, string) {
			b := builtShip("T", interceptortest.Tern())
			b.Name = " wren"
			return b, ""
		}, `a ship named "Wren" already exists`},
		{"a ship the rules cannot build", "tern", func(p events.Payload) (events.Payload, string) {
			b := builtShip("T", interceptortest.Tern())
			b.Record.Armour.Aft = 5
			return b, ""
		}, "event 3: "},
		{"a hit on no ship", "cockpit", func(p events.Payload) (events.Payload, string) { return p, "ship/Z" }, "ship.detailed.hit for a detailed ship that does not exist (stream ship/Z)"},
		{"a hit recorded with a box fewer", "bridge", func(p events.Payload) (events.Payload, string) {
			h := p.(events.DetailedShipHit)
			h.Destroyed = h.Destroyed[:1]
			return h, ""
		}, "hit recorded 1 boxes destroyed (forward r1c3); the rules destroy 2 (forward r1c3, internal r1c3)"},
		{"a cockpit hit recorded without its roll", "cockpit", func(p events.Payload) (events.Payload, string) {
			h := p.(events.DetailedShipHit)
			h.CrewRolls = nil
			return h, ""
		}, "crew rolls: recorded 0 rolls; the rules call for 1"},
		{"a laser as a sample", "bridge", func(p events.Payload) (events.Payload, string) {
			h := p.(events.DetailedShipHit)
			h.Sample = true
			return h, ""
		}, "a laser hit marked as a sample template"},
		{"a template with laser points", "dorsal", func(p events.Payload) (events.Payload, string) {
			h := p.(events.DetailedShipHit)
			h.Points = 3
			return h, ""
		}, `a hit gives both laser points (3) and template "Brick": give one`},
		{"a template not added", "dorsal", func(p events.Payload) (events.Payload, string) {
			h := p.(events.DetailedShipHit)
			h.Template = &events.ShipTemplate{Name: "Block", Rows: brickTemplate.Rows}
			return h, ""
		}, `a hit with template "Block", which the campaign has not added`},
		{"a template as a sample that is none", "dorsal", func(p events.Payload) (events.Payload, string) {
			h := p.(events.DetailedShipHit)
			h.Sample = true
			return h, ""
		}, `a hit with sample template "Brick", which is not a sample`},
		{"a template recorded with other rows", "dorsal", func(p events.Payload) (events.Payload, string) {
			h := p.(events.DetailedShipHit)
			h.Template = &events.ShipTemplate{Name: "brick", Rows: []string{"xxx", "xxx", "xxx"}}
			return h, ""
		}, `a hit with template "brick" recorded as [xxx xxx xxx]; the template is [XXX XXX XXX XXX]`},
		{"a turret hit without its turret roll", "dorsal", func(p events.Payload) (events.Payload, string) {
			h := p.(events.DetailedShipHit)
			h.TurretRoll, h.TurretChance = 0, 0
			return h, ""
		}, "hit recorded no turret roll; Tern had a turret standing (book l.341)"},
		{"a turn end with a roll's status changed", "turn", func(p events.Payload) (events.Payload, string) {
			te := p.(events.DetailedTurnEnded)
			te.Rolls = append([]events.DetailedShipRoll(nil), te.Rolls...)
			te.Rolls[0].Status = "unconscious"
			return te, ""
		}, "end of turn recorded wound by Jon at B (20%, column 1): 1,2 (entered), wounded, unconscious; the rules give wound by Jon at B (20%, column 1): 1,2 (entered), wounded, conscious"},
		{"a turn end without its wake roll", "turn", func(p events.Payload) (events.Payload, string) {
			te := p.(events.DetailedTurnEnded)
			te.Wake = nil
			return te, ""
		}, "wake rolls: recorded 0 rolls; the rules call for 1"},
		{"a turn end that killed someone", "turn", func(p events.Payload) (events.Payload, string) {
			te := p.(events.DetailedTurnEnded)
			te.Killed = []string{"Jon"}
			return te, ""
		}, "end of turn recorded [Jon] killed; the rules kill []"},
		{"a repair without a game time", "repair", func(p events.Payload) (events.Payload, string) {
			r := p.(events.DetailedShipRepaired)
			r.Stamp = events.Stamp{}
			return r, ""
		}, "a repair without a game time"},
		{"a repair that took too long", "repair", func(p events.Payload) (events.Payload, string) {
			r := p.(events.DetailedShipRepaired)
			r.Minutes++
			return r, ""
		}, "repair recorded 61 minutes (60 a box); the book gives 60 (60 a box"},
		{"a repair with no time of day", "repair", func(p events.Payload) (events.Payload, string) {
			r := p.(events.DetailedShipRepaired)
			r.Until = nil
			return r, ""
		}, "a repair during an adventure recorded no time of day"},
		{"a repair at the wrong time of day", "repair2", func(p events.Payload) (events.Payload, string) {
			r := p.(events.DetailedShipRepaired)
			r.From, r.Until = &events.ShipClock{Adventure: 1, Day: 1}, &events.ShipClock{Adventure: 1, Day: 1, Minute: r.Minutes}
			return r, ""
		}, "repair recorded day 1, 00:00 → day 1, 01:00; the clock gives day 1, 01:00 → day 1, 02:00"},
		{"a repair of something not lost", "repair", func(p events.Payload) (events.Payload, string) {
			r := p.(events.DetailedShipRepaired)
			r.Code = "Q"
			return r, ""
		}, "Q (Quarters) has lost no boxes: there is nothing to repair"},
	} {
		t.Run(c.name, func(t *testing.T) {
			steps, idx := detailedCampaign(t)
			i := idx[c.at]
			p, stream := c.forge(steps[i].payload)
			steps[i].payload = p
			if stream != "" {
				steps[i].stream = stream
			}
			w := Replay(shipLog(t, steps...), nil)
			found := false
			for _, v := range w.Violations {
				if v.Seq == int64(i+1) && strings.Contains(v.Problem, c.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("violations %+v, want %q at seq %d", w.Violations, c.want, i+1)
			}
		})
	}
}

// TestReplayDetailedRepairsOutOfAdventure: between adventures the repair
// clock does not run (a repair records no time of day), and no repair is
// made during an encounter (DAMAGE CONTROL AND REPAIR, book l.479).
func TestReplayDetailedRepairsOutOfAdventure(t *testing.T) {
	sh, err := interceptor.NewShip(wrenSpec())
	if err != nil {
		t.Fatal(err)
	}
	wren := DetailedShip{ship: sh}
	hit, err := wren.MakeHit(&events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: 2, Column: 3}}, shipDice(), shipDice())
	if err != nil {
		t.Fatal(err)
	}
	repair, err := wren.ApplyRepair(&events.DetailedShipRepaired{Code: "B", Boxes: 1})
	if err != nil {
		t.Fatal(err)
	}
	repair.Stamp = events.Stamp{At: &events.GameTime{}}
	clocked := repair
	clocked.From, clocked.Until = &events.ShipClock{}, &events.ShipClock{Minute: repair.Minutes}
	inFight := repair
	inFight.Stamp = stampAt(1, 1, 1)
	for _, c := range []struct {
		name  string
		steps []step
		want  string
	}{
		{"between adventures", []step{{"ship/W", "K4", repair}}, ""},
		{"between adventures with a time of day", []step{{"ship/W", "K4", clocked}}, "a repair between adventures recorded a time of day: the clock does not run then"},
		{"in an encounter", []step{
			{events.CampaignStream, "K4", events.AdventureStarted{Stamp: stampAt(1, 1, 0), Number: 1, Title: "a"}},
			{events.CampaignStream, "K5", events.EncounterStarted{Stamp: stampAt(1, 1, 1), Number: 1}},
			{"ship/W", "K6", inFight}}, "a repair during encounter 1: systems cannot be repaired during a scenario (book l.479)"},
	} {
		steps := append([]step{
			{events.CampaignStream, "K1", events.CampaignCreated{Name: "c", Edition: "2021"}},
			{"ship/W", "K2", builtShip("W", wrenSpec())},
			{"ship/W", "K3", hit},
		}, c.steps...)
		w := Replay(shipLog(t, steps...), nil)
		switch {
		case c.want == "" && len(w.Violations) != 0:
			t.Errorf("%s: violations %+v", c.name, w.Violations)
		case c.want != "" && (len(w.Violations) != 1 || w.Violations[0].Problem != c.want):
			t.Errorf("%s: violations %+v, want %q", c.name, w.Violations, c.want)
		}
	}
}

// TestReplayDetailedKills: a crewman a hit kills who is a character of
// the campaign must die on his sheet in the same command (hits of payload
// version 2); the fourth hit on a cockpit kills its crewman (book l.365).
func TestReplayDetailedKills(t *testing.T) {
	sh, err := interceptor.NewShip(wrenSpec())
	if err != nil {
		t.Fatal(err)
	}
	wren := DetailedShip{ship: sh}
	var hits []events.DetailedShipHit
	for _, c := range []struct {
		points, column int
		faces          []int
	}{{2, 1, []int{1}}, {1, 1, []int{1}}, {2, 2, []int{1}}, {1, 2, nil}} {
		h, err := wren.MakeHit(&events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: c.points, Column: c.column}}, shipDice(c.faces...), shipDice())
		if err != nil {
			t.Fatal(err)
		}
		hits = append(hits, h)
	}
	if got := hits[3].Killed; len(got) != 1 || got[0] != "Mara" {
		t.Fatalf("the fourth cockpit hit killed %q", got)
	}
	mara := events.CharacterCreated{CharacterID: "M", Name: "Mara", Edition: "2021", Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9}}
	base := []step{
		{events.CampaignStream, "K1", events.CampaignCreated{Name: "c", Edition: "2021"}},
		{events.CharacterStream("M"), "K2", mara},
		{"ship/W", "K3", builtShip("W", wrenSpec())},
		{"ship/W", "K4", hits[0]},
		{"ship/W", "K5", hits[1]},
		{"ship/W", "K6", hits[2]},
	}
	alive := append(append([]step(nil), base...), step{"ship/W", "K7", hits[3]})
	w := Replay(shipLog(t, alive...), nil)
	if len(w.Violations) != 1 || w.Violations[0].Seq != 7 || w.Violations[0].Problem != "Mara was killed aboard a detailed ship, but is not dead on the sheet" {
		t.Errorf("violations %+v", w.Violations)
	}
	dead := append(append([]step(nil), base...), step{"ship/W", "K7", hits[3]}, step{events.CharacterStream("M"), "K7", events.CharacterDied{Cause: "killed aboard the Wren"}})
	if w := Replay(shipLog(t, dead...), nil); len(w.Violations) != 0 {
		t.Errorf("with her death: %+v", w.Violations)
	}
	// A hit of payload version 1 made no such deaths.
	old := shipLog(t, alive...)
	old[6].PayloadVersion = 1
	if w := Replay(old, nil); len(w.Violations) != 0 {
		t.Errorf("a version 1 hit: %+v", w.Violations)
	}
}

// rerollCampaign is Mara, a character of the campaign, at the Wren's
// cockpit: a hit knocks her out (9 against 8 on the Consciousness Table,
// book l.357); she spends a karma point to re-roll it (3: she stays
// conscious), and the re-rolled hit, made by RedoHit, replaces the hit.
func rerollCampaign(t *testing.T) []events.Event {
	t.Helper()
	sh, err := interceptor.NewShip(wrenSpec())
	if err != nil {
		t.Fatal(err)
	}
	wren := DetailedShip{ship: sh}
	first, err := wren.MakeHit(&events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: 2, Column: 1}}, shipDice(9), shipDice())
	if err != nil {
		t.Fatal(err)
	}
	steps := []step{
		{events.CampaignStream, "K1", events.CampaignCreated{Name: "c", Edition: "2021"}},
		{events.CharacterStream("M"), "K2", events.CharacterCreated{CharacterID: "M", Name: "Mara", Edition: "2021", Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9}}},
		{events.CharacterStream("M"), "K3", events.KarmaGranted{Amount: 1, Reason: "r"}},
		{"ship/W", "K4", builtShip("W", wrenSpec())},
		{"ship/W", "K5", first},
	}
	hitID := shipLog(t, steps...)[4].ID
	redo, err := (&DetailedShip{ship: sh}).RedoHit(&first, RollRedo{Roll: 0, Dice: shipDice(3)})
	if err != nil {
		t.Fatal(err)
	}
	redo.DetailedReroll = events.DetailedReroll{Rerolls: hitID, RerolledBy: "Mara", RerolledRoll: 1}
	if r := redo.CrewRolls; len(r) != 1 || r[0].Status != "conscious" || r[0].Faces[0] != 3 {
		t.Fatalf("the re-rolled hit's rolls %+v", r)
	}
	steps = append(steps,
		step{events.CharacterStream("M"), "K6", events.KarmaSpent{Amount: 1, For: "reroll", RollID: hitID}},
		step{"ship/W", "K6", redo},
	)
	return shipLog(t, steps...)
}

// TestReplayDetailedReroll: a karma re-roll of a crewman's roll, paid for
// by him in its command, replaces the ship's latest hit; one that
// changes the hit's terms, is paid for by someone else, or replaces a hit
// that is not the latest, is a violation.
func TestReplayDetailedReroll(t *testing.T) {
	log := rerollCampaign(t)
	w := Replay(log, nil)
	if len(w.Violations) != 0 {
		t.Fatalf("violations %+v", w.Violations)
	}
	if wren := w.DetailedShips["W"]; wren.Hits != 1 || wren.View().Crew[0].Status != "conscious" {
		t.Errorf("after the re-roll: hits %d, crew %+v", wren.Hits, wren.View().Crew)
	}
	for _, c := range []struct {
		name  string
		forge func(log []events.Event) []events.Event
		want  string
	}{
		{"not paid for", func(log []events.Event) []events.Event {
			return append(log[:5:5], log[6])
		}, "re-roll of " + log[4].ID + " with no karma or wish spent on it"},
		{"another column", func(log []events.Event) []events.Event {
			return reencode(t, log, 6, func(p events.Payload) events.Payload {
				h := p.(*events.DetailedShipHit)
				h.Column = 2
				return h
			})
		}, "a re-rolled hit whose facing, weapon, column or turret dice differ from the hit it replaces"},
		{"someone else's roll", func(log []events.Event) []events.Event {
			return reencode(t, log, 6, func(p events.Payload) events.Payload {
				h := p.(*events.DetailedShipHit)
				h.RerolledBy = "Jon"
				return h
			})
		}, `a re-roll of roll 1 (consciousness by Mara at C (column 1, number 8): 9 (entered), unconscious) recorded as "Jon"'s`},
		{"a roll it does not have", func(log []events.Event) []events.Event {
			return reencode(t, log, 6, func(p events.Payload) events.Payload {
				h := p.(*events.DetailedShipHit)
				h.RerolledRoll = 2
				return h
			})
		}, "a re-roll of roll 2: the event made 1 rolls"},
		{"a third die", func(log []events.Event) []events.Event {
			return reencode(t, log, 6, func(p events.Payload) events.Payload {
				h := p.(*events.DetailedShipHit)
				h.RerolledDie = 3
				return h
			})
		}, "a re-roll of die 3 of a roll (0 for the roll, 2 for its second die)"},
		{"the second die of a roll of one", func(log []events.Event) []events.Event {
			return reencode(t, log, 6, func(p events.Payload) events.Payload {
				h := p.(*events.DetailedShipHit)
				h.RerolledDie = 2
				return h
			})
		}, "a re-roll of roll 1 rolled 1 dice: there is no die 2 to re-roll"},
		{"a roll of nothing in effect", func(log []events.Event) []events.Event {
			return reencode(t, log, 6, func(p events.Payload) events.Payload {
				h := p.(*events.DetailedShipHit)
				h.Rerolls = "Enothing"
				return h
			})
		}, "event 7: a re-roll of Enothing, which is not the ship's latest event"},
	} {
		t.Run(c.name, func(t *testing.T) {
			forged := c.forge(rerollCampaign(t))
			w := Replay(forged, nil)
			found := false
			for _, v := range w.Violations {
				if strings.Contains(v.Problem, c.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("violations %+v, want %q", w.Violations, c.want)
			}
		})
	}
}

// reencode returns log with the payload of event i changed by f.
func reencode(t *testing.T, log []events.Event, i int, f func(events.Payload) events.Payload) []events.Event {
	t.Helper()
	p, err := events.Decode(log[i])
	if err != nil {
		t.Fatal(err)
	}
	pend, err := events.Encode(log[i].ID, log[i].Stream, f(p), nil)
	if err != nil {
		t.Fatal(err)
	}
	out := append([]events.Event(nil), log...)
	out[i].Payload = pend.Payload
	return out
}

// TestRedoAndCheckReroll: RedoHit and RedoTurnEnd make an event again with
// one roll re-rolled, keeping the other rolls' dice, and CheckReroll holds
// the new event against the first.
func TestRedoAndCheckReroll(t *testing.T) {
	sh, err := interceptor.NewShip(wrenSpec())
	if err != nil {
		t.Fatal(err)
	}
	d := DetailedShip{ship: sh}
	if _, err := d.MakeHit(&events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: 2, Column: 1}}, shipDice(9), shipDice()); err != nil {
		t.Fatal(err)
	}
	if _, err := d.MakeHit(&events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: 2, Column: 3}}, shipDice(), shipDice()); err != nil {
		t.Fatal(err)
	}
	before := d
	// Jon's wound roll (1: wounded, 2: conscious), Mara's wake roll (3).
	first, err := d.EndTurn(shipDice(1, 2, 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	rolls := EventRolls(&first)
	if len(rolls) != 2 || rolls[0].Kind != "wound" || rolls[1].Kind != "wake" {
		t.Fatalf("the turn end's rolls %+v", rolls)
	}
	// Jon re-rolls his wound's second die: 10 knocks him out, and he
	// makes a wake roll too (4), after Mara's, whose die is kept.
	b := before
	redo, err := b.RedoTurnEnd(&first, RollRedo{Roll: 0, Die: 1, Dice: shipDice(10, 4)})
	if err != nil {
		t.Fatal(err)
	}
	if r := redo.Rolls[0]; !slices.Equal(r.Faces, []int{1, 10}) || r.Status == "conscious" {
		t.Errorf("the re-rolled wound %+v", r)
	}
	if len(redo.Wake) != 2 || !slices.Equal(redo.Wake[0].Faces, []int{3}) || redo.Wake[1].Crew != "Jon" || !slices.Equal(redo.Wake[1].Faces, []int{4}) {
		t.Errorf("the wake rolls after it %+v", redo.Wake)
	}
	redo.DetailedReroll = events.DetailedReroll{Rerolls: "E1", RerolledBy: "Jon", RerolledRoll: 1, RerolledDie: 2}
	if problem := CheckReroll(&first, &redo); problem != "" {
		t.Errorf("CheckReroll of the redo: %q", problem)
	}
	// The re-roll changed the wound's first die.
	bad := redo
	bad.Rolls = append([]events.DetailedShipRoll(nil), redo.Rolls...)
	bad.Rolls[0].Faces = []int{2, 10}
	if problem := CheckReroll(&first, &bad); problem != "a re-roll of roll 1's second die that changed its first" {
		t.Errorf("a changed first die: %q", problem)
	}
	// Mara's wake roll re-rolled from its first die, Jon's kept.
	b = before
	wake, err := b.RedoTurnEnd(&first, RollRedo{Roll: 1, Dice: shipDice(9)})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(wake.Rolls[0].Faces, []int{1, 2}) || !slices.Equal(wake.Wake[0].Faces, []int{9}) || wake.Wake[0].Status != "unconscious" {
		t.Errorf("the re-rolled wake %+v", wake)
	}
	wake.DetailedReroll = events.DetailedReroll{Rerolls: "E1", RerolledBy: "Mara", RerolledRoll: 2}
	if problem := CheckReroll(&first, &wake); problem != "" {
		t.Errorf("CheckReroll of the wake redo: %q", problem)
	}
	changed := wake
	changed.Rolls = append([]events.DetailedShipRoll(nil), wake.Rolls...)
	changed.Rolls[0].Faces = []int{1, 3}
	if problem := CheckReroll(&first, &changed); problem != "a re-roll of roll 2 changed the dice of roll 1 before it" {
		t.Errorf("a changed roll before it: %q", problem)
	}
	other := wake
	other.Abandoned = []string{"Jon"}
	if problem := CheckReroll(&first, &other); problem != "a re-rolled turn end in which other crewmen abandon ship than in the turn end it replaces" {
		t.Errorf("other abandoned: %q", problem)
	}
	hit := events.DetailedShipHit{DetailedReroll: wake.DetailedReroll}
	if problem := CheckReroll(&first, &hit); problem != "a re-rolled hit replaces an event that is not a hit" {
		t.Errorf("a hit for a turn end: %q", problem)
	}
	if problem := CheckReroll(&hit, &wake); problem != "a re-rolled turn end replaces an event that is not a turn end" {
		t.Errorf("a turn end for a hit: %q", problem)
	}
	// Refused redos.
	for _, c := range []struct {
		redo RollRedo
		want string
	}{
		{RollRedo{Roll: 2}, "roll 3: the event made 2 rolls"},
		{RollRedo{Roll: -1}, "roll 0: the event made 2 rolls"},
		{RollRedo{Roll: 1, Die: 1}, "roll 2 rolled 1 dice: there is no die 2 to re-roll"},
		{RollRedo{Roll: 0, Die: 2}, "roll 1 rolled 2 dice: there is no die 3 to re-roll"},
	} {
		b := before
		if _, err := b.RedoTurnEnd(&first, c.redo); err == nil || err.Error() != c.want {
			t.Errorf("RedoTurnEnd(%+v) = %v, want %q", c.redo, err, c.want)
		}
		if _, err := b.RedoHit(&events.DetailedShipHit{CrewRolls: first.Rolls, JamRolls: first.Wake}, c.redo); err == nil || err.Error() != c.want {
			t.Errorf("RedoHit(%+v) = %v, want %q", c.redo, err, c.want)
		}
	}
	moot := []events.DetailedShipRoll{{Kind: "wake", Moot: true}}
	if err := checkRedo(moot, RollRedo{}); err == nil || err.Error() != "roll 1 was moot: no die was rolled" {
		t.Errorf("a moot roll: %v", err)
	}
	if got := EventRolls(&events.DetailedShipRepaired{}); got != nil {
		t.Errorf("a repair's rolls %+v", got)
	}
	if !prefixAgree([]int{1, 2}, []int{1}) || prefixAgree([]int{2}, []int{1, 2}) || !prefixAgree(nil, []int{3}) {
		t.Error("prefixAgree")
	}
	if got := tail([]int{1, 2}, 2); got != nil {
		t.Errorf("tail past the end = %v", got)
	}
}
