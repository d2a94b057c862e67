package rules

import (
	"fmt"
	"slices"
	"strings"
)

// Position is a craft's position relative to one foe in a dogfight. Its
// string value is stored in events and must never change; edition 2010's
// "neutral" is Turning, shown with Label.
//
// 2020/2021 "Relative Positions": "Positions are: pursuit, fleeing and
// turning ... Disengaged craft are neither pursuing, fleeing, nor turning."
// 2010 "Positions": "three engaged positions and one disengaged position:
// Pursuit ... Fleeing ... Neutral: place neutral craft side-by-side, facing
// opposite directions."
type Position string

// The positions.
const (
	// Pursuit: "A pursuing craft follows its foe"; it may fire on it.
	Pursuit Position = "pursuit"
	// Fleeing: "A fleeing craft leads its foe."
	Fleeing Position = "fleeing"
	// Turning: "Turning craft are side-by-side, facing opposite
	// directions" (2010 "Neutral").
	Turning Position = "turning"
	// Disengaged: neither pursuing, fleeing nor turning. "Craft begin
	// disengaged."
	Disengaged Position = "disengaged"
)

// Valid reports whether p is one of the four positions.
func (p Position) Valid() bool {
	switch p {
	case Pursuit, Fleeing, Turning, Disengaged:
		return true
	}
	return false
}

// Mirror returns the foe's position when a craft holds p: pursuit and
// fleeing swap, turning and disengaged stay.
func (p Position) Mirror() Position {
	switch p {
	case Pursuit:
		return Fleeing
	case Fleeing:
		return Pursuit
	}
	return p
}

// Label returns the position's name in edition ed: Turning is "neutral" in
// 2010 (SideBySide), the others are their own value.
func (p Position) Label(ed Edition) string {
	if p == Turning {
		return SideBySide(ed)
	}
	return string(p)
}

// SideBySide returns the name edition ed gives the side-by-side position:
// "neutral" in 2010 ("Neutral: place neutral craft side-by-side, facing
// opposite directions"), "turning" in 2020 and 2021 ("Turning craft are
// side-by-side, facing opposite directions"). An unknown edition is
// DefaultEdition.
func SideBySide(ed Edition) string {
	if ed.orDefault() == Edition2010 {
		return "neutral"
	}
	return string(Turning)
}

// ParsePosition reads a position name case-insensitively: "pursuit",
// "fleeing", "turning", "neutral" (Turning, in any edition) or
// "disengaged". Anything else is a CodeInvalid error.
func ParsePosition(s string) (Position, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "neutral" {
		return Turning, nil
	}
	if p := Position(t); p.Valid() {
		return p, nil
	}
	return "", Errorf(CodeInvalid, "unknown position %q: use pursuit, fleeing, turning (neutral) or disengaged", strings.TrimSpace(s))
}

// Choice is what the winner of a maneuver does with his win. Its string
// value is stored in events.
type Choice string

// The choices.
const (
	// ChoiceDefault takes the winner's default (ManeuverChoices).
	ChoiceDefault Choice = ""
	// ChoiceDisengage disengages both craft from each other.
	ChoiceDisengage Choice = "disengage"
	// ChoiceTurn puts both craft in the turning (2010 neutral) position.
	ChoiceTurn Choice = "turn"
	// ChoicePursue takes the pursuit position; the foe is fleeing.
	ChoicePursue Choice = "pursue"
	// ChoiceMaintain keeps a pursuer in pursuit.
	ChoiceMaintain Choice = "maintain"
)

// ParseChoice reads a choice case-insensitively: "disengage", "turn"
// ("neutral" too), "pursue" ("pursuit" too), "maintain", or "" for the
// default. Anything else is a CodeInvalid error.
func ParseChoice(s string) (Choice, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "neutral", "turning":
		return ChoiceTurn, nil
	case "pursuit":
		return ChoicePursue, nil
	}
	if c := Choice(t); c == ChoiceDefault || c.known() {
		return c, nil
	}
	return "", Errorf(CodeInvalid, "unknown choice %q: use disengage, turn, pursue or maintain", strings.TrimSpace(s))
}

// known reports whether c is one of the four named choices.
func (c Choice) known() bool {
	switch c {
	case ChoiceDisengage, ChoiceTurn, ChoicePursue, ChoiceMaintain:
		return true
	}
	return false
}

// ManeuverChoices returns what the winner of a pilot check may do from
// position pos in edition ed, and the default taken when he does not say.
//
// 2020/2021 "Resolving Maneuver": "the winner of a pilot check (+craft's M
// bonus) has the respective options: A "fleeing" craft can either
// disengage, or take the "turning" position against its pursuing foe. A
// "turning" craft can disengage, or take the "pursuit" position against its
// turning foe. A "disengaged" craft takes the "pursuit" position against its
// foe. A "pursuit" craft remains in the "pursuit" position."
//
// 2010 "Maneuver": "A pursuer can maintain pursuit or disengage. A fleer
// becomes neutral with his opponent. A neutral craft can pursue or
// disengage." 2010 does not say what a disengaged winner does; the 2020/2021
// rule is used: he takes pursuit.
//
// Defaults, where the books leave the choice to the winner: a fleer turns
// (2021 Example 1a: "Rather than disengage, Hector elects to take the
// turning position"), a turning craft pursues (Example 1b: "Hector wins, and
// he elects to take the pursuit position"), and a 2010 pursuer maintains
// pursuit. The default never ends the engagement; disengaging is always an
// explicit choice.
func ManeuverChoices(ed Edition, pos Position) (options []Choice, def Choice) {
	ed = ed.orDefault()
	switch {
	case pos == Pursuit && ed == Edition2010:
		return []Choice{ChoiceMaintain, ChoiceDisengage}, ChoiceMaintain
	case pos == Pursuit:
		return []Choice{ChoiceMaintain}, ChoiceMaintain
	case pos == Fleeing && ed == Edition2010:
		return []Choice{ChoiceTurn}, ChoiceTurn
	case pos == Fleeing:
		return []Choice{ChoiceTurn, ChoiceDisengage}, ChoiceTurn
	case pos == Turning:
		return []Choice{ChoicePursue, ChoiceDisengage}, ChoicePursue
	case pos == Disengaged:
		return []Choice{ChoicePursue}, ChoicePursue
	}
	return nil, ChoiceDefault
}

// ManeuverInput is one craft's maneuver against a foe.
type ManeuverInput struct {
	// Edition is the campaign's edition ("" means DefaultEdition).
	Edition Edition
	// Mover and Target are the craft's names.
	Mover, Target string
	// MoverPos is the mover's position relative to the target; the
	// target's is its Mirror. "Craft begin disengaged."
	MoverPos Position
	// MoverPilot and TargetPilot are the pilots' sides of the pilot check:
	// Name (the pilot; the craft's name when empty), AttributeValue (DX;
	// Attribute may be left empty), Restriction, SkillLevel in Pilot
	// (SkillName may be left empty), Curses and Dice (0 means 3).
	MoverPilot, TargetPilot ContestSide
	// MoverM and TargetM are the craft's maneuver bonuses (M+X), added to
	// the pilots' targets.
	MoverM, TargetM int
	// TargetEngagedElsewhere reports that the target is engaged with
	// another craft. When the mover is disengaged from the target, the
	// maneuver is unopposed: "A spacecraft maneuvering against an already
	// engaged opponent automatically takes pursuit." When the mover is
	// already engaged with the target it is an ordinary contest.
	TargetEngagedElsewhere bool
	// MoverEngagedElsewhere reports that the mover is engaged with other
	// craft: being disengaged from the target, he may not maneuver against
	// it (2020/2021 "Engagement": "Craft maneuvering against foes are
	// "engaged" in combat, and can only maneuver against those foes"; 2010
	// "Maneuver": "an engaged craft must maneuver against its opponent").
	MoverEngagedElsewhere bool
	// MoverDIW reports that the mover is dead in the water: it cannot
	// maneuver (2020/2021 "Dead In The Water": "the craft can no longer
	// move or fire on enemies").
	MoverDIW bool
	// TargetDIW reports that the target is dead in the water: it cannot
	// move, so when it wins (or ties from disengaged) the positions stay
	// ("the craft can no longer move").
	TargetDIW bool
	// Choice is the winner's choice where he has one; ChoiceDefault takes
	// the default of ManeuverChoices.
	Choice Choice
	// FirstRound reports the dogfight's first round. No maneuver rule
	// depends on it; it is kept with the maneuver for the log.
	FirstRound bool
}

// ManeuverOutcome is a resolved maneuver.
type ManeuverOutcome struct {
	// Contest is the pilot check; nil when the maneuver was unopposed.
	Contest *ContestOutcome
	// Unopposed reports a maneuver against a foe engaged elsewhere.
	Unopposed bool
	// Winner is the winning craft's name; "" on a tie or when both fail.
	Winner string
	// MoverPos and TargetPos are the positions afterwards, each relative
	// to the other craft.
	MoverPos, TargetPos Position
	// Options are the choices the winner had; Chosen is the one taken.
	Options []Choice
	Chosen  Choice
	// Explanation is the contest's sentence and what it did to the
	// positions.
	Explanation string
}

// normalized validates in and returns it with the names and edition
// filled in.
func (in ManeuverInput) normalized() (ManeuverInput, error) {
	ed, err := resolveEdition(in.Edition)
	if err != nil {
		return in, err
	}
	in.Edition = ed
	in.Mover = sideName(in.Mover, "the moving craft")
	in.Target = sideName(in.Target, "the target craft")
	switch {
	case !in.MoverPos.Valid():
		return in, Errorf(CodeInvalid, "unknown position %q for %s: use pursuit, fleeing, %s or disengaged", string(in.MoverPos), in.Mover, SideBySide(ed))
	case in.Choice != ChoiceDefault && !in.Choice.known():
		return in, Errorf(CodeInvalid, "unknown choice %q: use disengage, turn, pursue or maintain", string(in.Choice))
	case in.MoverDIW:
		return in, Errorf(CodeRule, "%s is dead in the water and cannot maneuver: a DIW craft can no longer move or fire", in.Mover)
	case in.MoverEngagedElsewhere && in.MoverPos == Disengaged:
		return in, Errorf(CodeRule, "%s is engaged with other craft and can only maneuver against those foes, not against %s", in.Mover, in.Target)
	}
	return in, nil
}

// unopposed reports whether in is an unopposed maneuver.
func (in ManeuverInput) unopposed() bool {
	return in.TargetEngagedElsewhere && in.MoverPos == Disengaged
}

// ResolveManeuver resolves a maneuver: the pilot check of the mover (rolled
// with moverDice) against the target (targetDice; nil rolls both with
// moverDice), each pilot at DX + Pilot + the craft's M bonus, then the
// winner's choice (ApplyManeuver). An unopposed maneuver rolls nothing.
//
// Choice is checked against the winner's options once the winner is known;
// to let the winner choose after seeing the dice, resolve the check with
// ResolvePilotContest and then call ApplyManeuver.
func ResolveManeuver(in ManeuverInput, moverDice, targetDice Roller) (ManeuverOutcome, error) {
	in, err := in.normalized()
	if err != nil {
		return ManeuverOutcome{}, err
	}
	if in.unopposed() {
		return ApplyManeuver(in, nil)
	}
	// Reject a choice that neither craft could make before any die rolls.
	moverOpts, _ := ManeuverChoices(in.Edition, in.MoverPos)
	targetOpts, _ := ManeuverChoices(in.Edition, in.MoverPos.Mirror())
	if in.Choice != ChoiceDefault && !slices.Contains(moverOpts, in.Choice) && !slices.Contains(targetOpts, in.Choice) {
		return ManeuverOutcome{}, Errorf(CodeInvalid, "neither craft can %s: %s (%s) can %s; %s (%s) can %s",
			in.Choice, in.Mover, in.MoverPos.Label(in.Edition), choiceList(moverOpts),
			in.Target, in.MoverPos.Mirror().Label(in.Edition), choiceList(targetOpts))
	}
	mover, target := in.MoverPilot, in.TargetPilot
	mover.Name = sideName(mover.Name, in.Mover)
	target.Name = sideName(target.Name, in.Target)
	c, err := ResolvePilotContest(in.Edition, mover, target, in.MoverM, in.TargetM, moverDice, targetDice)
	if err != nil {
		return ManeuverOutcome{}, err
	}
	return ApplyManeuver(in, &c)
}

// ApplyManeuver applies a resolved pilot check (side 0 the mover, side 1
// the target, as ResolvePilotContest returns it) to the craft's positions.
// contest is nil for an unopposed maneuver, which needs
// TargetEngagedElsewhere and a disengaged mover.
//
//   - A win: the winner's choice from ManeuverChoices by his position;
//     another choice is a CodeInvalid error naming his options. "Regardless
//     of the player taking the turn", the target may be the winner.
//   - A tie: 2020/2021 "On a tie, positions remain unchanged. If disengaged
//     foes tie, they are now turning." 2010 is silent on ties; the same rule
//     is used (the foes become neutral).
//   - Both over: 2010 "If both sides fail, craft remain as they are", in
//     every edition (2020/2021 are silent), even for disengaged foes.
//   - Unopposed: 2020/2021 "Unopposed Maneuver": "A spacecraft maneuvering
//     against an already engaged opponent automatically takes pursuit."
//     2010 is silent; the same rule is used.
//
// A choice given when nobody wins is ignored. "Only one craft can pursue a
// fleeing foe" is for the caller, who knows every pair of craft.
func ApplyManeuver(in ManeuverInput, contest *ContestOutcome) (ManeuverOutcome, error) {
	in, err := in.normalized()
	if err != nil {
		return ManeuverOutcome{}, err
	}
	ed := in.Edition
	silent := ""
	if ed == Edition2010 {
		silent = " (edition 2010 does not say; the 2021 rule is used)"
	}
	out := ManeuverOutcome{MoverPos: in.MoverPos, TargetPos: in.MoverPos.Mirror(), Contest: contest}
	if contest != nil && in.unopposed() {
		return ManeuverOutcome{}, Errorf(CodeInvalid, "%s's maneuver on %s is unopposed (%s is engaged with another craft): no pilot check is rolled", in.Mover, in.Target, in.Target)
	}
	if contest == nil {
		if !in.unopposed() {
			return ManeuverOutcome{}, Errorf(CodeInvalid, "%s's maneuver on %s needs a pilot check: only a maneuver against a foe engaged with another craft is unopposed", in.Mover, in.Target)
		}
		out.Unopposed, out.Winner = true, in.Mover
		out.Options, out.Chosen = []Choice{ChoicePursue}, ChoicePursue
		if in.Choice != ChoiceDefault && in.Choice != ChoicePursue {
			return ManeuverOutcome{}, Errorf(CodeInvalid, "%s maneuvers on %s, who is engaged with another craft, and automatically takes pursuit: it cannot %s", in.Mover, in.Target, in.Choice)
		}
		out.MoverPos, out.TargetPos = Pursuit, Fleeing
		out.Explanation = fmt.Sprintf("%s is engaged with another craft, so %s's maneuver is unopposed: %s takes the pursuit position on %s%s.",
			in.Target, in.Mover, in.Mover, in.Target, silent)
		return out, nil
	}
	names := [2]string{in.Mover, in.Target}
	switch contest.Outcome {
	case ContestBothFail:
		note := ""
		if ed != Edition2010 {
			note = fmt.Sprintf(" (edition %s does not say; the 2010 rule is used)", ed)
		}
		out.Explanation = fmt.Sprintf("%s Craft remain as they are%s: %s is %s, %s %s.",
			contest.Explanation, note, in.Mover, out.MoverPos.Label(ed), in.Target, out.TargetPos.Label(ed))
		return out, nil
	case ContestTie:
		if in.MoverPos == Disengaged && !in.TargetDIW {
			out.MoverPos, out.TargetPos = Turning, Turning
			out.Explanation = fmt.Sprintf("%s Disengaged foes that tie are now %s%s.", contest.Explanation, Turning.Label(ed), silent)
			return out, nil
		}
		out.Explanation = fmt.Sprintf("%s On a tie, positions remain unchanged%s: %s is %s, %s %s.",
			contest.Explanation, silent, in.Mover, out.MoverPos.Label(ed), in.Target, out.TargetPos.Label(ed))
		return out, nil
	case ContestWin:
	default:
		return ManeuverOutcome{}, Errorf(CodeInvalid, "unknown contest outcome %q", contest.Outcome)
	}
	if contest.Winner != 0 && contest.Winner != 1 {
		return ManeuverOutcome{}, Errorf(CodeInvalid, "a won contest has winner %d: want 0 (the mover) or 1 (the target)", contest.Winner)
	}
	w := contest.Winner
	if w == 1 && in.TargetDIW {
		out.Winner = in.Target
		out.Explanation = fmt.Sprintf("%s %s wins but is dead in the water and cannot move: %s is %s, %s %s.",
			contest.Explanation, in.Target, in.Mover, out.MoverPos.Label(ed), in.Target, out.TargetPos.Label(ed))
		return out, nil
	}
	winner, loser := names[w], names[1-w]
	wpos := [2]Position{out.MoverPos, out.TargetPos}[w]
	options, def := ManeuverChoices(ed, wpos)
	out.Winner, out.Options = winner, options
	choice := in.Choice
	if choice == ChoiceDefault {
		choice = def
	}
	if !slices.Contains(options, choice) {
		return ManeuverOutcome{}, Errorf(CodeInvalid, "%s wins from the %s position and can %s, not %s", winner, wpos.Label(ed), choiceList(options), choice)
	}
	out.Chosen = choice
	var wnew Position
	var did string
	switch choice {
	case ChoiceDisengage:
		wnew = Disengaged
		did = fmt.Sprintf("disengages from %s", loser)
	case ChoiceTurn:
		wnew = Turning
		did = fmt.Sprintf("takes the %s position on %s: both craft are side by side, facing opposite directions", Turning.Label(ed), loser)
	case ChoiceMaintain:
		wnew = Pursuit
		did = fmt.Sprintf("remains in pursuit of %s", loser)
	case ChoicePursue:
		wnew = Pursuit
		did = fmt.Sprintf("takes the pursuit position on %s", loser)
		if wpos == Disengaged {
			did += silent
		}
	}
	newPos := [2]Position{}
	newPos[w], newPos[1-w] = wnew, wnew.Mirror()
	out.MoverPos, out.TargetPos = newPos[0], newPos[1]
	out.Explanation = fmt.Sprintf("%s %s %s.", contest.Explanation, winner, did)
	return out, nil
}

// choiceList joins choices as "disengage or turn".
func choiceList(cs []Choice) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = string(c)
	}
	switch len(s) {
	case 0:
		return "do nothing"
	case 1:
		return "only " + s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// ResolvePilotContest resolves a pilot check between two craft: each pilot
// rolls against DX + Pilot level + his craft's maneuver bonus (aM, bM), a's
// dice with ra and b's with rb (nil rolls both with ra). It is the check of
// a maneuver (a the mover) and of a 2010 firing run (a the attacker).
//
// 2020/2021 "Maneuver": "Every time the craft maneuvers against an enemy
// craft, the pilot adds +1 to his piloting skill. ... the craft's pilot has
// an effective DX12 when trying to win checks against his enemy pilot's
// DX10"; so the bonus counts wherever the target does, ties included. 2010
// "Spacecraft Pilot: operate star craft on 3/DX". The contest itself is
// ResolveContest's. Each side's Attribute may be left empty (DX) and its
// SkillName too (the edition's name for Pilot); the target modifiers list
// the Pilot level and the maneuver bonus apart.
func ResolvePilotContest(ed Edition, a, b ContestSide, aM, bM int, ra, rb Roller) (ContestOutcome, error) {
	ed, err := resolveEdition(ed)
	if err != nil {
		return ContestOutcome{}, err
	}
	a.Name = sideName(a.Name, "the first pilot")
	b.Name = sideName(b.Name, "the second pilot")
	var folded [2]ContestSide
	for i, s := range []struct {
		side ContestSide
		m    int
	}{{a, aM}, {b, bM}} {
		f, err := pilotSide(ed, s.side, s.m)
		if err != nil {
			return ContestOutcome{}, err
		}
		folded[i] = f
	}
	out, err := ResolveContest(ed, folded[0], folded[1], ra, rb)
	if err != nil {
		return ContestOutcome{}, err
	}
	// 2020/2021 "Dogfight": "On a tie, positions remain unchanged. If
	// disengaged foes tie, they are now turning." The books state a tie
	// rule for dogfights, so the general contest's tie-break (the higher
	// attribute wins) does not apply there. 2010 states none: its general
	// contest rule stands.
	tiedTotals := out.Sides[0].Total == out.Sides[1].Total && !out.Sides[0].Over && !out.Sides[1].Over
	if ed != Edition2010 && out.Outcome == ContestWin && tiedTotals {
		out.Winner, out.Outcome = -1, ContestTie
		out.Explanation = fmt.Sprintf("%s and %s both total %d: in a dogfight a tie is a tie, whatever the pilots' targets (edition %s).",
			a.Name, b.Name, out.Sides[0].Total, ed)
		if aM == 0 && bM == 0 {
			return out, nil
		}
		for i, s := range [2]ContestSide{a, b} {
			out.Sides[i].Modifiers = splitManeuver(out.Sides[i].Modifiers, folded[i].SkillName, s.SkillLevel, [2]int{aM, bM}[i])
		}
		return out, nil
	}
	if aM == 0 && bM == 0 {
		return out, nil
	}
	// The bonus went into the skill level so that ResolveContest counts it
	// everywhere; list it apart and retell the contest with it.
	for i, s := range [2]ContestSide{a, b} {
		m := [2]int{aM, bM}[i]
		out.Sides[i].Modifiers = splitManeuver(out.Sides[i].Modifiers, folded[i].SkillName, s.SkillLevel, m)
	}
	out.Explanation = explainContest(ed, folded, out)
	return out, nil
}

// pilotSide checks one pilot and folds the maneuver bonus m into his skill
// level.
func pilotSide(ed Edition, s ContestSide, m int) (ContestSide, error) {
	switch {
	case s.Attribute == "":
		s.Attribute = DX
	case s.Attribute != DX:
		return ContestSide{}, Errorf(CodeInvalid, "%s's pilot check is on DX, not %s (\"operate star craft on 3/DX\")", s.Name, s.Attribute)
	}
	switch {
	case m < 0:
		return ContestSide{}, Errorf(CodeInvalid, "%s's maneuver bonus M%+d is negative", s.Name, m)
	case m > MaxShipRating:
		return ContestSide{}, Errorf(CodeInvalid, "%s's maneuver bonus M+%d is out of range (0 to %d)", s.Name, m, MaxShipRating)
	case s.SkillLevel < 0:
		return ContestSide{}, Errorf(CodeInvalid, "%s's skill level %d is negative", s.Name, s.SkillLevel)
	}
	if s.SkillName == "" {
		if pilot, ok := skillByKey("pilot"); ok {
			s.SkillName = pilot.NameIn(ed)
		}
	}
	s.SkillLevel += m
	return s, nil
}

// splitManeuver replaces the skill modifier that holds level + m with the
// skill level (when not 0) and the maneuver bonus (when not 0).
func splitManeuver(mods []Modifier, skill string, level, m int) []Modifier {
	out := make([]Modifier, 0, len(mods)+1)
	for _, mod := range mods {
		if mod.Applies == AppliesTarget && mod.Source == "skill "+skill && mod.Value == level+m {
			if level > 0 {
				out = append(out, Modifier{Source: mod.Source, Value: level, Applies: AppliesTarget})
			}
			if m > 0 {
				out = append(out, Modifier{Source: fmt.Sprintf("maneuver M+%d", m), Value: m, Applies: AppliesTarget})
			}
			continue
		}
		out = append(out, mod)
	}
	return out
}

// explainContest tells a resolved contest in ResolveContest's words, from
// the outcome's own modifiers.
func explainContest(ed Edition, sides [2]ContestSide, out ContestOutcome) string {
	a, b := sides[0], sides[1]
	sa, sb := out.Sides[0], out.Sides[1]
	var s string
	switch {
	case out.Outcome == ContestBothFail:
		s = fmt.Sprintf("%s's %s exceeds %s and %s's %s exceeds %s; both fail.",
			a.Name, totalText(sa), targetText(a, sa), b.Name, totalText(sb), targetText(b, sb))
	case out.Outcome == ContestTie:
		s = fmt.Sprintf("%s and %s both total %d against %d; it is a tie.", a.Name, b.Name, sa.Total, sa.Target)
	case out.Outcome == ContestWin && (out.Winner == 0 || out.Winner == 1):
		w, l := out.Winner, 1-out.Winner
		sw, sl := out.Sides[w], out.Sides[l]
		switch {
		case sl.Over:
			s = fmt.Sprintf("%s's %s exceeds %s; %s wins with %s on %s.",
				sides[l].Name, totalText(sl), targetText(sides[l], sl), sides[w].Name, totalText(sw), targetText(sides[w], sw))
		case sa.Total != sb.Total:
			s = fmt.Sprintf("%s wins with %s on %s against %s's %s on %s.",
				sides[w].Name, totalText(sw), targetText(sides[w], sw), sides[l].Name, totalText(sl), targetText(sides[l], sl))
		default:
			s = fmt.Sprintf("%s and %s both total %d; %s wins the tie with the higher %s against %s%s.",
				a.Name, b.Name, sa.Total, sides[w].Name, targetText(sides[w], sw), targetText(sides[l], sl), tieRuleNote(ed))
		}
	default:
		return out.Explanation
	}
	if strings.HasPrefix(s, "the ") {
		s = capitalize(s)
	}
	return s
}

// FireKind is how a craft fires on a target. Its string value is stored in
// events.
type FireKind string

// The kinds of fire. 2020/2021 "FIRING": "A craft can only fire on a target
// he is pursuing, or on a target on which he is making a firing run." 2010
// "Firing": "An attacker can only fire from the pursuit position or if
// making a firing run."
const (
	// FirePursuit fires from the pursuit position: 3/DX+GUNNER.
	FirePursuit FireKind = "pursuit"
	// FireRun is a firing run on a target the craft is disengaged from:
	// 4/DX+GUNNER.
	FireRun FireKind = "run"
	// FireFacing is a facing firing run, first turn only, 2020/2021:
	// both craft fire on 3/DX+GUNNER.
	FireFacing FireKind = "facing"
)

// FireInput is one craft's fire on a target.
type FireInput struct {
	// Edition is the campaign's edition ("" means DefaultEdition).
	Edition Edition
	// Kind is how the craft fires.
	Kind FireKind
	// Gunner is the gunner's name; GunnerDX his raw DX, GunnerSkill his
	// Gunner level (0 without the skill: anyone may try, "assisted").
	Gunner                string
	GunnerDX, GunnerSkill int
	// Curses is the gunner's curse level; Restriction his armour's.
	Curses      int
	Restriction int
	// PilotContest is the 2010 firing run's PILOT check, resolved with
	// ResolvePilotContest with the attacker as side 0; it must be won.
	// Other kinds and editions ignore it.
	PilotContest *ContestOutcome
	// FirstRound reports the dogfight's first turn, when a facing firing
	// run is possible.
	FirstRound bool
	// AttackerPos is the firing craft's position relative to its target.
	AttackerPos Position
	// DIW reports that the firing craft is dead in the water: it cannot
	// fire.
	DIW bool
}

// FireCheck returns the check a gunner must pass to hit, or a CodeRule
// error saying why the craft cannot fire this way:
//
//   - pursuit, only from the Pursuit position: 3/DX+Gunner. 2020/2021
//     "Pursuit": "A pursuing attacker hits his target and rolls for damage
//     by passing 3/DX+GUNNER"; 2010 "Firing": "From pursuit, an attacker
//     hits his target and rolls for damage by passing 3/DX+GUNNER."
//   - run, only when disengaged from the target: 4/DX+Gunner. 2020/2021
//     "Firing Run": "An attacker, firing on target he is disengaged from,
//     hits and rolls for damage by passing 4/DX+GUNNER." 2010 "Firing Run":
//     "A disengaged craft may make a firing run ... An attacker winning a
//     PILOT check (+M) against his target can fire"; "From a firing run,
//     the attacker must pass 4/DX+GUNNER to hit."
//   - facing, on the first turn and when disengaged, 2020/2021 only:
//     3/DX+Gunner for each craft. "On the first turn of a dogfight, if an
//     attacker makes a FACING firing run against a foe, both craft
//     simultaneously hit and roll for damage by passing 3/DX+GUNNER." 2010
//     has no facing run. A facing run is a firing run, so the craft must be
//     disengaged from its foe (as every craft is when "Craft begin
//     disengaged").
//
// A DIW craft cannot fire ("the craft can no longer move or fire on
// enemies"). Malformed input is CodeInvalid.
func FireCheck(in FireInput) (CheckExpr, error) {
	ed, err := resolveEdition(in.Edition)
	if err != nil {
		return CheckExpr{}, err
	}
	who := sideName(in.Gunner, "the gunner")
	switch in.Kind {
	case FirePursuit, FireRun, FireFacing:
	default:
		return CheckExpr{}, Errorf(CodeInvalid, "unknown kind of fire %q: use pursuit, run or facing", string(in.Kind))
	}
	if !in.AttackerPos.Valid() {
		return CheckExpr{}, Errorf(CodeInvalid, "unknown position %q for %s's craft: use pursuit, fleeing, %s or disengaged", string(in.AttackerPos), who, SideBySide(ed))
	}
	gunner := "Gunner"
	if sk, ok := skillByKey("gunner"); ok {
		gunner = sk.NameIn(ed)
	}
	expr := CheckExpr{Dice: 3, Attribute: DX, Skill: gunner, Mode: CheckAssisted}
	pos := in.AttackerPos.Label(ed)
	if in.DIW {
		return CheckExpr{}, Errorf(CodeRule, "%s's craft is dead in the water and cannot fire", who)
	}
	switch in.Kind {
	case FirePursuit:
		if in.AttackerPos != Pursuit {
			return CheckExpr{}, Errorf(CodeRule, "%s's craft is %s its target: a craft fires from pursuit only on the target it is pursuing", who, positionPhrase(in.AttackerPos, ed))
		}
	case FireRun:
		if in.AttackerPos != Disengaged {
			return CheckExpr{}, Errorf(CodeRule, "%s's craft is %s its target: a firing run is made on a target the craft is disengaged from", who, positionPhrase(in.AttackerPos, ed))
		}
		if ed == Edition2010 {
			c := in.PilotContest
			switch {
			case c == nil:
				return CheckExpr{}, Errorf(CodeRule, "in edition 2010 a firing run needs a won PILOT check (+M) against the target first")
			case c.Outcome != ContestWin || c.Winner != 0:
				return CheckExpr{}, Errorf(CodeRule, "%s's craft did not win the PILOT check against its target: in edition 2010 only an attacker winning it can fire on a firing run", who)
			}
		}
		expr.Dice = 4
	case FireFacing:
		switch {
		case ed == Edition2010:
			return CheckExpr{}, Errorf(CodeRule, "edition 2010 has no facing firing run: fire from pursuit or make a firing run")
		case !in.FirstRound:
			return CheckExpr{}, Errorf(CodeRule, "a facing firing run is made only on the first turn of a dogfight")
		case in.AttackerPos != Disengaged:
			return CheckExpr{}, Errorf(CodeRule, "%s's craft is %s: a facing firing run is made by a craft disengaged from its foe", who, pos)
		}
	}
	return expr, nil
}

// positionPhrase is "pursuing", "fleeing", "turning with", "neutral with"
// or "disengaged from", to go before "its target".
func positionPhrase(p Position, ed Edition) string {
	switch p {
	case Pursuit:
		return "pursuing"
	case Fleeing:
		return "fleeing"
	case Turning:
		return p.Label(ed) + " with"
	}
	return "disengaged from"
}

// ResolveFire rolls the gunner's check from FireCheck with r: DX (less the
// armour restriction) plus his Gunner level as an assisted skill, a curse
// adding to the total as on any check. A facing firing run is resolved once
// for each craft ("both craft simultaneously hit"). On a hit, roll the
// weapon dice and apply them with ApplyShipHit.
func ResolveFire(in FireInput, r Roller) (CheckOutcome, error) {
	expr, err := FireCheck(in)
	if err != nil {
		return CheckOutcome{}, err
	}
	return ResolveCheck(CheckInput{
		Edition:        in.Edition,
		Expr:           expr,
		AttributeValue: in.GunnerDX,
		Restriction:    in.Restriction,
		SkillName:      expr.Skill,
		SkillLevel:     in.GunnerSkill,
		Curses:         in.Curses,
	}, r)
}

// PositionAfterFire returns the firing craft's position relative to its
// target after it fired from pos: a firing run of either kind leaves the
// craft disengaged (2020/2021 "Afterwards, craft are disengaged from one
// other"; 2010 "After the run, the craft are disengaged"); fire from
// pursuit changes nothing.
func PositionAfterFire(kind FireKind, pos Position) Position {
	if kind == FireRun || kind == FireFacing {
		return Disengaged
	}
	return pos
}

// ExitAllowed reports whether a craft in position pos (its position
// towards every foe: disengaged only when disengaged from all) may exit the
// dogfight, as a CodeRule error when not. All editions, "Exiting": "Except
// on the first round of a dogfight, any disengaged craft can exit the
// dogfight during its turn. Once a craft exits, it cannot return."
func ExitAllowed(pos Position, firstRound bool) error {
	switch {
	case !pos.Valid():
		return Errorf(CodeInvalid, "unknown position %q: use pursuit, fleeing, turning or disengaged", string(pos))
	case firstRound:
		return Errorf(CodeRule, "no craft can exit on the first round of a dogfight")
	case pos != Disengaged:
		return Errorf(CodeRule, "only a disengaged craft can exit the dogfight; it is in the %s position", pos)
	}
	return nil
}
