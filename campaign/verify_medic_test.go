package campaign

import (
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// medicCampaign: Ajax (IQ 9, Medic 2) treats Hector and Kira, 4 damage
// each from encounter 1, in one heal: 1,1,1 passes and 6,6,6 fails in
// every edition.
func medicCampaign(t *testing.T, ed rules.Edition) (*Service, []HealResult) {
	t.Helper()
	s := newCampaign(t, ed)
	mustCreate(t, s, "Ajax", 12, 11, 9, "Medic:2")
	mustCreate(t, s, "Hector", 11, 12, 9)
	mustCreate(t, s, "Kira", 10, 12, 10)
	if _, err := s.AdventureStart("the derelict"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.EncounterStart("pirates"); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"Hector", "Kira"} {
		if _, _, err := s.Damage(DamageRequest{Name: n, Points: 4}); err != nil {
			t.Fatal(err)
		}
	}
	outs, err := s.HealMany(HealRequest{Medic: "Ajax", MedicFaces: []int{1, 1, 1, 6, 6, 6}}, Who{Names: []string{"Hector", "Kira"}})
	if err != nil {
		t.Fatal(err)
	}
	return s, outs
}

// A medic's heal of several patients holds one check per patient, and
// verify re-checks each healing against its check: a check that healed one
// patient heals no other, a failed check heals nothing, and a passed one
// at most a point per Medic level.
func TestVerifyMedicHealsOfSeveralPatients(t *testing.T) {
	for _, ed := range []rules.Edition{rules.Edition2010, rules.Edition2021} {
		t.Run(string(ed), func(t *testing.T) {
			s, outs := medicCampaign(t, ed)
			if len(outs) != 2 || outs[0].Healed != 2 || outs[1].Healed != 0 || outs[0].Roll.Outcome != "pass" || outs[1].Roll.Outcome != "fail" {
				t.Fatalf("heals %+v", outs)
			}
			if outs[0].RollEvent.ID == outs[1].RollEvent.ID || outs[0].RollEvent.CommandID != outs[1].RollEvent.CommandID {
				t.Fatalf("want two checks in one command: %+v, %+v", outs[0].RollEvent, outs[1].RollEvent)
			}
			if rep := mustVerify(t, s); !rep.OK {
				t.Fatalf("a fair heal of two fails verification: %+v", rep.Violations)
			}
			// roll is the heal's check: reused (the one that healed
			// Hector) or a copy of a check (0: passed, 1: failed) forged on
			// its own.
			for _, c := range []struct {
				name   string
				reuse  bool
				roll   int
				points int
				want   string
			}{
				{"the passed check reused for Kira", true, 0, 1, "already healed Hector: one check treats one patient"},
				{"a failed check heals", false, 1, 1, "healed by a failed medic's check"},
				{"more than Medic 2 heals", false, 0, 3, "whose Medic 2 heals a point per level"},
			} {
				t.Run(c.name, func(t *testing.T) {
					s, outs := medicCampaign(t, ed)
					sheets, _ := s.Sheets()
					ajax, kira := sheets[0].ID, sheets[2].ID
					at := &events.GameTime{Adventure: 1, Day: 1, Encounter: 1}
					evs := []rawEvent{}
					rollID := ""
					if c.reuse {
						rollID = outs[c.roll].RollEvent.ID
					} else {
						rm := *outs[c.roll].Roll
						rm.Reason = "medic for Kira"
						evs = append(evs, rawEvent{events.CharacterStream(ajax), rm})
					}
					heal := events.DamageHealed{Points: c.points, Reason: "medic", MedicID: ajax, Medic: "Ajax", RollID: rollID}
					if rollID == "" {
						forged := appendRawCommand(t, s, at, evs...)
						heal.RollID = forged[0].ID
					}
					forged := appendRawCommand(t, s, at, rawEvent{events.CharacterStream(kira), heal})[0]
					rep := mustVerify(t, s)
					if rep.OK || len(rep.Violations) != 1 || rep.Violations[0].Seq != forged.Seq || !strings.Contains(rep.Violations[0].Problem, c.want) {
						t.Fatalf("forged %s: %+v", c.name, rep.Violations)
					}
				})
			}
		})
	}
}
