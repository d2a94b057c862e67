package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

type charNewOptions struct {
	name       string
	st, dx, iq int
	skills     []string
}

func newCharCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "char",
		Short: "Create, list and set up characters",
	}
	cmd.AddCommand(newCharNewCmd(a), newCharListCmd(a), newCharSetCmd(a))
	return cmd
}

func newCharNewCmd(a *app) *cobra.Command {
	o := &charNewOptions{}
	cmd := &cobra.Command{
		Use:   "new NAME --st N --dx N --iq N [--skill Name:Level]...",
		Short: "Create a character (32 attribute points, 4 skill points, at most 2 in combat skills)",
		Long: `Create a character by the campaign edition's rules: ST, DX and IQ of at least 8
adding up to 32, and up to 4 skill points, at most 2 of them in combat skills.

In a terminal, missing values are asked for in a form that counts the points as
you type. Without a terminal, or with --no-input, every value must be given.`,
		Example: `  ltscamp char new Ajax --st 12 --dx 11 --iq 9 --skill Unarmed:2 --skill Medic:2
  ltscamp char new "Hector of Troy" --st 11 --dx 12 --iq 9
  ltscamp char new Ajax            # opens the form in a terminal`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("char new takes one NAME (quote names with spaces: \"Hector of Troy\"); got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				o.name = args[0]
			}
			return charNewRun(a, cmd, o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.st, "st", 0, "strength (8 or more)")
	f.IntVar(&o.dx, "dx", 0, "dexterity (8 or more)")
	f.IntVar(&o.iq, "iq", 0, "intelligence (8 or more)")
	f.StringArrayVar(&o.skills, "skill", nil, "a starting skill as Name:Level (repeatable), e.g. Unarmed:2")
	return cmd
}

func charNewRun(a *app, cmd *cobra.Command, o *charNewOptions) error {
	return a.withCampaign(func(s *campaign.Service) error {
		var missing []string
		if strings.TrimSpace(o.name) == "" {
			missing = append(missing, "NAME")
		}
		for _, fl := range []string{"st", "dx", "iq"} {
			if !cmd.Flags().Changed(fl) {
				missing = append(missing, "--"+fl)
			}
		}
		if len(missing) > 0 {
			if ok, why := a.canAsk(); !ok {
				return usagef("char new needs %s (%s)", strings.Join(missing, ", "), why)
			}
			ed, err := s.Edition()
			if err != nil {
				return err
			}
			if err := charForm(a, ed, cmd, o); err != nil {
				return err
			}
		}
		_, err := s.CreateCharacter(campaign.NewCharacter{
			Name:       o.name,
			Attributes: rules.Attributes{ST: o.st, DX: o.dx, IQ: o.iq},
			Skills:     o.skills,
		})
		return err
	})
}

func newCharListCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List the party",
		Example: "  ltscamp char list\n  ltscamp char list --json",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				sheets, err := s.Sheets()
				if err != nil {
					return err
				}
				if asJSON {
					return a.out.json(sheets)
				}
				if len(sheets) == 0 {
					a.out.note("the party is empty; create a character with `ltscamp char new`")
					return nil
				}
				rows := make([][]string, 0, len(sheets))
				for _, sh := range sheets {
					rows = append(rows, []string{sh.Name, strconv.Itoa(sh.Attributes.ST), strconv.Itoa(sh.Attributes.DX), strconv.Itoa(sh.Attributes.IQ), strconv.Itoa(sh.XP.Unspent), sh.Status})
				}
				a.out.table([]string{"NAME", "ST", "DX", "IQ", "XP", "STATUS"}, rows)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the sheets as a JSON array")
	return cmd
}

func newSheetCmd(a *app) *cobra.Command {
	var asJSON bool
	var asOf string
	cmd := &cobra.Command{
		Use:   "sheet NAME [--as-of SEQ|EVENT-ID|TIME|day:N] [--json]",
		Short: "Show a character sheet, folded from the log",
		Long: `Show a character sheet, folded from the log.

--as-of shows the sheet exactly as it was at a point of the log: a seq (the
sheet after that event), an event id, or an RFC 3339 time (the sheet after the
last event recorded at or before it), or the end of a game day: day:N (of the
current or latest adventure) or adventure:A:day:N. Undos and redos recorded
after that point do not count; those before it do.`,
		Example: `  ltscamp sheet Ajax
  ltscamp sheet ajax --json | jq .xp.unspent
  ltscamp sheet Ajax --as-of 42
  ltscamp sheet Ajax --as-of 01JD5W0Q4Q8Y8S3T1ZJ8WQ2K5M --json
  ltscamp sheet Ajax --as-of 2026-11-21T20:00:00Z
  ltscamp sheet Ajax --as-of day:2`,
		Args: exactArgs(1, "one character NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("as-of") && strings.TrimSpace(asOf) == "" {
				return usagef("--as-of is empty: give a seq, an event id or an RFC 3339 time")
			}
			return a.withCampaign(func(s *campaign.Service) error {
				// Resolve the point once, so the sheet and the "as of" line
				// name the same seq.
				var seq int64
				if asOf != "" {
					var err error
					if seq, err = s.ResolveAsOf(asOf); err != nil {
						return err
					}
				}
				point := ""
				if seq > 0 {
					point = strconv.FormatInt(seq, 10)
				}
				sheet, err := s.SheetAsOf(args[0], point)
				if err != nil {
					return err
				}
				if asJSON {
					return a.out.json(sheet)
				}
				printSheetAsOf(a.out, sheet, seq)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the sheet as JSON (see docs/json.md for the keys)")
	cmd.Flags().StringVar(&asOf, "as-of", "", "the sheet as it was at a seq, an event id, an RFC 3339 time or the end of day:N")
	return cmd
}

func newCharSetCmd(a *app) *cobra.Command {
	var bonus string
	cmd := &cobra.Command{
		Use:   "set NAME --skill-bonus hit|damage",
		Short: "Set a character's standing choices: where his combat skill levels go",
		Long: `Set a character's standing choice of where the level of his combat skill
(Axe, Knife, Pistol, Rifle/SMG, Unarmed) goes on his attacks: "Each level is
+1DX to hit OR +1 damage; decide before attacking. Multiple levels cannot be
split." Until set, it goes to hit. Every attack without --skill-bonus follows
the standing choice, and --skill-bonus on one attack overrides it; each
attack line says where the level went. A party member or a foe; undo takes
it back.`,
		Example: `  ltscamp char set Kira --skill-bonus damage
  ltscamp char set Kira --skill-bonus hit`,
		Args: exactArgs(1, "a character NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("skill-bonus") {
				return usagef("char set %s: say what to set, e.g. --skill-bonus hit or --skill-bonus damage", args[0])
			}
			return a.withCampaign(func(s *campaign.Service) error {
				sh, err := s.SetSkillBonus(args[0], bonus)
				if err != nil {
					return err
				}
				a.out.printf("%s: combat skill levels go to %s unless an attack says otherwise (--skill-bonus)\n", sh.Name, sh.StandingBonus())
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&bonus, "skill-bonus", "", "where combat skill levels go: hit or damage")
	return cmd
}

// combatSkillRow says where the character's combat skill levels go, when
// he has a combat skill.
func combatSkillRow(s projections.Sheet) ([]string, bool) {
	for _, sk := range s.Skills {
		if k, err := rules.LookupSkill(s.Edition, sk.Key); err == nil && k.Category == rules.CategoryCombat && sk.Level > 0 {
			return []string{"Combat", fmt.Sprintf("skill levels to %s", s.StandingBonus())}, true
		}
	}
	return nil, false
}

// printSheet renders a sheet for people.
func printSheet(p *printer, s projections.Sheet) { printSheetAsOf(p, s, 0) }

// printSheetAsOf renders a sheet for people; asOf, when positive, is the
// seq the sheet was read as of.
func printSheetAsOf(p *printer, s projections.Sheet, asOf int64) {
	title := fmt.Sprintf("%s — edition %s, %s", s.Name, s.Edition, s.Status)
	if s.Foe {
		title = fmt.Sprintf("%s — foe, edition %s, %s", s.Name, s.Edition, s.Status)
		if s.Removed {
			title += ", off the roster"
		}
	}
	if asOf > 0 {
		title += fmt.Sprintf(" — as of seq %d", asOf)
	}
	p.printf("%s\n", p.heading(title))
	skills := make([]string, 0, len(s.Skills))
	for _, sk := range s.Skills {
		skills = append(skills, fmt.Sprintf("%s %d", sk.Name, sk.Level))
	}
	if len(skills) == 0 {
		skills = append(skills, "none")
	}
	armor := "none"
	if s.Armor != nil {
		armor = fmt.Sprintf("%s %d/%d", s.Armor.Name, s.Armor.Protection, s.Armor.Restriction)
	}
	weapon := "none (unarmed)"
	if s.Weapon != nil {
		weapon = fmt.Sprintf("%s %s", s.Weapon.Name, s.Weapon.Damage)
	}
	rows := [][]string{
		{"ST", strconv.Itoa(s.Attributes.ST)},
		{"DX", fmt.Sprintf("%d (adjusted %d)", s.Attributes.DX, s.Adjusted.DX)},
		{"IQ", strconv.Itoa(s.Attributes.IQ)},
		{"MA", strconv.Itoa(s.Adjusted.MA)},
		{"Armor", armor},
		{"Weapon", weapon},
		{"Skills", strings.Join(skills, ", ")},
		{"XP", fmt.Sprintf("%d earned, %d spent, %d unspent", s.XP.Earned, s.XP.Spent, s.XP.Unspent)},
		{"Karma", strconv.Itoa(s.Karma)},
		{"Wishes", strconv.Itoa(s.Wishes)},
		{"Curses", strconv.Itoa(s.Curses)},
		{"Damage", strconv.Itoa(s.Damage)},
		{"Fatigue", strconv.Itoa(s.Fatigue)},
	}
	if s.Foe {
		// Foes have no ledger, karma, wishes or curses.
		rows = append(rows[:7], rows[11:]...)
	}
	if row, ok := combatSkillRow(s); ok {
		// Just after Skills.
		rows = append(rows[:7], append([][]string{row}, rows[7:]...)...)
	}
	p.table(nil, rows)
}
