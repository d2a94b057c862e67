package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/exports"
)

func newNoteCmd(a *app) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "note TEXT...",
		Short: "Record what happened in the story, stamped with game time",
		Long: `Record a line of the story as an event: what happened at the table, in your
words. A note changes nothing on any sheet; it is stamped with the adventure,
day and encounter the campaign has reached, and shows in the log and the
timeline (and so in export timeline). The words are joined with single
spaces; a note holds at most 2000 characters.`,
		Example: `  ltscamp note "The envoy lied about the cargo; Hector saw the false bulkhead"
  ltscamp note Kira swore to find her brother
  ltscamp timeline --day 2`,
		Args: minArgs(1, "the TEXT of the note"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				e, camp, err := s.Note(strings.Join(args, " "))
				if err != nil {
					return err
				}
				if asJSON {
					return a.out.json(exports.NewLogLine(e))
				}
				a.out.note("noted at seq %d, %s", e.Seq, clockText(camp))
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the event recorded as JSON")
	return cmd
}
