package projections

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// The sheet fold, given events, expect this sheet: one row (or more) for
// every case of Sheet.Apply's type switch, each compared field for field
// with the whole sheet expected.

// hectorCreated is worked example 1's Hector: ST11 DX12 IQ9, no skills.
func hectorCreated() events.CharacterCreated {
	return events.CharacterCreated{CharacterID: "X", Name: "Hector", Edition: "2021", Attributes: events.Attributes{ST: 11, DX: 12, IQ: 9}}
}

// ajaxSheet is the sheet of ajaxCreated, before its version is set.
func ajaxSheet() Sheet {
	return Sheet{ID: "X", Name: "Ajax", Edition: rules.Edition2021, Status: StatusOK,
		Attributes: rules.Attributes{ST: 12, DX: 11, IQ: 9}, Adjusted: Adjusted{DX: 11, MA: 5}, ArmorItems: []Armor{},
		Skills:     []Skill{{Key: "medic", Name: "Medic", Level: 2}, {Key: "unarmed", Name: "Unarmed", Level: 2}},
		SkillBonus: rules.BonusHit}
}

// hectorSheet is the sheet of hectorCreated, before its version is set.
func hectorSheet() Sheet {
	return Sheet{ID: "X", Name: "Hector", Edition: rules.Edition2021, Status: StatusOK,
		Attributes: rules.Attributes{ST: 11, DX: 12, IQ: 9}, Adjusted: Adjusted{DX: 12, MA: 6}, ArmorItems: []Armor{},
		Skills: []Skill{}, SkillBonus: rules.BonusHit}
}

// stampAt stamps a payload with a game time.
func stampAt(adventure, day, encounter int) events.Stamp {
	return events.Stamp{At: &events.GameTime{Adventure: adventure, Day: day, Encounter: encounter}}
}

// foldOf folds payloads into a sheet, failing the test on an error.
func foldOf(t *testing.T, payloads ...events.Payload) Sheet {
	t.Helper()
	s, err := FoldSheet(stream(t, payloads...))
	if err != nil {
		t.Fatalf("FoldSheet: %v", err)
	}
	return s
}

var (
	flakVest      = events.ItemEquipped{Slot: "armor", Item: "flak_vest", Name: "Flak Vest", Protection: 3, Restriction: 1, Edition: "2021"}
	landingSuit   = events.ItemEquipped{Slot: "armor", Item: "landing_suit", Name: "Landing Suit", Protection: 3, Restriction: 1, SpaceSuit: true, Over: true, Edition: "2021"}
	knifeEquipped = events.ItemEquipped{Slot: "weapon", Item: "knife", Name: "Knife", Damage: "d6", Heft: 1, Flags: []string{"T"}, Edition: "2021"}
)

func TestSheetFold(t *testing.T) {
	vestItem := Armor{Item: "flak_vest", Name: "Flak Vest", Protection: 3, Restriction: 1}
	suitItem := Armor{Item: "landing_suit", Name: "Landing Suit", Protection: 3, Restriction: 1, SpaceSuit: true}
	tests := []struct {
		name   string
		hector bool // start from hectorCreated, not ajaxCreated
		events []events.Payload
		want   func(s *Sheet)
	}{
		{
			name: "created with skills: they are sorted by name",
			want: func(s *Sheet) {},
		},
		{
			name:   "created twice: the second creation's skills replace the first's",
			events: []events.Payload{events.CharacterCreated{CharacterID: "X", Name: "Ajax", Edition: "2020", Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9}, Skills: []events.SkillLevel{{Skill: "knife", Name: "Knife", Level: 1}}}},
			want: func(s *Sheet) {
				s.Edition = rules.Edition2020
				s.Skills = []Skill{{Key: "knife", Name: "Knife", Level: 1}}
			},
		},
		{
			name:   "worked example 6 [2021]: DX11→12 costs 17, adjusted DX and MA follow",
			events: []events.Payload{events.XPAwarded{Amount: 20, Reason: "adventure"}, events.XPSpent{On: "attribute", Attribute: "DX", From: 11, To: 12, Price: 17, Formula: "current level + 6 = 11 + 6", Edition: "2021"}},
			want: func(s *Sheet) {
				s.Attributes.DX = 12
				s.Adjusted = Adjusted{DX: 12, MA: 6}
				s.XP = XP{Earned: 20, Spent: 17, Unspent: 3}
			},
		},
		{
			name:   "worked example 6 [2021]: IQ10→11 costs 16",
			events: []events.Payload{events.XPAwarded{Amount: 16, Reason: "r"}, events.XPSpent{On: "attribute", Attribute: "iq", From: 9, To: 11, Price: 16, Formula: "f", Edition: "2021"}},
			want: func(s *Sheet) {
				s.Attributes.IQ = 11
				s.XP = XP{Earned: 16, Spent: 16}
			},
		},
		{
			name: "worked example 7: Knife for 10 XP sorts before Medic; a second point raises it",
			events: []events.Payload{events.XPAwarded{Amount: 25, Reason: "r"},
				events.XPSpent{On: "skill", Skill: "knife", SkillName: "Knife", From: 0, To: 1, Price: 10, Formula: "10 XP a skill point", Edition: "2021"},
				events.XPSpent{On: "skill", Skill: "zero_g", SkillName: "Zero-G", From: 0, To: 1, Price: 10, Formula: "10 XP a skill point", Edition: "2021"},
			},
			want: func(s *Sheet) {
				s.Skills = []Skill{{Key: "knife", Name: "Knife", Level: 1}, {Key: "medic", Name: "Medic", Level: 2}, {Key: "unarmed", Name: "Unarmed", Level: 2}, {Key: "zero_g", Name: "Zero-G", Level: 1}}
				s.XP = XP{Earned: 25, Spent: 20, Unspent: 5}
			},
		},
		{
			name:   "spending more than was earned leaves a negative balance: the fold records, the command decides",
			events: []events.Payload{events.XPSpent{On: "skill", Skill: "medic", SkillName: "Medic", From: 2, To: 3, Price: 10}},
			want: func(s *Sheet) {
				s.Skills[0].Level = 3
				s.XP = XP{Spent: 10, Unspent: -10}
			},
		},
		{
			name:   "karma: plain and a Storyteller's that expires at the day's end",
			events: []events.Payload{events.KarmaGranted{Amount: 1}, events.KarmaGranted{Amount: 2, ExpiresAtDayEnd: true, StorytellerID: "S"}},
			want:   func(s *Sheet) { s.Karma, s.ExpiringKarma = 3, 2 },
		},
		{
			name:   "karma spent: the expiring karma goes first",
			events: []events.Payload{events.KarmaGranted{Amount: 3}, events.KarmaGranted{Amount: 2, ExpiresAtDayEnd: true}, events.KarmaSpent{Amount: 1, For: "reroll"}},
			want:   func(s *Sheet) { s.Karma, s.ExpiringKarma = 4, 1 },
		},
		{
			name:   "karma spent beyond the expiring karma empties it",
			events: []events.Payload{events.KarmaGranted{Amount: 3}, events.KarmaGranted{Amount: 1, ExpiresAtDayEnd: true}, events.KarmaSpent{Amount: 2, For: "reroll"}},
			want:   func(s *Sheet) { s.Karma, s.ExpiringKarma = 2, 0 },
		},
		{
			name:   "karma expired at the day's end",
			events: []events.Payload{events.KarmaGranted{Amount: 1}, events.KarmaGranted{Amount: 2, ExpiresAtDayEnd: true}, events.KarmaExpired{Amount: 2, Reason: "day end"}},
			want:   func(s *Sheet) { s.Karma, s.ExpiringKarma = 1, 0 },
		},
		{
			name:   "wishes granted and one spent",
			events: []events.Payload{events.WishGranted{Amount: 2}, events.WishSpent{For: "reroll"}},
			want:   func(s *Sheet) { s.Wishes = 1 },
		},
		{
			name:   "a curse lifted by a wish [all editions]",
			events: []events.Payload{events.CurseAdded{Levels: 2}, events.WishGranted{Amount: 1}, events.CurseLifted{Method: "wish", Wishes: 1, Rule: "one wish", Edition: "2021"}},
			want:   func(s *Sheet) { s.Curses = 1 },
		},
		{
			name: "a curse lifted by three karma [2010]: the expiring karma goes first",
			events: []events.Payload{events.CurseAdded{Levels: 1}, events.KarmaGranted{Amount: 2}, events.KarmaGranted{Amount: 2, ExpiresAtDayEnd: true},
				events.CurseLifted{Method: "karma", Karma: 3, Rule: "three karma", Edition: "2010"}},
			want: func(s *Sheet) { s.Karma, s.ExpiringKarma = 1, 0 },
		},
		{
			name: "a curse lifted by three karma, fewer of them expiring",
			events: []events.Payload{events.CurseAdded{Levels: 1}, events.KarmaGranted{Amount: 4}, events.KarmaGranted{Amount: 5, ExpiresAtDayEnd: true},
				events.CurseLifted{Method: "karma", Karma: 3, Rule: "three karma", Edition: "2010"}},
			want: func(s *Sheet) { s.Karma, s.ExpiringKarma = 6, 2 },
		},
		{
			name: "a curse lifted for 10 XP [2010]",
			events: []events.Payload{events.XPAwarded{Amount: 12, Reason: "r"}, events.CurseAdded{Levels: 1},
				events.CurseLifted{Method: "xp", XP: 10, Rule: "10 XP", Edition: "2010"}},
			want: func(s *Sheet) { s.XP = XP{Earned: 12, Spent: 10, Unspent: 2} },
		},
		{
			name: "a curse lifted by lowering the highest attribute by one [2020, 2021]",
			events: []events.Payload{events.CurseAdded{Levels: 1},
				events.CurseLifted{Method: "attribute", Attribute: "ST", From: 12, To: 11, Rule: "lower the highest attribute by one", Edition: "2021"}},
			want: func(s *Sheet) { s.Attributes.ST = 11 },
		},
		{
			name: "a curse lifted by lowering DX: adjusted DX and MA follow",
			events: []events.Payload{events.CurseAdded{Levels: 1},
				events.CurseLifted{Method: "attribute", Attribute: "DX", From: 11, To: 10, Rule: "r", Edition: "2021"}},
			want: func(s *Sheet) {
				s.Attributes.DX = 10
				s.Adjusted = Adjusted{DX: 10, MA: 5}
			},
		},
		{
			name:   "a weapon wielded, with its flags",
			events: []events.Payload{knifeEquipped},
			want: func(s *Sheet) {
				s.Weapon = &Weapon{Item: "knife", Name: "Knife", Damage: "d6", Heft: 1, Flags: []string{"T"}}
			},
		},
		{
			name:   "a weapon put away",
			events: []events.Payload{knifeEquipped, events.ItemUnequipped{Slot: "weapon", Item: "knife"}},
			want:   func(s *Sheet) {},
		},
		{
			name:   "worked example 5: Hector DX12 in R2 armour, a vest and a suit over it: DX10, MA5, 6 protection",
			hector: true,
			events: []events.Payload{flakVest, landingSuit},
			want: func(s *Sheet) {
				s.ArmorItems = []Armor{vestItem, suitItem}
				s.Armor = &Armor{Item: "flak_vest+landing_suit", Name: "Flak Vest and Landing Suit", Protection: 6, Restriction: 2, SpaceSuit: true}
				s.Adjusted = Adjusted{DX: 10, MA: 5}
			},
		},
		{
			name:   "combined armour protects against bullets when any item does",
			hector: true,
			events: []events.Payload{
				events.ItemEquipped{Slot: "armor", Item: "cloth", Name: "Cloth", Protection: 1, NoBullets: true, Edition: "2021"},
				events.ItemEquipped{Slot: "armor", Item: "leather", Name: "Leather", Protection: 2, Restriction: 1, NoBullets: true, Over: true, Edition: "2021"},
				events.ItemEquipped{Slot: "armor", Item: "flak_vest", Name: "Flak Vest", Protection: 3, Restriction: 1, Over: true, Edition: "2021"},
			},
			want: func(s *Sheet) {
				s.ArmorItems = []Armor{{Item: "cloth", Name: "Cloth", Protection: 1, NoBullets: true}, {Item: "leather", Name: "Leather", Protection: 2, Restriction: 1, NoBullets: true}, vestItem}
				s.Armor = &Armor{Item: "cloth+leather+flak_vest", Name: "Cloth, Leather and Flak Vest", Protection: 6, Restriction: 2}
				s.Adjusted = Adjusted{DX: 10, MA: 5}
			},
		},
		{
			name:   "combined armour that all fails against bullets fails against them",
			hector: true,
			events: []events.Payload{
				events.ItemEquipped{Slot: "armor", Item: "cloth", Name: "Cloth", Protection: 1, NoBullets: true, Edition: "2021"},
				events.ItemEquipped{Slot: "armor", Item: "leather", Name: "Leather", Protection: 2, Restriction: 1, NoBullets: true, Over: true, Edition: "2021"},
			},
			want: func(s *Sheet) {
				s.ArmorItems = []Armor{{Item: "cloth", Name: "Cloth", Protection: 1, NoBullets: true}, {Item: "leather", Name: "Leather", Protection: 2, Restriction: 1, NoBullets: true}}
				s.Armor = &Armor{Item: "cloth+leather", Name: "Cloth and Leather", Protection: 3, Restriction: 1, NoBullets: true}
				s.Adjusted = Adjusted{DX: 11, MA: 5}
			},
		},
		{
			name:   "one item worn is the armour as it is",
			hector: true,
			events: []events.Payload{landingSuit},
			want: func(s *Sheet) {
				s.ArmorItems = []Armor{suitItem}
				a := suitItem
				s.Armor = &a
				s.Adjusted = Adjusted{DX: 11, MA: 5}
			},
		},
		{
			name:   "taking off an item not worn changes nothing",
			hector: true,
			events: []events.Payload{flakVest, events.ItemUnequipped{Slot: "armor", Item: "cloth"}},
			want: func(s *Sheet) {
				s.ArmorItems = []Armor{vestItem}
				a := vestItem
				s.Armor = &a
				s.Adjusted = Adjusted{DX: 11, MA: 5}
			},
		},
		{
			name:   "taking the vest from under the suit leaves the suit",
			hector: true,
			events: []events.Payload{flakVest, landingSuit, events.ItemUnequipped{Slot: "armor", Item: "flak_vest"}},
			want: func(s *Sheet) {
				s.ArmorItems = []Armor{suitItem}
				a := suitItem
				s.Armor = &a
				s.Adjusted = Adjusted{DX: 11, MA: 5}
			},
		},
		{
			name:   "taking all armour off, the weapon stays",
			hector: true,
			events: []events.Payload{knifeEquipped, flakVest, landingSuit, events.ItemUnequipped{Slot: "armor"}},
			want: func(s *Sheet) {
				s.Weapon = &Weapon{Item: "knife", Name: "Knife", Damage: "d6", Heft: 1, Flags: []string{"T"}}
			},
		},
		{
			name:   "a space suit fails (SS): R3, and only the first that has not failed",
			hector: true,
			events: []events.Payload{landingSuit, landingSuit, events.SuitFailed{Armor: "Landing Suit", Restriction: 3, RollID: "R"}, events.SuitFailed{Armor: "Landing Suit", Restriction: 3, RollID: "R2"}, events.SuitFailed{Armor: "Landing Suit", Restriction: 3, RollID: "R3"}},
			want: func(s *Sheet) {
				failed := suitItem
				failed.Restriction, failed.Failed = 3, true
				s.ArmorItems = []Armor{failed, failed}
				s.Armor = &Armor{Item: "landing_suit+landing_suit", Name: "Landing Suit and Landing Suit", Protection: 6, Restriction: 6, SpaceSuit: true, Failed: true}
				s.Adjusted = Adjusted{DX: 6, MA: 3}
			},
		},
		{
			name:   "a suit failure names its armour: other armour and other suits keep their restriction",
			hector: true,
			events: []events.Payload{flakVest,
				events.ItemEquipped{Slot: "armor", Item: "vacc_suit", Name: "Vacc Suit", Protection: 2, Restriction: 1, SpaceSuit: true, Over: true},
				events.SuitFailed{Armor: "Flak Vest", Restriction: 3}, events.SuitFailed{Armor: "Landing Suit", Restriction: 3}},
			want: func(s *Sheet) {
				vacc := Armor{Item: "vacc_suit", Name: "Vacc Suit", Protection: 2, Restriction: 1, SpaceSuit: true}
				s.ArmorItems = []Armor{vestItem, vacc}
				s.Armor = &Armor{Item: "flak_vest+vacc_suit", Name: "Flak Vest and Vacc Suit", Protection: 5, Restriction: 2, SpaceSuit: true}
				s.Adjusted = Adjusted{DX: 10, MA: 5}
			},
		},
		{
			name:   "a standing choice of where combat skill levels go",
			events: []events.Payload{events.SkillBonusSet{Bonus: "damage", Previous: "hit"}, events.SkillBonusSet{Bonus: "hit", Previous: "damage"}, events.SkillBonusSet{Bonus: "damage", Previous: "hit"}},
			want:   func(s *Sheet) { s.SkillBonus = rules.BonusDamage },
		},
		{
			name:   "rolls, contests and attacks move only the version",
			events: []events.Payload{events.RollMade{Expr: "3/DX", Kind: "check"}, events.ContestResolved{}, events.AttackMade{}},
			want:   func(s *Sheet) {},
		},
		{
			name:   "worked example 8: Hector (ST11) takes 6 then 5 damage in an encounter: dying",
			hector: true,
			events: []events.Payload{events.DamageTaken{Stamp: stampAt(1, 1, 1), Dealt: 6, Damage: 6}, events.DamageTaken{Stamp: stampAt(1, 1, 1), Dealt: 5, Damage: 5}},
			want: func(s *Sheet) {
				s.Damage, s.Status = 11, StatusDying
				s.Combat = Combat{Adventure: 1, Encounter: 1, Damage: 11}
			},
		},
		{
			name:   "worked example 8: 22 damage is unrecoverable",
			hector: true,
			events: []events.Payload{events.DamageTaken{Dealt: 22, Damage: 22}},
			want:   func(s *Sheet) { s.Damage, s.Status = 22, StatusUnrecoverable },
		},
		{
			name:   "21 damage is not yet unrecoverable",
			hector: true,
			events: []events.Payload{events.DamageTaken{Dealt: 21, Damage: 21}},
			want:   func(s *Sheet) { s.Damage, s.Status = 21, StatusDying },
		},
		{
			name:   "damage and fatigue of ST or more: incapacitated at once",
			hector: true,
			events: []events.Payload{events.DamageTaken{Dealt: 6, Damage: 6}, events.DamageTaken{Dealt: 5, Fatigue: 5}},
			want:   func(s *Sheet) { s.Damage, s.Fatigue, s.Status = 6, 5, StatusIncapacitated },
		},
		{
			name:   "damage and fatigue short of ST: ok",
			hector: true,
			events: []events.Payload{events.DamageTaken{Dealt: 6, Damage: 6}, events.DamageTaken{Dealt: 4, Fatigue: 4}},
			want:   func(s *Sheet) { s.Damage, s.Fatigue = 6, 4 },
		},
		{
			name:   "damage in a second encounter starts the combat's count afresh",
			hector: true,
			events: []events.Payload{events.DamageTaken{Stamp: stampAt(1, 1, 1), Dealt: 3, Damage: 3}, events.DamageTaken{Stamp: stampAt(1, 1, 2), Dealt: 2, Damage: 2}},
			want: func(s *Sheet) {
				s.Damage = 5
				s.Combat = Combat{Adventure: 1, Encounter: 2, Damage: 2}
			},
		},
		{
			name:   "damage in the same encounter number of the next adventure starts afresh",
			hector: true,
			events: []events.Payload{events.DamageTaken{Stamp: stampAt(1, 1, 1), Dealt: 3, Damage: 3}, events.DamageTaken{Stamp: stampAt(2, 1, 1), Dealt: 2, Damage: 2}},
			want: func(s *Sheet) {
				s.Damage = 5
				s.Combat = Combat{Adventure: 2, Encounter: 1, Damage: 2}
			},
		},
		{
			name:   "damage out of combat, or unstamped, leaves the combat's count",
			hector: true,
			events: []events.Payload{events.DamageTaken{Stamp: stampAt(1, 1, 1), Dealt: 3, Damage: 3}, events.DamageTaken{Stamp: stampAt(1, 1, 0), Dealt: 2, Damage: 2}, events.DamageTaken{Dealt: 1, Damage: 1}},
			want: func(s *Sheet) {
				s.Damage = 6
				s.Combat = Combat{Adventure: 1, Encounter: 1, Damage: 3}
			},
		},
		{
			name:   "damage withdrawn for a re-rolled attack, in the same combat",
			hector: true,
			events: []events.Payload{events.DamageTaken{Stamp: stampAt(1, 1, 1), Dealt: 6, Damage: 5, Fatigue: 1}, events.DamageWithdrawn{Stamp: stampAt(1, 1, 1), AttackID: "A", RerollID: "B", Damage: 4, Fatigue: 1}},
			want: func(s *Sheet) {
				s.Damage = 1
				s.Combat = Combat{Adventure: 1, Encounter: 1, Damage: 1}
			},
		},
		{
			name:   "damage withdrawn stamped in another encounter, or another adventure, or unstamped, leaves the combat's count",
			hector: true,
			events: []events.Payload{events.DamageTaken{Stamp: stampAt(1, 1, 2), Dealt: 9, Damage: 9},
				events.DamageWithdrawn{Stamp: stampAt(1, 1, 1), Damage: 1}, events.DamageWithdrawn{Stamp: stampAt(2, 1, 2), Damage: 1}, events.DamageWithdrawn{Damage: 1}},
			want: func(s *Sheet) {
				s.Damage = 6
				s.Combat = Combat{Adventure: 1, Encounter: 2, Damage: 9}
			},
		},
		{
			name:   "medic: Ajax (Medic 2) heals Hector 2 of the 11 he took in the combat: damage 9 ≤ ST−1, he lives",
			hector: true,
			events: []events.Payload{events.DamageTaken{Stamp: stampAt(1, 1, 1), Dealt: 6, Damage: 6}, events.DamageTaken{Stamp: stampAt(1, 1, 1), Dealt: 5, Damage: 5},
				events.DamageHealed{Points: 2, Reason: "medic", MedicID: "A", Medic: "Ajax", RollID: "R"}},
			want: func(s *Sheet) {
				s.Damage = 9
				s.Combat = Combat{Adventure: 1, Encounter: 1, Damage: 11, Healed: 2, TreatedBy: []string{"A"}}
			},
		},
		{
			name:   "medic: two medics treat him; rest heals apart from the combat",
			hector: true,
			events: []events.Payload{events.DamageTaken{Stamp: stampAt(1, 1, 1), Dealt: 6, Damage: 6},
				events.DamageHealed{Points: 2, Reason: "medic", MedicID: "A"}, events.DamageHealed{Points: 1, Reason: "medic", MedicID: "B"},
				events.DamageHealed{Points: 1, Reason: "rest"}, events.DamageHealed{Points: 1, Reason: "healing"}},
			want: func(s *Sheet) {
				s.Damage = 1
				s.Combat = Combat{Adventure: 1, Encounter: 1, Damage: 6, Healed: 3, TreatedBy: []string{"A", "B"}}
			},
		},
		{
			name:   "medic's healing withdrawn for a re-rolled check: the first medic's",
			hector: true,
			events: []events.Payload{events.DamageTaken{Stamp: stampAt(1, 1, 1), Dealt: 6, Damage: 6},
				events.DamageHealed{Points: 2, Reason: "medic", MedicID: "A"}, events.DamageHealed{Points: 1, Reason: "medic", MedicID: "B"},
				events.HealingWithdrawn{RollID: "R", RerollID: "S", MedicID: "A", Points: 2}},
			want: func(s *Sheet) {
				s.Damage = 5
				s.Combat = Combat{Adventure: 1, Encounter: 1, Damage: 6, Healed: 1, TreatedBy: []string{"B"}}
			},
		},
		{
			name:   "medic's healing withdrawn: the second medic's",
			hector: true,
			events: []events.Payload{events.DamageTaken{Stamp: stampAt(1, 1, 1), Dealt: 6, Damage: 6},
				events.DamageHealed{Points: 2, Reason: "medic", MedicID: "A"}, events.DamageHealed{Points: 1, Reason: "medic", MedicID: "B"},
				events.HealingWithdrawn{MedicID: "B", Points: 1}},
			want: func(s *Sheet) {
				s.Damage = 4
				s.Combat = Combat{Adventure: 1, Encounter: 1, Damage: 6, Healed: 2, TreatedBy: []string{"A"}}
			},
		},
		{
			name:   "healing withdrawn of a medic who did not treat him keeps the list",
			hector: true,
			events: []events.Payload{events.DamageTaken{Stamp: stampAt(1, 1, 1), Dealt: 6, Damage: 6},
				events.DamageHealed{Points: 2, Reason: "medic", MedicID: "A"}, events.HealingWithdrawn{MedicID: "Z", Points: 1}},
			want: func(s *Sheet) {
				s.Damage = 5
				s.Combat = Combat{Adventure: 1, Encounter: 1, Damage: 6, Healed: 1, TreatedBy: []string{"A"}}
			},
		},
		{
			name:   "fatigue: −1 after an encounter, then all after a night's sleep",
			hector: true,
			events: []events.Payload{events.DamageTaken{Dealt: 3, Fatigue: 3}, events.FatigueRecovered{Points: 1, Reason: "encounter"}, events.DamageTaken{Dealt: 1, Fatigue: 1}, events.FatigueRecovered{Points: 3, Reason: "sleep"}},
			want:   func(s *Sheet) {},
		},
		{
			name:   "fatigue recovered in part",
			hector: true,
			events: []events.Payload{events.DamageTaken{Dealt: 3, Fatigue: 3}, events.FatigueRecovered{Points: 1, Reason: "encounter"}},
			want:   func(s *Sheet) { s.Fatigue = 2 },
		},
		{
			name:   "between adventures characters recover fully",
			hector: true,
			events: []events.Payload{events.DamageTaken{Dealt: 7, Damage: 4, Fatigue: 3}, events.CharacterRecovered{Damage: 4, Fatigue: 3, Reason: "between adventures"}},
			want:   func(s *Sheet) {},
		},
		{
			name:   "recovered in part",
			hector: true,
			events: []events.Payload{events.DamageTaken{Dealt: 7, Damage: 4, Fatigue: 3}, events.CharacterRecovered{Damage: 3, Fatigue: 1, Reason: "r"}},
			want:   func(s *Sheet) { s.Damage, s.Fatigue = 1, 2 },
		},
		{
			name:   "rest days counted, in the adventure of their stamp",
			hector: true,
			events: []events.Payload{events.RestTaken{Stamp: stampAt(2, 4, 0), Days: 1, StayedPut: true, Sheltered: true, Provisioned: true, NoStrenuous: true, RestedDays: 3, UntilDay: 5, Edition: "2010"}},
			want:   func(s *Sheet) { s.Rest = Rest{Days: 3, Adventure: 2, UntilDay: 5} },
		},
		{
			name:   "rest, then rest broken off",
			hector: true,
			events: []events.Payload{events.RestTaken{Stamp: stampAt(2, 4, 0), Days: 1, RestedDays: 3, UntilDay: 5}, events.RestTaken{Days: 1}},
			want:   func(s *Sheet) {},
		},
		{
			name:   "died",
			hector: true,
			events: []events.Payload{events.DamageTaken{Dealt: 11, Damage: 11}, events.CharacterDied{Cause: "wounds", Damage: 11}},
			want:   func(s *Sheet) { s.Damage, s.Dead, s.DeathCause, s.Status = 11, true, "wounds", StatusDead },
		},
		{
			name:   "died, and revived by a wish [2020, 2021]: fully",
			hector: true,
			events: []events.Payload{events.DamageTaken{Dealt: 23, Damage: 22, Fatigue: 1}, events.CharacterDied{Cause: "wounds", Damage: 22},
				events.CharacterRevived{DamageTo: 0, FatigueTo: 0, Revived: true, Rule: "fully revive", Edition: "2021"}},
			want: func(s *Sheet) {},
		},
		{
			name:   "revived to some damage",
			hector: true,
			events: []events.Payload{events.CharacterDied{Cause: "c"}, events.CharacterRevived{DamageTo: 2, FatigueTo: 1}},
			want:   func(s *Sheet) { s.Damage, s.Fatigue = 2, 1 },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start, want := events.Payload(ajaxCreated()), ajaxSheet()
			if tt.hector {
				start, want = hectorCreated(), hectorSheet()
			}
			got := foldOf(t, append([]events.Payload{start}, tt.events...)...)
			n := int64(len(tt.events) + 1)
			want.Version, want.Seq = n, n
			tt.want(&want)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("sheet:\n got %+v\nwant %+v", got, want)
				if got.Armor != nil && want.Armor != nil {
					t.Errorf("armour:\n got %+v\nwant %+v", *got.Armor, *want.Armor)
				}
			}
		})
	}
}

// TestSheetFoldFoe: a foe's stream folds into a sheet as a character's
// does, marked Foe, and Removed once taken off the roster.
func TestSheetFoldFoe(t *testing.T) {
	added := events.FoeAdded{FoeID: "F", Name: "Ork", Edition: "2020", Attributes: events.Attributes{ST: 10, DX: 9, IQ: 8},
		Skills: []events.SkillLevel{{Skill: "sword", Name: "Sword", Level: 1}, {Skill: "brawling", Name: "Brawling", Level: 2}}, Encounter: 1}
	want := Sheet{ID: "F", Name: "Ork", Edition: rules.Edition2020, Status: StatusOK, Foe: true,
		Attributes: rules.Attributes{ST: 10, DX: 9, IQ: 8}, Adjusted: Adjusted{DX: 9, MA: 4}, ArmorItems: []Armor{},
		Skills: []Skill{{Key: "brawling", Name: "Brawling", Level: 2}, {Key: "sword", Name: "Sword", Level: 1}}, SkillBonus: rules.BonusHit, Version: 1, Seq: 1}
	if got := foldOf(t, added); !reflect.DeepEqual(got, want) {
		t.Errorf("foe added:\n got %+v\nwant %+v", got, want)
	}
	// A foe added again (his stream re-used) starts his skills afresh.
	again := added
	again.Skills = nil
	got := foldOf(t, added, again, events.FoeRemoved{Reason: "fled"})
	want.Removed, want.Skills, want.Version, want.Seq = true, []Skill{}, 3, 3
	if !reflect.DeepEqual(got, want) {
		t.Errorf("foe removed:\n got %+v\nwant %+v", got, want)
	}
}

// TestSheetFoldErrors: a payload the fold cannot read, a type that does
// not belong on a sheet, a spend on nothing, an unknown attribute and a
// count that overflows are errors: Apply does not move the sheet's
// version on, and FoldSheet returns an empty sheet.
func TestSheetFoldErrors(t *testing.T) {
	evs := stream(t, ajaxCreated(), events.XPAwarded{Amount: 20, Reason: "r"})
	bad := []struct {
		name string
		e    events.Event
		want string
	}{
		{"a payload that is not JSON", events.Event{Seq: 3, StreamVersion: 3, Type: events.TypeXPAwarded, PayloadVersion: 1, Payload: []byte("not json")}, "decode xp.awarded"},
		{"a payload of the wrong shape", events.Event{Seq: 3, StreamVersion: 3, Type: events.TypeKarmaGranted, PayloadVersion: 1, Payload: []byte(`{"amount":"one"}`)}, "decode karma.granted"},
		{"an unknown type", events.Event{Seq: 3, StreamVersion: 3, Type: "xp.stolen", PayloadVersion: 1, Payload: []byte(`{}`)}, `unknown type "xp.stolen"`},
		{"a future payload version", events.Event{Seq: 3, StreamVersion: 3, Type: events.TypeXPAwarded, PayloadVersion: 99, Payload: []byte(`{"amount":1}`)}, "newer than this program reads"},
		{"a campaign event", stream(t, ajaxCreated(), events.XPAwarded{}, events.PlotwordAcquired{Word: "KITKAT"})[2], "event 3: plotword.acquired does not belong on a character sheet"},
		{"a spend on neither attribute nor skill", stream(t, ajaxCreated(), events.XPAwarded{}, events.XPSpent{On: "karma", Price: 1})[2], `event 3: xp.spent on "karma"`},
		{"a spend on an unknown attribute", stream(t, ajaxCreated(), events.XPAwarded{}, events.XPSpent{On: "attribute", Attribute: "LK", To: 9, Price: 1})[2], `event 3: unknown attribute "LK"`},
		{"a curse lifted by an unknown attribute", stream(t, ajaxCreated(), events.XPAwarded{}, events.CurseLifted{Method: "attribute", Attribute: "CH", To: 1})[2], `event 3: unknown attribute "CH"`},
		{"karma that overflows", stream(t, ajaxCreated(), events.XPAwarded{Amount: 20}, events.KarmaGranted{Amount: math.MaxInt}, events.KarmaGranted{Amount: 1})[3], ""},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			var s Sheet
			for _, e := range evs {
				if err := s.Apply(e); err != nil {
					t.Fatal(err)
				}
			}
			log := append(slices.Clone(evs), b.e)
			if b.want == "" {
				// The first grant fits, the second overflows.
				first := stream(t, ajaxCreated(), events.XPAwarded{Amount: 20}, events.KarmaGranted{Amount: math.MaxInt})[2]
				if err := s.Apply(first); err != nil {
					t.Fatal(err)
				}
				log = append(slices.Clone(evs), first, b.e)
				b.want = "event 4 (karma.granted): karma overflows: 9223372036854775807 + 1"
			}
			before := *s.Clone()
			err := s.Apply(b.e)
			if err == nil || !strings.Contains(err.Error(), b.want) {
				t.Fatalf("Apply = %v, want an error with %q", err, b.want)
			}
			// The version stays, so the event is not taken as folded. A
			// payload refused before the switch, or a count that would
			// overflow, leaves the sheet as it was; one refused in the
			// middle of its case may leave it half-changed (the callers
			// drop a sheet whose fold failed, and FoldSheet returns none).
			if s.Version != before.Version || s.Seq != before.Seq {
				t.Errorf("a refused event moved the sheet on to version %d, seq %d", s.Version, s.Seq)
			}
			if whole := !strings.Contains(b.want, "unknown attribute") && !strings.Contains(b.want, "xp.spent on"); whole && !reflect.DeepEqual(s, before) {
				t.Errorf("a refused event changed the sheet:\n got %+v\nwant %+v", s, before)
			}
			if got, err := FoldSheet(log); err == nil || !reflect.DeepEqual(got, Sheet{}) {
				t.Errorf("FoldSheet = %+v, %v; want an empty sheet and an error", got, err)
			}
		})
	}
}

// TestSheetFoldOverflowIsTheFirst: when one event overflows two counts,
// the error names the first.
func TestSheetFoldOverflowIsTheFirst(t *testing.T) {
	evs := stream(t, ajaxCreated(), events.KarmaGranted{Amount: math.MaxInt, ExpiresAtDayEnd: true}, events.KarmaGranted{Amount: 1, ExpiresAtDayEnd: true})
	_, err := FoldSheet(evs)
	if err == nil || !strings.Contains(err.Error(), "event 3 (karma.granted): karma overflows: 9223372036854775807 + 1") || rules.CodeOf(err) != rules.CodeInvalidLog {
		t.Fatalf("FoldSheet = %v, want the karma overflow first", err)
	}
	// Spent beyond the bottom of a count.
	evs = stream(t, ajaxCreated(), events.KarmaSpent{Amount: math.MaxInt}, events.KarmaSpent{Amount: 2})
	if _, err := FoldSheet(evs); err == nil || !strings.Contains(err.Error(), "event 3 (karma.spent): karma overflows: -9223372036854775807 - 2") {
		t.Fatalf("FoldSheet = %v, want a karma underflow", err)
	}
}

// TestSheetAccessors: what a sheet answers about itself.
func TestSheetAccessors(t *testing.T) {
	s := foldOf(t, hectorCreated(), events.DamageTaken{Stamp: stampAt(1, 2, 3), Dealt: 6, Damage: 5, Fatigue: 1},
		events.DamageHealed{Points: 2, Reason: "medic", MedicID: "A"})
	for _, c := range []struct {
		adventure, encounter int
		taken, healed        int
	}{{1, 3, 5, 2}, {1, 2, 0, 0}, {2, 3, 0, 0}, {0, 0, 0, 0}} {
		if taken, healed := s.CombatDamage(c.adventure, c.encounter); taken != c.taken || healed != c.healed {
			t.Errorf("CombatDamage(%d, %d) = %d, %d; want %d, %d", c.adventure, c.encounter, taken, healed, c.taken, c.healed)
		}
	}
	if b := s.Body(); b != (rules.Body{ST: 11, Damage: 3, Fatigue: 1}) {
		t.Errorf("Body = %+v", b)
	}
	if !s.Alive() || s.Restriction() != 0 || s.RulesArmor() != nil || s.SkillLevel("medic") != 0 {
		t.Errorf("unarmoured Hector: alive %t, restriction %d, armour %v, medic %d", s.Alive(), s.Restriction(), s.RulesArmor(), s.SkillLevel("medic"))
	}
	if s.StandingBonus() != rules.BonusHit {
		t.Errorf("StandingBonus = %q, want hit", s.StandingBonus())
	}
	var unset Sheet
	if unset.StandingBonus() != rules.BonusHit {
		t.Errorf("StandingBonus of a sheet that never chose = %q, want hit", unset.StandingBonus())
	}
	s = foldOf(t, ajaxCreated(), flakVest, landingSuit, events.SkillBonusSet{Bonus: "damage"}, events.CharacterDied{Cause: "c"})
	if s.StandingBonus() != rules.BonusDamage || s.Alive() || s.Restriction() != 2 || s.SkillLevel("medic") != 2 || s.SkillLevel("unarmed") != 2 || s.SkillLevel("knife") != 0 {
		t.Errorf("Ajax: bonus %q, alive %t, restriction %d, medic %d", s.StandingBonus(), s.Alive(), s.Restriction(), s.SkillLevel("medic"))
	}
	want := []rules.Armor{{Key: "flak_vest", Name: "Flak Vest", Protection: 3, Restriction: 1}, {Key: "landing_suit", Name: "Landing Suit", Protection: 3, Restriction: 1, SpaceSuit: true}}
	if got := s.RulesArmor(); !reflect.DeepEqual(got, want) {
		t.Errorf("RulesArmor = %+v, want %+v", got, want)
	}
}
