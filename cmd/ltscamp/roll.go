package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// parseFacesFlag reads a --dice value; an unset flag means generated dice.
func parseFacesFlag(cmd *cobra.Command, name, value string) ([]int, error) {
	if !cmd.Flags().Changed(name) {
		return nil, nil
	}
	return rules.ParseFaces(value)
}

// looksLikeFaces reports whether a positional argument is dice faces
// ("1,3,6", "4"): digits and commas only. Names start with a letter.
func looksLikeFaces(arg string) bool {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		return false
	}
	for _, r := range arg {
		if (r < '0' || r > '9') && r != ',' && r != ' ' {
			return false
		}
	}
	return true
}

// facesArg reads dice faces given as a positional argument (what) or with
// the --flag; both at once is a usage error. nil: neither was given.
func facesArg(cmd *cobra.Command, flag, value string, positional *string, what string) ([]int, error) {
	if positional == nil {
		return parseFacesFlag(cmd, flag, value)
	}
	if cmd.Flags().Changed(flag) {
		return nil, usagef("the %s are given twice, as %s and with --%s %s: give them once", what, *positional, flag, value)
	}
	return rules.ParseFaces(*positional)
}

func newRollCmd(a *app) *cobra.Command {
	var who, dice, reason string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "roll EXPR [NAME] [FACES] [--char NAME] [--dice 1,3,6] [--reason TEXT]",
		Short: "Roll a check (3/DX, 3/ST+Climbing, 3/ST against Swimming) or dice (2d6-1)",
		Long: `Roll and record a check or a dice roll.

A check (N/ATTR) needs --char: the total must be the attribute or less.
  3/ST+Climbing          assisted: the skill's level is added if the character has it
  3/ST against Swimming  required: without the skill the check fails outright
Dice notation (d3, d6, 2d6-1, d6+2) rolled for a character is a damage roll:
curses lower it, and editions 2020/2021 deal at least 1.

With --dice the faces of physical dice are recorded as entered; without it the
program rolls. Curses and armour restriction are applied from the sheet.

The character and the faces may also follow EXPR in that order, without the
flags: ` + "`roll 3/DX Ajax 1,3,6`" + ` is ` + "`roll 3/DX --char Ajax --dice 1,3,6`" + `. An
argument of digits and commas is the faces; anything else is the NAME.`,
		Example: `  ltscamp roll 3/DX Ajax 1,3,6
  ltscamp roll 3/DX --char Ajax --dice 1,3,6
  ltscamp roll 3/ST+Climbing --char Ajax --reason "the cliff"
  ltscamp roll "3/ST against Swimming" --char Ajax
  ltscamp roll 2d6-1 --char Ajax --dice 5,2
  ltscamp roll d6`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 3 {
				return usagef("roll takes one EXPR (quote expressions with spaces), then optionally NAME and FACES (got %d arguments); see `ltscamp roll --help`", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			who, pos, err := rollArgs(cmd, args, who)
			if err != nil {
				return err
			}
			faces, err := facesArg(cmd, "dice", dice, pos, "faces")
			if err != nil {
				return err
			}
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.Roll(campaign.RollRequest{Expr: args[0], Character: who, Faces: faces, Reason: reason})
				if err != nil {
					return err
				}
				if res.Warning != "" {
					a.out.note("note: %s", res.Warning)
				}
				if asJSON {
					return a.out.json(eventJSON(res.Event))
				}
				printRoll(a.out, res.Event, res.Roll)
				return nil
			})
		},
	}
	refuseNegative(a, cmd, func(arg string) string {
		return fmt.Sprintf("roll %s: negative numbers are not accepted here (a roll is a check such as 3/DX or dice such as 2d6-1, not a number; a modifier goes inside the dice: 2d6-1)", arg)
	})
	f := cmd.Flags()
	f.StringVar(&who, "char", "", "the character rolling (needed for checks)")
	f.StringVar(&dice, "dice", "", "faces of physical dice, e.g. 1,3,6 (default: the program rolls)")
	f.StringVar(&reason, "reason", "", "what the roll is for")
	f.BoolVar(&asJSON, "json", false, "print the recorded event as JSON")
	return cmd
}

// rollArgs reads roll's arguments after EXPR, [NAME] [FACES]: it returns
// who rolls (the NAME, else --char's value who) and the faces given
// without --dice.
func rollArgs(cmd *cobra.Command, args []string, who string) (string, *string, error) {
	var name, pos *string
	switch rest := args[1:]; {
	case len(rest) == 2 && !looksLikeFaces(rest[1]):
		return "", nil, usagef("roll EXPR NAME FACES: %q are not dice faces (such as 1,3,6)", rest[1])
	case len(rest) == 2:
		name, pos = &rest[0], &rest[1]
	case len(rest) == 1 && looksLikeFaces(rest[0]):
		pos = &rest[0]
	case len(rest) == 1:
		name = &rest[0]
	}
	if name != nil {
		if cmd.Flags().Changed("char") {
			return "", nil, usagef("the character is given twice, as %s and with --char %s: give it once", *name, who)
		}
		who = *name
	}
	return who, pos, nil
}

// printRoll renders a recorded roll.
func printRoll(p *printer, e events.Event, r events.RollMade) {
	who := r.Character
	if who == "" {
		who = "roll"
	}
	faces := make([]string, len(r.Faces))
	for i, f := range r.Faces {
		faces[i] = strconv.Itoa(f)
	}
	src := "dice rolled"
	switch {
	case len(r.Faces) == 0:
		src = "no dice rolled"
	case r.Entered:
		src = "dice entered"
	}
	switch r.Kind {
	case "check":
		outcome := p.good("pass")
		if r.Outcome != "pass" {
			outcome = p.bad("fail")
		}
		if len(r.Faces) == 0 {
			p.printf("%s: %s — %s: %s\n", who, r.Expr, outcome, r.Note)
		} else {
			p.printf("%s: %s%s %s = %d vs %d — %s by %d\n", who, r.Expr, unskilled(r), sumText(faces, r.Modifiers), r.Total, r.Target, outcome, abs(r.Margin))
			p.printf("  %s at %d: %s%s\n", r.Expr, r.Target, rules.FormatProbability(r.Probability), modText(r.Modifiers))
			if r.Note != "" {
				p.printf("  note: %s\n", r.Note)
			}
		}
	default:
		p.printf("%s: %s %s = %d%s\n", who, r.Expr, sumText(faces, r.Modifiers), r.Total, modText(r.Modifiers))
		if r.Note != "" {
			p.printf("  note: %s\n", r.Note)
		}
	}
	p.printf("  seq %d, id %s, %s\n", e.Seq, e.ID, src)
}

// sumText writes the dice and every term added to their total: "3+2+3 +1
// curse", "5+2 -1".
func sumText(faces []string, ms []events.Modifier) string {
	sum := strings.Join(faces, "+")
	for _, m := range ms {
		if m.Applies != "total" {
			continue
		}
		label := strings.TrimSpace(strings.SplitN(m.Source, " ×", 2)[0])
		if label == "modifier" || label == "expression" {
			label = ""
		}
		sum += strings.TrimRight(fmt.Sprintf(" %+d %s", m.Value, label), " ")
	}
	return sum
}

// unskilled marks a check that names a skill the roller lacks: it is made
// on the attribute alone.
func unskilled(r events.RollMade) string {
	x, err := rules.ParseExpr(r.Expr)
	if err != nil || x.Check == nil || x.Check.Skill == "" || r.SkillLevel > 0 {
		return ""
	}
	return " (unskilled)"
}

func modText(ms []events.Modifier) string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, fmt.Sprintf("%s %+d on the %s", m.Source, m.Value, m.Applies))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func newContestCmd(a *app) *cobra.Command {
	var dice []string
	var reason string
	cmd := &cobra.Command{
		Use:   "contest NAME:ATTR[+Skill] NAME:ATTR[+Skill] [--dice a,b,c --dice x,y,z]",
		Short: "Resolve a contest (\"winning a check\") between two sides",
		Long: `Resolve a contest: each side rolls (3 dice unless written NAME:4/ATTR); the
higher total wins unless it exceeds that side's attribute (+skill), which fails.
If both exceed, both fail; on equal totals the higher attribute wins, and equal
attributes tie.

Someone outside the party is written with the attribute's value: foe:ST12.
--dice, given twice, enters both sides' faces in order.`,
		Example: `  ltscamp contest Ajax:ST Hector:ST --dice 6,4,3 --dice 3,3,3
  ltscamp contest Ajax:DX+Pilot foe:DX11
  ltscamp contest Ajax:4/ST Hector:ST`,
		Args: exactArgs(2, "two sides, NAME:ATTR[+Skill] NAME:ATTR[+Skill]"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var req campaign.ContestRequest
			req.Sides = [2]string{args[0], args[1]}
			req.Reason = reason
			faces, err := contestFaces(dice, "once per side in order")
			if err != nil {
				return err
			}
			req.Faces = faces
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.Contest(req)
				if err != nil {
					return err
				}
				printContest(a.out, res.Contest)
				for _, e := range res.Events {
					a.out.printf("  seq %d, id %s\n", e.Seq, e.ID)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringArrayVar(&dice, "dice", nil, "faces of one side's physical dice; give it twice, in the sides' order")
	cmd.Flags().StringVar(&reason, "reason", "", "what the contest is for")
	return cmd
}

// contestFaces reads the faces of a contest's two sides from --dice given
// twice (order says in which order), or none.
func contestFaces(dice []string, order string) ([2][]int, error) {
	var faces [2][]int
	switch len(dice) {
	case 0:
	case 2:
		for i, d := range dice {
			fs, err := rules.ParseFaces(d)
			if err != nil {
				return faces, err
			}
			faces[i] = fs
		}
	default:
		return faces, usagef("give --dice twice, %s, or not at all (it was given %s)", order, projections.Count(len(dice), "time", "times"))
	}
	return faces, nil
}

func printContest(p *printer, c events.ContestResolved) {
	printContestSides(p, c)
	switch c.Outcome {
	case "win":
		p.printf("%s wins: %s\n", p.good(c.Sides[c.Winner].Name), c.Explanation)
	case "tie":
		p.printf("%s: %s\n", p.bad("tie"), c.Explanation)
	default:
		p.printf("%s: %s\n", p.bad("both fail"), c.Explanation)
	}
}

// printContestSides prints each side's dice against its target.
func printContestSides(p *printer, c events.ContestResolved) {
	for _, s := range c.Sides {
		faces := make([]string, len(s.Faces))
		for i, f := range s.Faces {
			faces[i] = strconv.Itoa(f)
		}
		what := s.Attribute
		if s.Skill != "" {
			what += "+" + s.Skill
		}
		over := ""
		if s.Over {
			over = " (over)"
		}
		p.printf("%s: %d/%s %s = %d vs %d%s\n", s.Name, len(s.Faces), what, strings.Join(faces, "+"), s.Total, s.Target, over)
	}
}

func newRerollCmd(a *app) *cobra.Command {
	var dice, damageDice, which string
	var to []string
	var useWish, asJSON bool
	cmd := &cobra.Command{
		Use:   "reroll SEQ|EVENT-ID [--which hit|damage|dodge|NAME|N[.2]] [--dice FACES]",
		Short: "Spend one karma point to re-roll a roll or an attack's dice; both stay in the log",
		Long: `Spend one karma point to re-roll one set of dice a character rolled. SEQ is
the roll's seq or event id, as roll, attack and log show it. The new roll
points at the old one; both stay in the log, and whatever followed from the
first roll is decided again from the new one:

  a check           the check's result; a medic's healing is taken back and
                    given again from the new check; a failed story that the
                    new roll tells gives its karma to --to (named up front)
  a contest         his side is re-rolled and the contest decided again
  a maneuver        the party pilot's side of the contest (--which NAME when
                    both pilots are party members); positions are decided
                    again from the dogfight as it was before the maneuver
  a shot            --which hit (the default): the gunner's check; --which
                    damage: the weapon dice; a hit is taken off the target
                    craft first (not one that destroyed a section)
  an attack         --which hit (the default) or damage: the attacker's dice;
                    --which dodge: the target's dodge, on the target's karma.
                    The points the first attack dealt are taken back and the
                    new attack's dealt. A hit that now lands uses the damage
                    dice entered with the miss, or --damage-dice, or rolls.
  a detailed ship   a crewman's consciousness, wound or wake roll, or the
  hit or turn end   pilot's structural collapse roll: --which N (the roll's
                    number, as ship hit and ship turn-end list them) or the
                    crewman's name; N.2 re-rolls only a roll's second die
                    (a wound's consciousness die, a collapse roll's chart
                    die). The hit or turn end is made again in its place:
                    the same damage and earlier rolls; later rolls keep
                    their dice as far as they are still called for.
  an initiative     --which NAME: his side's die, on his karma; the other
                    side's die is kept, a tie rolls both again (--dice N,P,F).
                    Only before anyone acts or a turn passes.

Foes have no karma. An attack is re-rolled during its encounter, a maneuver or
shot while it is the dogfight's latest, a detailed ship's roll while its hit
or turn end is the ship's latest event. A roll is
re-rolled once; re-roll the re-roll to go again. Undo takes the re-roll back,
karma and all. In edition 2010 a wish may stand in for the karma point (--wish).`,
		Example: `  ltscamp reroll 12 --dice 2,2,3
  ltscamp reroll 14 --which hit --dice 1,2,3           # a missed shot
  ltscamp reroll 14 --which hit --damage-dice 4,4     # program rolls the hit
  ltscamp reroll 15 --which dodge --dice 2,2,2         # the target's dodge
  ltscamp reroll 21 --which Vess --dice 3              # a crewman's roll
  ltscamp reroll 21 --which 2.2                        # its second die
  ltscamp reroll 12 --which Kira --dice 6              # her side's initiative
  ltscamp reroll 01JD5W0Q4Q8Y8S3T1ZJ8WQ2K5M`,
		Args: exactArgs(1, "one SEQ or EVENT-ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			faces, err := parseFacesFlag(cmd, "dice", dice)
			if err != nil {
				return err
			}
			dmg, err := parseFacesFlag(cmd, "damage-dice", damageDice)
			if err != nil {
				return err
			}
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.Reroll(campaign.RerollRequest{Roll: args[0], Faces: faces, UseWish: useWish, Which: which, DamageFaces: dmg, To: to})
				if err != nil {
					return err
				}
				if res.Warning != "" {
					a.out.note("note: %s", res.Warning)
				}
				if asJSON {
					out := make([]any, len(res.Events))
					for i, e := range res.Events {
						out[i] = eventJSON(e)
					}
					return a.out.json(out)
				}
				a.out.printf("spent one %s to re-roll seq %d\n", res.Spent, res.Replaced.Seq)
				last := res.Events[len(res.Events)-1]
				for _, e := range res.Events {
					if e.Type == events.TypeRollMade || e.Type == events.TypeContestResolved {
						last = e // the new roll, before what followed from it
					}
				}
				if res.Roll != nil {
					printRoll(a.out, last, *res.Roll)
				}
				if res.Contest != nil {
					printContest(a.out, *res.Contest)
					a.out.printf("  seq %d, id %s\n", last.Seq, last.ID)
				}
				if res.Healed != nil {
					a.out.printf("  the medic's treatment is decided again: %s healed\n", projections.Count(*res.Healed, "point", "points"))
				}
				for i, n := range res.Told {
					a.out.printf("  %s gets %s from the story\n", n, projections.Count(res.Amounts[i], "karma point", "karma points"))
				}
				if m := res.Maneuver; m != nil {
					if m.Contest != nil {
						printContestSides(a.out, *m.Contest)
					}
					a.out.printf("%s\n", m.Explanation)
					df, err := s.Dogfight()
					if err != nil {
						return err
					}
					printDogfight(a, s, df)
				}
				if res.Fire != nil {
					printFire(a.out, *res.Fire)
				}
				if res.Attack != nil {
					printAttack(a.out, campaign.AttackResult{Attack: *res.Attack, Events: res.Events, Target: res.Target}, nil)
				}
				if res.DetailedHit != nil {
					printDetailedHit(a.out, campaign.DetailedHitResult{Ship: *res.DetailedShip, Hit: *res.DetailedHit, Events: res.Events})
					printDetailedCrew(a.out, res.DetailedShip.View())
				}
				if res.Initiative != nil {
					a.out.printf("  seq %d  %s\n", last.Seq, projections.Describe(last, nil))
					if t, err := s.Turns(); err == nil {
						a.out.printf("now: %s\n", t.TurnText())
					}
				}
				if res.DetailedTurn != nil {
					printDetailedTurn(a.out, campaign.DetailedTurnResult{Ship: *res.DetailedShip, Turn: *res.DetailedTurn, Events: res.Events})
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&dice, "dice", "", "faces of physical dice for the re-roll")
	cmd.Flags().StringVar(&which, "which", "", "an attack's set of dice: hit (default), damage or dodge; a detailed ship's roll: N, N.2 or a crewman")
	cmd.Flags().StringSliceVar(&to, "to", nil, "a re-rolled story's recipients, one name a karma point (as karma storytell --to)")
	cmd.Flags().StringVar(&damageDice, "damage-dice", "", "damage dice for a re-rolled hit or dodge that now lands (a shot's weapon dice)")
	cmd.Flags().BoolVar(&useWish, "wish", false, "spend a wish instead of karma (edition 2010)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the recorded events as JSON")
	return cmd
}
