package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/importers"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// maxRosterFile bounds what import roster reads: a party, not a database.
const maxRosterFile = 8 << 20

// rosterJSON is the --json output of import roster.
type rosterJSON struct {
	DryRun     bool                `json:"dry_run"`
	Events     int                 `json:"events"`
	Characters []projections.Sheet `json:"characters"`
	Ships      []projections.Ship  `json:"ships"`
	// DetailedShips are the ships built from detailed (INTERCEPTOR)
	// records, as `ship show --json` shows them.
	DetailedShips []projections.DetailedShipView `json:"detailed_ships"`
}

func newImportRosterCmd(a *app) *cobra.Command {
	var format string
	var dryRun, asJSON bool
	cmd := &cobra.Command{
		Use:   "roster FILE|-",
		Short: "Create characters and star craft from a CSV, YAML or JSON roster",
		Long: `Create a party from a file: characters (name, ST, DX, IQ, skills, and an
optional weapon and armour) and star craft (name, record, owner, crew).

Each row becomes exactly the command that char new, equip, ship new and ship
crew would make, decided by the same rules, and the whole file is one
command: everything goes in, or nothing does. Every bad row is listed with
its file, line (and CSV column), field and the rule it breaks.

CSV (as spreadsheets save it: UTF-8 with or without BOM, CRLF or LF, quoted
fields) has the header name,st,dx,iq,skills,weapon,armor with skills written
Pilot:1;Medic:1. YAML and JSON use the same field names under top-level
characters: and ships: lists, with skills as a map from name to level and a
ship's crew as a map from section to a name or a list of names. The format is
--format, else the file's extension. See docs/formats.md.`,
		Example: `  ltscamp import roster party.csv
  ltscamp import roster party.yaml --dry-run
  ltscamp import roster - --format json < party.json`,
		Args: exactArgs(1, "one FILE (- for standard input)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			file := args[0]
			f, err := importers.RosterFormat(file, format)
			if err != nil {
				return usageError{err}
			}
			in, err := a.openInput("import roster", file)
			if err != nil {
				return err
			}
			defer in.Close()
			data, err := io.ReadAll(io.LimitReader(in, maxRosterFile+1))
			if err != nil {
				return fmt.Errorf("read %s: %w", file, err)
			}
			if len(data) > maxRosterFile {
				return usagef("%s is larger than %d MiB: a roster is a party, not a campaign", file, maxRosterFile>>20)
			}
			roster, err := importers.ParseRoster(file, data, f)
			var re *importers.RosterError
			if errors.As(err, &re) {
				return rules.Errorf(rules.CodeInvalid, "%v\nnothing was imported", re)
			}
			if err != nil {
				return err
			}
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.ImportRoster(roster, dryRun)
				if err != nil {
					return err
				}
				if asJSON {
					out := rosterJSON{DryRun: res.DryRun, Events: res.Events, Characters: res.Characters, Ships: res.Ships}
					if out.Characters == nil {
						out.Characters = []projections.Sheet{}
					}
					if out.Ships == nil {
						out.Ships = []projections.Ship{}
					}
					out.DetailedShips = []projections.DetailedShipView{}
					for _, ds := range res.DetailedShips {
						out.DetailedShips = append(out.DetailedShips, ds.View())
					}
					return a.out.json(out)
				}
				printRoster(a.out, res)
				verb := "imported"
				if res.DryRun {
					verb = "would import"
				}
				a.out.note("%s %s and %s from %s (%s)%s", verb, projections.Count(len(res.Characters), "character", "characters"),
					projections.Count(len(res.Ships)+len(res.DetailedShips), "ship", "ships"), file, projections.Count(res.Events, "event", "events"),
					map[bool]string{true: "; --dry-run: nothing was written", false: ""}[res.DryRun])
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "csv, yaml or json (default: from the file's extension)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "check every row, show the result, write nothing")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the sheets and records created as JSON")
	return cmd
}

// printRoster shows the characters and ships an import made.
func printRoster(p *printer, res campaign.RosterResult) {
	if len(res.Characters) > 0 {
		rows := make([][]string, 0, len(res.Characters))
		for _, sh := range res.Characters {
			skills := make([]string, 0, len(sh.Skills))
			for _, sk := range sh.Skills {
				skills = append(skills, fmt.Sprintf("%s %d", sk.Name, sk.Level))
			}
			weapon, armor := "-", "-"
			if sh.Weapon != nil {
				weapon = sh.Weapon.Name
			}
			if sh.Armor != nil {
				armor = sh.Armor.Name
			}
			rows = append(rows, []string{sh.Name, strconv.Itoa(sh.Attributes.ST), strconv.Itoa(sh.Attributes.DX), strconv.Itoa(sh.Attributes.IQ),
				strings.Join(skills, ", "), weapon, armor})
		}
		p.table([]string{"NAME", "ST", "DX", "IQ", "SKILLS", "WEAPON", "ARMOR"}, rows)
	}
	if len(res.Ships) > 0 {
		rows := make([][]string, 0, len(res.Ships))
		for _, sh := range res.Ships {
			var crew []string
			for _, sec := range sh.Sections {
				for _, c := range sec.Crew {
					crew = append(crew, c+" ("+sec.Name+")")
				}
			}
			rows = append(rows, []string{sh.Name, sh.Record, strconv.Itoa(sh.Cost), strings.Join(crew, ", ")})
		}
		p.table([]string{"SHIP", "RECORD", "COST", "CREW"}, rows)
	}
	if len(res.DetailedShips) > 0 {
		rows := make([][]string, 0, len(res.DetailedShips))
		for _, ds := range res.DetailedShips {
			v := ds.View()
			boxes := 0
			for _, b := range v.Armor {
				boxes += b.Boxes
			}
			crew := make([]string, 0, len(v.Crew))
			for _, c := range v.Crew {
				crew = append(crew, c.Name+" ("+c.Station+")")
			}
			rows = append(rows, []string{v.Name, strconv.Itoa(boxes), strconv.Itoa(v.Internal.Boxes), strconv.Itoa(len(v.Components)), strings.Join(crew, ", ")})
		}
		p.table([]string{"DETAILED SHIP", "ARMOUR", "INTERNAL", "COMPONENTS", "CREW"}, rows)
	}
}
