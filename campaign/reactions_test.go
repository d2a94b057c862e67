package campaign

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// ajaxHector is the books' counterattack example: Ajax (DX 11) of the
// party against the foe Hector (DX 12), the party's turn first.
func ajaxHector(t *testing.T, ed rules.Edition) *Service {
	t.Helper()
	s := newCampaign(t, ed)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.AddFoe(NewFoe{Name: "Hector", Attributes: rules.Attributes{ST: 11, DX: 12, IQ: 10}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AdventureStart("Troy"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EncounterStart("The walls"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Initiative(InitiativeRequest{Faces: []int{5, 2}}); err != nil {
		t.Fatal(err)
	}
	return s
}

// 2020 and 2010, "Counterattack": "Ajax (DX11) rolls 11, strikes Hector,
// and rolls damage. Hector survives and counterattacks, rolling 7. Hector
// hits Ajax and rolls damage, but loses his next turn." (2021: "A foe
// strikes Ajax, and rolls damage. Ajax survives and counterattacks. He
// hits his foe but loses his next turn.") The counterattack is no action
// of Hector's turn; he reacts to an attack once.
func TestCounterattackLosesTheNextTurn(t *testing.T) {
	for _, ed := range []rules.Edition{rules.Edition2010, rules.Edition2020, rules.Edition2021} {
		s := ajaxHector(t, ed)
		before := count(t, s)
		_, err := s.Attack(AttackRequest{Attacker: "Hector", Target: "Ajax", Counter: true, HitFaces: []int{2, 2, 3}, DamageFaces: []int{1}})
		wantRefused(t, s, err, before, rules.CodeRule, "Ajax has not attacked Hector")
		strike, err := s.Attack(AttackRequest{Attacker: "Ajax", Target: "Hector", HitFaces: []int{4, 4, 3}, DamageFaces: []int{1}})
		if err != nil || strike.Attack.Hit.Outcome != "hit" || strike.Attack.Hit.Total != 11 {
			t.Fatalf("%s: Ajax's strike %+v, %v", ed, strike.Attack.Hit, err)
		}
		res, err := s.Attack(AttackRequest{Attacker: "Hector", Target: "Ajax", Counter: true, HitFaces: []int{2, 2, 3}, DamageFaces: []int{1}})
		if err != nil {
			t.Fatalf("%s: the counterattack: %v", ed, err)
		}
		if a := res.Attack; a.Counters != strike.Events[0].ID || a.Hit.Total != 7 || a.Hit.Outcome != "hit" || a.Damage == nil || res.Countered != strike.Events[0].Seq {
			t.Fatalf("%s: the counterattack %+v", ed, a)
		}
		hector, _ := s.Sheet("Hector")
		tr, err := s.Turns()
		if err != nil || tr.Turn != 1 || tr.Side() != events.SideParty || len(tr.Actions) != 1 || tr.Loses[hector.ID] != 2 {
			t.Fatalf("%s: after the counterattack: turn %d (%s), actions %+v, loses %v, %v", ed, tr.Turn, tr.Side(), tr.Actions, tr.Loses, err)
		}
		// "A defender can react to ONE attacker": no second reaction.
		before = count(t, s)
		_, err = s.Attack(AttackRequest{Attacker: "Hector", Target: "Ajax", Counter: true, HitFaces: []int{2, 2, 3}, DamageFaces: []int{1}})
		wantRefused(t, s, err, before, rules.CodeRule, "Hector already counterattacked Ajax's attack")
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify %+v, %v", ed, r, err)
		}
		// His side's next turn is lost.
		if _, err := s.TurnEnd(); err != nil {
			t.Fatal(err)
		}
		before = count(t, s)
		_, err = s.Attack(AttackRequest{Attacker: "Hector", Target: "Ajax", HitFaces: []int{1, 1, 1}, DamageFaces: []int{1}})
		wantRefused(t, s, err, before, rules.CodeRule, "Hector reacted to an attack and loses his next turn")
	}
}

// Undo takes the counterattack back with the lost turn; a karma re-roll
// of it keeps what it answers and is no new reaction.
func TestCounterattackUndoAndReroll(t *testing.T) {
	s := newCampaign(t, rules.Edition2021)
	mustCreate(t, s, "Ajax", 12, 11, 9)
	if _, err := s.AddFoe(NewFoe{Name: "Foe", Attributes: rules.Attributes{ST: 14, DX: 10, IQ: 9}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AdventureStart("Troy"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EncounterStart("The walls"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Initiative(InitiativeRequest{Faces: []int{2, 5}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GrantKarma("Ajax", 1, "x"); err != nil {
		t.Fatal(err)
	}
	strike, err := s.Attack(AttackRequest{Attacker: "Foe", Target: "Ajax", HitFaces: []int{2, 2, 2}, DamageFaces: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	counter := AttackRequest{Attacker: "Ajax", Target: "Foe", Counter: true, HitFaces: []int{5, 5, 1}, DamageFaces: []int{2}}
	mustAttack(t, s, counter)
	ajax, _ := s.Sheet("Ajax")
	if tr, _ := s.Turns(); tr.Loses[ajax.ID] != 2 {
		t.Fatalf("after the counterattack: loses %v", tr.Loses)
	}
	if _, err := s.Undo(UndoRequest{Reason: "typo"}); err != nil {
		t.Fatal(err)
	}
	if tr, _ := s.Turns(); tr.Losing(ajax.ID) {
		t.Fatalf("after undo: loses %v", tr.Loses)
	}
	res, err := s.Attack(counter)
	if err != nil || res.Attack.Hit.Outcome != "hit" {
		t.Fatalf("the counterattack again: %+v, %v", res.Attack.Hit, err)
	}
	rr, err := s.Reroll(RerollRequest{Roll: res.Events[0].ID, Faces: []int{1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if a := rr.Attack; a.Counters != strike.Events[0].ID || a.Hit.Total != 6 || a.Hit.Outcome != "hit" || a.Taken == 0 {
		t.Fatalf("the re-rolled counterattack %+v", a)
	}
	tr, err := s.Turns()
	if err != nil || tr.Loses[ajax.ID] != 2 || len(tr.Actions) != 1 || tr.Side() != events.SideFoes {
		t.Fatalf("after the re-roll: loses %v, actions %+v, %v", tr.Loses, tr.Actions, err)
	}
	if r, err := s.Verify(); err != nil || !r.OK {
		t.Fatalf("verify %+v, %v", r, err)
	}
	before := count(t, s)
	_, err = s.Attack(counter)
	wantRefused(t, s, err, before, rules.CodeRule, "Ajax already counterattacked Foe's attack")
}

// A counterattack answers an attack the defender survived and did not
// dodge, and is recorded whole.
func TestCounterattackRefused(t *testing.T) {
	s := ajaxHector(t, rules.Edition2021)
	mustAttack(t, s, AttackRequest{Attacker: "Ajax", Target: "Hector", HitFaces: []int{1, 1, 1}, HitOnly: true})
	before := count(t, s)
	_, err := s.Attack(AttackRequest{Attacker: "Hector", Target: "Ajax", Counter: true})
	wantRefused(t, s, err, before, rules.CodeRule, "waits for its damage")
	_, err = s.Attack(AttackRequest{Attacker: "Hector", Target: "Ajax", Counter: true, HitOnly: true})
	wantRefused(t, s, err, before, rules.CodeInvalid, "--counter records the whole counterattack")
	_, err = s.Attack(AttackRequest{Attacker: "Hector", Target: "Ajax", Counter: true, Force: "x"})
	wantRefused(t, s, err, before, rules.CodeInvalid, "no action of a turn")
	if _, err := s.Dodge(DodgeRequest{Name: "Hector", Faces: []int{6, 6, 6}, DamageFaces: []int{1}}); err != nil {
		t.Fatal(err)
	}
	before = count(t, s)
	_, err = s.Attack(AttackRequest{Attacker: "Hector", Target: "Ajax", Counter: true})
	wantRefused(t, s, err, before, rules.CodeRule, "already reacted to Ajax's attack (seq")
}

// verify re-checks a counterattack: a log edited so that it answers an
// attack by someone else, or answers one a second time, is a violation.
func TestVerifyReplaysCounterattacks(t *testing.T) {
	s := ajaxHector(t, rules.Edition2021)
	strike, err := s.Attack(AttackRequest{Attacker: "Ajax", Target: "Hector", HitFaces: []int{4, 4, 3}, DamageFaces: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Attack(AttackRequest{Attacker: "Hector", Target: "Ajax", Counter: true, HitFaces: []int{2, 2, 3}, DamageFaces: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	// Round 2: Ajax strikes again, and Hector answers that one.
	for range 2 {
		if _, err := s.TurnEnd(); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Attack(AttackRequest{Attacker: "Ajax", Target: "Hector", HitFaces: []int{4, 4, 3}, DamageFaces: []int{1}}); err != nil {
		t.Fatal(err)
	}
	second, err := s.Attack(AttackRequest{Attacker: "Hector", Target: "Ajax", Counter: true, HitFaces: []int{2, 2, 3}, DamageFaces: []int{1}})
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
	edit := func(id string, f func(a *events.AttackMade)) []events.Event {
		var out []events.Event
		for _, e := range all {
			if e.ID == id {
				p, _ := events.Decode(e)
				a := *p.(*events.AttackMade)
				f(&a)
				b, err := json.Marshal(a)
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
		id   string
		f    func(a *events.AttackMade)
		want string
	}{
		{"no such attack", res.Events[0].ID, func(a *events.AttackMade) { a.Counters = "01NOSUCHATTACK" }, "which is not an attack in effect"},
		{"another's attack", res.Events[0].ID, func(a *events.AttackMade) { a.Counters = strike.Events[0].ID; a.TargetID = "x" }, "who did not attack him"},
		{"answered twice", second.Events[0].ID, func(a *events.AttackMade) { a.Counters = strike.Events[0].ID }, "a second counterattack on"},
	} {
		w := projections.Replay(edit(c.id, c.f), nil)
		if len(w.Violations) == 0 || !strings.Contains(w.Violations[0].Problem, c.want) {
			t.Fatalf("%s: violations %+v", c.name, w.Violations)
		}
	}
}
