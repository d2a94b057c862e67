package projections

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// stream builds a character stream from payloads, numbering seq and
// stream versions from 1.
func stream(t testing.TB, payloads ...events.Payload) []events.Event {
	t.Helper()
	out := make([]events.Event, len(payloads))
	for i, p := range payloads {
		raw, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = events.Event{
			Seq: int64(i + 1), ID: "E" + string(rune('A'+i)), CommandID: "C" + string(rune('A'+i)),
			Stream: "character/X", StreamVersion: int64(i + 1), Type: p.EventType(), PayloadVersion: p.PayloadVersion(),
			Payload: raw, Actor: "gm", RecordedAt: time.Date(2026, 11, 21, 20, 0, i, 0, time.UTC),
		}
	}
	return out
}

func ajaxCreated() events.CharacterCreated {
	return events.CharacterCreated{CharacterID: "X", Name: "Ajax", Edition: "2021",
		Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9},
		Skills:     []events.SkillLevel{{Skill: "unarmed", Name: "Unarmed", Level: 2}, {Skill: "medic", Name: "Medic", Level: 2}}}
}

func TestSheetGivenEvents(t *testing.T) {
	tests := []struct {
		name   string
		events []events.Payload
		want   func(s *Sheet)
	}{
		{
			name:   "worked example 1: Ajax as created",
			events: []events.Payload{ajaxCreated()},
			want: func(s *Sheet) {
				s.ID, s.Name, s.Edition, s.Status = "X", "Ajax", rules.Edition2021, StatusOK
				s.Attributes = rules.Attributes{ST: 12, DX: 11, IQ: 9}
				s.Adjusted = Adjusted{DX: 11, MA: 5}
				s.Skills = []Skill{{Key: "medic", Name: "Medic", Level: 2}, {Key: "unarmed", Name: "Unarmed", Level: 2}}
				s.Version, s.Seq = 1, 1
			},
		},
		{
			name: "worked example 6 [2021]: 20 XP, ST 12→13 for 18 leaves 2",
			events: []events.Payload{ajaxCreated(),
				events.XPAwarded{Amount: 20, Reason: "adventure"},
				events.XPSpent{On: "attribute", Attribute: "ST", From: 12, To: 13, Price: 18, Formula: "current level + 6 = 12 + 6", Edition: "2021"}},
			want: func(s *Sheet) {
				s.ID, s.Name, s.Edition, s.Status = "X", "Ajax", rules.Edition2021, StatusOK
				s.Attributes = rules.Attributes{ST: 13, DX: 11, IQ: 9}
				s.Adjusted = Adjusted{DX: 11, MA: 5}
				s.Skills = []Skill{{Key: "medic", Name: "Medic", Level: 2}, {Key: "unarmed", Name: "Unarmed", Level: 2}}
				s.XP = XP{Earned: 20, Spent: 18, Unspent: 2}
				s.Version, s.Seq = 3, 3
			},
		},
		{
			name: "worked example 7: a new skill for 10 XP, karma, wishes and curses",
			events: []events.Payload{ajaxCreated(),
				events.XPAwarded{Amount: 11, Reason: "plotword KITKAT", Plotword: "KITKAT"},
				events.XPSpent{On: "skill", Skill: "knife", SkillName: "Knife", From: 0, To: 1, Price: 10, Formula: "10 XP a skill point", Edition: "2021"},
				events.KarmaGranted{Amount: 2},
				events.KarmaSpent{Amount: 1, For: "reroll", RollID: "R"},
				events.WishGranted{Amount: 1},
				events.CurseAdded{Levels: 2},
				events.RollMade{Expr: "3/DX", Kind: "check"},
			},
			want: func(s *Sheet) {
				s.ID, s.Name, s.Edition, s.Status = "X", "Ajax", rules.Edition2021, StatusOK
				s.Attributes = rules.Attributes{ST: 12, DX: 11, IQ: 9}
				s.Adjusted = Adjusted{DX: 11, MA: 5}
				s.Skills = []Skill{{Key: "knife", Name: "Knife", Level: 1}, {Key: "medic", Name: "Medic", Level: 2}, {Key: "unarmed", Name: "Unarmed", Level: 2}}
				s.XP = XP{Earned: 11, Spent: 10, Unspent: 1}
				s.Karma, s.Wishes, s.Curses = 1, 1, 2
				s.Version, s.Seq = 8, 8
			},
		},
		{
			name: "raising an existing skill keeps one entry",
			events: []events.Payload{ajaxCreated(),
				events.XPAwarded{Amount: 10, Reason: "r"},
				events.XPSpent{On: "skill", Skill: "medic", SkillName: "Medic", From: 2, To: 3, Price: 10, Formula: "10 XP a skill point", Edition: "2021"}},
			want: func(s *Sheet) {
				s.ID, s.Name, s.Edition, s.Status = "X", "Ajax", rules.Edition2021, StatusOK
				s.Attributes = rules.Attributes{ST: 12, DX: 11, IQ: 9}
				s.Adjusted = Adjusted{DX: 11, MA: 5}
				s.Skills = []Skill{{Key: "medic", Name: "Medic", Level: 3}, {Key: "unarmed", Name: "Unarmed", Level: 2}}
				s.XP = XP{Earned: 10, Spent: 10, Unspent: 0}
				s.Version, s.Seq = 3, 3
			},
		},
		{
			// Issue 21: `char set Ajax --skill-bonus damage`.
			name:   "a standing choice: combat skill levels to damage",
			events: []events.Payload{ajaxCreated(), events.SkillBonusSet{Bonus: "damage", Previous: "hit"}},
			want: func(s *Sheet) {
				s.ID, s.Name, s.Edition, s.Status = "X", "Ajax", rules.Edition2021, StatusOK
				s.Attributes = rules.Attributes{ST: 12, DX: 11, IQ: 9}
				s.Adjusted = Adjusted{DX: 11, MA: 5}
				s.Skills = []Skill{{Key: "medic", Name: "Medic", Level: 2}, {Key: "unarmed", Name: "Unarmed", Level: 2}}
				s.SkillBonus = rules.BonusDamage
				s.Version, s.Seq = 2, 2
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := FoldSheet(stream(t, tt.events...))
			if err != nil {
				t.Fatal(err)
			}
			var want Sheet
			tt.want(&want)
			if want.ArmorItems == nil {
				want.ArmorItems = []Armor{} // a sheet lists its armour, none or more
			}
			if want.SkillBonus == "" {
				want.SkillBonus = rules.BonusHit // until set, combat skills go to hit
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("sheet:\n got %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestSheetAdjustedByArmour(t *testing.T) {
	// Worked example 5: Hector DX12 with restriction 2 → adjusted DX 10, MA 5.
	s, err := FoldSheet(stream(t, events.CharacterCreated{CharacterID: "H", Name: "Hector", Edition: "2021", Attributes: events.Attributes{ST: 11, DX: 12, IQ: 9}}))
	if err != nil {
		t.Fatal(err)
	}
	if s.Adjusted != (Adjusted{DX: 12, MA: 6}) {
		t.Fatalf("unarmoured Hector: %+v", s.Adjusted)
	}
	// The books' R2 example needs two items: every armour of the 2020 and
	// 2021 tables is R1. "Adjust a character's DX down by the cumulative
	// restriction of his armor"; "reduce the damage he suffers by the
	// cumulative rating of his armor".
	vest := events.ItemEquipped{Slot: "armor", Item: "flak_vest", Name: "Flak Vest", Protection: 3, Restriction: 1, Edition: "2021"}
	suit := events.ItemEquipped{Slot: "armor", Item: "landing_suit", Name: "Landing Suit", Protection: 3, Restriction: 1, SpaceSuit: true, Over: true, Edition: "2021"}
	hector := events.CharacterCreated{CharacterID: "H", Name: "Hector", Edition: "2021", Attributes: events.Attributes{ST: 11, DX: 12, IQ: 9}}
	s, err = FoldSheet(stream(t, hector, vest, suit))
	if err != nil {
		t.Fatal(err)
	}
	if s.Adjusted != (Adjusted{DX: 10, MA: 5}) {
		t.Fatalf("Hector in R2 armour: %+v, want DX 10 MA 5", s.Adjusted)
	}
	if a := s.Armor; a == nil || a.Protection != 6 || a.Restriction != 2 || a.Name != "Flak Vest and Landing Suit" || len(s.ArmorItems) != 2 {
		t.Fatalf("armour worn = %+v (items %+v), want Flak Vest and Landing Suit 6/2", a, s.ArmorItems)
	}
	// Taking the vest off leaves the suit; a suit that fails (SS) is R3.
	s, err = FoldSheet(stream(t, hector, vest, suit, events.ItemUnequipped{Slot: "armor", Item: "flak_vest"},
		events.SuitFailed{Armor: "Landing Suit", Restriction: 3}))
	if err != nil {
		t.Fatal(err)
	}
	if a := s.Armor; a == nil || a.Name != "Landing Suit" || a.Protection != 3 || a.Restriction != 3 || !a.Failed || s.Adjusted.DX != 9 {
		t.Fatalf("after the vest came off and the suit failed: %+v, adjusted %+v", a, s.Adjusted)
	}
	// An armour event without Over (recorded before armour was worn in
	// layers) replaces what he wore, as it did then.
	old := suit
	old.Over = false
	s, err = FoldSheet(stream(t, hector, vest, old))
	if err != nil {
		t.Fatal(err)
	}
	if a := s.Armor; a == nil || a.Name != "Landing Suit" || len(s.ArmorItems) != 1 {
		t.Fatalf("an old armour event over the vest: %+v", s.ArmorItems)
	}
	// Taking all armour off.
	s, err = FoldSheet(stream(t, hector, vest, suit, events.ItemUnequipped{Slot: "armor"}))
	if err != nil {
		t.Fatal(err)
	}
	if s.Armor != nil || len(s.ArmorItems) != 0 || s.Adjusted.DX != 12 {
		t.Fatalf("all armour off: %+v %+v", s.Armor, s.ArmorItems)
	}
}

func TestSheetRejectsForeignEvents(t *testing.T) {
	evs := stream(t, ajaxCreated(), events.CampaignCreated{Name: "x", Edition: "2021"})
	if _, err := FoldSheet(evs); err == nil || !strings.Contains(err.Error(), "does not belong on a character sheet") {
		t.Fatalf("campaign.created on a sheet: err = %v", err)
	}
	evs = stream(t, ajaxCreated())
	evs[0].PayloadVersion = 9
	if _, err := FoldSheet(evs); err == nil || !strings.Contains(err.Error(), "newer than this program reads") {
		t.Fatalf("a future payload version: err = %v", err)
	}
}

func TestSheetJSONKeys(t *testing.T) {
	s, err := FoldSheet(stream(t, ajaxCreated()))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	// The keys docs/json.md documents for `sheet --json`.
	for _, k := range []string{"name", "edition", "status", "attributes", "adjusted", "skills", "skill_bonus", "xp", "karma", "wishes", "curses", "damage", "fatigue", "armor"} {
		if _, ok := m[k]; !ok {
			t.Errorf("sheet JSON lacks %q: %s", k, raw)
		}
	}
	for _, k := range []string{"ST", "DX", "IQ"} {
		if _, ok := m["attributes"].(map[string]any)[k]; !ok {
			t.Errorf("attributes lacks %q", k)
		}
	}
	for _, k := range []string{"earned", "spent", "unspent"} {
		if _, ok := m["xp"].(map[string]any)[k]; !ok {
			t.Errorf("xp lacks %q", k)
		}
	}
}

func TestLedgerRunningBalance(t *testing.T) {
	evs := stream(t, ajaxCreated(),
		events.XPAwarded{Amount: 20, Reason: "adventure"},
		events.XPSpent{On: "attribute", Attribute: "ST", From: 12, To: 13, Price: 18, Formula: "current level + 6 = 12 + 6", Edition: "2021"},
		events.RollMade{Expr: "3/DX", Kind: "check"},
		events.XPAwarded{Amount: 1, Reason: "plotword KITKAT", Plotword: "KITKAT"},
	)
	var l Ledger
	for _, e := range evs {
		if err := l.Apply(e, nil); err != nil {
			t.Fatal(err)
		}
	}
	var balances []int
	for _, e := range l.Entries {
		balances = append(balances, e.Balance)
	}
	if !reflect.DeepEqual(balances, []int{20, 2, 3}) {
		t.Fatalf("running balances %v, want [20 2 3]", balances)
	}
	if l.Earned != 21 || l.Spent != 18 || l.Balance() != 3 {
		t.Fatalf("ledger totals %d/%d/%d", l.Earned, l.Spent, l.Balance())
	}
	spend := l.Entries[1]
	if spend.Kind != LedgerSpend || spend.Amount != -18 || spend.What != "ST 12→13" || spend.Formula != "current level + 6 = 12 + 6" || spend.Edition != "2021" {
		t.Fatalf("spend entry %+v", spend)
	}
	sheet, err := FoldSheet(evs)
	if err != nil {
		t.Fatal(err)
	}
	if sheet.XP.Unspent != l.Balance() {
		t.Fatalf("sheet unspent %d != ledger balance %d", sheet.XP.Unspent, l.Balance())
	}
}

func TestCampaignFold(t *testing.T) {
	evs := stream(t, events.CampaignCreated{Name: "Kit-Kat crew", Edition: "2010"}, events.PlotwordAcquired{Word: "KITKAT"})
	c, err := FoldCampaign(evs)
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "Kit-Kat crew" || c.Edition != rules.Edition2010 || !c.BetweenAdventures() || c.Plotwords["KITKAT"] != 2 || c.Version != 2 {
		t.Fatalf("campaign %+v", c)
	}
	if _, err := FoldCampaign(nil); err == nil {
		t.Fatal("an empty campaign stream folded without error")
	}
}

func TestRosterFind(t *testing.T) {
	var r Roster
	for _, e := range stream(t, events.CharacterCreated{CharacterID: "A", Name: "Ajax"}, events.XPAwarded{Amount: 1}, events.CharacterCreated{CharacterID: "Z", Name: "Zoë Ångström"}) {
		if err := r.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []string{"ajax", "  AJAX ", "zoë ångström", "ZOË   ÅNGSTRÖM"} {
		if _, ok := r.Find(q); !ok {
			t.Errorf("Find(%q) missed", q)
		}
	}
	if _, ok := r.Find("Ajx"); ok {
		t.Error("Find(Ajx) matched")
	}
	if got := r.Names(); !reflect.DeepEqual(got, []string{"Ajax", "Zoë Ångström"}) {
		t.Errorf("Names %v", got)
	}
}

// TestSheetVersionOnlyTypes: the types SheetVersionOnlyTypes lists are
// exactly those Apply folds without reading their payloads, and they move
// only the sheet's version and seq on.
func TestSheetVersionOnlyTypes(t *testing.T) {
	only := map[string]bool{}
	for _, ty := range SheetVersionOnlyTypes() {
		only[ty] = true
	}
	for _, ty := range events.TypeNames() {
		var s Sheet
		for _, e := range stream(t, ajaxCreated()) {
			if err := s.Apply(e); err != nil {
				t.Fatal(err)
			}
		}
		before := s
		// A payload nobody can read: Apply fails on it unless it leaves
		// the payload unread.
		err := s.Apply(events.Event{Seq: 7, StreamVersion: 2, Stream: "character/X", Type: ty, PayloadVersion: 1, Payload: []byte("not json")})
		if only[ty] {
			before.Version, before.Seq = 2, 7
			if err != nil || !reflect.DeepEqual(s, before) {
				t.Errorf("%s: err %v; the sheet changed beyond its version and seq", ty, err)
			}
		} else if err == nil {
			t.Errorf("%s is not in SheetVersionOnlyTypes, but Apply folds it without reading its payload", ty)
		}
	}
}

// TestSheetCloneSharesNothing: every part of a sheet a fold can change in
// place is copied, so that folding into the clone leaves the original.
func TestSheetCloneSharesNothing(t *testing.T) {
	orig := &Sheet{Name: "Ajax", Skills: []Skill{{Key: "medic", Name: "Medic", Level: 2}},
		ArmorItems: []Armor{{Name: "Cloth", Protection: 1}}, Armor: &Armor{Name: "Cloth", Protection: 1},
		Weapon: &Weapon{Name: "Knife", Flags: []string{"T"}}, Combat: Combat{TreatedBy: []string{"m1"}}}
	c := orig.Clone()
	c.Skills[0].Level = 3
	c.ArmorItems[0].Protection = 5
	c.Armor.Protection = 5
	c.Weapon.Flags[0] = "U"
	c.Combat.TreatedBy[0] = "m2"
	c.Name = "Hector"
	if orig.Skills[0].Level != 2 || orig.ArmorItems[0].Protection != 1 || orig.Armor.Protection != 1 ||
		orig.Weapon.Flags[0] != "T" || orig.Combat.TreatedBy[0] != "m1" || orig.Name != "Ajax" {
		t.Errorf("the clone shares with the original: %+v", orig)
	}
}
