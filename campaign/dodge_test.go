package campaign

import (
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

// The hit alone, then the dodge, then the damage: each one command, each
// recorded as an attack that completes the one before; verify replays
// them, undo takes the last back, and karma re-rolls the latest.
func TestDodgeAfterTheHit(t *testing.T) {
	s := foeCampaign(t)
	// The Pirate's bare-handed blow on Brann (DX 10): 1+1+1 hits, and the
	// damage is to come.
	hit, err := s.Attack(AttackRequest{Attacker: "Pirate", Target: "Brann", HitFaces: []int{1, 1, 1}, HitOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if a := hit.Attack; !a.DamageToCome() || a.Damage != nil || a.Taken != 0 || len(hit.Events) != 1 {
		t.Fatalf("the hit alone: %+v, %d events", a, len(hit.Events))
	}
	// A hit waiting for its damage keeps the encounter open.
	if _, err := s.EncounterEnd(OutcomeVictory, nil); err == nil || !strings.Contains(err.Error(), "Pirate's hit on Brann") {
		t.Fatalf("encounter end with a hit waiting: %v", err)
	}
	// Brann fails to dodge: the damage is still to come.
	failed, err := s.Dodge(DodgeRequest{Name: "Brann", Faces: []int{6, 6, 6}})
	if err != nil {
		t.Fatal(err)
	}
	if a := failed.Attack; a.Completes != hit.Events[0].ID || a.Dodge == nil || a.Dodge.Outcome != "fail" || !a.DamageToCome() || !a.Reacted() {
		t.Fatalf("the failed dodge: %+v", a)
	}
	if _, err := s.Dodge(DodgeRequest{Name: "Brann", Faces: []int{1, 1, 1}}); err == nil || !strings.Contains(err.Error(), "already tried to dodge") {
		t.Fatalf("a second dodge: %v", err)
	}
	// The damage: bare hands, d3 2; the Pirate (ST 12) is not stronger
	// than Brann (ST 14), so 2 fatigue.
	done, err := s.CompleteDamage(CompleteDamageRequest{Target: "brann", Faces: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	if a := done.Attack; a.Completes != failed.Events[0].ID || a.Damage == nil || a.Taken != 2 || a.DamageToCome() || done.Target.Fatigue != 2 {
		t.Fatalf("the damage: %+v; Brann %+v", a, done.Target)
	}
	if _, err := s.CompleteDamage(CompleteDamageRequest{}); err == nil || !strings.Contains(err.Error(), "no hit waits for its damage") {
		t.Fatalf("nothing left to complete: %v", err)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify: %+v", rep.Violations)
	}
	// Undo takes the damage back: the hit waits again.
	if _, err := s.Undo(UndoRequest{}); err != nil {
		t.Fatal(err)
	}
	brann, _ := s.Sheet("Brann")
	if brann.Fatigue != 0 {
		t.Fatalf("Brann after undo: fatigue %d", brann.Fatigue)
	}
	again, err := s.CompleteDamage(CompleteDamageRequest{Faces: []int{3}})
	if err != nil || again.Attack.Taken != 3 || again.Attack.Completes != failed.Events[0].ID {
		t.Fatalf("the damage again: %+v, %v", again.Attack, err)
	}
	if _, err := s.EncounterEnd(OutcomeVictory, nil); err != nil {
		t.Fatalf("encounter end once settled: %v", err)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify: %+v", rep.Violations)
	}
}

// Kira's karma re-rolls her hit while its damage waits: a hit again, and
// it waits again; the completed hit is refused, naming its completion.
func TestRerollAHitWhoseDamageWaits(t *testing.T) {
	s := foeCampaign(t)
	if _, err := s.GrantKarma("Kira", 1, "x"); err != nil {
		t.Fatal(err)
	}
	hit, err := s.Attack(AttackRequest{Attacker: "Kira", Target: "Pirate", HitFaces: []int{6, 6, 6}, HitOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if hit.Attack.Hit.Outcome != "miss" || hit.Attack.DamageToCome() {
		t.Fatalf("a miss waits for nothing: %+v", hit.Attack)
	}
	res, err := s.Reroll(RerollRequest{Roll: itoa(hit.Events[0].Seq), Which: "hit", Faces: []int{1, 2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Attack.DamageToCome() || res.Attack.Damage != nil {
		t.Fatalf("the re-rolled hit: %+v", res.Attack)
	}
	done, err := s.CompleteDamage(CompleteDamageRequest{Faces: []int{5, 2}})
	if err != nil {
		t.Fatal(err)
	}
	// The completion points at the re-roll, the latest record of the hit.
	if done.Attack.Completes != res.Events[len(res.Events)-1].ID || done.Attack.Damage == nil {
		t.Fatalf("completed: %+v", done.Attack)
	}
	var rerollSeq int64
	for _, e := range res.Events {
		if e.Type == events.TypeAttackMade {
			rerollSeq = e.Seq
		}
	}
	if _, err := s.Reroll(RerollRequest{Roll: itoa(rerollSeq), Which: "hit"}); err == nil || !strings.Contains(err.Error(), "was completed at seq") {
		t.Fatalf("re-roll of a completed hit: %v", err)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify: %+v", rep.Violations)
	}
}

// verify holds a completion to the attack it completes: the same hit dice,
// and an attack whose damage was to come.
func TestVerifyCatchesForgedCompletion(t *testing.T) {
	s := foeCampaign(t)
	hit, err := s.Attack(AttackRequest{Attacker: "Pirate", Target: "Brann", HitFaces: []int{1, 1, 1}, HitOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	full, err := s.Attack(AttackRequest{Attacker: "Pirate", Target: "Brann", HitFaces: []int{1, 1, 2}, DamageFaces: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	pirate, _ := s.FoeSheet("Pirate")
	stream := events.FoeStream(pirate.ID)
	// Other hit dice than the hit it completes (the totals consistent).
	forged := full.Attack
	forged.Completes = hit.Events[0].ID
	forged.Taken, forged.BeforeArmor, forged.Damage = 0, 0, nil
	forged.Dodge = nil
	forged.HitOnly = true
	appendRaw(t, s, stream, forged)
	// A completion of an attack whose damage was not to come.
	again := full.Attack
	again.Completes = full.Events[0].ID
	appendRaw(t, s, stream, again)
	// A second completion of the same hit (a dodge, then its damage too).
	dodged, err := s.Dodge(DodgeRequest{Name: "Brann", Faces: []int{1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	twice := dodged.Attack
	twice.Dodge.Faces, twice.Dodge.Sum, twice.Dodge.Total, twice.Dodge.Outcome = []int{6, 6, 6}, 18, 18, "fail"
	appendRaw(t, s, stream, twice)
	rep := mustVerify(t, s)
	want := []string{"changed the hit dice [1 1 1] to [1 1 2]", "whose damage was not to come", "had already replaced"}
	if len(rep.Violations) != len(want) {
		t.Fatalf("violations %+v; want %d", rep.Violations, len(want))
	}
	for i, w := range want {
		if !strings.Contains(rep.Violations[i].Problem, w) {
			t.Errorf("violation %d = %q; want %q", i, rep.Violations[i].Problem, w)
		}
	}
}

// A hit that can no longer be settled does not hold the encounter open:
// its target has fled the roster.
func TestAHitOnAFoeWhoFledWaitsForNothing(t *testing.T) {
	s := foeCampaign(t)
	if _, err := s.Attack(AttackRequest{Attacker: "Kira", Target: "Pirate", HitFaces: []int{1, 2, 3}, HitOnly: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EncounterEnd(OutcomeVictory, nil); err == nil || !strings.Contains(err.Error(), "Kira's hit on Pirate") {
		t.Fatalf("encounter end with a hit waiting: %v", err)
	}
	if _, err := s.RemoveFoe("Pirate", "fled"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EncounterEnd(OutcomeVictory, nil); err != nil {
		t.Fatalf("encounter end once the target fled: %v", err)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify: %+v", rep.Violations)
	}
}

// A completion keeps where the hit put the combat skill: Kira's Pistol 1
// went to hit, and her standing choice turned to damage before the damage
// came. verify holds the completion to the hit, not to the new choice.
func TestACompletionKeepsTheSkillPlacement(t *testing.T) {
	s := foeCampaign(t)
	hit, err := s.Attack(AttackRequest{Attacker: "Kira", Target: "Drone", HitFaces: []int{4, 4, 5}, HitOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if hit.Attack.Bonus != "hit" || !hit.Attack.DamageToCome() {
		t.Fatalf("the hit: %+v", hit.Attack)
	}
	if _, err := s.SetSkillBonus("Kira", "damage"); err != nil {
		t.Fatal(err)
	}
	done, err := s.CompleteDamage(CompleteDamageRequest{Faces: []int{3, 3}})
	if err != nil {
		t.Fatal(err)
	}
	// Handgun 2d6-1: 5, no Pistol level on the damage.
	if done.Attack.Bonus != "hit" || done.Attack.Taken != 5 {
		t.Fatalf("completed: %+v", done.Attack)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify: %+v", rep.Violations)
	}
}
