package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
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
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "xp NAME [--json]",
		Short: "Itemise a character's XP ledger and check it against the rules",
		Long: `Itemise a character's XP: every award and spend, oldest first, with its
seq, time, command id and actor, what it was (an award's reason; what a spend
raised, with the price formula and edition as recorded) and the running
balance. Rows of undone commands are shown, marked "[reverted by seq N]",
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
					printAudit(a.out, au)
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
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the audit as JSON (see the README for the keys)")
	return cmd
}

// printAudit renders an XP audit: a table, then the assertion lines.
func printAudit(p *printer, au projections.XPAudit) {
	p.printf("%s\n", p.heading(fmt.Sprintf("XP audit of %s — edition %s", au.Character, au.Edition)))
	if len(au.Rows) == 0 {
		p.printf("no XP awarded or spent yet\n")
	} else {
		rows := make([][]string, 0, len(au.Rows))
		for _, r := range au.Rows {
			what := r.What
			if r.Kind == projections.LedgerSpend {
				price := r.Formula
				if total := fmt.Sprintf("= %d", -r.Amount); !strings.HasSuffix(price, total) {
					// "current level + 6 = 12 + 6" = 18; "next level = 13" says it.
					price += " " + total
				}
				what = fmt.Sprintf("%s: %s [%s]", r.What, price, r.Edition)
				if r.Rules != nil && !r.Rules.OK {
					what += " " + p.bad("✗ "+r.Rules.Problem)
				}
			}
			if r.Reverted != nil {
				what = p.bad(revertMark(r.Reverted)) + " " + what
			}
			rows = append(rows, []string{
				strconv.FormatInt(r.Seq, 10), r.RecordedAt.Format("2006-01-02 15:04:05"), r.CommandID, r.Actor,
				r.Kind, what, fmt.Sprintf("%+d", r.Amount), strconv.Itoa(r.Balance),
			})
		}
		p.table([]string{"SEQ", "RECORDED (UTC)", "COMMAND", "ACTOR", "KIND", "WHAT", "XP", "BALANCE"}, rows)
	}
	for _, as := range au.Assertions {
		mark := p.good("✓")
		if !as.OK {
			mark = p.bad("✗")
		}
		p.printf("%s %s\n", as.Detail, mark)
	}
}
