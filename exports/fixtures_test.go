package exports

import (
	"time"

	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// The documents the exporters' tests render: fixed values, so that the
// output is the same on every run. Names with diacritics ("Zoë",
// "Łukasz", "Ærin") check that every format carries them whole.

var testTrace = Trace{
	Campaign:   "Kit-Kat crew",
	CampaignID: "01M8354Z1QK5ZQ6X4CSXW0D7VS",
	Edition:    rules.Edition2021,
	Seq:        33,
	Hash:       "9f2c4e1a7b3d5f60718293a4b5c6d7e8f9012345678901234567890abcdef012",
}

func testSheet(name string) projections.Sheet {
	return projections.Sheet{
		ID: "01M83553CSYSEVE796V5PF9DB0", Name: name, Edition: rules.Edition2021, Status: projections.StatusOK,
		Attributes: rules.Attributes{ST: 13, DX: 11, IQ: 9},
		Adjusted:   projections.Adjusted{DX: 10, MA: 5},
		Armor:      &projections.Armor{Item: "flak-vest", Name: "Flak Vest", Protection: 3, Restriction: 1},
		Weapon:     &projections.Weapon{Item: "handgun", Name: "Handgun", Damage: "2d6-1", Heft: 8},
		Skills: []projections.Skill{
			{Key: "knife", Name: "Knife", Level: 1},
			{Key: "medic", Name: "Medic", Level: 2},
			{Key: "unarmed", Name: "Unarmed", Level: 2},
		},
		XP:    projections.XP{Earned: 31, Spent: 28, Unspent: 3},
		Karma: 2, Wishes: 1, Curses: 1, Damage: 4, Fatigue: 2,
		Version: 17, Seq: 26,
	}
}

func testSheetDoc() SheetDoc { return SheetDoc{Trace: testTrace, Sheet: testSheet("Zoë")} }

func testPartyDoc() PartyDoc {
	a, b, c := testSheet("Zoë"), testSheet("Łukasz"), testSheet("Ærin")
	b.ID, b.Status, b.Damage, b.Armor, b.Weapon = "01M83553CSYSEVE796V5PF9DB1", projections.StatusIncapacitated, 9, nil, nil
	c.ID, c.Status, c.Dead, c.DeathCause, c.Skills = "01M83553CSYSEVE796V5PF9DB2", projections.StatusDead, true, "died of wounds at the end of encounter 2", nil
	return PartyDoc{Trace: testTrace, Sheets: []projections.Sheet{a, b, c}}
}

func testShipDoc() ShipDoc {
	return ShipDoc{Trace: testTrace, Ship: projections.Ship{
		ID: "01M8355A0000000000000000SH", Name: "Kit-Kat", Edition: rules.Edition2021,
		Record: "Cargo1, Engineering1, Operations1, Living1, d6/1, M+1", Cost: 14, CostFormula: "4 sections + d6 (4) + shields 1 (2) + M+1 (4)",
		Owner: "Zoë",
		Sections: []projections.ShipSection{
			{Name: "Cargo", Kind: "cargo", Points: 1, Damage: 1, Destroyed: true, Crew: []string{}},
			{Name: "Engineering", Kind: "engineering", Points: 1, Damage: 1, Destroyed: true, Crew: []string{}},
			{Name: "Operations", Kind: "operations", Points: 1, Crew: []string{"Zoë"}},
			{Name: "Living", Kind: "living", Points: 1, Crew: []string{"Łukasz", "Ærin"}},
		},
		Weapons: "d6", Shields: 1, Maneuver: 1, CargoUnits: 1,
		DIW: true, DIWReason: "Engineering is destroyed: the craft is dead in the water",
		Version: 5, Seq: 31,
	}}
}

func testTimelineDoc() TimelineDoc {
	return TimelineDoc{Trace: testTrace, Timeline: projections.Timeline{Periods: []projections.TimelinePeriod{
		{Adventure: 0, Days: []projections.TimelineDay{{Day: 0, Entries: []projections.TimelineEntry{
			{Seq: 5, Kind: projections.TimelineXP, Character: "Zoë", Text: "Zoë gains 20 XP: rescued the envoy"},
		}}}},
		{Adventure: 1, Title: "The | pipe and the *star*", Days: []projections.TimelineDay{
			{Day: 1, Entries: []projections.TimelineEntry{
				{Seq: 12, Kind: projections.TimelineAdventure, Text: "adventure 1 begins: The | pipe and the *star*"},
				{Seq: 14, Kind: projections.TimelineEncounter, Encounter: 1, Text: "encounter 1 begins: sparring"},
				{Seq: 15, Kind: projections.TimelineHurt, Encounter: 1, Character: "Łukasz", Text: "Łukasz takes 3 damage (attack by Zoë)"},
			}},
			{Day: 2, Entries: []projections.TimelineEntry{
				{Seq: 20, Kind: projections.TimelineNewDay, Text: "day 2 begins"},
				{Seq: 21, Kind: projections.TimelineDied, Character: "Ærin", Text: "Ærin dies of wounds"},
			}},
		}},
	}}}
}

func testAuditDoc() AuditDoc {
	at := time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)
	return AuditDoc{Trace: testTrace, Audit: projections.XPAudit{
		Character: "Zoë", CharacterID: "01M83553CSYSEVE796V5PF9DB0", Edition: rules.Edition2021,
		Rows: []projections.XPAuditRow{
			{Seq: 5, EventID: "01M8355000000000000000EV05", RecordedAt: at, CommandID: "01M8355000000000000000CM05", Actor: "gm",
				Kind: projections.LedgerAward, What: "rescued the envoy", Amount: 20, Balance: 20},
			{Seq: 7, EventID: "01M8355000000000000000EV07", RecordedAt: at.Add(time.Minute), CommandID: "01M8355000000000000000CM07", Actor: "zoe",
				Kind: projections.LedgerSpend, What: "ST 12→13", Amount: -18, Formula: "current level + 6 = 12 + 6", Edition: "2021",
				Rules:   &projections.RulesPrice{Price: 18, Formula: "current level + 6 = 12 + 6", Edition: rules.Edition2021, OK: true},
				Balance: 2},
			{Seq: 9, EventID: "01M8355000000000000000EV09", RecordedAt: at.Add(2 * time.Minute), CommandID: "01M8355000000000000000CM09", Actor: "gm",
				Kind: projections.LedgerAward, What: "a bonus | with a pipe", Amount: 5, Balance: 2,
				Reverted: &projections.Revert{Seq: 10, EventID: "01M8355000000000000000EV10", CommandID: "01M8355000000000000000CM10", Actor: "gm", At: at.Add(3 * time.Minute), Reason: "typo", Target: "01M8355000000000000000CM09"}},
		},
		Earned: 20, Spent: 18, Unspent: 2, SheetUnspent: 2,
		Assertions: []projections.Assertion{
			{Name: projections.AssertBalance, OK: true, Detail: "earned − spent = unspent: 20 − 18 = 2"},
			{Name: projections.AssertNeverNegative, OK: true, Detail: "unspent ≥ 0 at every row: lowest 2, after seq 7"},
			{Name: projections.AssertPrices, OK: true, Detail: "every spend priced by the 2021 rules: 1 of 1 spend"},
		},
		OK: true,
	}}
}
