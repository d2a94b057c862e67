package projections

import (
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

// TestDescribe: the one-line summary of each type of event, for the log
// and the audit trail, with the events it refers to named by seq when the
// caller can (seqOf) and by ID otherwise.
func TestDescribe(t *testing.T) {
	hit := func(faces []int, total, target int, outcome string) events.AttackRoll {
		return events.AttackRoll{Expr: "3/DX", Faces: faces, Sum: total, Total: total, Target: target, Outcome: outcome}
	}
	dmg := &events.AttackRoll{Expr: "2d6-1", Faces: []int{5, 2}, Sum: 7, Total: 6}
	side := func(name, attr string, target, total int) events.ContestSide {
		return events.ContestSide{Name: name, Attribute: attr, Value: target, Dice: 3, Target: target, Faces: []int{total - 2, 1, 1}, Total: total}
	}
	two, zero := 2, 0
	ship := func(id, name string) events.DogfightShip { return events.DogfightShip{ShipID: id, Name: name} }
	rows := []struct {
		p    events.Payload
		want string
	}{
		{events.CampaignCreated{Name: "Kit-Kat crew", Edition: "2021"}, `campaign "Kit-Kat crew" created, edition 2021`},
		{ajaxCreated(), "Ajax created: ST12 DX11 IQ9, Unarmed 2, Medic 2"},
		{events.FoeAdded{Name: "Ork", Attributes: events.Attributes{ST: 10, DX: 9, IQ: 8}}, "foe Ork added: ST10 DX9 IQ8"},
		{events.FoeRemoved{Reason: "fled"}, "taken off the roster: fled"},
		{events.FoeRemoved{}, "taken off the roster"},
		{events.ShipHitWithdrawn{FireID: "F1", RerollID: "F2", Sections: []events.SectionHit{{Section: "Cargo1", Points: 1}, {Section: "Engineering1", Points: 1}}},
			"hit of shot seq 11 taken back (Cargo1 1, Engineering1 1): karma re-rolled it as F2"},
		{events.HealingWithdrawn{RollID: "F1", RerollID: "F2", Points: 2}, "2 healed by the medic's check seq 11 taken back: karma re-rolled it as F2"},
		{events.DamageWithdrawn{AttackID: "F1", RerollID: "F2", Damage: 3, Fatigue: 1}, "3 damage and 1 fatigue of seq 11 taken back: karma re-rolled it as F2"},
		{events.RollMade{Character: "Ajax", Expr: "3/DX", Kind: "check", Faces: []int{1, 3, 6}, Total: 10, Target: 11, Outcome: "pass"}, "Ajax: 3/DX [1,3,6] = 10 vs 11, pass"},
		{events.RollMade{Expr: "2d6-1", Kind: "dice", Faces: []int{5, 2}, Total: 6, Rerolls: "F1"}, "bare roll: 2d6-1 [5,2] = 6, re-roll of seq 11"},
		{events.ContestResolved{Sides: [2]events.ContestSide{side("Ajax", "ST", 12, 13), side("Hector", "ST", 11, 9)}, Winner: 1, Outcome: "win"},
			"contest: Ajax rolled 13 on ST 12, Hector rolled 9 on ST 11: Hector wins"},
		{events.ContestResolved{Sides: [2]events.ContestSide{side("Ajax", "ST", 12, 9), side("Hector", "ST", 12, 9)}, Winner: -1, Outcome: "tie", Rerolls: "F2"},
			"contest: Ajax rolled 9 on ST 12, Hector rolled 9 on ST 12: tie, re-roll of F2"},
		{events.ContestResolved{Sides: [2]events.ContestSide{side("Ajax", "ST", 12, 14), side("Hector", "ST", 11, 13)}, Winner: -1, Outcome: "both_fail"},
			"contest: Ajax rolled 14 on ST 12, Hector rolled 13 on ST 11: both fail"},
		{events.ContestResolved{Sides: [2]events.ContestSide{side("Ajax", "DX", 11, 8), side("Pirate", "DX", 12, 11)}, Winner: 0, Outcome: "win",
			Tackle: &events.ContestTackle{Tackler: "Ajax", Foe: "Pirate", Outcome: "grappling", Reacts: "F1"}},
			"Ajax tackles Pirate: DX 11 vs 12, 8 vs 11: Ajax wins: they are grappling (reaction to seq 11: Ajax loses his next turn)"},
		{events.ContestResolved{Sides: [2]events.ContestSide{side("Ajax", "DX", 11, 12), side("Pirate", "DX", 12, 8)}, Winner: 1, Outcome: "win", Rerolls: "F1",
			Tackle: &events.ContestTackle{Tackler: "Ajax", Foe: "Pirate", Outcome: "foe retreats"}},
			"Ajax tackles Pirate: DX 11 vs 12, 12 vs 8: Ajax fails, stronger: Pirate retreats, re-roll of seq 11"},
		{events.ContestResolved{Sides: [2]events.ContestSide{side("Ajax", "DX", 11, 12), side("Pirate", "DX", 12, 8)}, Winner: 1, Outcome: "win",
			Tackle: &events.ContestTackle{Tackler: "Ajax", Foe: "Pirate", Outcome: "back"}},
			"Ajax tackles Pirate: DX 11 vs 12, 12 vs 8: Ajax fails, not stronger: he goes back"},
		{events.KarmaGranted{Amount: 2, Reason: "story"}, "+2 karma: story"},
		{events.KarmaSpent{Amount: 1, For: "xp"}, "-1 karma, taken as XP"},
		{events.KarmaSpent{Amount: 3, For: "curse"}, "-3 karma for curse"},
		{events.KarmaSpent{Amount: 1, For: "reroll", RollID: "F1"}, "-1 karma for a reroll of seq 11"},
		{events.WishGranted{Amount: 1}, "+1 wish"},
		{events.WishGranted{Amount: 2, Reason: "the genie"}, "+2 wishes: the genie"},
		{events.WishSpent{For: "revive"}, "-1 wish, to revive"},
		{events.WishSpent{For: "reroll", RollID: "F2"}, "-1 wish for a reroll of F2"},
		{events.CurseAdded{Levels: 1, Reason: "the idol"}, "+1 curse level: the idol"},
		{events.CurseAdded{Levels: 2}, "+2 curse levels"},
		{events.XPAwarded{Amount: 20, Reason: "adventure"}, "+20 XP: adventure"},
		{stRaise(18, "current level + 6 = 12 + 6", "2021"), "-18 XP: ST 12→13 (current level + 6 = 12 + 6, edition 2021)"},
		{events.XPSpent{On: "skill", SkillName: "Knife", From: 0, To: 1, Price: 10, Formula: "10 XP a skill point", Edition: "2010"}, "-10 XP: Knife 0→1 (10 XP a skill point, edition 2010)"},
		{events.PlotwordAcquired{Word: "KITKAT"}, "plotword KITKAT acquired"},
		{events.NoteRecorded{Text: "the gate is locked"}, "note: the gate is locked"},
		{events.ShareGranted{ShareID: "S1", Scope: "gm"}, "link S1 granted to the GM"},
		{events.ShareGranted{ShareID: "S2", Scope: events.ShareScopePlayer, Character: "Ajax", Expires: "2026-11-22T20:00:00.000000000Z", Uses: 1},
			"link S2 granted to Ajax, expires 2026-11-22 20:00 UTC, 1 use"},
		{events.ShareGranted{ShareID: "S3", Scope: "gm", Expires: "tomorrow", Uses: 3}, "link S3 granted to the GM, expires tomorrow, 3 uses"},
		{events.ShareRevoked{ShareID: "S1", Reason: "leaked"}, "link S1 revoked: leaked"},
		{events.CommandReverted{CommandID: "C1", Cascade: []string{"C2", "C3"}, Reason: "typo"}, "undo of seq 12 (+2 by cascade): typo"},
		{events.CommandReverted{CommandID: "C9"}, "undo of C9"},
		{events.CommandRestored{Reason: "oops"}, "redo of nothing: oops"},
		{events.CommandRestored{CommandIDs: []string{"C1"}}, "redo of seq 12"},
		{events.CommandRestored{CommandIDs: []string{"C1", "C2", "C3"}, Reason: "r"}, "redo of seq 12 (+2 more): r"},
		{events.AdventureStarted{Number: 1, Title: "The Gull"}, "adventure 1 started: The Gull (day 1)"},
		{events.AdventureEnded{Number: 1}, "adventure 1 ended"},
		{events.DayAdvanced{From: 1, To: 2, Reason: "day next"}, "day 1 → day 2 (day next)"},
		{events.EncounterStarted{Number: 2, Title: "Pirates"}, "encounter 2 started: Pirates"},
		{events.EncounterStarted{Number: 3}, "encounter 3 started"},
		{events.EncounterEnded{Number: 2, Outcome: "victory"}, "encounter 2 ended: victory"},
		{events.PartySlept{}, "the party slept a full night"},
		{flakVest, "wears Flak Vest (3/1)"},
		{knifeEquipped, "wields Knife (d6)"},
		{events.ItemUnequipped{Slot: "armor", Item: "flak_vest"}, "took off the armor (flak_vest)"},
		{events.AttackMade{Attacker: "Ajax", Target: "Hector", WeaponName: "Club", Hit: hit([]int{1, 3, 6}, 10, 11, "hit"), Damage: dmg, BeforeArmor: 6, ArmorStopped: 3, Taken: 3},
			"Ajax attacks Hector with Club: 3/DX [1 3 6] = 10 vs 11, hit; 2d6-1 [5 2] → 6, armour stops 3, 3 damage"},
		{events.AttackMade{Attacker: "Ajax", Target: "Hector", WeaponName: "Fists", Hit: hit([]int{2, 3, 4}, 9, 11, "hit"), Dodge: &events.AttackRoll{Faces: []int{6, 6, 1}, Total: 13, Outcome: "fail"},
			Damage: &events.AttackRoll{Expr: "d3", Faces: []int{2}, Total: 2}, BeforeArmor: 2, Taken: 2, Fatigue: true, Skill: "Unarmed", SkillLevel: 2, Bonus: "hit", BonusFrom: "standing", Counters: "F1"},
			"Ajax attacks Hector with Fists: 3/DX [2 3 4] = 9 vs 11, hit, dodge [6 6 1] = 13, fail; d3 [2] → 2, armour stops 0, 2 fatigue; Unarmed 2 on hit (standing choice) (counterattack on seq 11: Ajax loses his next turn)"},
		{events.AttackMade{Attacker: "Hector", Target: "Ajax", WeaponName: "Pistol", Hit: hit([]int{1, 1, 2}, 4, 12, "hit"), HitOnly: true, Rerolls: "F1", Rerolled: "hit"},
			"Hector attacks Ajax with Pistol: 3/DX [1 1 2] = 4 vs 12, hit; damage to come: dodge or damage dice (karma re-roll of the hit of seq 11)"},
		{events.AttackMade{Attacker: "Hector", Target: "Ajax", WeaponName: "Pistol", Hit: hit([]int{1, 1, 2}, 4, 12, "hit"), HitOnly: true, Dodge: &events.AttackRoll{Faces: []int{6, 6, 6}, Total: 18, Outcome: "fail"}, Completes: "F2"},
			"Hector attacks Ajax with Pistol: 3/DX [1 1 2] = 4 vs 12, hit, dodge [6 6 6] = 18, fail; damage to come: damage dice (completes F2)"},
		{events.AttackMade{Attacker: "Ajax", Target: "Hector", WeaponName: "Fists", AutoHit: "grapple", Skill: "Unarmed", SkillLevel: 2, BonusNote: "Unarmed 2: on ST in the ST check"},
			"Ajax attacks Hector with Fists: no hit roll (he won the ST check), hit; Unarmed 2: on ST in the ST check"},
		{events.AttackMade{Attacker: "Ajax", Target: "Hector", WeaponName: "Club", AutoHit: "outside", Skill: "Club", SkillLevel: 1},
			"Ajax attacks Hector with Club: no hit roll (an attack into a grappling space), hit; Club 1 on nothing (--skill-bonus none)"},
		{events.AttackMade{Attacker: "Ajax", Target: "Hector", WeaponName: "Club", Hit: hit([]int{6, 6, 5}, 17, 11, "miss"), Skill: "Club", SkillLevel: 1, Bonus: "damage", BonusNote: "no hit roll to put it on"},
			"Ajax attacks Hector with Club: 3/DX [6 6 5] = 17 vs 11, miss; Club 1 on damage (--skill-bonus: no hit roll to put it on)"},
		{events.SkillBonusSet{Bonus: "damage", Previous: "hit"}, "combat skill levels go to damage (were hit)"},
		{events.DamageTaken{Damage: 6}, "took 6 damage"},
		{events.DamageTaken{Damage: 3, ArmorStopped: 3, Source: "a trap"}, "took 3 damage, armour stopped 3: a trap"},
		{events.DamageTaken{Fatigue: 2}, "took 2 fatigue"},
		{events.DamageTaken{Fatigue: 2, Damage: 1}, "took 2 fatigue and 1 damage (fatigue on the incapacitated)"},
		{events.DamageHealed{Points: 2, Reason: "medic", Medic: "Ajax"}, "healed 2 damage by Ajax (medic)"},
		{events.DamageHealed{Points: 1, Reason: "rest", Source: "a night at the inn"}, "healed 1 damage (rest): a night at the inn"},
		{events.FatigueRecovered{Points: 1, Reason: "encounter"}, "recovered 1 fatigue (encounter)"},
		{events.CharacterRecovered{Damage: 4, Fatigue: 3, Reason: "between adventures"}, "recovered fully: 4 damage, 3 fatigue (between adventures)"},
		{events.RestTaken{Days: 1, Healed: 1}, "rested 1 day, healed 1"},
		{events.RestTaken{Days: 3, Healed: 0, Note: "no shelter"}, "rested 3 days, healed 0 (no shelter)"},
		{events.CharacterDied{Cause: "wounds"}, "died: wounds"},
		{events.CharacterRevived{Revived: true, Rule: "fully revive"}, "revived by a wish (fully revive)"},
		{events.CharacterRevived{Rule: "negate all damage"}, "a wish negated all damage (negate all damage)"},
		{events.CurseLifted{Method: "wish", Rule: "one wish"}, "a curse lifted by wish (one wish)"},
		{events.KarmaExpired{Amount: 1, Reason: "day end"}, "1 karma point expired: day end"},
		{events.KarmaExpired{Amount: 2, Reason: "day end"}, "2 karma points expired: day end"},
		{events.SuitFailed{Armor: "Landing Suit", Restriction: 3}, "Landing Suit failed on all sixes: restriction 3"},
		{events.ShipBuilt{Name: "Kit-Kat", Record: "Cargo1, Engineering1, Operations1, Living1, d6/1, M+1", Cost: 14}, "Kit-Kat built: Cargo1, Engineering1, Operations1, Living1, d6/1, M+1 (14 build points)"},
		{events.ShipCrewed{Character: "Ajax", Section: "Operations"}, "Ajax aboard, in Operations"},
		{events.ShipUncrewed{Character: "Ajax"}, "Ajax off the ship"},
		{events.ShipHit{Rolled: 3, Shields: 1, Inflicted: 2, Sections: []events.SectionHit{{Section: "Cargo", Points: 1, Destroyed: true}, {Section: "Engineering", Points: 1, Destroyed: true}}, DIW: true, Source: "pirates"},
			"hit for 3, shields 1, 2 inflicted: Cargo −1 (destroyed), Engineering −1 (destroyed); the craft is dead in the water: pirates"},
		{events.ShipHit{Rolled: 2, Shields: 2}, "hit for 2, shields 2, 0 inflicted"},
		{events.ShipRepaired{Section: "Engineering", Points: 1}, "Engineering repaired by 1"},
		{builtShip("G", wrenSpec()), "Wren built from a detailed record"},
		{events.ShipTemplatesAdded{Templates: []events.ShipTemplate{*brickTemplate, *slabTemplate}}, "damage templates added: Brick, Slab"},
		{events.DetailedShipRepaired{Code: "E1", Type: "engine", Boxes: 2, LostBefore: 3, Minutes: 240}, "E1 (Engine) repaired: 2 of 3 lost boxes, 4 h"},
		{events.DetailedShipRepaired{Turret: 1, Code: "G", Type: "weapon", Boxes: 1, LostBefore: 4, Minutes: 90,
			From: &events.ShipClock{Day: 1, Minute: 600}, Until: &events.ShipClock{Day: 1, Minute: 690}},
			"T1:G (Weapon) repaired: 1 of 4 lost boxes, 1 h 30 min (day 1, 10:00 → day 1, 11:30)"},
		{events.DetailedShipRepaired{External: true, Code: "Port Rack", Type: "external_hardpoint", Boxes: 1, Minutes: 60, From: &events.ShipClock{Day: 2}},
			"external system Port Rack (External Hardpoint) repaired: 1 box, 1 h"},
		{events.DogfightStarted{Number: 1, Ships: []events.DogfightShip{ship("K", "Kit-Kat"), ship("P", "Pirate")}}, "dogfight 1 started: Kit-Kat, Pirate"},
		{events.DogfightManeuvered{Mover: ship("K", "Kit-Kat"), Target: ship("P", "Pirate"), Positions: []events.PairPosition{{Position: "pursuit"}, {Position: "fleeing"}}, Rerolls: "F1", RerolledBy: "Ajax"},
			"Kit-Kat maneuvers against Pirate: now pursuit / fleeing (karma re-roll of Ajax's dice of seq 11)"},
		{events.DogfightManeuvered{Mover: ship("K", "Kit-Kat"), Target: ship("P", "Pirate")}, "Kit-Kat maneuvers against Pirate"},
		{events.DogfightFired{Attacker: ship("K", "Kit-Kat"), Target: ship("P", "Pirate"), Kind: "pursuit", Gunner: "Ajax",
			Check: events.AttackRoll{Expr: "3/DX+GUNNER", Faces: []int{2, 2, 3}, Total: 7, Target: 12, Outcome: "hit"}, Damage: &events.AttackRoll{Expr: "d6", Faces: []int{4}, Total: 4}, Rerolls: "F1", Rerolled: "damage"},
			"Kit-Kat fires on Pirate (pursuit, gunner Ajax): 3/DX+GUNNER [2,2,3] = 7 vs 12, hit; d6 [4] = 4 (karma re-roll of the damage of seq 11)"},
		{events.DogfightFired{Attacker: ship("K", "Kit-Kat"), Target: ship("P", "Pirate"), Kind: "firing run", Gunner: "Ajax",
			Check: events.AttackRoll{Expr: "4/DX+GUNNER", Faces: []int{6, 6, 5, 1}, Total: 18, Target: 12, Outcome: "miss"}},
			"Kit-Kat fires on Pirate (firing run, gunner Ajax): 4/DX+GUNNER [6,6,5,1] = 18 vs 12, miss"},
		{events.DogfightExited{Ship: ship("P", "Pirate")}, "Pirate exited the dogfight"},
		{events.DogfightEnded{Number: 1}, "dogfight 1 ended"},
		{events.InitiativeRolled{Party: []int{3, 5}, Foes: []int{3, 2}, First: events.SideParty}, "initiative party-foes 3-3, then 5-2: the party move first"},
		{events.InitiativeRolled{Party: []int{1}, Foes: []int{4}, First: events.SideFoes, Tactician: &events.InitiativeSteal{Name: "Ajax", Against: "Pirate", Stolen: false},
			Karma: &events.InitiativeKarma{Name: "Ajax", Side: events.SideParty}},
			"initiative party-foes 1-4: the foes move first; Ajax (Tactician) failed to steal it from Pirate (Ajax re-rolled the party's die with karma)"},
		{events.InitiativeRolled{Party: []int{1}, Foes: []int{4}, First: events.SideParty, Tactician: &events.InitiativeSteal{Name: "Ajax", Against: "Pirate", Stolen: true},
			Karma: &events.InitiativeKarma{Name: "Pirate", Side: events.SideFoes}},
			"initiative party-foes 1-4: the party move first; Ajax (Tactician) stole it from Pirate (Pirate re-rolled the foes' die with karma)"},
		{events.InitiativeSurprise{Side: events.SideFoes}, "surprise: the foes take a free turn, then the first"},
		{events.InitiativeSurprise{Side: events.SideFoes, Alertness: &events.SurpriseCheck{Name: "Ajax", Negated: true}}, "surprise for the foes negated by Ajax's Alertness"},
		{events.InitiativeSurprise{Side: events.SideParty, Alertness: &events.SurpriseCheck{Name: "Pirate"}}, "surprise: the party take a free turn, then the first"},
		{events.InitiativeStalker{Name: "Ajax", Free: true}, "Ajax (Stalker) gets surprise: one free action before the first turn"},
		{events.InitiativeStalker{Name: "Ajax", Against: "Pirate"}, "Ajax (Stalker, against Pirate) fails to get surprise"},
		{events.TurnEnded{Turn: 0, Side: events.SideParty}, "the party's free turn ended"},
		{events.TurnEnded{Turn: 3, Round: 2, Side: events.SideFoes}, "round 2: the foes' turn ended"},
		{events.TurnOverruled{Name: "Ajax", Round: 2, Reason: "the GM allows it"}, "Ajax acts in round 2, a turn he lost, overruled: the GM allows it"},
		{events.DetailedTurnEnded{}, "end of turn: no rolls"},
		{events.DetailedTurnEnded{
			Abandoned: []string{"Vess"},
			Rolls:     []events.DetailedShipRoll{{Kind: "wound", Crew: "Jon", Station: "B", Column: 1, Percent: 20, Faces: []int{1, 2}, Wounded: true, Status: "conscious"}},
			Wake:      []events.DetailedShipRoll{{Kind: "wake", Crew: "Mara", Station: "C", Column: 1, Number: 8, Faces: []int{3}, Entered: true, Status: "conscious"}},
			Ejected:   []string{"Mara"}, Killed: []string{"Jon"}, AbandonTurns: &two,
			DetailedReroll: events.DetailedReroll{Rerolls: "F1", RerolledBy: "Mara", RerolledRoll: 2, RerolledDie: 2}},
			"end of turn; [1] wound by Jon at B (20%, column 1): 1,2, wounded, conscious; [2] wake by Mara at C (column 1, number 8): 3 (entered), conscious" +
				"; abandoned ship: Vess; ejected before the blast: Mara; killed: Jon; broken up: 2 turns left to abandon ship (karma re-roll of Mara's roll 2's second die of seq 11)"},
		{events.DetailedTurnEnded{AbandonTurns: &zero, Rolls: []events.DetailedShipRoll{{Kind: "structural_collapse", Crew: "Mara", Number: 1, Faces: []int{1, 1}, Breakup: "breaks_up"}}},
			"end of turn; [1] structural_collapse by Mara (above 1): 1,1, breaks_up; broken up: no turn left to abandon ship; those aboard are dead"},
		{events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Points: 6, Column: 3, Entered: true, Destroyed: []events.ShipPlace{{Block: "forward"}, {Block: "forward"}, {Block: "internal"}}}, Source: "the pirate's laser"},
			"laser 6 on the forward facing, column 3 (entered): 2 armour, 1 internal boxes destroyed: the pirate's laser"},
		{events.DetailedShipHit{DetailedShot: events.DetailedShot{Facing: "forward", Template: brickTemplate, Column: 5, TurretChance: 1, TurretRoll: 1, TurretEntered: true, Turret: 1, TurretDestroyed: 1, Residual: 2},
			MoreShots: []events.DetailedShot{{Facing: "aft", Points: 2, Column: 10, TurretChance: 1, TurretRoll: 7, TurretPicks: []int{2, 1}}},
			Widowed:   []events.ShipPlace{{Block: "forward"}}, Disabled: []events.ShipComponentRef{{Turret: 1, Code: "T"}, {Code: "E1"}}, Killed: []string{"Marcos"}, ShipExploded: true,
			CrewRolls:      []events.DetailedShipRoll{{Kind: "consciousness", Crew: "Vess", Station: "B", Column: 1, Number: 7, Moot: true, Status: "dead"}},
			JamRolls:       []events.DetailedShipRoll{{Kind: "turret_jam", Station: "T", Turret: 1, Moot: true}},
			DetailedReroll: events.DetailedReroll{Rerolls: "F2", RerolledBy: "Vess", RerolledRoll: 1}},
			"shot 1: Brick on the forward facing, column 5 (rolled): 0 armour, 0 internal boxes destroyed; turret roll 1 (entered) against 1: turret 1; turret 1 destroyed, 2 residual into the hull" +
				"; shot 2: laser 2 on the aft facing, column 10 (rolled): 0 armour, 0 internal boxes destroyed; turret roll 7 (rolled) against 1, picks 2 1: the hull" +
				"; 1 widowed; disabled T1:T, E1; killed Marcos; the ship explodes" +
				"; [1] consciousness by Vess at B (column 1, number 7): moot, dead; [2] turret_jam of turret 1: moot, the turret is destroyed (karma re-roll of Vess's roll 1 of F2)"},
	}
	seqOf := func(id string) (int64, bool) {
		switch id {
		case "F1":
			return 11, true
		case "C1":
			return 12, true
		}
		return 0, false
	}
	for _, r := range rows {
		e := logOf(t, step{"character/X", "K", r.p})[0]
		if got := Describe(e, seqOf); got != r.want {
			t.Errorf("Describe(%s):\n got %q\nwant %q", e.Type, got, r.want)
		}
	}
	// Without seqOf, references are the IDs.
	e := logOf(t, step{"character/X", "K", events.KarmaSpent{Amount: 1, For: "reroll", RollID: "F1"}})[0]
	if got := Describe(e, nil); got != "-1 karma for a reroll of F1" {
		t.Errorf("without seqOf: %q", got)
	}
	// A payload that cannot be read says why; a type with nothing to say
	// is named.
	if got := Describe(events.Event{Seq: 4, Type: events.TypeXPAwarded, PayloadVersion: 1, Payload: []byte("{")}, nil); !strings.HasPrefix(got, "(event 4: decode xp.awarded") {
		t.Errorf("a bad payload: %q", got)
	}
	if got := Describe(logOf(t, step{"x", "K", events.ShareRevoked{ShareID: "S"}})[0], nil); got != "link S revoked" {
		t.Errorf("revoked: %q", got)
	}
}

// TestShipRollText: a detailed ship's roll, made, in words.
func TestShipRollText(t *testing.T) {
	for _, c := range []struct {
		r    events.DetailedShipRoll
		want string
	}{
		{events.DetailedShipRoll{Kind: "consciousness", Crew: "Mara", Station: "C", Column: 1, Number: 8, Faces: []int{4}, Status: "conscious"}, "consciousness by Mara at C (column 1, number 8): 4, conscious"},
		{events.DetailedShipRoll{Kind: "wound", Crew: "Jon", Station: "B", Column: 2, Percent: 40, Faces: []int{9}, Status: "conscious"}, "wound by Jon at B (40%, column 2): 9, unhurt, conscious"},
		{events.DetailedShipRoll{Kind: "turret_jam", Station: "T", Turret: 1, Faces: []int{3}, JamFacing: 3, Entered: true}, "turret_jam of turret 1: 3 (entered), jammed facing the right rear (3)"},
		{events.DetailedShipRoll{Kind: "turret_jam", Station: "T", Turret: 2, Faces: []int{9}, Abandoned: true}, "turret_jam of turret 2: 9, weapons abandoned"},
		{events.DetailedShipRoll{Kind: "wake", Crew: "Mara", Station: "C", Column: 1, Number: 8, Moot: true, Status: "dead"}, "wake by Mara at C (column 1, number 8): moot, dead"},
	} {
		if got := ShipRollText(c.r); got != c.want {
			t.Errorf("ShipRollText:\n got %q\nwant %q", got, c.want)
		}
	}
	if got := NumberedShipRoll(2, events.DetailedShipRoll{Kind: "wake", Crew: "Mara", Faces: []int{1}, Status: "conscious"}); got != "[2] wake by Mara (column 0, number 0): 1, conscious" {
		t.Errorf("NumberedShipRoll = %q", got)
	}
	if got := ComponentName(events.ShipComponentRef{Code: "E1"}); got != "E1" {
		t.Errorf("ComponentName = %q", got)
	}
	for _, c := range []struct {
		n    int
		want string
	}{{1, "1 wish"}, {-1, "-1 wish"}, {0, "0 wishes"}, {2, "2 wishes"}} {
		if got := Count(c.n, "wish", "wishes"); got != c.want {
			t.Errorf("Count(%d) = %q", c.n, got)
		}
	}
}
