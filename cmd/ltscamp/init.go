package main

import (
	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/rules"
)

func newInitCmd(a *app) *cobra.Command {
	var name, edition string
	cmd := &cobra.Command{
		Use:   "init [--name NAME] [--edition 2010|2020|2021]",
		Short: "Create a new campaign file",
		Long: `Create a new campaign file (--db, default ./campaign.ltscamp) for one edition of
the rules. Every rule that differs between editions is looked up by it. An
existing file is never overwritten (an empty one is replaced), and a symbolic
link is refused. The campaign is built under a temporary name beside FILE
(.FILE.init-NNN) and given its name only once it is whole, so an interrupted
init leaves nothing behind that stops the next one. The file has mode 0600.`,
		Example: `  ltscamp init
  ltscamp init --name "The Kit-Kat run" --edition 2010
  ltscamp --db ~/games/kitkat.ltscamp init`,
		Args: exactArgs(0, "no arguments (the name goes in --name)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ed, err := rules.ParseEdition(edition)
			if err != nil {
				return err
			}
			s, err := campaign.Create(a.db, name, ed, a.options())
			if err != nil {
				return err
			}
			defer s.Close()
			a.out.printf("created campaign %q (edition %s) in %s\n", name, ed, a.db)
			return nil
		},
	}
	cmd.Flags().StringVar(&name, "name", "Legends campaign", "the campaign's name")
	cmd.Flags().StringVar(&edition, "edition", string(rules.DefaultEdition), "rules edition: 2010, 2020 or 2021")
	return cmd
}
