package main

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
)

func newCampaignsCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "campaigns --db postgres://USER@HOST/DB [--json]",
		Short: "List the campaigns of a PostgreSQL database",
		Long: `List the campaigns kept in the PostgreSQL database --db (or $LTSCAMP_DB)
names, with the number of events in each log and when it was made there.
One database holds many campaigns; each command names its campaign with
?campaign=NAME at the end of the address, and sees that campaign's log only.
A ?campaign in the address given here is ignored.

A campaign still being made or restored, or whose making stopped half way,
is listed as staging: no command opens it, and running the init or restore
that makes it again starts it afresh. docs/postgres.md says how to set a
database up.`,
		Example: `  ltscamp campaigns --db postgres://gm@db.example.org/ltscamp
  ltscamp campaigns --db 'postgres://gm@localhost/camp?sslmode=disable' --json`,
		Args: exactArgs(0, "no arguments (the database is --db)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			cs, err := campaign.ServerCampaigns(a.db)
			if err != nil {
				return err
			}
			if asJSON {
				return a.out.json(cs)
			}
			if len(cs) == 0 {
				db := campaign.ServerDatabase(a.db)
				sep := "?"
				if strings.Contains(db, "?") {
					sep = "&"
				}
				a.out.printf("no campaigns in %s: `ltscamp --db '%s%scampaign=NAME' init` makes one\n", db, db, sep)
				return nil
			}
			rows := make([][]string, 0, len(cs))
			for _, c := range cs {
				state := "ready"
				if c.Staging {
					state = "staging"
				}
				made := c.CreatedAt
				if len(made) >= 16 {
					made = made[:10] + " " + made[11:16]
				}
				rows = append(rows, []string{c.Name, strconv.FormatInt(c.Events, 10), made, state})
			}
			a.out.table([]string{"CAMPAIGN", "EVENTS", "MADE (UTC)", "STATE"}, rows)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the campaigns as JSON: name, events, created_at, staging")
	return cmd
}
