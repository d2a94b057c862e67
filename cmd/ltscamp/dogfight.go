package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// twoFaces reads a flag given twice (once per side), or not at all.
func twoFaces(values []string, flag string) ([2][]int, error) {
	var out [2][]int
	switch len(values) {
	case 0:
	case 2:
		for i, v := range values {
			fs, err := rules.ParseFaces(v)
			if err != nil {
				return out, err
			}
			out[i] = fs
		}
	default:
		return out, usagef("give %s twice, first for the maneuvering pilot then for his opponent, or not at all", flag)
	}
	return out, nil
}

func newDogfightCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dogfight",
		Short: "Run a dogfight: positions per pair of craft, pilot contests, exits",
		Long: `Run a dogfight between star craft. Craft begin disengaged; each pair of craft
holds positions relative to each other: pursuit, fleeing, turning (2010:
neutral) or disengaged. A maneuver is a pilot contest (DX + Pilot + the craft's
M bonus); the winner takes the options of his position. Fire with
` + "`ltscamp ship fire`" + `.`,
	}
	cmd.AddCommand(&cobra.Command{
		Use:     "start SHIP SHIP...",
		Short:   "Start a dogfight between craft (they begin disengaged)",
		Example: "  ltscamp dogfight start Kit-Kat Corsair",
		Args:    minArgs(2, "two SHIPs or more"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				df, err := s.DogfightStart(args)
				if err == nil {
					printDogfight(a, s, df)
				}
				return err
			})
		},
	})
	var req campaign.ManeuverRequest
	var dice []string
	maneuver := &cobra.Command{
		Use:   "maneuver SHIP --against SHIP --pilot NAME [--opponent-pilot NAME] [--dice a,b,c --dice x,y,z] [--choose disengage|turn|pursue|maintain]",
		Short: "Maneuver against a foe: a pilot contest whose winner moves the pair's positions",
		Long: `Maneuver a craft against a foe: both pilots roll 3 dice against DX + Pilot +
their craft's M bonus. The winner, whoever's turn it is, takes his position's
options: a fleeing craft may disengage or turn; a turning craft may disengage
or pursue; a disengaged craft takes pursuit; a pursuer stays in pursuit (2010:
a pursuer may maintain or disengage; a fleer becomes neutral). On a tie the
positions stay, but disengaged craft that tie are now turning. Maneuvering
against a foe engaged with another craft takes pursuit unopposed.

A pilot is a party member (his DX and Pilot skill come from his sheet) or
someone else written Name:DX12 (DX and Pilot together). The opponent's pilot
defaults to whoever last flew that craft in this dogfight.`,
		Example: `  ltscamp dogfight maneuver Ajax-boat --against Hector-boat --pilot Ajax \
      --opponent-pilot Hector --dice 4,4,4 --dice 6,5,4
  ltscamp dogfight maneuver Hector-boat --against Ajax-boat --pilot Hector \
      --dice 5,4,4 --dice 2,2,2 --choose turn`,
		Args: exactArgs(1, "one SHIP (and --against SHIP)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Ship = args[0]
			if req.Against == "" || req.Pilot == "" {
				return usagef("dogfight maneuver needs --against SHIP and --pilot NAME")
			}
			var err error
			if req.Faces, err = twoFaces(dice, "--dice"); err != nil {
				return err
			}
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.DogfightManeuver(req)
				if err != nil {
					return err
				}
				m := res.Maneuver
				if m.Contest != nil {
					printContestSides(a.out, *m.Contest)
				}
				a.out.printf("%s\n", m.Explanation)
				printDogfight(a, s, res.Dogfight)
				return nil
			})
		},
	}
	f := maneuver.Flags()
	f.StringVar(&req.Against, "against", "", "the foe")
	f.StringVar(&req.Pilot, "pilot", "", "who flies SHIP")
	f.StringVar(&req.OpponentPilot, "opponent-pilot", "", "who flies the foe (default: its last pilot in this dogfight)")
	f.StringArrayVar(&dice, "dice", nil, "a pilot's faces; give it twice (the maneuvering pilot's, then the opponent's)")
	f.StringVar(&req.Choice, "choose", "", "the winner's option: disengage, turn, pursue or maintain")
	var asJSON bool
	show := &cobra.Command{
		Use:     "show [--json]",
		Short:   "Show the dogfight: its craft, each pair's positions and the round",
		Example: "  ltscamp dogfight show",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				df, err := s.Dogfight()
				if err != nil {
					return err
				}
				if asJSON {
					return a.out.json(df)
				}
				printDogfight(a, s, df)
				return nil
			})
		},
	}
	show.Flags().BoolVar(&asJSON, "json", false, "print the dogfight as JSON")
	cmd.AddCommand(maneuver, show, &cobra.Command{
		Use:     "exit SHIP",
		Short:   "A disengaged craft leaves the dogfight for good (not in the first round)",
		Example: "  ltscamp dogfight exit Corsair",
		Args:    exactArgs(1, "one SHIP"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				df, err := s.DogfightExit(args[0])
				if err == nil {
					printDogfight(a, s, df)
				}
				return err
			})
		},
	}, &cobra.Command{
		Use:     "end",
		Short:   "End the dogfight",
		Example: "  ltscamp dogfight end",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				df, err := s.DogfightEnd()
				if err == nil {
					a.out.printf("dogfight %d ended\n", df.Number)
				}
				return err
			})
		},
	})
	return cmd
}

// printFire shows the shots fired, their hits and the dead.
func printFire(p *printer, res campaign.FireResult) {
	for _, f := range res.Fired {
		if f.PilotContest != nil {
			printContest(p, *f.PilotContest)
		}
		if f.Check.Outcome == "no shot" {
			p.printf("%s's firing run on %s: the pilot check was lost, no shot; both craft are disengaged\n", f.Attacker.Name, f.Target.Name)
			continue
		}
		p.printf("%s fires on %s (%s, gunner %s): %s %s = %d vs %d — %s\n", f.Attacker.Name, f.Target.Name, f.Kind, f.Gunner, f.Check.Expr, joinFaces(f.Check.Faces), f.Check.Total, f.Check.Target, f.Check.Outcome)
		if f.Damage != nil {
			p.printf("  %s %s = %d\n", f.Damage.Expr, joinFaces(f.Damage.Faces), f.Damage.Total)
		}
	}
	for _, h := range res.Hits {
		p.printf("  hit for %d: shields %d, %d inflicted\n", h.Rolled, h.Shields, h.Inflicted)
	}
	for _, k := range res.Killed {
		p.printf("  %s was aboard a destroyed section and is dead\n", k)
	}
}

func printDogfight(a *app, s *campaign.Service, df projections.Dogfight) {
	if df.Number == 0 {
		a.out.note("no dogfight yet; start one with `ltscamp dogfight start SHIP SHIP...`")
		return
	}
	ed, _ := s.Edition()
	state := "under way"
	if !df.Active {
		state = "ended"
	}
	a.out.printf("%s\n", a.out.heading(fmt.Sprintf("Dogfight %d — %s, round %d", df.Number, state, df.Round)))
	rows := make([][]string, 0, len(df.Pairs))
	for _, p := range df.Pairs {
		rows = append(rows, []string{p.A, rules.Position(p.APosition).Label(ed), p.B, rules.Position(p.BPosition).Label(ed)})
	}
	a.out.table([]string{"CRAFT", "POSITION", "AGAINST", "POSITION"}, rows)
	for _, c := range df.Craft {
		if c.Exited {
			a.out.printf("%s has exited\n", c.Name)
		}
	}
}

func newShipFireCmd(a *app) *cobra.Command {
	var req campaign.FireRequest
	var dice, dmg, tdice, tdmg string
	var pilotDice []string
	cmd := &cobra.Command{
		Use:   "fire ATTACKER TARGET --gunner NAME [--run|--facing] [--dice a,b,c] [--damage-dice ...]",
		Short: "Fire on a craft in the dogfight: from pursuit 3/DX+Gunner, a firing run 4/DX+Gunner",
		Long: `Fire a craft's weapons on a target in the dogfight. From the pursuit position
the gunner passes 3/DX+Gunner to hit. A firing run (--run) on a target the craft
is disengaged from needs 4/DX+Gunner, and leaves both craft disengaged (2010: a
firing run needs a won pilot check first: --pilot, --opponent-pilot,
--pilot-dice twice). A facing firing run (--facing, first round, 2020/2021)
has both craft fire on 3/DX+Gunner at once (--target-gunner). On a hit the
craft's weapon dice go through the target's shields and sections like
` + "`ship hit`" + `.`,
		Example: `  ltscamp ship fire Hector-boat Ajax-boat --gunner Hector \
      --dice 3,3,3 --damage-dice 3
  ltscamp ship fire Kit-Kat Corsair --gunner Ajax --run --dice 4,4,4,1`,
		Args: exactArgs(2, "ATTACKER and TARGET"),
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Attacker, req.Target = args[0], args[1]
			if req.Gunner == "" {
				return usagef("ship fire needs --gunner NAME")
			}
			var err error
			for _, x := range []struct {
				flag string
				val  string
				dst  *[]int
			}{{"dice", dice, &req.Faces}, {"damage-dice", dmg, &req.DamageFaces}, {"target-dice", tdice, &req.TargetFaces}, {"target-damage-dice", tdmg, &req.TargetDamageFaces}} {
				if *x.dst, err = parseFacesFlag(cmd, x.flag, x.val); err != nil {
					return err
				}
			}
			if req.PilotFaces, err = twoFaces(pilotDice, "--pilot-dice"); err != nil {
				return err
			}
			if !cmd.Flags().Changed("inflict") {
				req.Inflict = -1
			}
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.ShipFire(req)
				if err != nil {
					return err
				}
				printFire(a.out, res)
				return nil
			})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&req.Gunner, "gunner", "", "who fires")
	fl.BoolVar(&req.Run, "run", false, "a firing run on a target the craft is disengaged from (4/DX+Gunner)")
	fl.BoolVar(&req.Facing, "facing", false, "a facing firing run, first round only (2020/2021): both fire")
	fl.StringVar(&dice, "dice", "", "the gunner's faces")
	fl.StringVar(&dmg, "damage-dice", "", "the weapon dice's faces")
	fl.StringVar(&req.TargetGunner, "target-gunner", "", "the target's gunner (facing run)")
	fl.StringVar(&tdice, "target-dice", "", "the target gunner's faces (facing run)")
	fl.StringVar(&tdmg, "target-damage-dice", "", "the target's weapon dice (facing run)")
	fl.StringVar(&req.Pilot, "pilot", "", "the attacker's pilot (2010 firing run)")
	fl.StringVar(&req.OpponentPilot, "opponent-pilot", "", "the target's pilot (2010 firing run)")
	fl.StringArrayVar(&pilotDice, "pilot-dice", nil, "the pilots' faces, twice (2010 firing run)")
	fl.IntVar(&req.Inflict, "inflict", 0, "inflict only M of the points")
	return cmd
}
