package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/projections"
)

func newDiceCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "dice",
		Short: "Test the table's dice for fairness and each character's luck",
		Example: `  ltscamp dice report
  ltscamp dice report --physical --json | jq '.sources[].p_value'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return usagef("dice what? `ltscamp dice report` tests the dice and each character's luck")
		},
	}
	cmd.AddCommand(newDiceReportCmd(a))
	return cmd
}

func newDiceReportCmd(a *app) *cobra.Command {
	var q campaign.DiceQuery
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "report [--actor A] [--char NAME] [--adventure N] [--physical|--program] [--json]",
		Short: "Fairness of each die source and luck of each character, from the log",
		Long: `Read the whole log once (writing nothing) and report two things. --actor A
keeps the dice of the commands actor A ran (the actor recorded on each
event); --char, --adventure, --physical and --program narrow it further.

Fairness of each die source: each actor's physical dice (faces typed in with
--dice) and the program's own dice apart. For each, the faces counted, the
chi-square goodness-of-fit statistic against a fair die and its p-value, and
the test's power: the chance that, after this many faces, the test would
flag a die loaded 2,3,3,3,3,4 out of 18. A source is flagged when its
p-value is below 0.01; when several sources are compared their p-values
are corrected for it (Holm) and the report says so. A low power means the
sample is too small to call the dice fair.

Luck of each character: over his checks, each with its own dice and target
(3/DX at 11, 4/IQ at 12 ...), the number passed against the exact
distribution of passes, as a percentile: the share of outcomes worse than
his (50 is average; 99 means luckier than 99 parties in 100). Per adventure
and over the campaign. A karma re-roll counts as the roll that stood; the
rolls it replaced are counted apart. Commands undone are left out.

See docs/dice.md for how to read the figures.`,
		Example: `  ltscamp dice report
  ltscamp dice report --actor ann --physical
  ltscamp dice report --char Ajax --adventure 2
  ltscamp dice report --json | jq '.characters[] | {character, percentile}'`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := diceActor(a, cmd, &q); err != nil {
				return err
			}
			return a.withCampaign(func(s *campaign.Service) error {
				rep, err := s.DiceReport(q)
				if err != nil {
					return err
				}
				if asJSON {
					return a.out.json(rep)
				}
				printDiceReport(a.out, rep)
				return nil
			})
		},
	}
	f := cmd.Flags()
	diceFlags(f, &q)
	f.BoolVar(&asJSON, "json", false, "print the report as JSON (see docs/json.md for the keys)")
	cmd.MarkFlagsMutuallyExclusive("physical", "program")
	return cmd
}

// diceFlags binds the flags that narrow a dice report.
func diceFlags(f *pflag.FlagSet, q *campaign.DiceQuery) {
	f.StringVar(&q.Character, "char", "", "only the rolls of this character (or foe)")
	f.IntVar(&q.Adventure, "adventure", 0, "only the rolls of adventure `N`")
	f.BoolVar(&q.Physical, "physical", false, "only physical dice (faces typed in with --dice)")
	f.BoolVar(&q.Program, "program", false, "only the program's dice")
}

// diceActor takes the global --actor, on a dice report, as the actor
// whose dice to keep (as log takes it).
func diceActor(a *app, cmd *cobra.Command, q *campaign.DiceQuery) error {
	if !cmd.Flags().Changed("actor") {
		return nil
	}
	if strings.TrimSpace(a.actor) == "" {
		return usagef("--actor is empty: give the actor whose dice to report")
	}
	q.Actor = a.actor
	return nil
}

// diceBarWidth is the longest bar of the report's charts, so that a
// chart's line (label, bar, figures) fits 80 columns.
const diceBarWidth = 40

// printDiceReport renders a dice report: the sources' table and a chart
// of each one's faces, then the characters' luck with a bar each.
func printDiceReport(p *printer, rep projections.DiceReport) {
	title := fmt.Sprintf("Dice report — %s (edition %s, log to seq %d)", rep.Campaign, rep.Edition, rep.Seq)
	p.printf("%s\n", p.heading(title))
	if f := rep.Filter.String(); f != "" {
		p.printf("only %s\n", f)
	}
	p.printf("\n%s\n", p.heading("Fairness of each die source"))
	if len(rep.Sources) == 0 {
		p.printf("no dice thrown yet\n")
	} else {
		level := fmt.Sprintf("flagged when p < %g", rep.Level)
		if rep.Holm {
			level += fmt.Sprintf("; p corrected for %d sources compared (Holm)", len(rep.Sources))
		}
		p.printf("%s\npower: the chance the test flags a die loaded 2,3,3,3,3,4 out of 18\n", level)
		rows := make([][]string, len(rep.Sources))
		for i, d := range rep.Sources {
			verdict := "ok"
			switch {
			case d.Flagged:
				verdict = p.cell(p.bad("FLAGGED"))
			case d.Power < 0.8:
				verdict = "too few faces"
			}
			rows[i] = []string{d.Name(), strconv.FormatInt(d.Thrown, 10), fmt.Sprintf("%.1f", d.Chi2), formatPValue(d.PValue), percent(d.Power), verdict}
		}
		p.table([]string{"SOURCE", "FACES", "CHI²", "P", "POWER", "VERDICT"}, rows, "CHI²")
		for _, d := range rep.Sources {
			p.printf("\n")
			for _, line := range strings.Split(wrapCell(d.Name()+": "+d.Verdict, 78, true), "\n") {
				p.printf("%s\n", line)
			}
			printFaceBars(p, d)
		}
	}
	p.printf("\n%s\n", p.heading("Luck of each character"))
	if len(rep.Characters) == 0 {
		p.printf("no checks made yet\n")
		return
	}
	p.printf("percentile: the share of outcomes worse than his (50 is average)\n")
	rows := [][]string{}
	for _, c := range rep.Characters {
		rows = append(rows, luckRow(c.Character, c.Luck))
		if len(c.Adventures) > 1 {
			for _, ad := range c.Adventures {
				rows = append(rows, luckRow("  "+adventureName(ad.Adventure), ad.Luck))
			}
		}
		if r := c.Rerolled; r != nil {
			rows = append(rows, luckRow("  re-rolled away", *r))
		}
	}
	p.table([]string{"CHARACTER", "CHECKS", "PASSED", "EXPECTED", "PERCENTILE"}, rows)
	p.printf("\n")
	for _, c := range rep.Characters {
		p.printf("%-14.14s %s %s\n", c.Character, bar(p, c.Percentile/100, diceBarWidth, c.Percentile >= 50), formatPercentile(c.Percentile))
	}
}

// luckRow is a line of the luck table.
func luckRow(name string, l projections.Luck) []string {
	return []string{name, strconv.Itoa(l.Checks), strconv.Itoa(l.Passed), fmt.Sprintf("%.1f", l.Expected), formatPercentile(l.Percentile)}
}

// printFaceBars draws a source's face counts, each bar against the
// count a fair die would give.
func printFaceBars(p *printer, d projections.DieReport) {
	var most int64
	for _, c := range d.Faces {
		most = max(most, c)
	}
	fair := float64(d.Thrown) / float64(d.Sides)
	for i, c := range d.Faces {
		share := 0.0
		if most > 0 {
			share = float64(c) / float64(most)
		}
		p.printf("%3d %s %6d  (fair %s)\n", i+1, bar(p, share, diceBarWidth, true), c, strconv.FormatFloat(math.Round(fair*10)/10, 'f', -1, 64))
	}
}

// bar draws share (0 to 1) of width cells in blocks, coloured when the
// printer styles (green when good, red otherwise).
func bar(p *printer, share float64, width int, good bool) styled {
	n := int(math.Round(share * float64(width)))
	n = min(max(n, 0), width)
	s := strings.Repeat("█", n) + strings.Repeat(" ", width-n)
	if good {
		return p.good(s)
	}
	return p.bad(s)
}

// adventureName names an adventure, or the time between adventures (0).
func adventureName(n int) string {
	if n == 0 {
		return "between adventures"
	}
	return fmt.Sprintf("adventure %d", n)
}

// percent writes a share as a whole percentage.
func percent(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }

// formatPValue writes a p-value: "0.0312", "< 0.0001".
func formatPValue(p float64) string {
	if p < 0.0001 {
		return "< 0.0001"
	}
	return fmt.Sprintf("%.4f", p)
}

// formatPercentile writes a percentile with as many decimals as it takes
// not to round an extreme one to 0 or 100 (at most six).
func formatPercentile(x float64) string {
	for d := 1; d < 6; d++ {
		s := strconv.FormatFloat(x, 'f', d, 64)
		if (s != "100."+strings.Repeat("0", d) || x == 100) && (s != "0."+strings.Repeat("0", d) || x == 0) {
			return s
		}
	}
	return strconv.FormatFloat(x, 'f', 6, 64)
}
