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

func newFoeCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "foe",
		Short: "Field foes and NPCs: add, list, show, remove",
		Long: `Foes are the non-player combatants the GM runs: pirates, drones, an enemy
craft's pilot and gunner. They roll, attack, are attacked, take part in
contests, fly, fire and crew ships exactly as characters do, and every roll is
in the log on the foe's own stream. They are not held to the creation rules and
have no XP, karma, wishes or curses. A foe's name may not be a character's.

A foe added during an encounter (or by encounter start --foes) belongs to it:
he leaves the roster when it ends, dead or fled, and his name is free again.
A foe added outside any encounter, or with --keep, is a standing NPC: he stays
until foe remove. foe list --all shows the foes who left too.`,
		Example: `  ltscamp foe add Drone --st 10 --dx 11 --iq 8 --weapon Handgun
  ltscamp foe add "Pirate:ST12,DX11,IQ9" --skill Knife:1 --weapon Knife
  ltscamp encounter start Pirates --foes "Pirate:ST12,DX12,IQ9,cutlass x3"
  ltscamp attack Drone Kira --dice 3,3,4 --damage-dice 5,2
  ltscamp foe list`,
	}
	cmd.AddCommand(newFoeAddCmd(a), newFoeListCmd(a), newFoeShowCmd(a), newFoeRemoveCmd(a))
	return cmd
}

func newFoeAddCmd(a *app) *cobra.Command {
	var st, dx, iq int
	var skills []string
	var weapon string
	var armor []string
	var count int
	var keep bool
	cmd := &cobra.Command{
		Use:   "add NAME --st N --dx N --iq N | add Name:ST12,DX11,IQ9[,GEAR][ xN]",
		Short: "Add a foe with his attributes, skills, weapon and armour",
		Long: `Add a foe to the campaign's roster. Give the attributes as flags, or as a quick
stat line "Name:ST12,DX11,IQ9". Any attribute from 1 to 99 will do: foes are
not held to the 32-point creation rule. Skills, weapon and armour come from the
edition's tables (see ltscamp rules skills|weapons|armor); a stat line may name
the weapon and armour after the attributes: "Pirate:ST12,DX12,IQ9,cutlass".

--count N (or " xN" ending the stat line) adds N foes numbered after the name:
Pirate 1, Pirate 2... (after the highest Pirate number on the roster).

Added during an encounter, a foe leaves the roster when it ends (dead or fled);
--keep makes him a standing NPC who stays. Added outside any encounter, a foe
stays until foe remove.`,
		Example: `  ltscamp foe add Drone --st 10 --dx 11 --iq 8 --weapon Handgun
  ltscamp foe add "Pirate:ST12,DX11,IQ9"
  ltscamp foe add "Pirate:ST12,DX12,IQ9,cutlass x3"
  ltscamp foe add Drone --st 10 --dx 11 --iq 8 --weapon Handgun --count 2
  ltscamp foe add "Pirate Captain" --st 13 --dx 12 --iq 11 --skill Pistol:2 \
      --weapon Handgun --armor "flak vest" --keep`,
		Args: exactArgs(1, "one NAME or stat line (quote names with spaces)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			nf := campaign.NewFoe{Name: args[0], Skills: skills, Weapon: weapon, Armor: armor}
			var given []string
			for _, fl := range []string{"st", "dx", "iq"} {
				if cmd.Flags().Changed(fl) {
					given = append(given, "--"+fl)
				}
			}
			if strings.Contains(args[0], ":") {
				if len(given) > 0 {
					return usagef("foe add: give the attributes once, in the stat line %q or as %s, not both", args[0], strings.Join(given, " "))
				}
				var err error
				if nf, err = campaign.ParseFoeLine(args[0]); err != nil {
					return err
				}
				if nf.Count > 0 && cmd.Flags().Changed("count") {
					return usagef("foe add: give the count once, as x%d in the stat line or as --count %d, not both", nf.Count, count)
				}
				nf.Skills, nf.Weapon, nf.Armor = skills, weapon, armor
			} else {
				if len(given) != 3 {
					return usagef("foe add %s needs --st, --dx and --iq (or a stat line such as \"%s:ST10,DX11,IQ8\")", args[0], args[0])
				}
				nf.Attributes = rules.Attributes{ST: st, DX: dx, IQ: iq}
			}
			if cmd.Flags().Changed("count") {
				if count < 1 {
					return usagef("foe add --count %d: add 1 foe or more", count)
				}
				nf.Count = count
			}
			nf.Keep = keep
			return a.withCampaign(func(s *campaign.Service) error {
				_, err := s.AddFoes(nf)
				return err
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&st, "st", 0, "strength (1 to 99)")
	f.IntVar(&dx, "dx", 0, "dexterity (1 to 99)")
	f.IntVar(&iq, "iq", 0, "intelligence (1 to 99)")
	f.StringArrayVar(&skills, "skill", nil, "a skill as Name:Level (repeatable), e.g. Gunner:2")
	f.StringVar(&weapon, "weapon", "", "the weapon he wields, from the edition's table")
	f.StringArrayVar(&armor, "armor", nil, "armour he wears, from the edition's table (repeat it for layers)")
	f.IntVar(&count, "count", 0, "add N foes numbered after the NAME (NAME 1, NAME 2...)")
	f.BoolVar(&keep, "keep", false, "a standing NPC: he stays on the roster when the encounter ends")
	return cmd
}

// parseFoeSpecs reads the stat lines of encounter start --foes.
func parseFoeSpecs(specs []string) ([]campaign.NewFoe, error) {
	out := make([]campaign.NewFoe, 0, len(specs))
	for _, spec := range specs {
		if !strings.Contains(spec, ":") {
			return nil, usagef("--foes %q: write a stat line Name:ST12,DX12,IQ9, then the weapon and armour, then xN for N foes (\"Pirate:ST12,DX12,IQ9,cutlass x3\")", spec)
		}
		nf, err := campaign.ParseFoeLine(spec)
		if err != nil {
			return nil, err
		}
		out = append(out, nf)
	}
	return out, nil
}

// foeJSON is a foe's sheet as `foe list --json` and `foe show --json`
// print it: the sheet, with the quick stat line.
type foeJSON struct {
	projections.Sheet
	Line string `json:"line"`
}

func newFoeListCmd(a *app) *cobra.Command {
	var asJSON, all bool
	cmd := &cobra.Command{
		Use:   "list [--all]",
		Short: "List the foes on the roster, with their condition",
		Long: `List the foes on the roster, living and dead, in the order added. --all adds
the foes who left it (removed, or gone when their encounter ended), their
status marked "left".`,
		Example: "  ltscamp foe list\n  ltscamp foe list --all\n  ltscamp foe list --json | jq -r '.[].line'",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				list := s.FoeSheets
				if all {
					list = s.AllFoeSheets
				}
				sheets, err := list()
				if err != nil {
					return err
				}
				if asJSON {
					out := make([]foeJSON, 0, len(sheets))
					for _, sh := range sheets {
						out = append(out, foeJSON{sh, campaign.FoeLine(sh)})
					}
					return a.out.json(out)
				}
				if len(sheets) == 0 {
					a.out.note("no foes on the roster; add one with `ltscamp foe add`")
					return nil
				}
				a.out.table(foeHeaders, foeRows(sheets), foeElide...)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the foes as a JSON array")
	cmd.Flags().BoolVar(&all, "all", false, "the foes who left the roster too")
	return cmd
}

// printEncounterFoes is the foe table of `party` in an encounter: the
// living foes, then the dead on one line (they no longer clutter it).
func printEncounterFoes(p *printer, foes []projections.Sheet) {
	living, dead := splitDeadFoes(foes)
	if len(living) > 0 {
		p.printf("\n")
		p.table(foeHeaders, foeRows(living), foeElide...)
	}
	if len(dead) > 0 {
		p.printf("%s\n", wrapIndent("dead: "+strings.Join(dead, ", "), 2))
	}
}

// splitDeadFoes parts the foes into the living and the names of the dead.
func splitDeadFoes(foes []projections.Sheet) ([]projections.Sheet, []string) {
	var living []projections.Sheet
	var dead []string
	for _, sh := range foes {
		if sh.Alive() {
			living = append(living, sh)
		} else {
			dead = append(dead, sh.Name)
		}
	}
	return living, dead
}

var foeHeaders = []string{"FOE", "ST", "DX", "IQ", "STATUS", "DAMAGE", "FATIGUE", "GEAR"}

// foeRows are the foes as `foe list` and `party` show them.
func foeRows(sheets []projections.Sheet) [][]string {
	rows := make([][]string, 0, len(sheets))
	for _, sh := range sheets {
		m := partyMember(sh)
		status := sh.Status
		if sh.Removed {
			status += ", left"
		}
		rows = append(rows, []string{sh.Name, strconv.Itoa(sh.Attributes.ST), strconv.Itoa(sh.Attributes.DX), strconv.Itoa(sh.Attributes.IQ), status,
			fmt.Sprintf("%d/%d", sh.Damage, sh.Attributes.ST), fmt.Sprintf("%d/%d", sh.Fatigue, sh.Attributes.ST), gearText(m)})
	}
	return rows
}

func newFoeShowCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "show NAME",
		Short:   "Show a foe's sheet: stats, gear, damage and fatigue",
		Example: "  ltscamp foe show Drone\n  ltscamp foe show Drone --json | jq .damage",
		Args:    exactArgs(1, "one foe NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				sh, err := s.FoeSheet(args[0])
				if err != nil {
					return err
				}
				if asJSON {
					return a.out.json(foeJSON{sh, campaign.FoeLine(sh)})
				}
				printSheet(a.out, sh)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the sheet as JSON")
	return cmd
}

func newFoeRemoveCmd(a *app) *cobra.Command {
	var reason string
	cmd := &cobra.Command{
		Use:   "remove NAME [--reason TEXT]",
		Short: "Take a foe off the roster (his events stay in the log)",
		Long: `Take a foe off the roster: he can no longer be named, and his name is free
again. Everything he did stays in the log; undo brings him back.`,
		Example: `  ltscamp foe remove Drone --reason "scrapped"`,
		Args:    exactArgs(1, "one foe NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				sh, err := s.RemoveFoe(args[0], reason)
				if err != nil {
					return err
				}
				a.out.printf("removed foe %s (%s, %s)\n", sh.Name, campaign.FoeLine(sh), sh.Status)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why he leaves the roster")
	return cmd
}
