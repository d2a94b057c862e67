package campaign

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// A tackle as an action: 2020 Example 1 "Ajax (DX11), enters Hector's
// (DX12) space. Ajax rolls 11, Hector rolls 8. Ajax wins. They are now
// grappling." (2021 alike.) Then Example 3 in the foes' turn: "Hector
// (ST11, DX12) enters Ajax's (ST12, DX11) space. Hector rolls 13, Ajax 9.
// Hector fails. Hector is weaker. He retreats back to his starting space."
// Each is the tackler's action of his turn.
func TestTackleAsAction(t *testing.T) {
	for _, ed := range []rules.Edition{rules.Edition2020, rules.Edition2021} {
		s := ajaxHector(t, ed)
		res, err := s.Tackle(TackleRequest{Tackler: "Ajax", Foe: "Hector", Faces: [2][]int{{5, 3, 3}, {2, 3, 3}}})
		if err != nil {
			t.Fatalf("%s: %v", ed, err)
		}
		if tk := res.Contest.Tackle; tk == nil || tk.Outcome != rules.TackleGrappling || tk.Reacts != "" || res.Contest.Sides[0].Total != 11 || res.Contest.Sides[1].Total != 8 {
			t.Fatalf("%s: the tackle %+v", ed, res.Contest)
		}
		ajax, _ := s.Sheet("Ajax")
		tr, err := s.Turns()
		if err != nil || len(tr.Actions) != 1 || tr.Actions[0].ID != ajax.ID || tr.Side() != events.SideParty || tr.Losing(ajax.ID) {
			t.Fatalf("%s: after Ajax's tackle: actions %+v, side %s, %v", ed, tr.Actions, tr.Side(), err)
		}
		res, err = s.Tackle(TackleRequest{Tackler: "Hector", Foe: "Ajax", Faces: [2][]int{{5, 4, 4}, {3, 3, 3}}})
		if err != nil || res.Contest.Tackle.Outcome != rules.TackleBack {
			t.Fatalf("%s: Hector's tackle %+v, %v", ed, res.Contest.Tackle, err)
		}
		tr, _ = s.Turns()
		if len(tr.Actions) != 2 || tr.Side() != events.SideFoes || tr.Turn != 2 {
			t.Fatalf("%s: after Hector's tackle: actions %+v, turn %d (%s)", ed, tr.Actions, tr.Turn, tr.Side())
		}
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify %+v, %v", ed, r, err)
		}
	}
}

// A tackle as a reaction (2021 "A defender can react to ONE attacker, but
// loses his next turn. He can dodge, counterattack, or tackle his
// attacker."): no action of his turn; he loses his side's next one; a
// second reaction to the attack is refused; undo takes it back.
func TestTackleAsReaction(t *testing.T) {
	s := ajaxHector(t, rules.Edition2021)
	react := TackleRequest{Tackler: "Hector", Foe: "Ajax", React: true, Faces: [2][]int{{5, 4, 4}, {3, 3, 3}}}
	before := count(t, s)
	_, err := s.Tackle(react)
	wantRefused(t, s, err, before, rules.CodeRule, "Ajax has not attacked Hector in this encounter: there is nothing to tackle")
	strike, err := s.Attack(AttackRequest{Attacker: "Ajax", Target: "Hector", HitFaces: []int{4, 4, 3}, DamageFaces: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Tackle(react)
	if err != nil || res.Contest.Tackle.Reacts != strike.Events[0].ID || res.Reacts != strike.Events[0].Seq || res.Contest.Tackle.Outcome != rules.TackleBack {
		t.Fatalf("the reaction %+v, %v", res.Contest.Tackle, err)
	}
	hector, _ := s.Sheet("Hector")
	tr, err := s.Turns()
	if err != nil || tr.Turn != 1 || tr.Side() != events.SideParty || len(tr.Actions) != 1 || tr.Loses[hector.ID] != 2 {
		t.Fatalf("after the tackle: turn %d (%s), actions %+v, loses %v, %v", tr.Turn, tr.Side(), tr.Actions, tr.Loses, err)
	}
	before = count(t, s)
	_, err = s.Tackle(react)
	wantRefused(t, s, err, before, rules.CodeRule, "Hector already tackled Ajax in answer to his attack")
	_, err = s.Attack(AttackRequest{Attacker: "Hector", Target: "Ajax", Counter: true, HitFaces: []int{2, 2, 3}, DamageFaces: []int{1}})
	wantRefused(t, s, err, before, rules.CodeRule, "Hector already tackled Ajax in answer to his attack")
	// Bad input: a reaction is no action of a turn.
	_, err = s.Tackle(TackleRequest{Tackler: "Hector", Foe: "Ajax", React: true, Force: "why"})
	wantRefused(t, s, err, before, rules.CodeInvalid, "a tackle as a reaction is no action of a turn")
	_, err = s.Tackle(TackleRequest{Tackler: "Hector", Foe: "Hector"})
	wantRefused(t, s, err, before, rules.CodeInvalid, "cannot tackle himself")
	if r, err := s.Verify(); err != nil || !r.OK {
		t.Fatalf("verify %+v, %v", r, err)
	}
	// Undo takes the tackle back with its lost turn.
	if _, err := s.Undo(UndoRequest{Reason: "typo"}); err != nil {
		t.Fatal(err)
	}
	if tr, _ := s.Turns(); tr.Losing(hector.ID) {
		t.Fatalf("after undo: loses %v", tr.Loses)
	}
	if _, err := s.Tackle(react); err != nil {
		t.Fatalf("the tackle again after undo: %v", err)
	}
	// His side's next turn is lost.
	if _, err := s.TurnEnd(); err != nil {
		t.Fatal(err)
	}
	before = count(t, s)
	_, err = s.Tackle(TackleRequest{Tackler: "Hector", Foe: "Ajax", Faces: [2][]int{{1, 1, 1}, {3, 3, 3}}})
	wantRefused(t, s, err, before, rules.CodeRule, "Hector reacted to an attack and loses his next turn")
}

// A karma re-roll of a tackle decides it again: 2020 Example 2 (Ajax ST12
// fails against Hector ST11: Hector retreats) turns into a win. It keeps
// the tackle and is no new action.
func TestTackleReroll(t *testing.T) {
	s := ajaxHector(t, rules.Edition2020)
	if _, err := s.GrantKarma("Ajax", 1, "x"); err != nil {
		t.Fatal(err)
	}
	res, err := s.Tackle(TackleRequest{Tackler: "Ajax", Foe: "Hector", Faces: [2][]int{{1, 1, 1}, {3, 3, 3}}})
	if err != nil || res.Contest.Tackle.Outcome != rules.TackleFoeRetreats {
		t.Fatalf("the tackle %+v, %v", res.Contest.Tackle, err)
	}
	rr, err := s.Reroll(RerollRequest{Roll: res.Events[0].ID, Faces: []int{5, 3, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if c := rr.Contest; c == nil || c.Tackle == nil || c.Tackle.Outcome != rules.TackleGrappling || c.Tackle.TacklerST != 12 || c.Sides[1].Total != 9 {
		t.Fatalf("the re-roll %+v", rr.Contest)
	}
	tr, err := s.Turns()
	if err != nil || len(tr.Actions) != 1 || tr.Side() != events.SideParty {
		t.Fatalf("after the re-roll: actions %+v, %v", tr.Actions, err)
	}
	if r, err := s.Verify(); err != nil || !r.OK {
		t.Fatalf("verify %+v, %v", r, err)
	}
}

// verify re-decides a tackle: a forged outcome, ST or second reaction is
// a violation.
func TestVerifyReplaysTackles(t *testing.T) {
	s := ajaxHector(t, rules.Edition2021)
	strike, err := s.Attack(AttackRequest{Attacker: "Ajax", Target: "Hector", HitFaces: []int{4, 4, 3}, DamageFaces: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Attack(AttackRequest{Attacker: "Hector", Target: "Ajax", Counter: true, HitFaces: []int{2, 2, 3}, DamageFaces: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	// A counterattack answered the strike: no tackle on it too.
	before := count(t, s)
	_, err = s.Tackle(TackleRequest{Tackler: "Hector", Foe: "Ajax", React: true})
	wantRefused(t, s, err, before, rules.CodeRule, "Hector already counterattacked Ajax's attack")
	for range 2 {
		if _, err := s.TurnEnd(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Attack(AttackRequest{Attacker: "Ajax", Target: "Hector", HitFaces: []int{4, 4, 3}, DamageFaces: []int{1}}); err != nil {
		t.Fatal(err)
	}
	tk, err := s.Tackle(TackleRequest{Tackler: "Hector", Foe: "Ajax", React: true, Faces: [2][]int{{5, 4, 4}, {3, 3, 3}}})
	if err != nil {
		t.Fatal(err)
	}
	all, err := s.store.Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if w := projections.Replay(all, nil); len(w.Violations) != 0 {
		t.Fatalf("violations in the log as written: %+v", w.Violations)
	}
	edit := func(f func(c *events.ContestResolved)) []events.Event {
		var out []events.Event
		for _, e := range all {
			if e.CommandID == tk.Events[0].CommandID {
				p, _ := events.Decode(e)
				c := *p.(*events.ContestResolved)
				tc := *c.Tackle
				c.Tackle = &tc
				f(&c)
				b, err := json.Marshal(c)
				if err != nil {
					t.Fatal(err)
				}
				e.Payload = b
			}
			out = append(out, e)
		}
		return out
	}
	for _, c := range []struct {
		name string
		f    func(c *events.ContestResolved)
		want string
	}{
		{"forged outcome", func(c *events.ContestResolved) { c.Tackle.Outcome = rules.TackleGrappling }, `tackle recorded "grappling"; the rules give "back"`},
		{"forged ST", func(c *events.ContestResolved) { c.Tackle.TacklerST, c.Tackle.Outcome = 13, rules.TackleFoeRetreats }, "tackle recorded Hector ST 13; the sheet had 11"},
		{"answered twice", func(c *events.ContestResolved) { c.Tackle.Reacts = strike.Events[0].ID }, "had answered: a defender reacts to ONE attacker"},
	} {
		w := projections.Replay(edit(c.f), nil)
		if len(w.Violations) == 0 || !strings.Contains(w.Violations[0].Problem, c.want) {
			t.Fatalf("%s: violations %+v", c.name, w.Violations)
		}
	}
}

// The 2010 book has no tackle (it came with 2020): a tackle in an edition
// 2010 campaign is refused, and nothing is appended.
func TestNoTackleIn2010(t *testing.T) {
	s := ajaxHector(t, rules.Edition2010)
	before := count(t, s)
	_, err := s.Tackle(TackleRequest{Tackler: "Ajax", Foe: "Hector", Faces: [2][]int{{5, 3, 3}, {2, 3, 3}}})
	wantRefused(t, s, err, before, rules.CodeRule, "edition 2010 has no tackle")
}
