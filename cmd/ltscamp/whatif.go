package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/projections"
)

func newWhatifCmd(a *app) *cobra.Command {
	var q campaign.WhatIfQuery
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "whatif --edition 2010|2020|2021 [--as-of POINT] [--json]",
		Short: "Replay the campaign under another edition's rules, writing nothing",
		Long: `Replay the campaign's commands under another edition's rules, in memory,
with the same dice faces, and show what would have changed. Nothing is
written: the log stays as it is.

Each check is decided again from the character's would-be sheet (its target,
its outcome), each damage roll by the edition's damage rules, each XP spend
priced by the edition's prices at the level he would have then. The rest is
carried as recorded and checked under that edition's rules, as verify checks
the log.

The report shows, per character, the fields of his sheet that would differ
(attributes, skills, XP earned, spent and unspent, karma, wishes, curses,
damage, fatigue, status), then each command whose outcome would change, with
its seq. Where a changed outcome makes a later command impossible as recorded
(he could not afford a spend, he would be dead), the replay stops that
character's line there and lists his later commands as not replayed, rather
than guess. Replaying under the campaign's own edition changes nothing.

--as-of replays the log up to a point (a seq, an event id, an RFC 3339 time,
day:N or adventure:A:day:N). See docs/whatif.md.`,
		Example: `  ltscamp whatif --edition 2010
  ltscamp whatif --edition 2020 --as-of day:3
  ltscamp whatif --edition 2010 --json | jq '.characters[].differences'`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if q.Edition == "" {
				return usagef("which edition? give --edition 2010, 2020 or 2021")
			}
			return a.withCampaign(func(s *campaign.Service) error {
				rep, err := s.WhatIf(q)
				if err != nil {
					return err
				}
				if asJSON {
					return a.out.json(rep)
				}
				printWhatIf(a.out, rep)
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&q.Edition, "edition", "", "the edition to replay under: 2010, 2020 or 2021")
	f.StringVar(&q.AsOf, "as-of", "", "replay the log up to `POINT` (seq, event id, time, day:N)")
	f.BoolVar(&asJSON, "json", false, "print the report as JSON (see docs/json.md for the keys)")
	return cmd
}

// printWhatIf renders a what-if report: each character's differences,
// then the commands that diverge or could not be replayed.
func printWhatIf(p *printer, rep projections.WhatIfReport) {
	p.printf("%s\n", p.heading(fmt.Sprintf("What if %s had been played under edition %s (it is %s)", rep.Campaign, rep.Under, rep.Edition)))
	p.printf("the log replayed to seq %d with the same dice; nothing written\n", rep.Seq)
	if rep.Under == rep.Edition {
		p.printf("\nthe campaign's own edition: the replay reproduces the log\n")
	}
	rows := [][]string{}
	same := 0
	for _, c := range rep.Characters {
		if len(c.Differences) == 0 && c.StoppedAt == 0 {
			same++
			continue
		}
		name := c.Character
		if c.StoppedAt != 0 {
			name += fmt.Sprintf(" (stopped at seq %d; %d later %s skipped)", c.StoppedAt, c.NotReplayed, plural(c.NotReplayed, "command", "commands"))
		}
		if len(c.Differences) == 0 {
			rows = append(rows, []string{name, "–", "", ""})
		}
		for i, d := range c.Differences {
			if i > 0 {
				name = ""
			}
			rows = append(rows, []string{name, d.Field, d.Real, d.WouldBe})
		}
	}
	p.printf("\n%s\n", p.heading("Sheets"))
	if len(rows) == 0 {
		p.printf("no sheet would differ\n")
	} else {
		p.table([]string{"CHARACTER", "FIELD", "REAL", "WOULD BE"}, rows)
		if same > 0 {
			p.printf("%d other %s would stand as they do\n", same, plural(same, "sheet", "sheets"))
		}
	}
	p.printf("\n%s\n", p.heading("Commands"))
	if len(rep.Commands) == 0 {
		p.printf("no command's outcome would change\n")
	} else {
		crows := make([][]string, len(rep.Commands))
		for i, c := range rep.Commands {
			crows[i] = []string{strconv.FormatInt(c.Seq, 10), c.Kind, c.What}
		}
		p.tableWithin(80, []string{"SEQ", "KIND", "WHAT"}, crows)
	}
	if len(rep.Carried) > 0 {
		p.printf("\n%s\n", p.heading("Decided again, and carried as recorded"))
		for _, c := range rep.Carried {
			for i, line := range strings.Split(wrapCell(c, 76, true), "\n") {
				lead := "  "
				if i == 0 {
					lead = "- "
				}
				p.printf("%s%s\n", lead, line)
			}
		}
	}
}
