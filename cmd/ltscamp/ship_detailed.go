package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/importers"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
	"github.com/ltscamp/ltscamp/rules/interceptor"
)

// readDetailFile reads a detailed ship record or templates file (FILE, or
// - for standard input) and picks its format.
func (a *app) readDetailFile(what, file, format string) ([]byte, importers.Format, error) {
	f, err := importers.DetailFormat(file, format)
	if err != nil {
		return nil, "", usageError{err}
	}
	in, err := a.openInput(what, file)
	if err != nil {
		return nil, "", err
	}
	defer in.Close()
	data, err := io.ReadAll(io.LimitReader(in, importers.MaxDetailFile+1))
	if err != nil {
		return nil, "", fmt.Errorf("read %s: %w", file, err)
	}
	if len(data) > importers.MaxDetailFile {
		return nil, "", usagef("%s is larger than %d MiB", file, importers.MaxDetailFile>>20)
	}
	return data, f, nil
}

// refusedFile makes a file's parse error a coded error that says nothing
// was appended.
func refusedFile(err error) error {
	var fe *importers.FileError
	if errors.As(err, &fe) {
		return rules.Errorf(rules.CodeInvalid, "%v\nnothing was appended", fe)
	}
	return err
}

// shipNewDetailed is `ship new NAME --detailed FILE`.
func (a *app) shipNewDetailed(name, file, format string) error {
	data, f, err := a.readDetailFile("ship new", file, format)
	if err != nil {
		return err
	}
	spec, err := importers.ParseShipRecord(file, data, f)
	if err != nil {
		return refusedFile(err)
	}
	return a.withCampaign(func(s *campaign.Service) error {
		sh, err := s.DetailedShipNew(name, spec, file)
		if err != nil {
			return err
		}
		a.out.note("built %s from the detailed record %s", sh.Name, file)
		printDetailedShip(a.out, sh)
		return nil
	})
}

// printDetailedShip draws a detailed ship: each facing's armour, the
// Internal Component Block, turrets, then its components, externals and
// crew.
func printDetailedShip(p *printer, sh projections.DetailedShip) {
	s := sh.Ship()
	v := sh.View()
	state := "detailed record (INTERCEPTOR)"
	if v.Exploded {
		state = "EXPLODED"
	}
	p.printf("%s\n", p.heading(fmt.Sprintf("%s — %s", sh.Name, state)))
	for _, f := range interceptor.Facings() {
		b := v.Armor[string(f)]
		for i, line := range s.RenderArmour(f) {
			if i == 0 {
				line = fmt.Sprintf("%s: %d intact, %d destroyed, %d widowed", line, b.Intact, b.Destroyed, b.Widowed)
			}
			p.printf("%s\n", line)
		}
		p.printf("\n")
	}
	for i, line := range s.RenderInternal() {
		if i == 0 {
			line = fmt.Sprintf("%s: %d of %d boxes destroyed", line, v.Internal.Destroyed, v.Internal.Boxes)
		}
		p.printf("%s\n", line)
	}
	for k := range v.Turrets {
		p.printf("\n")
		for _, line := range s.RenderTurret(k + 1) {
			p.printf("%s\n", line)
		}
		if st := v.Turrets[k].State; st != "standing" {
			p.printf("turret %d %s: %s\n", k+1, v.Turrets[k].Name, st)
		}
	}
	for _, line := range interceptor.Legend() {
		p.printf("%s\n", line)
	}
	p.printf("\n")
	rows := make([][]string, 0, len(v.Components))
	for _, c := range v.Components {
		rows = append(rows, []string{c.Name, c.Type, strconv.Itoa(c.Boxes), strconv.Itoa(c.Lost), componentState(c)})
	}
	p.table([]string{"CODE", "TYPE", "BOXES", "LOST", "STATE"}, rows)
	for _, e := range v.Externals {
		p.printf("external %s (%s) on %s column %d: %s\n", e.Name, e.Type, e.Facing, e.Column, e.State)
	}
	printDetailedCrew(p, v)
	p.printf("%s in effect\n", projections.Count(v.Hits, "hit", "hits"))
}

func componentState(c projections.DetailedComponent) string {
	switch {
	case c.Disabled:
		return "disabled"
	case c.Lost == c.Boxes:
		return "destroyed"
	case c.Lost > 0:
		return "damaged"
	}
	return "ok"
}

// detailedHitFlags are the flags of `ship hit` for detailed ships.
var detailedHitFlags = []string{"facing", "weapon", "column", "turret-roll", "turret-pick", "crew-dice", "jam-roll"}

// sectionHitFlags are the flags of `ship hit` for section ships.
var sectionHitFlags = []string{"damage", "dice", "inflict"}

func changedFlags(cmd *cobra.Command, names []string) []string {
	var out []string
	for _, n := range names {
		if cmd.Flags().Changed(n) {
			out = append(out, "--"+n)
		}
	}
	return out
}

// parseWeapon reads --weapon: laser:N, or a damage template's name.
func parseWeapon(w string) (laser int, template string, err error) {
	w = strings.TrimSpace(w)
	if rest, ok := strings.CutPrefix(strings.ToLower(w), "laser:"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(rest))
		if err != nil || n < 1 || n > interceptor.MaxLaserPoints {
			return 0, "", usagef("--weapon %q: a laser is laser:N, N its strength from 1 to %d", w, interceptor.MaxLaserPoints)
		}
		return n, "", nil
	}
	if w == "" {
		return 0, "", usagef("--weapon is laser:N or a damage template's name (see `ltscamp ship template list`)")
	}
	return 0, w, nil
}

// shipHitDetailed is `ship hit` on a detailed ship.
func (a *app) shipHitDetailed(cmd *cobra.Command, s *campaign.Service, name, weapon, source string) error {
	if lts := changedFlags(cmd, sectionHitFlags); len(lts) > 0 {
		return usagef("%s is a detailed (INTERCEPTOR) record: %s %s for section ships; hit it with --facing, --weapon and --column", name, strings.Join(lts, ", "), plural(len(lts), "is", "are"))
	}
	if !cmd.Flags().Changed("facing") || !cmd.Flags().Changed("weapon") {
		return usagef("a hit on a detailed ship needs --facing forward|aft|left|right and --weapon laser:N|TEMPLATE (--column C, or the program rolls it)")
	}
	req := campaign.DetailedHitRequest{Ship: name, Source: source}
	req.Facing, _ = cmd.Flags().GetString("facing")
	var err error
	if req.Laser, req.Template, err = parseWeapon(weapon); err != nil {
		return err
	}
	if cmd.Flags().Changed("column") {
		req.Column, _ = cmd.Flags().GetInt("column")
		if req.Column < 1 || req.Column > interceptor.Columns {
			return usagef("--column %d: the column is a d10 roll, 1 to %d", req.Column, interceptor.Columns)
		}
	}
	if cmd.Flags().Changed("turret-roll") {
		req.TurretRoll, _ = cmd.Flags().GetInt("turret-roll")
		if req.TurretRoll < 1 || req.TurretRoll > 10 {
			return usagef("--turret-roll %d: the turret roll is a d10, 1 to 10", req.TurretRoll)
		}
	}
	if cmd.Flags().Changed("turret-pick") {
		req.TurretPick, _ = cmd.Flags().GetInt("turret-pick")
		if req.TurretPick < 1 {
			return usagef("--turret-pick %d: turrets are numbered from 1, as `ship show` lists them", req.TurretPick)
		}
	}
	if cmd.Flags().Changed("crew-dice") {
		v, _ := cmd.Flags().GetString("crew-dice")
		if req.CrewDice, err = parseD10s(v, "--crew-dice"); err != nil {
			return err
		}
	}
	if cmd.Flags().Changed("jam-roll") {
		req.JamRoll, _ = cmd.Flags().GetInt("jam-roll")
		if req.JamRoll < 1 || req.JamRoll > 10 {
			return usagef("--jam-roll %d: the turret jam roll is a d10, 1 to 10", req.JamRoll)
		}
	}
	res, err := s.DetailedShipHit(req)
	if err != nil {
		return err
	}
	printDetailedHit(a.out, res)
	printDetailedShip(a.out, res.Ship)
	return nil
}

// shipRepairDetailed repairs a detailed ship's component and says what
// it took: the boxes, the time and, on the game clock, when.
func (a *app) shipRepairDetailed(s *campaign.Service, req campaign.DetailedRepairRequest) error {
	res, err := s.DetailedShipRepair(req)
	if err != nil {
		return err
	}
	r := res.Repair
	code := projections.ComponentName(events.ShipComponentRef{Turret: r.Turret, Code: r.Code})
	if r.External {
		// An external system is one box (book l.343-345).
		a.out.printf("%s: repaired external system %s (%s): %s, %s\n", res.Ship.Name, r.Code,
			interceptor.ComponentType(r.Type).Name(), projections.Count(r.Boxes, "box", "boxes"), projections.DurationText(r.Minutes))
	} else {
		a.out.printf("%s: %s (%s) repaired, %s of %d lost, in %s (%s a box)\n", res.Ship.Name, code,
			interceptor.ComponentType(r.Type).Name(), projections.Count(r.Boxes, "box", "boxes"), r.LostBefore,
			projections.DurationText(r.Minutes), projections.DurationText(r.MinutesPerBox))
	}
	if r.From != nil && r.Until != nil {
		a.out.printf("  the clock: %s → %s\n", projections.ClockText(*r.From), projections.ClockText(*r.Until))
	} else {
		a.out.printf("  between adventures: the game clock does not run\n")
	}
	if res.Days > 0 {
		a.out.printf("  the repair ran past midnight: now day %d\n", r.Until.Day)
	}
	printDetailedShip(a.out, res.Ship)
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// printDetailedTurn prints a turn end's rolls, numbered as reroll
// --which names them, and the crew after them.
func printDetailedTurn(p *printer, sh projections.DetailedShip, turn *events.DetailedTurnEnded) {
	p.printf("%s: end of turn\n", sh.Name)
	for i, r := range projections.EventRolls(turn) {
		p.printf("  %s\n", projections.NumberedShipRoll(i+1, r))
	}
	printDetailedCrew(p, sh.View())
}

// printDetailedCrew prints each crewman's status.
func printDetailedCrew(p *printer, v projections.DetailedShipView) {
	for _, c := range v.Crew {
		st := c.Status
		if c.Wounded {
			st += ", wounded"
		}
		p.printf("crew %s (%s) at %s: %s\n", c.Name, c.Race, c.Station, st)
	}
}

func printDetailedHit(p *printer, res campaign.DetailedHitResult) {
	h := res.Hit
	how := "entered"
	if !h.Entered {
		how = "rolled"
	}
	weapon := fmt.Sprintf("laser %d", h.Points)
	if h.Template != nil {
		weapon = "template " + h.Template.Name
		if h.Sample {
			weapon += " (a sample)"
		}
	}
	armour, internal := 0, 0
	for _, pl := range h.Destroyed {
		if pl.Block == "internal" {
			internal++
		} else {
			armour++
		}
	}
	if t := projections.TurretRollText(&h); t != "" {
		if h.Turret > 0 {
			t += " (" + res.Ship.Ship().Turrets()[h.Turret-1].Name + ")"
		}
		p.printf("%s: %s\n", res.Ship.Name, t)
	}
	p.printf("%s hit on the %s facing, column %d (%s), %s: %d armour and %d internal boxes destroyed, %d wasted\n",
		res.Ship.Name, h.Facing, h.Column, how, weapon, armour, internal, h.Wasted)
	if h.TurretDestroyed > 0 {
		p.printf("  turret %d (%s) destroyed: %d residual %s into the hull\n", h.TurretDestroyed,
			res.Ship.Ship().Turrets()[h.TurretDestroyed-1].Name, h.Residual, plural(h.Residual, "point passes", "points pass"))
	}
	if n := len(h.Exploded); n > 0 {
		p.printf("  %s destroyed by secondary explosions\n", projections.Count(n, "box", "boxes"))
	}
	if n := len(h.Widowed); n > 0 {
		p.printf("  %s of widowed armour removed\n", projections.Count(n, "box", "boxes"))
	}
	for _, x := range h.ExternalsLost {
		p.printf("  external %s lost with the armour under it\n", x)
	}
	for _, c := range h.Disabled {
		p.printf("  %s (%s) disabled\n", projections.ComponentName(c), interceptor.ComponentType(c.Type).Name())
	}
	for _, k := range h.Killed {
		p.printf("  %s was killed\n", k)
	}
	for i, r := range projections.EventRolls(&h) {
		p.printf("  %s\n", projections.NumberedShipRoll(i+1, r))
	}
	if h.ShipExploded {
		p.printf("  %s EXPLODED\n", res.Ship.Name)
	}
}

func newShipTemplateCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "template",
		Short: "Damage templates for hits on detailed ships: add and list",
	}
	cmd.AddCommand(newShipTemplateAddCmd(a), newShipTemplateListCmd(a))
	// "ltscamp ship template" is long enough that the usage's last line
	// would pass 80 columns: it is broken in two.
	cmd.SetUsageTemplate(strings.Replace(usageTemplate, `--help" for more`, "--help\"\nfor more", 1))
	return cmd
}

func newShipTemplateAddCmd(a *app) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "add FILE [--format yaml|json]",
		Short: "Add damage templates from a file, for `ship hit --weapon NAME`",
		Long: `Add damage templates from a YAML or JSON file (docs/interceptor.md):

  templates:
    - name: Plasma 8
      rows: ["XXX", ".X.", "XXX"]

X marks a box the weapon destroys, . one it leaves; rows have the same odd
width, the arrow sits at the centre of the top row. A template of a name added
before replaces it for later hits; a sample's name is refused. The log keeps
the templates, and each hit records the rows it used.`,
		Example: `  ltscamp ship template add templates.yaml
  ltscamp ship template add - --format json < templates.json`,
		Args: exactArgs(1, "one FILE (- for standard input)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			data, f, err := a.readDetailFile("ship template add", args[0], format)
			if err != nil {
				return err
			}
			ts, err := importers.ParseTemplates(args[0], data, f)
			if err != nil {
				return refusedFile(err)
			}
			return a.withCampaign(func(s *campaign.Service) error {
				added, err := s.ShipTemplatesAdd(ts, args[0])
				if err != nil {
					return err
				}
				for _, t := range added {
					a.out.printf("added template %s (%s)\n", t.Name, projections.Count(t.Points, "point", "points"))
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&format, "format", "", "the file's format, yaml or json (default: from its extension)")
	return cmd
}

func newShipTemplateListCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list [--json]",
		Short: "List the damage templates: the campaign's, then the program's samples",
		Long: `List the damage templates a hit on a detailed ship may name. The samples are
the program's, not the book's (its templates are die-cut diagrams that are not
in the text): they are marked "sample" and are always available.`,
		Example: `  ltscamp ship template list
  ltscamp ship template list --json`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				ts, err := s.ShipTemplates()
				if err != nil {
					return err
				}
				if asJSON {
					return a.out.json(ts)
				}
				rows := make([][]string, 0, len(ts))
				for _, t := range ts {
					kind := "campaign"
					if t.Sample {
						kind = "sample"
					}
					rows = append(rows, []string{t.Name, kind, strconv.Itoa(t.Points), strings.Join(t.Rows, " / ")})
				}
				a.out.table([]string{"NAME", "KIND", "POINTS", "ROWS (TOP FIRST)"}, rows)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the templates as JSON")
	return cmd
}

// parseD10s reads a flag's d10 faces, a,b,...: each 1 to 10.
func parseD10s(v, flag string) ([]int, error) {
	faces, err := rules.ParseFaces(v)
	if err != nil {
		return nil, err
	}
	for _, f := range faces {
		if f < 1 || f > 10 {
			return nil, usagef("%s %d: the rolls are d10, 1 to 10", flag, f)
		}
	}
	return faces, nil
}

func newShipTurnEndCmd(a *app) *cobra.Command {
	var dice string
	cmd := &cobra.Command{
		Use:   "turn-end SHIP [--dice a,b,...]",
		Short: "End a detailed ship's turn: crew wound, collapse and wake rolls",
		Long: `End the turn of a detailed (INTERCEPTOR) ship and make the rolls it calls
for, in this order:

  wound rolls     each crewman of a Bridge or Quarters hit this turn: a d10
                  at or under the wound chance (10% a tenth of the boxes
                  lost) wounds him, and a conscious one then rolls on the
                  Consciousness Table (a second d10)
  collapse roll   the Ship Destroyed row was hit this turn: the pilot must
                  roll above the boxes lost, or a second d10 on the chart
  wake rolls      the Decision Phase of the next turn: each unconscious
                  crewman rolls on the column of his last roll to wake

The program rolls the dice, or --dice enters them in that order. The turn's
end is one event on the ship's record: ship show lists the crew after it,
verify makes the rolls again from the faces, and undo takes it back. A ship
with no roll due is refused.`,
		Example: `  ltscamp ship turn-end Tern
  ltscamp ship turn-end Tern --dice 2,8,5
  ltscamp ship show Tern --json`,
		Args: exactArgs(1, "one SHIP"),
		RunE: func(cmd *cobra.Command, args []string) error {
			var faces []int
			if cmd.Flags().Changed("dice") {
				var err error
				if faces, err = parseD10s(dice, "--dice"); err != nil {
					return err
				}
			}
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.DetailedShipTurnEnd(args[0], faces)
				if err != nil {
					return err
				}
				printDetailedTurn(a.out, res.Ship, &res.Turn)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&dice, "dice", "", "the d10s of the rolls, in order (default: rolled)")
	return cmd
}
