package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/exports"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

func newAuditCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "audit",
		Short: "Audit a character's XP, row by row, against the rules",
		Example: `  ltscamp audit xp Ajax
  ltscamp audit xp Ajax --json | jq .unspent`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return usagef("audit what? `ltscamp audit xp NAME` audits a character's XP")
		},
	}
	cmd.AddCommand(newAuditXPCmd(a))
	return cmd
}

func newAuditXPCmd(a *app) *cobra.Command {
	var asJSON, wide bool
	cmd := &cobra.Command{
		Use:   "xp NAME [--wide] [--json]",
		Short: "Itemise a character's XP ledger and check it against the rules",
		Long: `Itemise a character's XP: every award and spend, oldest first, with its
seq, where in game time it happened (A1 D2: adventure 1, day 2), its actor,
what it was (an award's reason; what a spend raised, with the price as
recorded) and the running balance. The table fits 80 columns; --wide adds the
wall time, the command id (as undo takes it) and each spend's whole formula. Rows of undone commands are shown, marked "[reverted by seq N]",
and left out of the balance.

Every spend is re-priced by the campaign edition's rules at its moment (the
sheet as it stood just before it). The audit ends with three assertions:
  earned − spent = unspent        the ledger's totals match the sheet
  unspent ≥ 0 at every row        no spend overdrew the account
  every spend priced by the rules each recorded price is the rules' price
A failed assertion is marked ✗ and the exit status is 7 (invalid log).`,
		Example: `  ltscamp audit xp Ajax
  ltscamp audit xp ajax --json | jq '.rows[] | select(.kind == "spend")'`,
		Args: exactArgs(1, "one character NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				au, err := s.AuditXP(args[0])
				if err != nil {
					return err
				}
				if asJSON {
					if err := a.out.json(exports.NewAuditJSON(au)); err != nil {
						return err
					}
				} else {
					printAudit(a.out, au, wide)
				}
				if failed := au.Failed(); len(failed) > 0 {
					details := make([]string, len(failed))
					for i, f := range failed {
						details[i] = f.Detail
					}
					return rules.Errorf(rules.CodeInvalidLog, "the XP audit of %s failed: %s", au.Character, strings.Join(details, "; "))
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the audit as JSON (see docs/json.md for the keys)")
	cmd.Flags().BoolVar(&wide, "wide", false, "add the wall time, the command id and the whole price formula")
	return cmd
}

// printAudit renders an XP audit: a table, then the assertion lines. The
// narrow table leaves out the wall time and the 26-letter command id.
// auditWidth is the width the narrow audit keeps to.
const auditWidth = 80

// auditWhat says what an audit row was. Narrow: "ST 12→13 for 18", with
// an undone row marked by the undo's seq; wide: the price formula and
// edition as recorded, and the undo's reason.
func auditWhat(p *printer, au projections.XPAudit, r projections.XPAuditRow, wide bool) string {
	what := printable(r.What)
	if r.Kind == projections.LedgerSpend {
		if wide {
			price := r.Formula
			if total := fmt.Sprintf("= %d", -r.Amount); !strings.HasSuffix(price, total) {
				// "current level + 6 = 12 + 6" = 18; "next level = 13" says it.
				price += " " + total
			}
			what = fmt.Sprintf("%s: %s [%s]", r.What, price, r.Edition)
		} else {
			what = fmt.Sprintf("%s for %d", r.What, -r.Amount)
			if r.Edition != string(au.Edition) {
				what += fmt.Sprintf(" [%s]", r.Edition)
			}
		}
		if r.Rules != nil && !r.Rules.OK {
			problem := r.Rules.Problem
			if !wide {
				problem = fmt.Sprintf("the rules give %d", r.Rules.Price)
			}
			what = p.cell(what, " ", p.bad("✗ "+problem))
		}
	}
	if r.Reverted != nil {
		mark := revertMark(r.Reverted)
		if !wide {
			mark = fmt.Sprintf("[undone, seq %d]", r.Reverted.Seq)
		}
		what = p.cell(p.bad(mark), " ", what)
	}
	return what
}

// gameTimeShort is a game time in a few letters: "A1 D2", "A1 D2 E3",
// "between" adventures, "–" when not recorded.
func gameTimeShort(g *events.GameTime) string {
	switch {
	case g == nil:
		return "–"
	case g.Adventure == 0:
		return "between"
	case g.Encounter > 0:
		return fmt.Sprintf("A%d D%d E%d", g.Adventure, g.Day, g.Encounter)
	}
	return fmt.Sprintf("A%d D%d", g.Adventure, g.Day)
}

func printAudit(p *printer, au projections.XPAudit, wide bool) {
	p.printf("%s\n", p.heading(fmt.Sprintf("XP audit of %s — edition %s", au.Character, au.Edition)))
	if len(au.Rows) == 0 {
		p.printf("no XP awarded or spent yet\n")
	} else {
		rows := make([][]string, 0, len(au.Rows))
		for _, r := range au.Rows {
			what := auditWhat(p, au, r, wide)
			amount, balance := fmt.Sprintf("%+d", r.Amount), strconv.Itoa(r.Balance)
			if wide {
				rows = append(rows, []string{strconv.FormatInt(r.Seq, 10), r.RecordedAt.Format("2006-01-02 15:04:05"), r.CommandID, printable(r.Actor), gameTimeShort(r.At), r.Kind, what, amount, balance})
				continue
			}
			rows = append(rows, []string{strconv.FormatInt(r.Seq, 10), gameTimeShort(r.At), printable(r.Actor), r.Kind, what, amount, balance})
		}
		// A narrow terminal loses the actor first, then the game time
		// (and, of the wide table, the kind, the wall time and the
		// command); the
		// amounts and the balance are never left out.
		if wide {
			p.table([]string{"SEQ", "RECORDED (UTC)", "COMMAND", "ACTOR", "WHEN", "KIND", "WHAT", "XP", "BALANCE"}, rows, "ACTOR", "WHEN", "KIND", "RECORDED (UTC)", "COMMAND")
		} else {
			// Piped, the narrow table keeps to 80 columns too: WHAT wraps.
			p.tableWithin(auditWidth, []string{"SEQ", "WHEN", "ACTOR", "KIND", "WHAT", "XP", "BALANCE"}, rows, "ACTOR", "WHEN")
		}
	}
	for _, as := range au.Assertions {
		mark := p.good("✓")
		if !as.OK {
			mark = p.bad("✗")
		}
		p.printf("%s %s\n", as.Detail, mark)
	}
}
