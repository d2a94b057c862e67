package main

import (
	"github.com/kballard/go-shellquote"
	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/rules"
)

func newDemoCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "demo",
		Short: "Build a campaign from the rule books' own examples and show it",
		Long: `Build a new campaign (--db, default ./campaign.ltscamp) from the rule books'
worked examples — Ajax and Hector are created, roll, contest, earn and spend
XP, re-roll with karma, spar on the first day of an adventure, and crew the
Kit-Kat until a hit leaves it dead in the water — then print their sheets and
the Kit-Kat's record. The dice are the books'
own, so every run gives the same sheets. An existing file is never touched.`,
		Example: `  ltscamp demo
  ltscamp --db /tmp/demo.ltscamp demo
  sqlite3 /tmp/demo.ltscamp 'SELECT seq, type FROM events ORDER BY seq'`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := campaign.Create(a.db, campaign.DemoName, rules.DefaultEdition, a.options())
			if err != nil {
				return err
			}
			defer s.Close()
			steps, err := s.PlayDemo()
			for _, st := range steps {
				a.out.printf("• %s  [%s]\n", st.Said, st.Source)
			}
			if err != nil {
				return err
			}
			a.out.printf("\n")
			sheets, err := s.Sheets()
			if err != nil {
				return err
			}
			for _, sh := range sheets {
				printSheet(a.out, sh)
				a.out.printf("\n")
			}
			ships, err := s.Ships()
			if err != nil {
				return err
			}
			for _, sh := range ships {
				printShip(a.out, sh)
				a.out.printf("\n")
			}
			n, err := s.EventCount()
			if err != nil {
				return err
			}
			// The commands to paste: the address quoted for the shell
			// (a postgres:// URL holds '?' and '&'), its password hidden.
			db := shellquote.Join(campaign.RedactAddress(a.db))
			a.out.printf("%d events written to %s. Next:\n  ltscamp --db %s log\n  ltscamp --db %s timeline\n  ltscamp --db %s sheet Ajax --json\n  ltscamp --db %s export sheet Ajax -o ajax.pdf\n  ltscamp --db %s verify\n", n, campaign.RedactAddress(a.db), db, db, db, db, db)
			if !campaign.IsServerAddress(a.db) {
				a.out.printf("  sqlite3 %s 'SELECT seq, type, stream FROM events ORDER BY seq'\n", db)
			}
			return nil
		},
	}
}
