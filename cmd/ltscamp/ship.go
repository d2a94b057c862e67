package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/projections"
)

func newShipCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ship",
		Short: "Build star craft, crew them, log hits and repairs",
	}
	cmd.AddCommand(newShipNewCmd(a), newShipListCmd(a), newShipShowCmd(a), newShipCrewCmd(a), newShipHitCmd(a), newShipFireCmd(a), newShipRepairCmd(a), newShipTurnEndCmd(a), newShipTemplateCmd(a))
	return cmd
}

func newShipNewCmd(a *app) *cobra.Command {
	var record, owner, detailed, format string
	cmd := &cobra.Command{
		Use:   "new NAME (--record \"...\" [--owner NAME] | --detailed FILE)",
		Short: "Build a ship from its record; the build cost comes from the rules",
		Long: `Build a ship from its record, in the long or the short notation:

  Cargo1, Engineering1, Operations1, Living1, d6/1, M+1
  C1, E1, O1, L1, d6/1, M+0

Sections are listed in the order damage destroys them; each costs its points.
Engineering and Operations are required. Xd6 weapons cost 6 a die, /X shields
2 a factor, M+X maneuver 2 a point, S+X systems (edition 2010 only) 2 a point.
Named extra sections such as Science2 are allowed.

With --detailed FILE the ship is a detailed record (INTERCEPTOR): armour
blocks ten columns wide per facing and an Internal Component Block, read from
a YAML or JSON file (docs/interceptor.md). A record the rules refuse is
reported with its line and nothing is appended.`,
		Example: `  ltscamp ship new Kit-Kat --owner Ajax \
      --record "Cargo1, Engineering1, Operations1, Living1, d6/1, M+1"
  ltscamp ship new Corvette --record "E2, O2, L1, 2d6/2"
  ltscamp ship new "Space Gull" --detailed space-gull.yaml`,
		Args: exactArgs(1, "one ship NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("detailed") {
				if lts := changedFlags(cmd, []string{"record", "owner"}); len(lts) > 0 {
					return usagef("--detailed builds a detailed (INTERCEPTOR) record: %s %s for section ships", strings.Join(lts, " and "), plural(len(lts), "is", "are"))
				}
				return a.shipNewDetailed(args[0], detailed, format)
			}
			if cmd.Flags().Changed("format") {
				return usagef("--format goes with --detailed FILE")
			}
			if !cmd.Flags().Changed("record") {
				return usagef("ship new needs --record, e.g. \"C1, E1, O1, L1, d6/1, M+1\" (or --detailed FILE for a detailed record)")
			}
			return a.withCampaign(func(s *campaign.Service) error {
				sh, err := s.ShipNew(args[0], record, owner)
				if err != nil {
					return err
				}
				a.out.note("built %s for %d build points (%s)", sh.Name, sh.Cost, sh.CostFormula)
				if a.show {
					printShip(a.out, sh)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&record, "record", "", "the ship record")
	cmd.Flags().StringVar(&owner, "owner", "", "the character who owns it")
	cmd.Flags().StringVar(&detailed, "detailed", "", "a detailed (INTERCEPTOR) ship record file, YAML or JSON (- for standard input)")
	cmd.Flags().StringVar(&format, "format", "", "the --detailed file's format, yaml or json (default: from its extension)")
	return cmd
}

func newShipListCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:     "list",
		Short:   "List the ships",
		Example: "  ltscamp ship list",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				ships, err := s.Ships()
				if err != nil {
					return err
				}
				if asJSON {
					return a.out.json(ships)
				}
				detailed, err := s.DetailedShips()
				if err != nil {
					return err
				}
				if len(ships) == 0 && len(detailed) == 0 {
					a.out.note("no ship has been built; build one with `ltscamp ship new`")
					return nil
				}
				rows := make([][]string, 0, len(ships))
				for _, sh := range ships {
					state := "ok"
					if sh.DIW {
						state = "DIW"
					}
					rows = append(rows, []string{sh.Name, sh.Record, strconv.Itoa(sh.Cost), state})
				}
				for _, sh := range detailed {
					state := "ok"
					if sh.Ship().Exploded() {
						state = "exploded"
					}
					rows = append(rows, []string{sh.Name, "detailed (INTERCEPTOR)", "-", state})
				}
				a.out.table([]string{"NAME", "RECORD", "COST", "STATE"}, rows)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the ships as JSON")
	return cmd
}

func newShipShowCmd(a *app) *cobra.Command {
	var asJSON bool
	var asOf string
	cmd := &cobra.Command{
		Use:   "show NAME [--json] [--as-of SEQ|EVENT-ID|TIME|day:N]",
		Short: "Show a ship record: sections in order with damage and crew, shields, weapons, DIW",
		Long: `Show a ship record. A section ship shows its sections in order, with damage
and crew, its shields, weapons and whether it is dead in the water. A detailed
(INTERCEPTOR) ship shows each facing's armour and its Internal Component Block
as grids (o intact, x destroyed, ~ widowed, CODE* a disabled component's box),
then its components with the boxes each lost.`,
		Example: `  ltscamp ship show Kit-Kat
  ltscamp ship show Kit-Kat --json --as-of 42
  ltscamp ship show "Space Gull"`,
		Args: exactArgs(1, "one ship NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				if detailed, _, err := s.ShipKind(args[0], asOf); err != nil {
					return err
				} else if detailed {
					sh, err := s.DetailedShip(args[0], asOf)
					if err != nil {
						return err
					}
					if asJSON {
						return a.out.json(sh.View())
					}
					printDetailedShip(a.out, sh)
					return nil
				}
				sh, err := s.Ship(args[0], asOf)
				if err != nil {
					return err
				}
				if asJSON {
					return a.out.json(sh)
				}
				printShip(a.out, sh)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the record as JSON")
	cmd.Flags().StringVar(&asOf, "as-of", "", "the record as it was at a seq, an event id, a time or the end of day:N")
	return cmd
}

func printShip(p *printer, sh projections.Ship) {
	state := "operational"
	if sh.DIW {
		state = "DEAD IN THE WATER: " + sh.DIWReason
	}
	p.printf("%s\n", p.heading(fmt.Sprintf("%s — %s", sh.Name, state)))
	p.printf("%s (%d build points)\n", sh.Record, sh.Cost)
	rows := make([][]string, 0, len(sh.Sections))
	for i, sec := range sh.Sections {
		st := sec.State()
		crew := strings.Join(sec.Crew, ", ")
		rows = append(rows, []string{strconv.Itoa(i + 1), sec.Name, fmt.Sprintf("%d/%d", sec.Points-sec.Damage, sec.Points), st, crew})
	}
	p.table([]string{"#", "SECTION", "POINTS LEFT", "STATE", "CREW"}, rows)
	weapons := sh.Weapons
	if weapons == "" {
		weapons = "none"
	}
	p.printf("weapons %s, shields %d, maneuver M+%d", weapons, sh.Shields, sh.Maneuver)
	if sh.Systems > 0 {
		p.printf(", systems S+%d", sh.Systems)
	}
	p.printf(", cargo %s\n", projections.Count(sh.CargoUnits, "unit", "units"))
	if sh.MustReturnToBase {
		p.printf("no Living section: after combat it must return to a base or mother ship\n")
	}
	if sh.Owner != "" {
		p.printf("owner %s\n", sh.Owner)
	}
}

func newShipCrewCmd(a *app) *cobra.Command {
	var off bool
	cmd := &cobra.Command{
		Use:   "crew SHIP SECTION NAME... | crew SHIP --off NAME...",
		Short: "Put characters aboard a section (a destroyed section kills everyone in it), or take them off",
		Example: `  ltscamp ship crew Kit-Kat Engineering Hector
  ltscamp ship crew Kit-Kat Operations Ajax
  ltscamp ship crew Kit-Kat --off Hector`,
		Args: minArgs(2, "SHIP, then SECTION and NAMEs (or --off and NAMEs)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			section, names := "", args[1:]
			if !off {
				if len(args) < 3 {
					return usagef("ship crew takes SHIP SECTION NAME... (or SHIP --off NAME...)")
				}
				section, names = args[1], args[2:]
			}
			return a.withCampaign(func(s *campaign.Service) error {
				sh, err := s.ShipCrew(args[0], section, names)
				if err != nil {
					return err
				}
				if a.show {
					printShip(a.out, sh)
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&off, "off", false, "take the named characters off the ship")
	return cmd
}

func newShipHitCmd(a *app) *cobra.Command {
	var req campaign.ShipHitRequest
	var dice string
	cmd := &cobra.Command{
		Use:   "hit SHIP (--damage N | --dice a,b,...) [--inflict M] [--source TEXT] | hit SHIP --facing F --weapon W [--column C] [--turret-roll R [--turret-pick T]] [--crew-dice a,b] [--jam-roll J] [--weapon W2 --column C2 ...]",
		Short: "Log a hit: shields subtract once, sections are destroyed in listed order, their crews die",
		Long: `Log a hit on a ship. Its shields subtract one point per factor, once per hit;
each remaining point destroys one point of section, in the order the record
lists them. The attacker may inflict fewer points (--inflict). A section whose
damage reaches its points is destroyed with everyone aboard it, and their
sheets show them dead. Losing Engineering or Operations leaves the craft dead
in the water (DIW).

A detailed (INTERCEPTOR) ship is hit on one facing (--facing forward, aft,
left or right) by a laser of N points (--weapon laser:N), which destroys N
boxes straight down the column, or by a damage template (--weapon NAME, see
ltscamp ship template list). --column is the attacker's d10 for the column,
1-10; without it the program rolls it, and the hit records which. On a ship
with turrets the attacker also rolls a d10 against the book's turret chance
(turrets / 2, rounding up, at least 1 while one stands): at or under it the
hit strikes a turret, and with several turrets a second roll picks which
(re-rolled while it names a destroyed one). --turret-roll and --turret-pick
enter those dice; without them the program rolls. Damage that passes a
turret it destroys goes into the hull, down the same column of the facing.
Several hits at one point of the ship's movement are one command: repeat
--weapon, once for each shot, with --column once for each (or not at all),
and --facing once for all of them or once for each; --turret-roll and
--turret-pick likewise take one value a shot (a pick of 0 where none is
made). The shots land in order, and widowed armour is removed once, after
them all, as the book has it. Each hit on a cockpit calls for a
roll on the Consciousness Table by its crewman (the 4th hit kills him, and a
crewman who is a character or a foe dies on his sheet too): the program
makes it, or --crew-dice enters the d10s, one a roll in order. The
hit records the faces and the crewman's status; ship show lists the crew. A
hit that disables a turret's Turret Structure calls for the jam roll: 1-6
jams the turret facing the ship's front (1) and on clockwise, 7-10 leaves
its weapons unable to fire; --jam-roll enters the d10, or the program rolls.
A party crewman may re-roll his own roll with karma (ltscamp reroll). Wound
and wake rolls come at the end of the turn: see ltscamp ship turn-end.`,
		Example: `  ltscamp ship hit Kit-Kat --damage 3 --source "pirate corvette"
  ltscamp ship hit Kit-Kat --dice 4,2 --inflict 2
  ltscamp ship hit "Space Gull" --facing forward --weapon laser:6 --column 3
  ltscamp ship hit "Space Gull" --facing aft --weapon "Block 6"
  ltscamp ship hit Tern --facing forward --weapon laser:30 --column 4 \
    --turret-roll 1
  ltscamp ship hit Tern --facing forward --weapon laser:20 --column 5 \
    --turret-roll 9 --crew-dice 4
  ltscamp ship hit "Space Gull" --facing forward --weapon laser:6 \
    --column 3 --weapon laser:6 --column 5 --weapon "Block 6" --column 5`,
		Args: exactArgs(1, "one SHIP"),
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Ship = args[0]
			if det := changedFlags(cmd, detailedHitFlags); len(det) > 0 {
				return a.withCampaign(func(s *campaign.Service) error {
					detailed, found, err := s.ShipKind(req.Ship, "")
					if err != nil {
						return err
					}
					if found && !detailed {
						return usagef("%s is a section ship: %s %s for detailed (INTERCEPTOR) records; hit it with --damage or --dice", req.Ship, strings.Join(det, ", "), plural(len(det), "is", "are"))
					}
					return a.shipHitDetailed(cmd, s, req.Ship, req.Source)
				})
			}
			var err error
			if req.Faces, err = parseFacesFlag(cmd, "dice", dice); err != nil {
				return err
			}
			if req.Faces == nil && !cmd.Flags().Changed("damage") {
				return usagef("ship hit needs --damage N or --dice a,b,... (or, for a detailed ship, --facing and --weapon)")
			}
			if !cmd.Flags().Changed("inflict") {
				req.Inflict = -1
			} else if req.Inflict < 0 {
				return usagef("--inflict %d: inflict 0 points or more", req.Inflict)
			}
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.ShipHit(req)
				if err != nil {
					return err
				}
				h := res.Hit
				a.out.printf("%s hit for %d: shields stop %d, %d inflicted\n", res.Ship.Name, h.Rolled, min(h.Shields, h.Rolled), h.Inflicted)
				for _, sec := range h.Sections {
					what := "damaged"
					if sec.Destroyed {
						what = "destroyed"
					}
					a.out.printf("  %s: %d point(s), %s\n", sec.Section, sec.Points, what)
				}
				for _, k := range res.Killed {
					a.out.printf("  %s was aboard and is dead\n", k)
				}
				printShip(a.out, res.Ship)
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&req.Damage, "damage", 0, "the points rolled")
	f.StringVar(&dice, "dice", "", "the weapon dice's faces (d6)")
	f.IntVar(&req.Inflict, "inflict", 0, "inflict only M of the points (the attacker's choice)")
	f.StringVar(&req.Source, "source", "", "who or what hit it")
	f.StringArray("facing", nil, "detailed ships: the facing struck, forward, aft, left or right (once, or once a shot)")
	f.StringArray("weapon", nil, "detailed ships: laser:N, or a damage template's name (once a shot)")
	f.IntSlice("column", nil, "detailed ships: the column die, 1-10, once a shot (default: rolled)")
	f.IntSlice("turret-roll", nil, "detailed ships with turrets: the d10 against the turret chance, once a shot (default: rolled)")
	f.IntSlice("turret-pick", nil, "with --turret-roll: which turret a roll that hits one strikes, once a shot (0: none)")
	f.String("crew-dice", "", "detailed ships: the d10s of the crew's consciousness rolls, in order (default: rolled)")
	f.IntSlice("jam-roll", nil, "detailed ships: the d10s of the turret jam rolls, when the hit disables a Turret Structure (default: rolled)")
	return cmd
}

func newShipRepairCmd(a *app) *cobra.Command {
	var points, boxes int
	cmd := &cobra.Command{
		Use:   "repair SHIP [SECTION] [--points N] | repair SHIP COMPONENT [--boxes N]",
		Short: "Repair a section's damage, or a detailed ship's component",
		Long: `Repair a section ship: SECTION (default: the first damaged section) loses
--points N of its damage (default: all of it).

Repair a detailed (INTERCEPTOR) ship: COMPONENT is a component's code as
ship show lists it (E1), or T<n>:CODE for turret n's (T1:W). --boxes N
repairs N of its lost boxes (default: all it lost), the deepest first, at
the book's REPAIR TIME per box (Engine 2 h, Bridge 24 h, Transponder 15
min...). Components the book marks N/A (Cargo, Hangar) and those it gives
no time (Free boxes, Turret Structure) are refused, as is armour, which is
no component. COMPONENT may also name an external system (External
Hardpoint, External Heavy Hardpoint, External Rescue Compartment) as ship
show lists it: its one box comes back at the book's time (hardpoints 1 h,
rescue compartments 2 h), unless the top armour box of its column is gone
(it would be lost with it again). During an adventure the hours pass on
the game clock: the repair starts where the day's last repair ended, and
one that runs past midnight ends the day as day next does. No repair is
made during an encounter (the book repairs between scenarios only).`,
		Example: `  ltscamp ship repair Kit-Kat Engineering
  ltscamp ship repair Kit-Kat --points 1
  ltscamp ship repair "Space Gull" E1 --boxes 3
  ltscamp ship repair "Space Gull" T1:W
  ltscamp ship repair Tern "Port Rack"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usagef("ship repair takes SHIP and an optional SECTION (or, for a detailed ship, COMPONENT)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			section := ""
			if len(args) == 2 {
				section = args[1]
			}
			if cmd.Flags().Changed("points") && points < 1 {
				return usagef("--points %d: repair 1 point or more", points)
			}
			if cmd.Flags().Changed("boxes") && boxes < 1 {
				return usagef("--boxes %d: repair 1 box or more", boxes)
			}
			return a.withCampaign(func(s *campaign.Service) error {
				detailed, found, err := s.ShipKind(args[0], "")
				if err != nil {
					return err
				}
				switch {
				case found && detailed:
					if cmd.Flags().Changed("points") {
						return usagef("%s is a detailed (INTERCEPTOR) record: --points is for section ships; repair it with COMPONENT and --boxes", args[0])
					}
					if section == "" {
						return usagef("name the COMPONENT of %s to repair, as E1 (see ltscamp ship show)", args[0])
					}
					return a.shipRepairDetailed(s, campaign.DetailedRepairRequest{Ship: args[0], Component: section, Boxes: boxes})
				case found && cmd.Flags().Changed("boxes"):
					return usagef("%s is a section ship: --boxes is for detailed (INTERCEPTOR) records; repair it with --points", args[0])
				}
				sh, rep, err := s.ShipRepair(args[0], section, points)
				if err != nil {
					return err
				}
				a.out.printf("%s: %s repaired by %s\n", sh.Name, rep.Section, projections.Count(rep.Points, "point", "points"))
				if a.show {
					printShip(a.out, sh)
				}
				return nil
			})
		},
	}
	cmd.Flags().IntVar(&points, "points", 0, "points to repair (default all)")
	cmd.Flags().IntVar(&boxes, "boxes", 0, "detailed ships: lost boxes to repair (default all)")
	return cmd
}
