package rules

// StorytellerCheck returns the check a Storyteller rolls to give the party
// karma: 3/IQ+Storyteller (2020/2021 Storyteller: "a 3/IQ + Storytelling").
func StorytellerCheck() CheckExpr {
	return CheckExpr{Dice: 3, Attribute: IQ, Skill: "Storyteller", Mode: CheckAssisted}
}

// StorytellerKarma returns the karma points each party member receives
// from a Storyteller of the given level whose check (StorytellerCheck) gave
// check: level on a pass, 0 on a failure. The points expire at the end of
// the current game day. Level 0 (not a Storyteller), and edition 2010,
// whose book has no Storyteller skill, are CodeRule errors.
//
// 2020/2021 Storyteller: "Only Storytellers may attempt a 3/IQ +
// Storytelling, to distribute one karma point per Storytelling level to the
// party. These karma points must be used in current game day." The books
// set no limit on how often he may try; ltscamp leaves that to the
// adventure and the GM.
func StorytellerKarma(ed Edition, level int, check CheckOutcome) (int, error) {
	ed, err := resolveEdition(ed)
	if err != nil {
		return 0, err
	}
	switch {
	case ed == Edition2010:
		return 0, Errorf(CodeRule, "edition 2010 has no Storyteller skill: karma comes only from the adventure")
	case level < 0:
		return 0, Errorf(CodeInvalid, "Storyteller level %d is negative", level)
	case level == 0:
		return 0, Errorf(CodeRule, "only Storytellers may attempt 3/IQ+Storyteller to give the party karma")
	case !check.Pass:
		return 0, nil
	}
	return level, nil
}

// KarmaToXP checks that who, holding karma points, may turn n of them into
// n XP. Only edition 2010 allows it (2010 "Karma/Wish": "A character can
// use ... a karma point as one XP"); elsewhere it is a CodeRule error. n
// below 1 is CodeInvalid; karma below n is CodeRule.
func KarmaToXP(ed Edition, who string, karma, n int) error {
	ed, err := resolveEdition(ed)
	if err != nil {
		return err
	}
	switch {
	case ed != Edition2010:
		return Errorf(CodeRule, "edition %s does not turn karma into XP (only edition 2010: \"a karma point as one XP\")", ed)
	case n < 1:
		return Errorf(CodeInvalid, "turn 1 or more karma points into XP, not %d", n)
	case karma < n:
		return Errorf(CodeRule, "%s has %d karma and cannot turn %d into XP", who, max(karma, 0), n)
	}
	return nil
}
