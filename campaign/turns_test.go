package campaign

import (
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// turnsCampaign is foeCampaign with Brann and the Pirate given the turns
// of edition ed: initiative 5-2, the party first.
func turnsCampaign(t *testing.T, ed rules.Edition) *Service {
	t.Helper()
	s := newCampaign(t, ed)
	mustCreate(t, s, "Kira", 10, 12, 10)
	mustCreate(t, s, "Brann", 14, 10, 8)
	if _, err := s.AddFoe(NewFoe{Name: "Pirate", Attributes: rules.Attributes{ST: 12, DX: 11, IQ: 9}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AdventureStart("Derelict"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EncounterStart("Pirates"); err != nil {
		t.Fatal(err)
	}
	return s
}

func mustAttack(t *testing.T, s *Service, req AttackRequest) {
	t.Helper()
	if _, err := s.Attack(req); err != nil {
		t.Fatal(err)
	}
}

func wantRefused(t *testing.T, s *Service, err error, before int64, code rules.Code, want string) {
	t.Helper()
	if err == nil || rules.CodeOf(err) != code || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v (code %v); want code %v containing %q", err, rules.CodeOf(err), code, want)
	}
	if n := count(t, s); n != before {
		t.Fatalf("a refused command appended %d events", n-before)
	}
}

func TestInitiativeRollsOneDiePerSideAndRerollsTies(t *testing.T) {
	for _, ed := range []rules.Edition{rules.Edition2010, rules.Edition2020, rules.Edition2021} {
		s := turnsCampaign(t, ed)
		before := count(t, s)
		_, err := s.Initiative(InitiativeRequest{Faces: []int{3, 3}})
		wantRefused(t, s, err, before, rules.CodeInvalid, "tied 3 against 3: roll both dice again")
		_, err = s.Initiative(InitiativeRequest{Faces: []int{2, 5, 1}})
		wantRefused(t, s, err, before, rules.CodeInvalid, "initiative takes 2 faces, 3 given")
		res, err := s.Initiative(InitiativeRequest{Faces: []int{3, 3, 2, 6}})
		if err != nil {
			t.Fatal(err)
		}
		if in := res.Initiative; in.First != events.SideFoes || len(in.Party) != 2 || in.Edition != string(ed) {
			t.Fatalf("%s: initiative %+v", ed, in)
		}
		if res.Turns.Side() != events.SideFoes || res.Turns.Round() != 1 {
			t.Fatalf("%s: after initiative %+v", ed, res.Turns)
		}
		before = count(t, s)
		_, err = s.Initiative(InitiativeRequest{Faces: nil})
		wantRefused(t, s, err, before, rules.CodeRule, "rolled for encounter 1 already")
		// Undo takes the initiative back: it may be rolled again.
		if _, err := s.Undo(UndoRequest{Reason: "wrong dice"}); err != nil {
			t.Fatal(err)
		}
		if tr, err := s.Turns(); err != nil || tr.Active {
			t.Fatalf("%s: after undo %+v, %v", ed, tr, err)
		}
		if _, err := s.Initiative(InitiativeRequest{Faces: []int{5, 2}}); err != nil {
			t.Fatal(err)
		}
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify %+v, %v", ed, r, err)
		}
	}
}

// 2021 "A defender can react to ONE attacker, but loses his next turn";
// 2010 "the defender gives up his following turn"; 2020's examples: "Hector
// loses his next turn".
func TestLostTurnRefusedAndOverruled(t *testing.T) {
	for _, ed := range []rules.Edition{rules.Edition2010, rules.Edition2020, rules.Edition2021} {
		s := turnsCampaign(t, ed)
		if _, err := s.Initiative(InitiativeRequest{Faces: []int{5, 2}}); err != nil {
			t.Fatal(err)
		}
		mustAttack(t, s, AttackRequest{Attacker: "Kira", Target: "Pirate", HitFaces: []int{6, 6, 5}})
		// The pirate's attack passes the turn; Brann dodges it.
		mustAttack(t, s, AttackRequest{Attacker: "Pirate", Target: "Brann", HitFaces: []int{2, 3, 4}, Dodge: true, DodgeFaces: []int{2, 2, 2}})
		tr, err := s.Turns()
		brann, _ := s.Sheet("Brann")
		if err != nil || tr.Side() != events.SideFoes || !tr.Losing(brann.ID) || tr.LosesAt(brann.ID, tr.Turn) {
			t.Fatalf("%s: after the pirate's attack %+v, %v", ed, tr, err)
		}
		before := count(t, s)
		_, err = s.Attack(AttackRequest{Attacker: "Brann", Target: "Pirate", HitFaces: []int{1, 1, 1}, DamageFaces: []int{3}})
		wantRefused(t, s, err, before, rules.CodeRule, "Brann reacted to an attack and loses his next turn (round 2, the party's turn)")
		_, err = s.Attack(AttackRequest{Attacker: "Kira", Target: "Pirate", HitFaces: []int{6, 6, 5}, Force: "why not"})
		wantRefused(t, s, err, before, rules.CodeInvalid, "Kira has not lost this turn")
		// Kira may act: her attack passes the turn to the party's round 2.
		mustAttack(t, s, AttackRequest{Attacker: "Kira", Target: "Pirate", HitFaces: []int{6, 6, 5}})
		res, err := s.Attack(AttackRequest{Attacker: "Brann", Target: "Pirate", HitFaces: []int{1, 1, 1}, DamageFaces: []int{3}, Force: "the pirate tripped"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Events) < 2 || res.Events[0].Type != events.TypeTurnOverruled {
			t.Fatalf("%s: the overruled attack appended %v", ed, res.Events)
		}
		p, _ := events.Decode(res.Events[0])
		if o := p.(*events.TurnOverruled); o.Name != "Brann" || o.Round != 2 || o.Reason != "the pirate tripped" {
			t.Fatalf("%s: overruled %+v", ed, o)
		}
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify %+v, %v", ed, r, err)
		}
		// Undo takes back the overrule with the attack: refused again.
		if _, err := s.Undo(UndoRequest{Reason: "no"}); err != nil {
			t.Fatal(err)
		}
		before = count(t, s)
		_, err = s.Attack(AttackRequest{Attacker: "Brann", Target: "Pirate", HitFaces: []int{1, 1, 1}, DamageFaces: []int{3}})
		wantRefused(t, s, err, before, rules.CodeRule, "loses his next turn")
		// turn end passes the lost turn; next round Brann acts again.
		for range 2 {
			if _, err := s.TurnEnd(); err != nil {
				t.Fatal(err)
			}
		}
		mustAttack(t, s, AttackRequest{Attacker: "Brann", Target: "Pirate", HitFaces: []int{1, 1, 1}, DamageFaces: []int{3}})
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify %+v, %v", ed, r, err)
		}
	}
}

// verify replays the lost turns: an action in a lost turn that no
// turn.overruled allowed (a log edited to drop it) is a violation.
func TestVerifyReplaysLostTurns(t *testing.T) {
	s := turnsCampaign(t, rules.Edition2021)
	if _, err := s.Initiative(InitiativeRequest{Faces: []int{5, 2}}); err != nil {
		t.Fatal(err)
	}
	mustAttack(t, s, AttackRequest{Attacker: "Pirate", Target: "Brann", HitFaces: []int{2, 3, 4}, Dodge: true, DodgeFaces: []int{2, 2, 2}})
	mustAttack(t, s, AttackRequest{Attacker: "Brann", Target: "Pirate", HitFaces: []int{1, 1, 1}, DamageFaces: []int{3}, Force: "r"})
	all, err := s.store.Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if w := projections.Replay(all, nil); len(w.Violations) != 0 {
		t.Fatalf("violations in the log as written: %+v", w.Violations)
	}
	var cut []events.Event
	for _, e := range all {
		if e.Type != events.TypeTurnOverruled {
			cut = append(cut, e)
		}
	}
	w := projections.Replay(cut, nil)
	if len(w.Violations) != 1 || !strings.Contains(w.Violations[0].Problem, "Brann acted in turn 3 (round 2), which he had lost by reacting") {
		t.Fatalf("violations without the overrule: %+v", w.Violations)
	}
}

// "The side with surprise gets one free unopposed turn, and then takes the
// first turn."
func TestSurprise(t *testing.T) {
	s := turnsCampaign(t, rules.Edition2021)
	if _, err := s.EncounterEnd(OutcomeOther, nil); err != nil {
		t.Fatal(err)
	}
	before := count(t, s)
	_, err := s.EncounterStartWith("Ambush", &Surprise{Side: "pirates"})
	wantRefused(t, s, err, before, rules.CodeInvalid, `--surprise "pirates": choose party or foes`)
	if _, err := s.EncounterStartWith("Ambush", &Surprise{Side: "foes"}); err != nil {
		t.Fatal(err)
	}
	tr, err := s.Turns()
	if err != nil || tr.Turn != 0 || tr.Side() != events.SideFoes {
		t.Fatalf("surprise: %+v, %v", tr, err)
	}
	before = count(t, s)
	_, err = s.Initiative(InitiativeRequest{Faces: nil})
	wantRefused(t, s, err, before, rules.CodeRule, "the foes have surprise")
	res, err := s.TurnEnd()
	if err != nil || res.Turns.Turn != 1 || res.Turns.Side() != events.SideFoes {
		t.Fatalf("after the free turn: %+v, %v", res.Turns, err)
	}
	// Undo the encounter's start: surprise goes with it.
	if _, err := s.Undo(UndoRequest{Reason: "r"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Undo(UndoRequest{Reason: "r"}); err != nil {
		t.Fatal(err)
	}
	if tr, err := s.Turns(); err != nil || tr.Active {
		t.Fatalf("after undoing the encounter: %+v, %v", tr, err)
	}
	if r, err := s.Verify(); err != nil || !r.OK {
		t.Fatalf("verify %+v, %v", r, err)
	}
}

func TestTurnEndNeedsTurns(t *testing.T) {
	s := turnsCampaign(t, rules.Edition2021)
	before := count(t, s)
	_, err := s.TurnEnd()
	wantRefused(t, s, err, before, rules.CodeRule, "roll initiative first")
	if _, err := s.EncounterEnd(OutcomeOther, nil); err != nil {
		t.Fatal(err)
	}
	before = count(t, s)
	_, err = s.TurnEnd()
	wantRefused(t, s, err, before, rules.CodeRule, "no encounter is under way")
	_, err = s.Initiative(InitiativeRequest{Faces: nil})
	wantRefused(t, s, err, before, rules.CodeRule, "start one with")
}

// 2020/2021 Tactician: "The character steals initiative by winning IQ";
// 2010: "steal initiative by winning an IQ check". The contest is its own
// event: karma re-rolls it, and the initiative follows.
func TestTacticianStealsInitiative(t *testing.T) {
	for _, ed := range []rules.Edition{rules.Edition2010, rules.Edition2020, rules.Edition2021} {
		s := newCampaign(t, ed)
		mustCreate(t, s, "Kira", 10, 12, 10, "Tactician:1")
		mustCreate(t, s, "Brann", 14, 10, 8)
		if _, err := s.AddFoe(NewFoe{Name: "Pirate", Attributes: rules.Attributes{ST: 12, DX: 11, IQ: 9}}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.GrantKarma("Kira", 1, "good play"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AdventureStart("Derelict"); err != nil {
			t.Fatal(err)
		}
		if _, err := s.EncounterStart("Pirates"); err != nil {
			t.Fatal(err)
		}
		before := count(t, s)
		_, err := s.Initiative(InitiativeRequest{Faces: []int{2, 5}, Tactician: "Brann", Against: "Pirate"})
		wantRefused(t, s, err, before, rules.CodeRule, "Brann lacks the Tactician skill")
		_, err = s.Initiative(InitiativeRequest{Faces: []int{2, 5}, Tactician: "Kira"})
		wantRefused(t, s, err, before, rules.CodeInvalid, "name whose IQ he must beat with --against NAME")
		_, err = s.Initiative(InitiativeRequest{Faces: []int{2, 5}, Tactician: "Kira", Against: "Brann"})
		wantRefused(t, s, err, before, rules.CodeInvalid, "on the same side")
		// Kira passes IQ 10 with 9; the pirate fails IQ 9 with 16.
		res, err := s.Initiative(InitiativeRequest{Faces: []int{2, 5}, Tactician: "Kira", Against: "Pirate", TacticianFaces: []int{2, 3, 4}, AgainstFaces: []int{5, 5, 6}})
		if err != nil {
			t.Fatal(err)
		}
		st := res.Initiative.Tactician
		if st == nil || !st.Stolen || res.Initiative.First != events.SideParty || len(st.ContestIDs) != 2 || res.Turns.Side() != events.SideParty {
			t.Fatalf("%s: the steal %+v, first %s", ed, st, res.Initiative.First)
		}
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify %+v, %v", ed, r, err)
		}
		// Karma re-rolls Kira's contest: 18 fails, both fail, the die stands.
		if _, err := s.Reroll(RerollRequest{Roll: st.ContestIDs[0], Faces: []int{6, 6, 6}}); err != nil {
			t.Fatal(err)
		}
		tr, err := s.Turns()
		if err != nil || tr.First != events.SideFoes || tr.Side() != events.SideFoes {
			t.Fatalf("%s: after the re-roll %+v, %v", ed, tr, err)
		}
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify after the re-roll %+v, %v", ed, r, err)
		}
		// Undo the re-roll: the steal stands again.
		if _, err := s.Undo(UndoRequest{Reason: "r"}); err != nil {
			t.Fatal(err)
		}
		if tr, err := s.Turns(); err != nil || tr.First != events.SideParty {
			t.Fatalf("%s: after undoing the re-roll %+v, %v", ed, tr, err)
		}
	}
}

// 2020/2021 Alertness: "Negates surprise on 3/IQ". The check is its own
// roll: karma re-rolls it, and the surprise follows.
func TestAlertnessNegatesSurprise(t *testing.T) {
	for _, ed := range []rules.Edition{rules.Edition2020, rules.Edition2021} {
		s := turnsCampaign(t, ed)
		if _, err := s.EncounterEnd(OutcomeOther, nil); err != nil {
			t.Fatal(err)
		}
		mustCreate(t, s, "Lyra", 10, 11, 11, "Alertness:1")
		if _, err := s.GrantKarma("Lyra", 1, "good play"); err != nil {
			t.Fatal(err)
		}
		before := count(t, s)
		_, err := s.EncounterStartWith("Ambush", &Surprise{Side: "foes", Alertness: "Kira"})
		wantRefused(t, s, err, before, rules.CodeRule, "Kira lacks the Alertness skill")
		_, err = s.EncounterStartWith("Ambush", &Surprise{Side: "party", Alertness: "Lyra"})
		wantRefused(t, s, err, before, rules.CodeInvalid, "Lyra is on the side with surprise")
		// 16 fails IQ 11 + Alertness 1: the foes have surprise.
		res, err := s.EncounterStartWith("Ambush", &Surprise{Side: "foes", Alertness: "Lyra", AlertnessFaces: []int{5, 5, 6}})
		if err != nil {
			t.Fatal(err)
		}
		var rollID string
		for _, e := range res.Events {
			if e.Type == events.TypeRollMade {
				rollID = e.ID
			}
		}
		tr, err := s.Turns()
		if err != nil || rollID == "" || tr.Surprise != events.SideFoes || tr.Turn != 0 {
			t.Fatalf("%s: a failed Alertness check %+v, %v", ed, tr, err)
		}
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify %+v, %v", ed, r, err)
		}
		// Karma re-rolls it: 6 passes, the surprise is negated.
		if _, err := s.Reroll(RerollRequest{Roll: rollID, Faces: []int{1, 2, 3}}); err != nil {
			t.Fatal(err)
		}
		if tr, err = s.Turns(); err != nil || tr.Active || tr.Surprise != "" {
			t.Fatalf("%s: after the re-roll %+v, %v", ed, tr, err)
		}
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify after the re-roll %+v, %v", ed, r, err)
		}
		// Initiative is rolled as in any battle.
		if _, err := s.Initiative(InitiativeRequest{Faces: []int{2, 5}}); err != nil {
			t.Fatal(err)
		}
		// Undo the initiative and the re-roll: the surprise stands again.
		for range 2 {
			if _, err := s.Undo(UndoRequest{Reason: "r"}); err != nil {
				t.Fatal(err)
			}
		}
		if tr, err = s.Turns(); err != nil || tr.Surprise != events.SideFoes {
			t.Fatalf("%s: after the undos %+v, %v", ed, tr, err)
		}
	}
}

// A dodge decided after the hit (dodge NAME) is a reaction like attack
// --dodge: the defender loses his side's next turn. The completions
// (the dodge, then the damage dice after it failed) are no new actions,
// and the damage dice carry the same dodge: the lost turn stays the one
// the dodge marked, even when the damage is rolled after the turn passed.
func TestADodgeAfterTheHitLosesTheNextTurn(t *testing.T) {
	for _, ed := range []rules.Edition{rules.Edition2010, rules.Edition2020, rules.Edition2021} {
		s := turnsCampaign(t, ed)
		if _, err := s.Initiative(InitiativeRequest{Faces: []int{5, 2}}); err != nil {
			t.Fatal(err)
		}
		mustAttack(t, s, AttackRequest{Attacker: "Kira", Target: "Pirate", HitFaces: []int{6, 6, 5}})
		mustAttack(t, s, AttackRequest{Attacker: "Pirate", Target: "Brann", HitFaces: []int{1, 1, 1}, HitOnly: true})
		if _, err := s.Dodge(DodgeRequest{Name: "Brann", Faces: []int{6, 6, 6}}); err != nil {
			t.Fatal(err)
		}
		brann, _ := s.Sheet("Brann")
		tr, err := s.Turns()
		if err != nil || tr.Turn != 2 || tr.Loses[brann.ID] != 3 || len(tr.Actions) != 2 {
			t.Fatalf("%s: after the dodge: turn %d, loses %v, actions %+v, %v", ed, tr.Turn, tr.Loses, tr.Actions, err)
		}
		// The foes' turn ends; the damage of the hit Brann failed to
		// dodge is rolled in the party's turn, which he loses.
		if _, err := s.TurnEnd(); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CompleteDamage(CompleteDamageRequest{Target: "Brann", Faces: []int{2}}); err != nil {
			t.Fatal(err)
		}
		tr, err = s.Turns()
		if err != nil || tr.Turn != 3 || tr.Side() != events.SideParty || tr.Loses[brann.ID] != 3 || len(tr.Actions) != 2 {
			t.Fatalf("%s: after the damage dice: turn %d (%s), loses %v, actions %+v, %v", ed, tr.Turn, tr.Side(), tr.Loses, tr.Actions, err)
		}
		before := count(t, s)
		_, err = s.Attack(AttackRequest{Attacker: "Brann", Target: "Pirate", HitFaces: []int{1, 1, 1}, DamageFaces: []int{3}})
		wantRefused(t, s, err, before, rules.CodeRule, "Brann reacted to an attack and loses his next turn")
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify %+v, %v", ed, r, err)
		}
	}
}

// A dodge entered after the turn passed (the GM typed turn end first) is
// still the defender's reaction: he loses his own side's next turn, never
// a turn of the attacker's side.
func TestALateDodgeLosesTheDefendersNextTurn(t *testing.T) {
	s := turnsCampaign(t, rules.Edition2021)
	if _, err := s.Initiative(InitiativeRequest{Faces: []int{2, 5}}); err != nil {
		t.Fatal(err)
	}
	mustAttack(t, s, AttackRequest{Attacker: "Pirate", Target: "Brann", HitFaces: []int{1, 1, 1}, HitOnly: true})
	if _, err := s.TurnEnd(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Dodge(DodgeRequest{Name: "Brann", Faces: []int{1, 1, 1}}); err != nil {
		t.Fatal(err)
	}
	brann, _ := s.Sheet("Brann")
	tr, err := s.Turns()
	if err != nil || tr.Side() != events.SideParty || tr.SideAt(tr.Loses[brann.ID]) != events.SideParty || tr.Loses[brann.ID] <= tr.Turn {
		t.Fatalf("after the late dodge: turn %d (%s), loses %v, %v", tr.Turn, tr.Side(), tr.Loses, err)
	}
	mustAttack(t, s, AttackRequest{Attacker: "Kira", Target: "Pirate", HitFaces: []int{6, 6, 5}})
	if _, err := s.TurnEnd(); err != nil {
		t.Fatal(err)
	}
	mustAttack(t, s, AttackRequest{Attacker: "Pirate", Target: "Kira", HitFaces: []int{6, 6, 6}})
	before := count(t, s)
	_, err = s.Attack(AttackRequest{Attacker: "Brann", Target: "Pirate", HitFaces: []int{1, 1, 1}, DamageFaces: []int{3}})
	wantRefused(t, s, err, before, rules.CodeRule, "Brann reacted to an attack and loses his next turn")
	if r, err := s.Verify(); err != nil || !r.OK {
		t.Fatalf("verify %+v, %v", r, err)
	}
}

// Stalker: 2020/2021 "At beginning of combat, character (not party) gets
// surprise on 3/DX" (3/DX+Stalker); 2010 "gets a free turn by winning a DX
// check against the opponent's IQ". The roll or contest is re-rollable
// with karma; the winner takes one free action before the first turn,
// which passes no turn; undo takes it back.
func TestStalkerGetsAFreeAction(t *testing.T) {
	for _, ed := range []rules.Edition{rules.Edition2010, rules.Edition2020, rules.Edition2021} {
		s := turnsCampaign(t, ed)
		if _, err := s.EncounterEnd(OutcomeOther, nil); err != nil {
			t.Fatal(err)
		}
		mustCreate(t, s, "Sly", 10, 11, 11, "Stalker:1")
		if _, err := s.GrantKarma("Sly", 1, "good play"); err != nil {
			t.Fatal(err)
		}
		before := count(t, s)
		_, err := s.EncounterStartWith("Ambush", &Surprise{Stalker: "Kira", StalkerAgainst: "Pirate"})
		wantRefused(t, s, err, before, rules.CodeRule, "Kira lacks the Stalker skill")
		if ed == rules.Edition2010 {
			_, err = s.EncounterStartWith("Ambush", &Surprise{Stalker: "Sly"})
			wantRefused(t, s, err, before, rules.CodeInvalid, "--stalker-against NAME")
			_, err = s.EncounterStartWith("Ambush", &Surprise{Stalker: "Sly", StalkerAgainst: "Brann"})
			wantRefused(t, s, err, before, rules.CodeInvalid, "on the same side")
		} else {
			_, err = s.EncounterStartWith("Ambush", &Surprise{Stalker: "Sly", StalkerAgainst: "Pirate"})
			wantRefused(t, s, err, before, rules.CodeInvalid, "leave out --stalker-against")
		}
		// 16 fails DX 11 + Stalker 1 (in 2010 the pirate's 9 passes his IQ 9).
		sp := &Surprise{Stalker: "Sly", StalkerFaces: []int{5, 5, 6}}
		if ed == rules.Edition2010 {
			sp.StalkerAgainst, sp.AgainstFaces = "Pirate", []int{2, 3, 4}
		}
		res, err := s.EncounterStartWith("Ambush", sp)
		if err != nil {
			t.Fatal(err)
		}
		var try *events.InitiativeStalker
		for _, e := range res.Events {
			if e.Type == events.TypeInitiativeStalker {
				p, err := events.Decode(e)
				if err != nil {
					t.Fatal(err)
				}
				try = p.(*events.InitiativeStalker)
			}
		}
		if try == nil || try.Free || try.Side != events.SideParty || (ed == rules.Edition2010) != (len(try.ContestIDs) == 2 && try.RollID == "") {
			t.Fatalf("%s: the Stalker's try %+v", ed, try)
		}
		tr, err := s.Turns()
		if err != nil || len(tr.Free) != 0 || tr.Active {
			t.Fatalf("%s: a failed try %+v, %v", ed, tr, err)
		}
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify %+v, %v", ed, r, err)
		}
		// Karma re-rolls it: 12 passes (and beats the pirate's 9).
		rollID := try.RollID
		if ed == rules.Edition2010 {
			rollID = try.ContestIDs[0]
		}
		if _, err := s.Reroll(RerollRequest{Roll: rollID, Faces: []int{4, 4, 4}}); err != nil {
			t.Fatal(err)
		}
		tr, err = s.Turns()
		if err != nil || len(tr.Free) != 1 || !strings.Contains(tr.TurnText(), "Sly has surprise: one free action before the first turn") {
			t.Fatalf("%s: after the re-roll %+v (%s), %v", ed, tr, tr.TurnText(), err)
		}
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify after the re-roll %+v, %v", ed, r, err)
		}
		// The foes win the die; Sly's free action passes no turn.
		if _, err := s.Initiative(InitiativeRequest{Faces: []int{2, 5}}); err != nil {
			t.Fatal(err)
		}
		mustAttack(t, s, AttackRequest{Attacker: "Sly", Target: "Pirate", HitFaces: []int{6, 6, 5}})
		tr, err = s.Turns()
		if err != nil || len(tr.Free) != 0 || tr.Turn != 1 || tr.Side() != events.SideFoes || len(tr.Actions) != 1 || !tr.Actions[0].Free {
			t.Fatalf("%s: after the free action %+v, %v", ed, tr, err)
		}
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify after the free action %+v, %v", ed, r, err)
		}
		// His next attack is his side's, in its own turn.
		mustAttack(t, s, AttackRequest{Attacker: "Sly", Target: "Pirate", HitFaces: []int{6, 6, 5}})
		if tr, err = s.Turns(); err != nil || tr.Turn != 2 || tr.Actions[1].Free {
			t.Fatalf("%s: after the second attack %+v, %v", ed, tr, err)
		}
		// Undo both attacks: the free action is his again.
		for range 2 {
			if _, err := s.Undo(UndoRequest{Reason: "r"}); err != nil {
				t.Fatal(err)
			}
		}
		if tr, err = s.Turns(); err != nil || len(tr.Free) != 1 || tr.Turn != 1 {
			t.Fatalf("%s: after the undos %+v, %v", ed, tr, err)
		}
		// The battle's first action by another lets the free action lapse.
		mustAttack(t, s, AttackRequest{Attacker: "Pirate", Target: "Brann", HitFaces: []int{6, 6, 5}})
		if tr, err = s.Turns(); err != nil || len(tr.Free) != 0 {
			t.Fatalf("%s: after the pirate's attack %+v, %v", ed, tr, err)
		}
	}
}

// "Undo and karma re-rolls work on initiative and surprise rolls like on
// any roll": a party member spends karma on his side's die (one set of
// dice), the other side's die kept, a tie rolled again; only before the
// battle goes on. Undo takes it back, karma and all.
func TestKarmaRerollsTheInitiativeDie(t *testing.T) {
	for _, ed := range []rules.Edition{rules.Edition2010, rules.Edition2020, rules.Edition2021} {
		s := turnsCampaign(t, ed)
		for _, who := range []string{"Kira", "Brann"} {
			if _, err := s.GrantKarma(who, 1, "good play"); err != nil {
				t.Fatal(err)
			}
		}
		res, err := s.Initiative(InitiativeRequest{Faces: []int{2, 5}})
		if err != nil {
			t.Fatal(err)
		}
		first := res.Events[0].ID
		before := count(t, s)
		_, err = s.Reroll(RerollRequest{Roll: first, Faces: []int{6}})
		wantRefused(t, s, err, before, rules.CodeInvalid, "--which NAME")
		_, err = s.Reroll(RerollRequest{Roll: first, Which: "Pirate", Faces: []int{1}})
		wantRefused(t, s, err, before, rules.CodeRule, "foes have no karma")
		// Kira re-rolls the party's 2: 6 beats the foes' 5, kept.
		rr, err := s.Reroll(RerollRequest{Roll: first, Which: "Kira", Faces: []int{6}})
		if err != nil {
			t.Fatal(err)
		}
		in := rr.Initiative
		if in == nil || in.First != events.SideParty || in.Foes[0] != 5 || in.Party[0] != 6 || in.Rerolls != first || in.Karma.Name != "Kira" {
			t.Fatalf("%s: the re-roll %+v", ed, in)
		}
		tr, err := s.Turns()
		if err != nil || tr.Side() != events.SideParty || tr.Turn != 1 {
			t.Fatalf("%s: after the re-roll %+v, %v", ed, tr, err)
		}
		if sh, _ := s.Sheet("Kira"); sh.Karma != 0 {
			t.Fatalf("%s: Kira has %d karma after spending it", ed, sh.Karma)
		}
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify %+v, %v", ed, r, err)
		}
		before = count(t, s)
		_, err = s.Reroll(RerollRequest{Roll: first, Which: "Brann", Faces: []int{1}})
		wantRefused(t, s, err, before, rules.CodeRule, "not the initiative in effect")
		// Brann re-rolls the party's die again: 5 ties the foes' 5, both
		// roll again.
		second := rr.Events[len(rr.Events)-1].ID
		_, err = s.Reroll(RerollRequest{Roll: second, Which: "Brann", Faces: []int{5}})
		wantRefused(t, s, err, before, rules.CodeInvalid, "--dice 5,P,F")
		rr, err = s.Reroll(RerollRequest{Roll: second, Which: "Brann", Faces: []int{5, 1, 3}})
		if err != nil {
			t.Fatal(err)
		}
		if in := rr.Initiative; in.First != events.SideFoes || len(in.Party) != 2 {
			t.Fatalf("%s: the tied re-roll %+v", ed, in)
		}
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify after the tie %+v, %v", ed, r, err)
		}
		// Undo it: the party moves first, Brann has his karma.
		if _, err := s.Undo(UndoRequest{Reason: "r"}); err != nil {
			t.Fatal(err)
		}
		if tr, err = s.Turns(); err != nil || tr.First != events.SideParty || tr.InitiativeID() != second {
			t.Fatalf("%s: after the undo %+v, %v", ed, tr, err)
		}
		if sh, _ := s.Sheet("Brann"); sh.Karma != 1 {
			t.Fatalf("%s: Brann has %d karma after the undo", ed, sh.Karma)
		}
		// Once someone acted, the die stands.
		mustAttack(t, s, AttackRequest{Attacker: "Kira", Target: "Pirate", HitFaces: []int{6, 6, 5}})
		before = count(t, s)
		_, err = s.Reroll(RerollRequest{Roll: second, Which: "Brann", Faces: []int{1}})
		wantRefused(t, s, err, before, rules.CodeRule, "can no longer be re-rolled")
		if r, err := s.Verify(); err != nil || !r.OK {
			t.Fatalf("%s: verify at the end %+v, %v", ed, r, err)
		}
	}
}
