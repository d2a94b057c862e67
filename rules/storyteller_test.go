package rules

import (
	"fmt"
	"testing"
)

// 2020/2021 Storyteller: "Only Storytellers may attempt a 3/IQ +
// Storytelling, to distribute one karma point per Storytelling level to the
// party."
func TestStorytellerKarma(t *testing.T) {
	if got := StorytellerCheck().String(); got != "3/IQ+Storyteller" {
		t.Errorf("StorytellerCheck = %s", got)
	}
	roll := func(ed Edition, level int, faces ...int) CheckOutcome {
		out, err := ResolveCheck(CheckInput{Edition: ed, Expr: StorytellerCheck(), AttributeValue: 9, SkillName: "Storyteller", SkillLevel: level}, NewGivenFaces(faces))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, ed := range []Edition{Edition2020, Edition2021} {
		t.Run(string(ed), func(t *testing.T) {
			// IQ9 + Storyteller 2 = 11: 4,4,3 passes, 4,4,4 fails.
			rows := []struct {
				level int
				check CheckOutcome
				karma int
			}{
				{2, roll(ed, 2, 4, 4, 3), 2},
				{2, roll(ed, 2, 4, 4, 4), 0},
				{1, roll(ed, 1, 1, 1, 1), 1},
			}
			for _, r := range rows {
				got, err := StorytellerKarma(ed, r.level, r.check)
				if err != nil || got != r.karma {
					t.Errorf("StorytellerKarma(level %d, total %d) = %d, %v; want %d", r.level, r.check.Total, got, err, r.karma)
				}
			}
			_, err := StorytellerKarma(ed, 0, CheckOutcome{Pass: true})
			wantError(t, err, CodeRule, "only Storytellers may attempt 3/IQ+Storyteller to give the party karma")
			_, err = StorytellerKarma(ed, -1, CheckOutcome{Pass: true})
			wantError(t, err, CodeInvalid, "Storyteller level -1 is negative")
		})
	}
	_, err := StorytellerKarma(Edition2010, 2, CheckOutcome{Pass: true})
	wantError(t, err, CodeRule, "edition 2010 has no Storyteller skill: karma comes only from the adventure")
}

// 2010 "Karma/Wish": "A character can use ... a karma point as one XP."
func TestKarmaToXP(t *testing.T) {
	if err := KarmaToXP(Edition2010, "Ajax", 3, 2); err != nil {
		t.Errorf("2010: %v", err)
	}
	if err := KarmaToXP(Edition2010, "Ajax", 3, 3); err != nil {
		t.Errorf("2010, all of it: %v", err)
	}
	if err := KarmaToXP(Edition2010, "Ajax", 1, 1); err != nil {
		t.Errorf("2010, one point: %v", err)
	}
	wantError(t, KarmaToXP(Edition2010, "Ajax", 1, 2), CodeRule, "Ajax has 1 karma and cannot turn 2 into XP")
	wantError(t, KarmaToXP(Edition2010, "Ajax", 3, 0), CodeInvalid, "turn 1 or more karma points into XP, not 0")
	for _, ed := range []Edition{Edition2020, Edition2021} {
		wantError(t, KarmaToXP(ed, "Ajax", 3, 1), CodeRule,
			fmt.Sprintf(`edition %s does not turn karma into XP (only edition 2010: "a karma point as one XP")`, ed))
	}
}
