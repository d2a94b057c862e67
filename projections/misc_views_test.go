package projections

import (
	"reflect"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
)

// TestSheetDifferences: what a what-if replay would change on a sheet,
// field by field, skills in the order first met and named as the sheets
// name them.
func TestSheetDifferences(t *testing.T) {
	real := foldOf(t, ajaxCreated(), events.XPAwarded{Amount: 20, Reason: "r"}, stRaise(18, "f", "2021"), events.KarmaGranted{Amount: 1})
	would := foldOf(t, ajaxCreated(), events.XPAwarded{Amount: 20, Reason: "r"},
		events.XPSpent{On: "skill", Skill: "knife", SkillName: "Knife", From: 0, To: 1, Price: 10, Formula: "f", Edition: "2021"},
		events.WishGranted{Amount: 1}, events.CurseAdded{Levels: 2}, events.DamageTaken{Dealt: 12, Damage: 11, Fatigue: 1})
	got := SheetDifferences(&real, &would)
	want := []WhatIfDifference{
		{Field: "ST", Real: "13", WouldBe: "12"},
		{Field: "skill Knife", Real: "0", WouldBe: "1"},
		{Field: "XP spent", Real: "18", WouldBe: "10"},
		{Field: "XP unspent", Real: "2", WouldBe: "10"},
		{Field: "karma", Real: "1", WouldBe: "0"},
		{Field: "wishes", Real: "0", WouldBe: "1"},
		{Field: "curses", Real: "0", WouldBe: "2"},
		{Field: "damage", Real: "0", WouldBe: "11"},
		{Field: "fatigue", Real: "0", WouldBe: "1"},
		{Field: "status", Real: "ok", WouldBe: "incapacitated"}, // Ajax ST12: 11 + 1 ≥ 12
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("differences:\n got %+v\nwant %+v", got, want)
	}
	if d := SheetDifferences(&real, &real); d == nil || len(d) != 0 {
		t.Errorf("a sheet against itself: %+v", d)
	}
	if s := want[0].String(); s != "ST: 13 → 12" {
		t.Errorf("String = %q", s)
	}
	dx := foldOf(t, hectorCreated(), events.XPAwarded{Amount: 30, Reason: "r"}, events.XPSpent{On: "attribute", Attribute: "DX", From: 12, To: 13, Price: 18},
		events.XPSpent{On: "attribute", Attribute: "IQ", From: 9, To: 10, Price: 15})
	if got := SheetDifferences(&dx, new(Sheet)); len(got) < 6 || got[1] != (WhatIfDifference{Field: "DX", Real: "13", WouldBe: "0"}) || got[2] != (WhatIfDifference{Field: "IQ", Real: "10", WouldBe: "0"}) {
		t.Errorf("against an empty sheet: %+v", got)
	}
}

// TestSnapshotsRoundTrip: a character's sheet and rolls, the campaign and
// the roster decode as they were encoded; a damaged snapshot is an error.
func TestSnapshotsRoundTrip(t *testing.T) {
	sh := foldOf(t, ajaxCreated(), flakVest, knifeEquipped, events.XPAwarded{Amount: 3, Reason: "r"}, events.DamageTaken{Stamp: stampAt(1, 1, 1), Dealt: 2, Damage: 2},
		events.DamageHealed{Points: 1, Reason: "medic", MedicID: "H"})
	rolls := Rolls{RerolledBy: map[string]string{"E1": "E2"}}
	b, err := EncodeCharacter(sh, rolls)
	if err != nil {
		t.Fatal(err)
	}
	gotSh, gotRolls, err := DecodeCharacter(b)
	if err != nil || !reflect.DeepEqual(gotSh, sh) || !reflect.DeepEqual(gotRolls, rolls) {
		t.Errorf("character: %v\n got %+v %+v\nwant %+v %+v", err, gotSh, gotRolls, sh, rolls)
	}
	c, err := FoldCampaign(stream(t, events.CampaignCreated{Name: "c", Edition: "2010"}, events.PlotwordAcquired{Word: "KITKAT"}, events.AdventureStarted{Number: 1, Title: "a"}))
	if err != nil {
		t.Fatal(err)
	}
	b, err = EncodeCampaign(c)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := DecodeCampaign(b); err != nil || !reflect.DeepEqual(got, c) {
		t.Errorf("campaign: %v\n got %+v\nwant %+v", err, got, c)
	}
	// A campaign encoded without plotwords decodes with an empty map.
	noWords := c
	noWords.Plotwords = nil
	b, _ = EncodeCampaign(noWords)
	if got, err := DecodeCampaign(b); err != nil || got.Plotwords == nil || len(got.Plotwords) != 0 {
		t.Errorf("no plotwords: %+v, %v", got.Plotwords, err)
	}
	local := c
	local.CreatedAt = time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("X", 3600))
	b, _ = EncodeCampaign(local)
	if got, _ := DecodeCampaign(b); got.CreatedAt.Location() != time.UTC || !got.CreatedAt.Equal(local.CreatedAt) {
		t.Errorf("created at %v", got.CreatedAt)
	}
	r := rosterOf(t, logOf(t, step{"character/A", "K1", events.CharacterCreated{CharacterID: "A", Name: "Ajax"}}, step{"foe/O", "K2", events.FoeAdded{FoeID: "O", Name: "Ork", Encounter: 1}}))
	b, err = EncodeRoster(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodeRoster(b)
	if err != nil || !reflect.DeepEqual(got.Members, r.Members) || !reflect.DeepEqual(got.Foes, r.Foes) {
		t.Errorf("roster: %v, %+v", err, got)
	}
	if m, ok := got.FindFoe("ork"); !ok || m.ID != "O" {
		t.Errorf("the decoded roster's FindFoe: %+v, %t", m, ok)
	}
	for _, bad := range []func([]byte) error{
		func(b []byte) error { _, _, err := DecodeCharacter(b); return err },
		func(b []byte) error { _, err := DecodeCampaign(b); return err },
		func(b []byte) error { _, err := DecodeRoster(b); return err },
	} {
		if err := bad([]byte("{")); err == nil {
			t.Error("a damaged snapshot decodes")
		}
	}
}

// TestDiceReportNames: how a dice report names a die's source and what it
// was narrowed to.
func TestDiceReportNames(t *testing.T) {
	if got := (DieReport{Source: "program", Sides: 6}).Name(); got != "the program's d6" {
		t.Errorf("Name = %q", got)
	}
	if got := (DieReport{Source: "entered", Actor: "ann", Sides: 10}).Name(); got != "ann's d10" {
		t.Errorf("Name = %q", got)
	}
	for _, c := range []struct {
		f    DiceReportFilter
		want string
	}{
		{DiceReportFilter{}, ""},
		{DiceReportFilter{Actor: "ann", Character: "Ajax", Adventure: 2, Source: "physical"}, "actor ann, character Ajax, adventure 2, physical dice"},
		{DiceReportFilter{Adventure: 1}, "adventure 1"},
	} {
		if got := c.f.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.f, got, c.want)
		}
	}
}
