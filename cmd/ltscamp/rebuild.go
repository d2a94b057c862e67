package main

import (
	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
)

// rebuildOptions are the flags of `ltscamp rebuild`.
type rebuildOptions struct {
	json bool
}

func newRebuildCmd(a *app) *cobra.Command {
	var opts rebuildOptions
	cmd := &cobra.Command{
		Use:   "rebuild [--json]",
		Short: "Fold the snapshots afresh from the whole log",
		Long: `Drop every snapshot kept beside the log and fold new ones from the events,
in one pass, trusting none.

Snapshots hold the state of each character and foe, their XP audits, the
campaign, the roster and the set of undone commands as of a point of the
log, so that a command reads only the events after them. Commands save new
ones as they go, and a snapshot is never trusted when the build that folded
it is not this one, or when an undo or redo since changed what it folded.
So a rebuild is never needed for correct results. Run it after upgrading
ltscamp on a long campaign (the first command on each character is slow
until then), or to reclaim the space of old snapshots.

It appends nothing to the log; it shows progress on a terminal.`,
		Example: `  ltscamp rebuild
  ltscamp rebuild --json | jq .snapshots`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.Rebuild()
				a.progress.done()
				if err != nil {
					return err
				}
				if opts.json {
					return a.out.json(res)
				}
				a.out.printf("rebuilt %d snapshots of %d streams from %d events (fold code %s)\n", res.Snapshots, res.Streams, res.Events, res.Code)
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print what was rebuilt as JSON (events, snapshots, streams, code)")
	return cmd
}
