package main

import (
	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

func newTackleCmd(a *app) *cobra.Command {
	var dice []string
	var req campaign.TackleRequest
	cmd := &cobra.Command{
		Use:   "tackle TACKLER FOE [--dice a,b,c --dice x,y,z] [--react]",
		Short: "Tackle a foe: a DX contest to grapple him",
		Long: `Tackle a foe (2020 "Tackle (to grapple)", 2021 "Tackle"): both roll 3/DX as
in a contest. The tackler who wins enters the foe's hex: they are grappling.
If he fails but is stronger (ST), the foe retreats to an empty adjacent hex;
if he fails and is equal or weaker, he returns to his starting hex.

The tackle is the tackler's action of his turn. With --react it is his
reaction to FOE's latest attack on him (settled, not dodged, not answered):
no action of his turn, and he loses his next turn.
--dice, given twice, enters the tackler's faces then the foe's.`,
		Example: `  ltscamp tackle Ajax 'Pirate 1' --dice 5,3,3 --dice 2,3,3
  ltscamp tackle Hector Ajax --react`,
		Args: exactArgs(2, "the tackler and his foe, TACKLER FOE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			req.Tackler, req.Foe = args[0], args[1]
			faces, err := contestFaces(dice, "the tackler's then the foe's")
			if err != nil {
				return err
			}
			req.Faces = faces
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.Tackle(req)
				if err != nil {
					return err
				}
				if res.Reacts != 0 {
					a.out.printf("tackle in answer to the attack at seq %d (%s loses his next turn):\n", res.Reacts, res.Contest.Tackle.Tackler)
				}
				printContestSides(a.out, res.Contest)
				printTackle(a.out, res.Contest)
				for _, e := range res.Events {
					a.out.printf("  seq %d, id %s\n", e.Seq, e.ID)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringArrayVar(&dice, "dice", nil, "faces of one side's physical dice; give it twice, the tackler's first")
	cmd.Flags().BoolVar(&req.React, "react", false, "a reaction: TACKLER answers FOE's latest attack on him; he loses his next turn")
	cmd.Flags().StringVar(&req.Force, "force", "", "the GM's reason to let a tackler act in a turn he lost by reacting (it goes in the log)")
	return cmd
}

// printTackle prints who won and what the tackle did.
func printTackle(p *printer, c events.ContestResolved) {
	t := c.Tackle
	switch t.Outcome {
	case rules.TackleGrappling:
		p.printf("%s wins: %s and %s are grappling\n", p.good(t.Tackler), t.Tackler, t.Foe)
	case rules.TackleFoeRetreats:
		p.printf("%s fails but is stronger (ST %d vs %d):\n  %s retreats to an empty adjacent hex\n", p.bad(t.Tackler), t.TacklerST, t.FoeST, t.Foe)
	default:
		p.printf("%s fails and is not stronger (ST %d vs %d):\n  he returns to his starting hex\n", p.bad(t.Tackler), t.TacklerST, t.FoeST)
	}
	p.printf("  %s\n", c.Explanation)
}
