package projections

import (
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

// TestReplayChecksSheetEvents: the world re-decides each event of a
// character's or a foe's stream against the sheet before it; a log the
// rules wrote replays clean, and each event they would not have written
// is a violation at its seq. goodStart is Ajax (ST12 DX11 IQ9, 2021) with
// 20 XP.
func TestReplayChecksSheetEvents(t *testing.T) {
	const foe = "foe/O"
	ork := events.FoeAdded{FoeID: "O", Name: "Ork", Edition: "2021", Attributes: events.Attributes{ST: 10, DX: 9, IQ: 8}}
	hurt := step{ajaxStream, "K4", events.DamageTaken{Dealt: 6, Damage: 5, Fatigue: 1}}
	with := func(more ...step) []step { return append(goodStart("2021"), more...) }
	tests := []struct {
		name  string
		steps []step
		seq   int64
		want  string
	}{
		{"clean", with(
			hurt,
			step{ajaxStream, "K5", events.DamageHealed{Points: 2, Reason: "rest"}},
			step{ajaxStream, "K6", events.FatigueRecovered{Points: 1, Reason: "sleep"}},
			step{ajaxStream, "K7", events.CharacterRecovered{Damage: 3, Reason: "between adventures"}},
			step{ajaxStream, "K8", events.KarmaGranted{Amount: 2, Reason: "r"}},
			step{ajaxStream, "K9", events.WishGranted{Amount: 1}},
			step{ajaxStream, "K10", events.CurseAdded{Levels: 1}},
			step{ajaxStream, "K11", events.CurseLifted{Method: "wish", Wishes: 1, Rule: "one wish", Edition: "2021"}},
			step{ajaxStream, "K12", events.SkillBonusSet{Bonus: "damage", Previous: "hit"}},
			step{ajaxStream, "K13", events.ItemEquipped{Slot: "armor", Item: "flak_vest", Name: "Flak Vest", Protection: 3, Restriction: 1, Edition: "2021"}},
			step{ajaxStream, "K14", events.ItemEquipped{Slot: "weapon", Item: "knife", Name: "Knife", Damage: "d6", Edition: "2021"}},
			step{ajaxStream, "K15", events.WishGranted{Amount: 1}},
			step{ajaxStream, "K16", events.WishSpent{For: "revive"}},
			step{foe, "K17", ork},
			step{foe, "K18", events.DamageTaken{Dealt: 10, Damage: 10}},
			step{foe, "K19", events.CharacterDied{Cause: "wounds"}},
			step{foe, "K20", events.FoeRemoved{Reason: "dead"}},
		), 0, ""},
		{"a plotword award of 2 XP", with(step{events.CampaignStream, "K4", events.PlotwordAcquired{Word: "KITKAT"}},
			step{ajaxStream, "K5", events.XPAwarded{Amount: 2, Reason: "r", Plotword: "KITKAT"}}), 5, "an award of 2 XP for plotword KITKAT, which gives 1"},
		{"a plotword not acquired", with(step{ajaxStream, "K4", events.XPAwarded{Amount: 1, Reason: "r", Plotword: "GULL"}}), 4, "an award for plotword GULL, which the party has not acquired"},
		{"a grant of no karma", with(step{ajaxStream, "K4", events.KarmaGranted{Amount: 0}}), 4, "a grant of 0 karma"},
		{"a grant of no wishes", with(step{ajaxStream, "K4", events.WishGranted{Amount: -1}}), 4, "a grant of -1 wishes"},
		{"no curse levels", with(step{ajaxStream, "K4", events.CurseAdded{Levels: 0}}), 4, "0 curse levels"},
		{"karma taken as XP outside 2010", with(step{ajaxStream, "K4", events.KarmaGranted{Amount: 1}}, step{ajaxStream, "K5", events.KarmaSpent{Amount: 1, For: "xp"}}), 5, "2010"},
		{"two karma for a re-roll", with(step{ajaxStream, "K4", events.KarmaGranted{Amount: 2}}, step{ajaxStream, "K5", events.KarmaSpent{Amount: 2, For: "reroll", RollID: "E"}}), 5,
			"2 karma spent at once; a re-roll costs one"},
		{"karma for nothing it buys", with(step{ajaxStream, "K4", events.KarmaGranted{Amount: 1}}, step{ajaxStream, "K5", events.KarmaSpent{Amount: 1, For: "luck"}}), 5,
			`karma.spent for "luck", which nothing buys`},
		{"karma for a roll not in effect", with(step{ajaxStream, "K4", events.KarmaGranted{Amount: 1}}, step{ajaxStream, "K5", events.KarmaSpent{Amount: 1, For: "reroll", RollID: "Enone"}}), 5,
			"re-roll of Enone, which is not a roll in effect"},
		{"a wish spent with none", with(step{ajaxStream, "K4", events.WishSpent{For: "revive"}}), 4, "Ajax spent a wish with none"},
		{"a wish as karma outside 2010", with(step{ajaxStream, "K4", events.WishGranted{Amount: 1}}, step{ajaxStream, "K5", events.WishSpent{For: "reroll", RollID: "E"}}), 5,
			"a wish spent as karma in edition 2021 (2010 only)"},
		{"damage withdrawn with no re-roll", with(hurt, step{ajaxStream, "K5", events.DamageWithdrawn{AttackID: "E", Damage: 1}}), 5,
			"points of attack E withdrawn, but the command re-rolls nothing of it"},
		{"healing withdrawn with no re-roll", with(hurt, step{ajaxStream, "K5", events.HealingWithdrawn{RollID: "E", MedicID: "H", Points: 1}}), 5,
			"the healing of medic's check E withdrawn, but the command re-rolls nothing of it"},
		{"points dealt that do not add up", with(step{ajaxStream, "K4", events.DamageTaken{Dealt: 6, Damage: 5}}), 4, "6 points dealt as 5 damage and 0 fatigue"},
		{"no points dealt", with(step{ajaxStream, "K4", events.DamageTaken{Dealt: 0}}), 4, "0 points dealt as 0 damage and 0 fatigue"},
		{"damage to the dead", with(step{ajaxStream, "K4", events.DamageTaken{Dealt: 12, Damage: 12}}, step{ajaxStream, "K5", events.CharacterDied{Cause: "wounds"}},
			step{ajaxStream, "K6", events.DamageTaken{Dealt: 1, Damage: 1}}), 6, "Ajax took damage while dead"},
		{"healed more than the damage", with(hurt, step{ajaxStream, "K5", events.DamageHealed{Points: 6, Reason: "rest"}}), 5, "6 damage healed; Ajax had 5"},
		{"healed nothing but by a medic", with(hurt, step{ajaxStream, "K5", events.DamageHealed{Points: 0, Reason: "rest"}}), 5, "0 damage healed; Ajax had 5"},
		{"the dead healed", with(step{ajaxStream, "K4", events.DamageTaken{Dealt: 12, Damage: 12}}, step{ajaxStream, "K5", events.CharacterDied{Cause: "wounds"}},
			step{ajaxStream, "K6", events.DamageHealed{Points: 1, Reason: "rest"}}), 6, "Ajax healed while dead"},
		{"fatigue recovered beyond it", with(hurt, step{ajaxStream, "K5", events.FatigueRecovered{Points: 2, Reason: "sleep"}}), 5, "2 fatigue recovered; Ajax had 1"},
		{"recovered beyond the damage", with(hurt, step{ajaxStream, "K5", events.CharacterRecovered{Damage: 6, Fatigue: 1}}), 5, "recovered 6 damage and 1 fatigue; Ajax had 5 and 1"},
		{"died twice", with(step{ajaxStream, "K4", events.DamageTaken{Dealt: 12, Damage: 12}}, step{ajaxStream, "K5", events.CharacterDied{Cause: "wounds"}},
			step{ajaxStream, "K6", events.CharacterDied{Cause: "again"}}), 6, "Ajax died twice"},
		{"died of light wounds", with(hurt, step{ajaxStream, "K5", events.CharacterDied{Cause: "wounds"}}), 5, "Ajax died with 5 damage against ST 12"},
		{"a standing bonus of nothing", with(step{ajaxStream, "K4", events.SkillBonusSet{Bonus: "luck", Previous: "hit"}}), 4, `a standing skill bonus of "luck" (hit or damage)`},
		{"a standing bonus set from what it was not", with(step{ajaxStream, "K4", events.SkillBonusSet{Bonus: "damage", Previous: "damage"}}), 4,
			"standing skill bonus set from damage to damage; the sheet had hit"},
		{"armour not of the edition", with(step{ajaxStream, "K4", events.ItemEquipped{Slot: "armor", Item: "mithril", Name: "Mithril"}}), 4, "mithril"},
		{"the same armour twice", with(step{ajaxStream, "K4", flakVest}, step{ajaxStream, "K5", func() events.ItemEquipped { v := flakVest; v.Over = true; return v }()}), 5,
			"Ajax put on a second Flak Vest"},
		{"a weapon not of the edition", with(step{ajaxStream, "K4", events.ItemEquipped{Slot: "weapon", Item: "lightsaber", Name: "Lightsaber"}}), 4, "lightsaber"},
		{"a curse lifted at the wrong price", with(step{ajaxStream, "K4", events.CurseAdded{Levels: 1}}, step{ajaxStream, "K5", events.WishGranted{Amount: 2}},
			step{ajaxStream, "K6", events.CurseLifted{Method: "wish", Wishes: 2, Rule: "two wishes", Edition: "2021"}}), 6, "curse lifted by wish at a cost the 2021 rules do not give"},
		{"a curse lifted by an unknown method", with(step{ajaxStream, "K4", events.CurseAdded{Levels: 1}}, step{ajaxStream, "K5", events.CurseLifted{Method: "prayer"}}), 5, "prayer"},
		{"a curse lifted with none", with(step{ajaxStream, "K4", events.WishGranted{Amount: 1}}, step{ajaxStream, "K5", events.CurseLifted{Method: "wish", Wishes: 1}}), 5, "curse"},
		{"a roll of someone else on Ajax's stream", with(step{ajaxStream, "K4", events.RollMade{CharacterID: "H", Character: "Hector", Expr: "3/DX", Kind: "check"}}), 4,
			"a roll of Hector (H) on Ajax's stream"},
		{"a contest of others on Ajax's stream", with(step{ajaxStream, "K4", events.ContestResolved{Sides: [2]events.ContestSide{{CharacterID: "H", Name: "Hector"}, {CharacterID: "Z", Name: "Zed"}}}}), 4,
			"a contest of Hector and Zed on Ajax's stream"},
		{"XP for a foe", with(step{foe, "K4", ork}, step{foe, "K5", events.XPAwarded{Amount: 1, Reason: "r"}}), 5, "xp.awarded for foe Ork; foes have no XP, karma, wishes or curses"},
		{"a foe created as a character", with(step{foe, "K4", ork}, step{foe, "K5", events.KarmaGranted{Amount: 1}}), 5, "karma.granted for foe Ork"},
		{"a foe added twice", with(step{foe, "K4", ork}, step{foe, "K5", ork}), 5, ""},
		{"an event for a foe taken off the roster", with(step{foe, "K4", ork}, step{foe, "K5", events.FoeRemoved{}}, step{foe, "K6", events.DamageTaken{Dealt: 1, Damage: 1}}), 6,
			"damage.taken for foe Ork, who was taken off the roster"},
		{"a foe of another edition", with(step{foe, "K4", func() events.FoeAdded { o := ork; o.Edition = "2010"; return o }()}), 4, ""},
		{"a foe on another's stream", with(step{"foe/X", "K4", ork}), 4, ""},
		{"a foe named like Ajax", with(step{foe, "K4", func() events.FoeAdded { o := ork; o.Name = "ajax"; return o }()}), 4, ""},
		{"a character on a foe's stream", with(step{foe, "K4", events.CharacterCreated{CharacterID: "O", Name: "Ork", Edition: "2021", Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9}}}), 4, ""},
		{"a character created twice", with(step{ajaxStream, "K4", events.CharacterCreated{CharacterID: "A", Name: "Ajax II", Edition: "2021", Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9}}}), 4,
			"character A created twice"},
		{"a character of another edition", with(step{"character/B", "K4", events.CharacterCreated{CharacterID: "B", Name: "Brainy", Edition: "2010", Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9}}}), 4,
			"created for edition 2010 in a 2021 campaign"},
		{"a character with an unknown skill", with(step{"character/B", "K4", events.CharacterCreated{CharacterID: "B", Name: "Brainy", Edition: "2021", Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9},
			Skills: []events.SkillLevel{{Skill: "juggling", Name: "Juggling", Level: 1}}}}), 4, "juggling"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := Replay(logOf(t, tt.steps...), nil)
			if tt.want == "" && tt.seq == 0 {
				if len(w.Violations) != 0 {
					t.Fatalf("violations in a good log: %+v", w.Violations)
				}
				return
			}
			found := false
			for _, v := range w.Violations {
				if v.Seq == tt.seq && strings.Contains(strings.ToLower(v.Problem), strings.ToLower(tt.want)) {
					found = true
				}
			}
			if !found {
				t.Fatalf("violations %+v, want one at seq %d containing %q", w.Violations, tt.seq, tt.want)
			}
		})
	}
}
