package campaign

import (
	"fmt"

	"github.com/ltscamp/ltscamp/rules"
)

// DemoName is the name of the campaign `ltscamp demo` builds.
const DemoName = "Rule book examples"

// DemoStep is one command of the demo story, told in words.
type DemoStep struct {
	// Source cites the rule book passage the step comes from.
	Source string
	// Said is what the command did.
	Said string
}

// PlayDemo runs the rule books' own examples as commands on a new, empty
// campaign: Ajax and Hector are created, roll, contest, earn and spend XP,
// then spar in an adventure (worked example 4: 2d6-1 against a Flak Vest),
// and take the Kit-Kat out (worked examples 9 and 10: it costs 14, and a hit
// for 3 past its shield leaves it dead in the water).
// Every die is entered as the book gives it, so the result is the same on
// every run.
func (s *Service) PlayDemo() ([]DemoStep, error) {
	var steps []DemoStep
	say := func(source, format string, a ...any) {
		steps = append(steps, DemoStep{Source: source, Said: fmt.Sprintf(format, a...)})
	}
	ajax, err := s.CreateCharacter(NewCharacter{Name: "Ajax", Attributes: rules.Attributes{ST: 12, DX: 11, IQ: 9}, Skills: []string{"Unarmed:2", "Medic:2"}})
	if err != nil {
		return steps, err
	}
	say("2021 \"New Characters\"", "created %s: ST%d DX%d IQ%d, Unarmed 2, Medic 2", ajax.Name, ajax.Attributes.ST, ajax.Attributes.DX, ajax.Attributes.IQ)
	hector, err := s.CreateCharacter(NewCharacter{Name: "Hector", Attributes: rules.Attributes{ST: 11, DX: 12, IQ: 9}, Skills: []string{"Pilot:1", "Gunner:1"}})
	if err != nil {
		return steps, err
	}
	say("2020 \"New Characters\", \"Dog Fights\"", "created %s: ST%d DX%d IQ%d, Pilot 1, Gunner 1", hector.Name, hector.Attributes.ST, hector.Attributes.DX, hector.Attributes.IQ)

	for _, faces := range [][]int{{1, 3, 6}, {2, 3, 4}} {
		r, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Faces: faces, Reason: "strike"})
		if err != nil {
			return steps, err
		}
		say("2021 \"Hitting a Foe\", \"Strike\"", "Ajax rolled 3/DX %v = %d against DX %d: %s", faces, r.Roll.Total, r.Roll.Target, r.Roll.Outcome)
	}
	c, err := s.Contest(ContestRequest{Sides: [2]string{"Ajax:ST", "Hector:ST"}, Faces: [2][]int{{6, 4, 3}, {3, 3, 3}}, Reason: "grapple"})
	if err != nil {
		return steps, err
	}
	say("2020 \"Winning a Check\" (the same in 2021)", "contest of ST, Ajax 13 against Hector 9: %s", c.Contest.Explanation)
	d, err := s.Roll(RollRequest{Expr: "2d6-1", Character: "Ajax", Faces: []int{5, 2}, Reason: "handgun"})
	if err != nil {
		return steps, err
	}
	say("2021 \"Weapons\"", "Ajax rolled 2d6-1 damage [5 2] = %d", d.Roll.Total)

	if _, err := s.AwardXP([]string{"Ajax"}, 20, "adventure rewards"); err != nil {
		return steps, err
	}
	say("2021 \"Character Development\"", "awarded Ajax 20 XP")
	sp, err := s.SpendXP(Spend{Character: "Ajax", Target: "ST", Levels: 1})
	if err != nil {
		return steps, err
	}
	say("2021 \"Character Development\"", "Ajax raised ST 12→13 for %d XP (%s); %d XP left", sp.Spends[0].Price, sp.Spends[0].Formula, sp.Sheet.XP.Unspent)
	if _, err := s.AwardXP([]string{"Ajax"}, 10, "adventure rewards"); err != nil {
		return steps, err
	}
	sp, err = s.SpendXP(Spend{Character: "Ajax", Target: "skill:Knife", Levels: 1})
	if err != nil {
		return steps, err
	}
	say("2021 \"Skills\"", "awarded Ajax 10 XP more; he learned Knife for %d XP between adventures; %d XP left", sp.Spends[0].Price, sp.Sheet.XP.Unspent)
	if _, err := s.Plotword("KITKAT"); err != nil {
		return steps, err
	}
	say("2021 \"Experience Points\"", "the party acquired plotword KITKAT: +1 XP each")

	if _, err := s.GrantKarma("Ajax", 1, "the oracle"); err != nil {
		return steps, err
	}
	r, err := s.Roll(RollRequest{Expr: "3/IQ+Medic", Character: "Ajax", Faces: []int{6, 5, 4}, Reason: "patch up Hector"})
	if err != nil {
		return steps, err
	}
	say("2021 \"Karma/Wish\"", "Ajax rolled 3/IQ+Medic [6 5 4] = %d against %d: %s", r.Roll.Total, r.Roll.Target, r.Roll.Outcome)
	rr, err := s.Reroll(RerollRequest{Roll: r.Event.ID, Faces: []int{2, 2, 3}})
	if err != nil {
		return steps, err
	}
	say("2021 \"Karma/Wish\"", "Ajax spent a karma point to re-roll: [2 2 3] = %d, %s; both rolls stay in the log", rr.Roll.Total, rr.Roll.Outcome)

	if _, err := s.AdventureStart("The Kit-Kat run"); err != nil {
		return steps, err
	}
	say("2010 \"Adventures\"", "adventure 1 started: day 1")
	if _, err := s.Equip("Hector", "armor", "flak vest", false); err != nil {
		return steps, err
	}
	if _, err := s.Equip("Ajax", "weapon", "handgun", false); err != nil {
		return steps, err
	}
	if _, err := s.EncounterStart("sparring in the cargo bay"); err != nil {
		return steps, err
	}
	at, err := s.Attack(AttackRequest{Attacker: "Ajax", Target: "Hector", HitFaces: []int{1, 3, 6}, DamageFaces: []int{5, 2}})
	if err != nil {
		return steps, err
	}
	say("2021 \"Weapons\", \"Armor\"", "Ajax shot Hector (Flak Vest): 2d6-1 [5 2] = %d, the vest stopped %d, Hector took %d", at.Attack.BeforeArmor, at.Attack.ArmorStopped, at.Attack.Taken)
	h, err := s.Heal(HealRequest{Name: "Hector", Medic: "Ajax", MedicFaces: []int{2, 3, 4}})
	if err != nil {
		return steps, err
	}
	say("2021 \"Medic\"", "Ajax (Medic 2) passed 3/IQ and healed Hector %d of this combat's damage", h.Healed)
	if _, err := s.EncounterEnd(OutcomeOther, nil); err != nil {
		return steps, err
	}
	if _, err := s.DayNext(1); err != nil {
		return steps, err
	}
	say("2010 \"Adventures\": game time", "the sparring ended; day 2 began")

	kk, err := s.ShipNew("Kit-Kat", "Cargo1, Engineering1, Operations1, Living1, d6/1, M+1", "Ajax")
	if err != nil {
		return steps, err
	}
	say("2021 \"Maneuver\" Example 2", "built the Kit-Kat, %s: %d build points", kk.Record, kk.Cost)
	if _, err := s.ShipCrew("Kit-Kat", "Operations", []string{"Ajax"}); err != nil {
		return steps, err
	}
	if _, err := s.ShipCrew("Kit-Kat", "Living", []string{"Hector"}); err != nil {
		return steps, err
	}
	say("2021 \"Dead In The Water\"", "Ajax took Operations and Hector the Living section")
	hit, err := s.ShipHit(ShipHitRequest{Ship: "Kit-Kat", Damage: 3, Inflict: -1, Source: "a pirate's d6"})
	if err != nil {
		return steps, err
	}
	say("2021 Examples 1e-1g", "the Kit-Kat was hit for 3: its shields stopped %d, %d points destroyed Cargo then Engineering; dead in the water: %v", hit.Hit.Shields, hit.Hit.Inflicted, hit.Hit.DIW)
	return steps, nil
}
