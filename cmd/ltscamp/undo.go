package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
)

func newUndoCmd(a *app) *cobra.Command {
	var req campaign.UndoRequest
	var yes bool
	cmd := &cobra.Command{
		Use:   "undo [COMMAND-ID|SEQ] [--reason TEXT] [--cascade]",
		Short: "Take a command back by appending command.reverted; nothing is deleted",
		Long: `Take a command back. Undo appends a command.reverted event naming the command
(all of its events, on every stream it touched); sheets and ledgers then fold
as if those events were absent, and the log keeps them, marked.

Without an argument, undo takes back your own latest command still in effect
(--actor, $LTSCAMP_ACTOR, else your user name); another actor's command is
taken back only when it is named. A bare undo says which command it will take
back, and on a terminal asks first (--yes does not ask). COMMAND-ID may also be
a seq or an event id of the command.

An undo that would leave a later command invalid — an XP spend that would
overdraw, a karma re-roll whose karma came from the undone grant, a re-roll of
a roll that no longer exists — is refused, listing those commands. --cascade
reverts them all together, in one command.reverted event.

Undoing an undo is a redo; undoing a redo reverts its commands again.`,
		Example: `  ltscamp undo --reason "wrong character"
  ltscamp undo 14
  ltscamp undo 01JD5W0Q4Q8Y8S3T1ZJ8WQ2K5M --cascade --reason "never happened"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("undo takes at most one COMMAND-ID or SEQ; got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				req.Target = args[0]
			}
			return a.withCampaign(func(s *campaign.Service) error {
				if req.Target == "" {
					// Name the command first, and take back exactly it.
					c, err := s.UndoTarget("")
					if err != nil {
						return err
					}
					ok, err := a.confirm(yes, fmt.Sprintf("Undo seq %d, by %s: %s?", c.FirstSeq, c.Actor, c.Summary))
					if err != nil {
						return err
					}
					if !ok {
						a.out.note("nothing undone")
						return nil
					}
					req.Target = c.ID
				}
				res, err := s.Undo(req)
				if err != nil {
					return err
				}
				printUndo(a, res)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&req.Reason, "reason", "", "why, recorded with the undo")
	cmd.Flags().BoolVar(&req.Cascade, "cascade", false, "also revert the later commands that depend on it, in the same event")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "do not ask before a bare undo")
	return cmd
}

func newRedoCmd(a *app) *cobra.Command {
	var req campaign.RedoRequest
	cmd := &cobra.Command{
		Use:   "redo [COMMAND-ID]",
		Short: "Put an undone command back in effect by appending command.restored",
		Long: `Put undone commands back in effect. Without an argument, redo restores the
commands of the most recent undo still in force (all of a cascade); with one, that
command alone. A redo is refused when the rules would refuse the command restored
as the log now stands (its award undone since, say), or when it would leave a
command made since invalid.`,
		Example: `  ltscamp redo
  ltscamp redo 01JD5W0Q4Q8Y8S3T1ZJ8WQ2K5M --reason "it did happen"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("redo takes at most one COMMAND-ID; got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				req.Target = args[0]
			}
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.Redo(req)
				if err != nil {
					return err
				}
				printUndo(a, res)
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&req.Reason, "reason", "", "why, recorded with the redo")
	return cmd
}

func printUndo(a *app, res campaign.UndoResult) {
	for _, c := range res.Reverted {
		a.out.printf("reverted %s\n", c.String())
	}
	for _, c := range res.Restored {
		a.out.printf("restored %s\n", c.String())
	}
	what := "undo"
	if len(res.Restored) > 0 {
		what = "redo"
	}
	a.out.printf("%s recorded at seq %d (%s), command %s\n", what, res.Event.Seq, strings.TrimSpace(res.Event.Type), res.Event.CommandID)
}
