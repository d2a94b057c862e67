package campaign

import (
	"fmt"
	"testing"
)

// A karma re-roll that turns an unarmed miss into a hit rolls the d3 as
// fatigue (bare hands do fatigue). The miss recorded no damage, so it was
// neither damage nor fatigue: verify once refused the re-roll as "another
// attacker, target, weapon or bonus" for the fatigue it now dealt.
func TestRerollAnUnarmedMissIntoAHit(t *testing.T) {
	s := foeCampaign(t)
	if _, err := s.GrantKarma("Brann", 1, "good play"); err != nil {
		t.Fatal(err)
	}
	res, err := s.Attack(AttackRequest{Attacker: "Brann", Target: "Drone", HitFaces: []int{6, 6, 6}, DamageFaces: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Attack.Hit.Outcome != "miss" {
		t.Fatalf("6,6,6 should miss: %+v", res.Attack)
	}
	rr, err := s.Reroll(RerollRequest{Roll: fmt.Sprint(res.Events[0].Seq), Faces: []int{1, 1, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if a := rr.Attack; a == nil || !a.Fatigue || a.Taken == 0 {
		t.Fatalf("the re-rolled hit: %+v", rr.Attack)
	}
	if rep := mustVerify(t, s); !rep.OK {
		t.Fatalf("verify: %+v", rep.Violations)
	}
}
