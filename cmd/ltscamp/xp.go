package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

func newXPCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "xp",
		Short: "Award and spend experience points",
	}
	cmd.AddCommand(newXPAwardCmd(a), newXPPlotwordCmd(a), newXPSpendCmd(a))
	return cmd
}

// parseCount reads a count argument: a whole number, whose range the
// campaign checks (rules.CheckQuantity).
func parseCount(s, what string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if errors.Is(err, strconv.ErrRange) {
		return 0, usagef("%s %s is far too large a number", what, strings.TrimSpace(s))
	}
	if err != nil {
		return 0, usagef("%s must be a whole number, not %q", what, s)
	}
	return n, nil
}

// refuseNegative gives cmd its own message for a negative number typed as
// an argument ("damage Ajax -3"), which the flag parser would otherwise
// take for an unknown flag: says tells, in the command's own terms, what
// is wrong with the number arg. Other flag errors go to the parent's
// handler.
func refuseNegative(a *app, cmd *cobra.Command, says func(arg string) string) {
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		for _, arg := range a.env.Args {
			if _, nerr := strconv.Atoi(arg); nerr == nil && strings.HasPrefix(arg, "-") {
				return usagef("%s", says(arg))
			}
		}
		return c.Parent().FlagErrorFunc()(c, err)
	})
}

// rangeText says a quantity's range: "damage dealt at once is 1 to 198
// points".
func rangeText(q rules.Quantity) string {
	r, _ := q.Range()
	return r.String()
}

func newXPAwardCmd(a *app) *cobra.Command {
	var reason string
	var party bool
	cmd := &cobra.Command{
		Use:   "award NAME... N --reason TEXT | award --party N --reason TEXT",
		Short: "Award N XP to each named character, or to the whole party, as one command",
		Long: `Award N XP to each named character, or with --party to every living party
member (the characters of the roster, not foes; the dead are skipped; the
unconscious and the mortally wounded are living). The last argument is N. The
award is one command: one undo takes it back from everyone.`,
		Example: `  ltscamp xp award Ajax 20 --reason "won the bridge fight"
  ltscamp xp award Ajax Hector 1 --reason "routed the pirates"
  ltscamp xp award --party 10 --reason "the derelict"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if party {
				return exactArgs(1, "N (with --party, name nobody)")(cmd, args)
			}
			return minArgs(2, "one or more character NAMEs and then N, or --party and N")(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseCount(args[len(args)-1], "the XP to award (the last argument)")
			if err != nil {
				return err
			}
			return a.withCampaign(func(s *campaign.Service) error {
				sheets, err := s.AwardXPTo(campaign.Who{Names: args[:len(args)-1], Party: party}, n, reason)
				if err != nil {
					return err
				}
				for _, sh := range sheets {
					a.out.printf("%s has %d XP unspent\n", sh.Name, sh.XP.Unspent)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why the XP was earned (required)")
	cmd.Flags().BoolVar(&party, "party", false, "award every living party member (not foes, not the dead)")
	return cmd
}

func newXPPlotwordCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "plotword WORD",
		Short:   "Record a plotword the party acquired: +1 XP to every living party member, as one command",
		Example: "  ltscamp xp plotword KITKAT",
		Args:    exactArgs(1, "one WORD"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				sheets, err := s.Plotword(args[0])
				if err != nil {
					return err
				}
				for _, sh := range sheets {
					a.out.printf("%s has %d XP unspent\n", sh.Name, sh.XP.Unspent)
				}
				return nil
			})
		},
	}
}

// printPlotword reports a plotword and the XP it gave, after the events
// of the encounter end that acquired it.
func printPlotword(a *app, word string, sheets []projections.Sheet) {
	a.out.printf("plotword %s acquired\n", projections.PlotwordKey(word))
	for _, sh := range sheets {
		a.out.printf("%s: +1 XP — %d unspent\n", sh.Name, sh.XP.Unspent)
	}
}

func newXPSpendCmd(a *app) *cobra.Command {
	var levels int
	cmd := &cobra.Command{
		Use:   "spend NAME [ST|DX|IQ|SKILL] [--levels N]",
		Short: "Spend XP to raise an attribute or a skill, priced by the campaign's edition",
		Long: `Spend XP to raise an attribute or a skill, one level at a time.

Attributes cost, per level: the next level (2010), the next level + 5 (2020,
where humans top out at 42 attribute points), the current level + 6 (2021).
Skills cost 10 XP a level: name the skill (Pistol), or write skill:Pistol. A
new skill is learned only between adventures; in edition 2010 every skill
point is bought between adventures. A campaign is between adventures until
an adventure starts.

Without what to raise, on a terminal, a form lists what the character can
afford, each with its price and the XP left after.`,
		Example: `  ltscamp xp spend Ajax ST
  ltscamp xp spend Ajax IQ --levels 2
  ltscamp xp spend Hector Knife
  ltscamp xp spend Hector skill:Knife`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usagef("xp spend takes a character NAME and what to raise (ST, DX, IQ or a skill); got %d arguments", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				if len(args) == 1 {
					if ok, why := a.canAsk(); !ok {
						return usagef("xp spend %s needs what to raise, ST, DX, IQ or a skill (%s)", args[0], why)
					}
					target, err := spendForm(a, s, args[0])
					if err != nil {
						return err
					}
					args = append(args, target)
				}
				res, err := s.SpendXP(campaign.Spend{Character: args[0], Target: args[1], Levels: levels})
				if err != nil {
					return err
				}
				a.out.printf("%s has %d XP unspent\n", res.Sheet.Name, res.Sheet.XP.Unspent)
				return nil
			})
		},
	}
	cmd.Flags().IntVar(&levels, "levels", 1, "how many levels to raise")
	return cmd
}

// newGrantCmd builds `karma grant`, `wish grant` and `curse add`.
func newGrantCmd(a *app, use, short, example string, grant func(s *campaign.Service, name string, n int, reason string) (projections.Sheet, error), show func(projections.Sheet) string) *cobra.Command {
	var reason string
	cmd := &cobra.Command{
		Use:     use,
		Short:   short,
		Example: example,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 1 || len(args) > 2 {
				return usagef("%s takes a character NAME and an optional N; see `%s --help`", cmd.CommandPath(), cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			n := 1
			if len(args) == 2 {
				var err error
				if n, err = parseCount(args[1], "N"); err != nil {
					return err
				}
			}
			return a.withCampaign(func(s *campaign.Service) error {
				sh, err := grant(s, args[0], n, reason)
				if err != nil {
					return err
				}
				a.out.printf("%s: %s\n", sh.Name, show(sh))
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why")
	return cmd
}

func newKarmaCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{Use: "karma", Short: "Grant karma (spent on re-rolls), tell stories for karma, take karma as XP (2010)"}
	cmd.AddCommand(newKarmaGrantCmd(a))
	var dice string
	var to []string
	tell := &cobra.Command{
		Use:   "storytell NAME --to NAME[,NAME...] [--dice a,b,c]",
		Short: "A Storyteller tries 3/IQ+Storyteller: on a pass, karma for the day to members he chooses",
		Long: `A Storyteller tries 3/IQ+Storyteller. On a pass he distributes one karma point
per Storyteller level to the party ("distribute one karma point per
Storytelling level to the party"), each to a living member he chooses: --to
names them, one point a name, as many names as his level (a member may be
named more than once). The karma must be used within the game day and expires
when the day ends (day next, rest, adventure end).`,
		Example: "  ltscamp karma storytell Cassandra --to Hector --dice 3,3,2\n  ltscamp karma storytell Cassandra --to Hector,Ajax",
		Args:    exactArgs(1, "the storyteller's NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			faces, err := parseFacesFlag(cmd, "dice", dice)
			if err != nil {
				return err
			}
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.Storytell(args[0], faces, to)
				if err != nil {
					return err
				}
				a.out.printf("%s tells a story: 3/IQ+Storyteller %s = %d vs %d — %s\n", res.Narrator, joinFaces(res.Roll.Faces), res.Roll.Total, res.Roll.Target, res.Roll.Outcome)
				if res.Karma > 0 {
					parts := make([]string, len(res.Members))
					for i, m := range res.Members {
						parts[i] = fmt.Sprintf("%s +%d", m, res.Amounts[i])
					}
					a.out.printf("  karma until the day ends: %s\n", strings.Join(parts, ", "))
				}
				return nil
			})
		},
	}
	tell.Flags().StringSliceVar(&to, "to", nil, "who receives the karma, one point a name (as many names as the Storyteller level)")
	tell.Flags().StringVar(&dice, "dice", "", "faces of the storyteller's 3/IQ")
	toXP := &cobra.Command{
		Use:     "to-xp NAME N",
		Short:   "Spend N karma points as N XP (edition 2010)",
		Example: "  ltscamp karma to-xp Ajax 2",
		Args:    exactArgs(2, "a character NAME and N"),
		RunE: func(cmd *cobra.Command, args []string) error {
			n, err := parseCount(args[1], "N")
			if err != nil {
				return err
			}
			return a.withCampaign(func(s *campaign.Service) error {
				sh, err := s.KarmaToXP(args[0], n)
				if err == nil {
					a.out.printf("%s: %d karma, %d XP unspent\n", sh.Name, sh.Karma, sh.XP.Unspent)
				}
				return err
			})
		},
	}
	cmd.AddCommand(tell, toXP)
	return cmd
}

func newWishCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{Use: "wish", Short: "Grant and use wishes"}
	cmd.AddCommand(newGrantCmd(a, "grant NAME [N]", "Grant a character N wishes (default 1)",
		"  ltscamp wish grant Hector",
		(*campaign.Service).GrantWish,
		func(s projections.Sheet) string { return projections.Count(s.Wishes, "wish", "wishes") }))
	cmd.AddCommand(&cobra.Command{
		Use:     "use NAME",
		Short:   "Use a wish: revive fully, even the just killed (2020/2021), or negate all damage (2010)",
		Example: "  ltscamp wish use Ajax",
		Args:    exactArgs(1, "a character NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				sh, rev, err := s.WishUse(args[0])
				if err == nil {
					a.out.printf("%s: %s — damage %d, fatigue %d, %s; %s left\n", sh.Name, rev.Rule, sh.Damage, sh.Fatigue, sh.Status, projections.Count(sh.Wishes, "wish", "wishes"))
				}
				return err
			})
		},
	})
	return cmd
}

func newCurseCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{Use: "curse", Short: "Lay and lift curses (each worsens every check and damage roll by one)"}
	cmd.AddCommand(newGrantCmd(a, "add NAME [N]", "Lay N curse levels on a character (default 1)",
		"  ltscamp curse add Ajax --reason \"the idol\"",
		(*campaign.Service).AddCurse,
		func(s projections.Sheet) string { return projections.Count(s.Curses, "curse level", "curse levels") }))
	var by string
	lift := &cobra.Command{
		Use:   "lift NAME --by wish|attribute|karma|xp",
		Short: "Lift one curse level: wish or highest attribute (2020/2021); wish, 3 karma or 10 XP (2010)",
		Example: `  ltscamp curse lift Ajax --by wish
  ltscamp curse lift Ajax --by attribute   # 2020/2021: highest attribute -1
  ltscamp curse lift Ajax --by xp          # 2010: 10 XP`,
		Args: exactArgs(1, "a character NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("by") {
				return usagef("curse lift needs --by wish, attribute, karma or xp")
			}
			return a.withCampaign(func(s *campaign.Service) error {
				sh, cl, err := s.CurseLift(args[0], by)
				if err == nil {
					cost := ""
					if cl.Attribute != "" {
						cost = fmt.Sprintf(", %s %d→%d", cl.Attribute, cl.From, cl.To)
					}
					a.out.printf("%s: a curse lifted by %s%s (%s); %s left\n", sh.Name, cl.Method, cost, cl.Rule, projections.Count(sh.Curses, "curse level", "curse levels"))
				}
				return err
			})
		},
	}
	lift.Flags().StringVar(&by, "by", "", "wish, attribute, karma or xp")
	cmd.AddCommand(lift)
	return cmd
}

// newKarmaGrantCmd builds `karma grant NAME... [N]` and `karma grant
// --party [N]`: the last argument is N when it is a whole number (and there
// is more than one argument, so that a lone argument is always a NAME).
func newKarmaGrantCmd(a *app) *cobra.Command {
	var reason string
	var party bool
	cmd := &cobra.Command{
		Use:   "grant NAME... [N] | grant --party [N]",
		Short: "Grant characters N karma points each (default 1), or the whole party",
		Long: `Grant N karma points (default 1) to each named character, or with --party to
every living party member (the characters of the roster, not foes; the dead
are skipped). The last argument is N when it is a whole number. One command:
one undo takes it back from everyone.`,
		Example: `  ltscamp karma grant Ajax 2 --reason "the oracle"
  ltscamp karma grant Ajax Kira --reason "good play"
  ltscamp karma grant --party 1 --reason "the oracle's blessing"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if party && len(args) > 1 {
				return usagef("%s --party takes an optional N and no NAME; see `%s --help`", cmd.CommandPath(), cmd.CommandPath())
			}
			if !party && len(args) < 1 {
				return usagef("%s takes one or more character NAMEs and an optional N, or --party; see `%s --help`", cmd.CommandPath(), cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			n, names := 1, args
			last := len(args) - 1
			if last >= 0 && (party || last >= 1) {
				if _, err := strconv.Atoi(strings.TrimSpace(args[last])); err == nil || party {
					var err error
					if n, err = parseCount(args[last], "N"); err != nil {
						return err
					}
					names = args[:last]
				}
			}
			return a.withCampaign(func(s *campaign.Service) error {
				if len(args) == 2 && len(names) == 2 && !party {
					// "grant Ajax lots": the old form NAME N, with a bad N,
					// unless the second word is a character too.
					if _, err := s.Sheet(names[1]); err != nil {
						if _, perr := parseCount(names[1], "N"); perr != nil {
							return perr
						}
					}
				}
				sheets, err := s.GrantKarmaTo(campaign.Who{Names: names, Party: party}, n, reason)
				if err != nil {
					return err
				}
				for _, sh := range sheets {
					a.out.printf("%s: %d karma\n", sh.Name, sh.Karma)
				}
				return nil
			})
		},
	}
	cmd.Flags().StringVar(&reason, "reason", "", "why")
	cmd.Flags().BoolVar(&party, "party", false, "grant every living party member (not foes, not the dead)")
	return cmd
}
