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
		if a.show {
			printDetailedShip(a.out, sh)
		}
		return nil
	})
}

// printDetailedShip draws a detailed ship: each facing's armour, the
// Internal Component Block, turrets, then its components, externals and
// crew.
func printDetailedShip(p *printer, sh projections.DetailedShip) {
	s := sh.Ship()
	v := sh.View()
	p.printf("%s\n", p.heading(fmt.Sprintf("%s — %s", sh.Name, v.Heading())))
	if fate := v.Fate(); fate != "" {
		p.printf("%s\n", fate)
	}
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

// shipHitDetailed is `ship hit` on a detailed ship: one shot for each
// --weapon, at one point of its movement.
func (a *app) shipHitDetailed(cmd *cobra.Command, s *campaign.Service, name, source string) error {
	if lts := changedFlags(cmd, sectionHitFlags); len(lts) > 0 {
		return usagef("%s is a detailed (INTERCEPTOR) record: %s %s for section ships; hit it with --facing, --weapon and --column", name, strings.Join(lts, ", "), plural(len(lts), "is", "are"))
	}
	if !cmd.Flags().Changed("facing") || !cmd.Flags().Changed("weapon") {
		return usagef("a hit on a detailed ship needs --facing forward|aft|left|right and --weapon laser:N|TEMPLATE (--column C, or the program rolls it)")
	}
	facings, _ := cmd.Flags().GetStringArray("facing")
	weapons, _ := cmd.Flags().GetStringArray("weapon")
	columns, _ := cmd.Flags().GetIntSlice("column")
	rolls, _ := cmd.Flags().GetIntSlice("turret-roll")
	picks, _ := cmd.Flags().GetIntSlice("turret-pick")
	n := len(weapons)
	perShot := func(flag string, got int, once bool) error {
		switch {
		case got == 0 || got == n || (once && got == 1):
			return nil
		case once:
			return usagef("%s %s for %s: give it once for all of them, or once for each, in the order of the --weapon flags", plural(got, "one", "several"), flag, projections.Count(n, "shot", "shots"))
		}
		return usagef("%d %s for %s: give one for each --weapon, in order, or none and the program rolls", got, flag, projections.Count(n, "shot", "shots"))
	}
	for _, c := range []struct {
		flag string
		got  int
		once bool
	}{{"--facing", len(facings), true}, {"--column", len(columns), false}, {"--turret-roll", len(rolls), false}, {"--turret-pick", len(picks), n == 1}} {
		if err := perShot(c.flag, c.got, c.once); err != nil {
			return err
		}
	}
	if len(picks) > 0 && len(rolls) == 0 {
		return usagef("--turret-pick goes with --turret-roll: give both, or neither and the program rolls them")
	}
	shots := make([]campaign.DetailedShotRequest, n)
	for i, w := range weapons {
		sh := &shots[i]
		sh.Facing = facings[min(i, len(facings)-1)]
		var err error
		if sh.Laser, sh.Template, err = parseWeapon(w); err != nil {
			return err
		}
		if len(columns) > 0 {
			sh.Column = columns[i]
			if sh.Column < 1 || sh.Column > interceptor.Columns {
				return usagef("--column %d: the column is a d10 roll, 1 to %d", sh.Column, interceptor.Columns)
			}
		}
		if len(rolls) > 0 {
			sh.TurretRoll = rolls[i]
			if sh.TurretRoll < 1 || sh.TurretRoll > 10 {
				return usagef("--turret-roll %d: the turret roll is a d10, 1 to 10", sh.TurretRoll)
			}
		}
		if len(picks) > 0 {
			sh.TurretPick = picks[min(i, len(picks)-1)]
			if sh.TurretPick < 0 || (sh.TurretPick == 0 && n == 1) {
				return usagef("--turret-pick %d: turrets are numbered from 1, as `ship show` lists them", sh.TurretPick)
			}
		}
	}
	first := shots[0]
	req := campaign.DetailedHitRequest{Ship: name, Source: source, Facing: first.Facing, Laser: first.Laser, Template: first.Template,
		Column: first.Column, TurretRoll: first.TurretRoll, TurretPick: first.TurretPick, MoreShots: shots[1:]}
	var err error
	if cmd.Flags().Changed("crew-dice") {
		v, _ := cmd.Flags().GetString("crew-dice")
		if req.CrewDice, err = parseD10s(v, "--crew-dice"); err != nil {
			return err
		}
	}
	if cmd.Flags().Changed("jam-roll") {
		req.JamDice, _ = cmd.Flags().GetIntSlice("jam-roll")
		for _, j := range req.JamDice {
			if j < 1 || j > 10 {
				return usagef("--jam-roll %d: the turret jam roll is a d10, 1 to 10", j)
			}
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
	if a.show {
		printDetailedShip(a.out, res.Ship)
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// printDetailedTurn prints a turn end's rolls, numbered as reroll
// --which names them, who left the ship and who died, the time left to
// abandon a broken-up ship, and the crew after them.
func printDetailedTurn(p *printer, res campaign.DetailedTurnResult) {
	sh, turn := res.Ship, &res.Turn
	p.printf("%s: end of turn\n", sh.Name)
	if len(turn.Abandoned) > 0 {
		p.printf("  abandoned ship: %s\n", strings.Join(turn.Abandoned, ", "))
	}
	for i, r := range projections.EventRolls(turn) {
		p.printf("  %s\n", projections.NumberedShipRoll(i+1, r))
	}
	if len(turn.Ejected) > 0 {
		p.printf("  ejected before the blast: %s\n", strings.Join(turn.Ejected, ", "))
	}
	for _, k := range turn.Killed {
		p.printf("  %s was killed\n", k)
	}
	for _, k := range res.Killed {
		p.printf("  %s is dead on his sheet too\n", k)
	}
	if turn.AbandonTurns != nil {
		p.printf("  %s broke up: %s\n", sh.Name, projections.AbandonText(*turn.AbandonTurns))
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

// printDetailedHit tells a hit: each shot, then what they did together
// (the widowed armour removed once after them, components disabled, the
// crew's rolls and deaths).
func printDetailedHit(p *printer, res campaign.DetailedHitResult) {
	h := res.Hit
	shots := h.Shots()
	for i, shot := range shots {
		printDetailedShot(p, res.Ship, &shot, i+1, len(shots))
	}
	if n := len(h.Widowed); n > 0 {
		after := "the hit"
		if len(shots) > 1 {
			after = "the " + projections.Count(len(shots), "shot", "shots")
		}
		p.printf("  %s of widowed armour removed after %s\n", projections.Count(n, "box", "boxes"), after)
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
	for _, k := range res.Killed {
		p.printf("  %s is dead on his sheet too\n", k)
	}
}

// printDetailedShot tells one shot of a hit (number n of shots).
func printDetailedShot(p *printer, sh projections.DetailedShip, shot *events.DetailedShot, n, shots int) {
	how := "entered"
	if !shot.Entered {
		how = "rolled"
	}
	weapon := fmt.Sprintf("laser %d", shot.Points)
	if shot.Template != nil {
		weapon = "template " + shot.Template.Name
		if shot.Sample {
			weapon += " (a sample)"
		}
	}
	armour, internal := 0, 0
	for _, pl := range shot.Destroyed {
		if pl.Block == "internal" {
			internal++
		} else {
			armour++
		}
	}
	name := sh.Name
	if shots > 1 {
		name = fmt.Sprintf("shot %d: %s", n, sh.Name)
	}
	if t := projections.TurretRollText(shot); t != "" {
		if shot.Turret > 0 {
			t += " (" + sh.Ship().Turrets()[shot.Turret-1].Name + ")"
		}
		p.printf("%s: %s\n", name, t)
	}
	// Where it landed, then what it destroyed, each wrapped at word
	// boundaries to fit 80 columns.
	line := fmt.Sprintf("%s hit on the %s facing, column %d (%s)", name, shot.Facing, shot.Column, how)
	for _, l := range fill(strings.Fields(line), "", "    ") {
		p.printf("%s\n", l)
	}
	line = fmt.Sprintf("%s: %d armour and %d internal boxes destroyed, %d wasted", weapon, armour, internal, shot.Wasted)
	for _, l := range fill(strings.Fields(line), "  ", "    ") {
		p.printf("%s\n", l)
	}
	if shot.TurretDestroyed > 0 {
		p.printf("  turret %d (%s) destroyed: %d residual %s into the hull\n", shot.TurretDestroyed,
			sh.Ship().Turrets()[shot.TurretDestroyed-1].Name, shot.Residual, plural(shot.Residual, "point passes", "points pass"))
	}
	if n := len(shot.Exploded); n > 0 {
		p.printf("  %s destroyed by secondary explosions\n", projections.Count(n, "box", "boxes"))
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
	var abandon []string
	cmd := &cobra.Command{
		Use:   "turn-end SHIP [--dice a,b,...] [--abandon CREWMAN]...",
		Short: "End a detailed ship's turn: crew wound, collapse and wake rolls",
		Long: `End the turn of a detailed (INTERCEPTOR) ship and make the rolls it calls
for, in this order:

  abandon ship    each --abandon CREWMAN, conscious, leaves the ship
  time runs out   a ship that broke up has as many turns to abandon ship
                  as Ship Destroyed boxes were left: one passes, and when
                  none is left, those still aboard die
  wound rolls     each crewman of a Bridge or Quarters hit this turn: a d10
                  at or under the wound chance (10% a tenth of the boxes
                  lost) wounds him, and a conscious one then rolls on the
                  Consciousness Table (a second d10)
  collapse roll   the Ship Destroyed row was hit this turn: the pilot must
                  roll above the boxes lost, or a second d10 on the chart:
                  1-4 the ship breaks up (out of action, no more repairs),
                  5-7 it explodes after a delay (the conscious eject, the
                  unconscious die), 8-10 it explodes with all aboard
  wake rolls      the Decision Phase of the next turn: each unconscious
                  crewman rolls on the column of his total hits to wake

The program rolls the dice, or --dice enters them in that order. The turn's
end is one event on the ship's record: ship show lists the crew after it,
verify makes the rolls again from the faces, and undo takes it back. A
crewman who dies and is a character or a foe of the campaign dies on his
sheet too, in the same command. A ship with nothing due is refused.`,
		Example: `  ltscamp ship turn-end Tern
  ltscamp ship turn-end Tern --dice 2,8,5
  ltscamp ship turn-end Tern --abandon Marcos
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
				res, err := s.DetailedShipTurnEnd(args[0], faces, abandon...)
				if err != nil {
					return err
				}
				printDetailedTurn(a.out, res)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&dice, "dice", "", "the d10s of the rolls, in order (default: rolled)")
	cmd.Flags().StringArrayVar(&abandon, "abandon", nil, "a conscious crewman who abandons ship this turn (repeat for more)")
	return cmd
}
