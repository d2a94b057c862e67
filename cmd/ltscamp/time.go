package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/exports"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// printTime tells what a time command did, event by event.
func printTime(a *app, res campaign.TimeResult) {
	for _, e := range res.Events {
		// A roll tells its character already: his name once.
		what := projections.Describe(e, nil)
		who := ""
		if name, ok := res.Names[e.Stream]; ok && !strings.HasPrefix(what, name+":") {
			who = name + ": "
		}
		a.out.printf("  seq %d  %s%s\n", e.Seq, who, what)
	}
	a.out.printf("now: %s\n", clockText(res.Campaign))
}

func clockText(c projections.Campaign) string {
	if !c.InAdventure {
		return "between adventures"
	}
	s := fmt.Sprintf("adventure %d (%s), day %d", c.Adventure, c.AdventureTitle, c.Day)
	if c.InEncounter {
		s += fmt.Sprintf(", encounter %d under way", c.Encounter)
		if c.EncounterTitle != "" {
			s += " (" + c.EncounterTitle + ")"
		}
	}
	return s
}

func newAdventureCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "adventure",
		Short: "Start and end adventures (day 1 starts with one; between adventures all recover)",
	}
	cmd.AddCommand(&cobra.Command{
		Use:     "start TITLE",
		Short:   "Start an adventure: day 1 begins, and new skills wait until it ends",
		Example: `  ltscamp adventure start "The Kit-Kat run"`,
		Args:    exactArgs(1, "one TITLE (quote titles with spaces)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.AdventureStart(args[0])
				if err == nil {
					printTime(a, res)
				}
				return err
			})
		},
	}, &cobra.Command{
		Use:     "end",
		Short:   "End the adventure: the day's karma expires, and every living character recovers fully",
		Example: "  ltscamp adventure end",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.AdventureEnd()
				if err == nil {
					printTime(a, res)
				}
				return err
			})
		},
	})
	return cmd
}

func newDayCmd(a *app) *cobra.Command {
	var days int
	cmd := &cobra.Command{Use: "day", Short: "Move the game day on"}
	next := &cobra.Command{
		Use:   "next [--days N]",
		Short: "End the day and start the next: karma that had to be used today expires",
		Long: `End the current game day and start the next (or N days on). Storyteller karma
left unspent expires, and anyone mortally wounded outside combat who was not
healed dies. Undoing the command brings the karma back.`,
		Example: "  ltscamp day next\n  ltscamp day next --days 3",
		Args:    exactArgs(0, "no arguments (use --days N)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.DayNext(days)
				if err == nil {
					printTime(a, res)
				}
				return err
			})
		},
	}
	next.Flags().IntVar(&days, "days", 1, "how many days to move on")
	cmd.AddCommand(next, newDayEndCmd(a, "end"))
	return cmd
}

func newEncounterCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{Use: "encounter", Short: "Start and end encounters (combats)"}
	var foeSpecs []string
	var surprise campaign.Surprise
	var alertDice, stalkDice, stalkAgainstDice string
	start := &cobra.Command{
		Use:   "start [TITLE] [--foes STATLINE]... [--surprise party|foes] [--stalker NAME]",
		Short: "Start an encounter in the current day",
		Long: `Start an encounter in the current day. --foes fields the foes that belong
to it, each a stat line Name:ST12,DX12,IQ9 with his weapon and armour after the
attributes and " xN" for N numbered foes (Pirate 1, Pirate 2...). They leave the
roster when the encounter ends, dead or fled, and their names are free again.
Then roll initiative (ltscamp initiative) to track the turns.

--surprise gives one side surprise: "The side with surprise gets one free
unopposed turn, and then takes the first turn." No initiative is rolled then.
--alertness names a character of the other side with the Alertness skill, who
"negates surprise on 3/IQ" (3/IQ+Alertness, a roll karma can re-roll).
--stalker names a character with the Stalker skill who tries for surprise of
his own (the character's, not his side's): one free action before the first
turn. 2020/2021: "gets surprise on 3/DX" (3/DX+Stalker). 2010: "a free turn by
winning a DX check against the opponent's IQ" (DX+Stalker against the IQ of
--stalker-against). Karma can re-roll it before the battle's first action.`,
		Example: `  ltscamp encounter start "pirates at the airlock"
  ltscamp encounter start Pirates --foes "Pirate:ST12,DX12,IQ9,cutlass x3"
  ltscamp encounter start Boarding --foes "Pirate:ST12,DX12,IQ9,cutlass x2" \
      --foes "Captain:ST13,DX12,IQ11,handgun,flak vest"
  ltscamp encounter start Ambush --surprise foes
  ltscamp encounter start Ambush --surprise foes --alertness Kira \
      --alertness-dice 2,3,4
  ltscamp encounter start Ambush --stalker Kira --stalker-dice 1,2,3
  ltscamp encounter start Ambush --stalker Kira --stalker-against Pirate`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("encounter start takes at most one TITLE (quote titles with spaces)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			title := strings.Join(args, " ")
			return a.withCampaign(func(s *campaign.Service) error {
				foes, err := parseFoeSpecs(foeSpecs)
				if err != nil {
					return err
				}
				var sp *campaign.Surprise
				if cmd.Flags().Changed("surprise") || cmd.Flags().Changed("alertness") || cmd.Flags().Changed("stalker") {
					if surprise.AlertnessFaces, err = parseFacesFlag(cmd, "alertness-dice", alertDice); err != nil {
						return err
					}
					if surprise.StalkerFaces, err = parseFacesFlag(cmd, "stalker-dice", stalkDice); err != nil {
						return err
					}
					if surprise.AgainstFaces, err = parseFacesFlag(cmd, "stalker-against-dice", stalkAgainstDice); err != nil {
						return err
					}
					sp = &surprise
				}
				res, err := s.EncounterStartWith(title, sp, foes...)
				if err == nil {
					printTime(a, res)
				}
				return err
			})
		},
	}
	start.Flags().StringArrayVar(&foeSpecs, "foes", nil, "foes of the encounter, Name:ST12,DX12,IQ9[,weapon][ xN] (repeatable)")
	start.Flags().StringVar(&surprise.Side, "surprise", "", "the side with surprise: party or foes (a free turn, then the first turn)")
	start.Flags().StringVar(&surprise.Alertness, "alertness", "", "a character of the other side whose Alertness may negate the surprise (3/IQ)")
	start.Flags().StringVar(&alertDice, "alertness-dice", "", "faces of the Alertness check's dice")
	start.Flags().StringVar(&surprise.Stalker, "stalker", "", "a character with Stalker who tries for a free action of his own")
	start.Flags().StringVar(&surprise.StalkerAgainst, "stalker-against", "", "2010: the opponent whose IQ the Stalker's DX must beat")
	start.Flags().StringVar(&stalkDice, "stalker-dice", "", "faces of the Stalker's dice")
	start.Flags().StringVar(&stalkAgainstDice, "stalker-against-dice", "", "2010: faces of the opponent's IQ dice")
	cmd.AddCommand(start)
	var outcome, plotword string
	var contributors []string
	end := &cobra.Command{
		Use:   "end --outcome victory|fled|other [--contributors NAMES] [--plotword WORD]",
		Short: "End the encounter: the unhealed mortally wounded die, victors get 1 XP, all recover 1 fatigue",
		Long: `End the encounter. Anyone with damage of ST or more who was not healed to ST−1
dies (twice ST or more: unrecoverable). On a victory each contributor gets 1
XP (every living character unless --contributors names them); fleeing earns
none. Every living character recovers one fatigue point.

Heal the wounded (heal --medic) before ending the encounter: a medic treats
damage from the current combat only.

--plotword records a plotword the party acquired in the encounter (+1 XP to
every living member), as xp plotword does. Without --outcome, on a terminal,
a form asks for both.`,
		Example: `  ltscamp encounter end --outcome victory
  ltscamp encounter end --outcome victory --contributors Ajax,Hector
  ltscamp encounter end --outcome fled`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("outcome") {
				if ok, why := a.canAsk(); !ok {
					return usagef("encounter end needs --outcome victory, fled or other (%s)", why)
				}
				if err := encounterEndForm(a, &outcome, &plotword); err != nil {
					return err
				}
			}
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.EncounterEnd(outcome, contributors)
				if err != nil {
					return err
				}
				printTime(a, res)
				if strings.TrimSpace(plotword) == "" {
					return nil
				}
				sheets, err := s.Plotword(plotword)
				if err != nil {
					return err
				}
				printPlotword(a, plotword, sheets)
				return nil
			})
		},
	}
	end.Flags().StringVar(&outcome, "outcome", "", "victory, fled or other")
	end.Flags().StringSliceVar(&contributors, "contributors", nil, "who contributed to a victory (comma-separated; default every living character)")
	end.Flags().StringVar(&plotword, "plotword", "", "a plotword the party acquired in the encounter (+1 XP each)")
	cmd.AddCommand(end)
	return cmd
}

func newSleepCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "sleep",
		Short:   "A full night of sleep: every living character recovers all fatigue",
		Example: "  ltscamp sleep",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.Sleep()
				if err == nil {
					printTime(a, res)
				}
				return err
			})
		},
	}
}

func newRestCmd(a *app) *cobra.Command {
	var req campaign.RestRequest
	var notSheltered, notProvisioned, moved, strenuous, party bool
	cmd := &cobra.Command{
		Use:   "rest [NAME...|--party] --days N [--not-sheltered|--not-provisioned|--moved|--strenuous]",
		Short: "Rest characters (no names: the party) for N days (the days pass for everyone); proper rest heals",
		Long: `Rest characters for N days; the days pass for the whole party. With no NAME (or
with --party), every living party member rests: the characters of the roster,
not foes; the dead are skipped. Rest heals only
when all four conditions hold: the character stays in one location, has
adequate shelter, is fully provisioned, and takes part in no combat or
strenuous activity. Say which one failed with the flags.

2020/2021: one damage point heals per day of proper rest.
2010: nothing heals until a week of proper rest, which heals everything.`,
		Example: `  ltscamp rest Ajax Hector --days 3
  ltscamp rest Ajax --days 2 --not-provisioned
  ltscamp rest --days 2`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("days") {
				return usagef("rest needs --days N")
			}
			if party && len(args) > 0 {
				return usagef("rest: name characters or give --party (every living party member), not both")
			}
			req.Names = args
			req.Conditions = rules.RestConditions{StayedPut: !moved, Sheltered: !notSheltered, Provisioned: !notProvisioned, NoStrenuous: !strenuous}
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.Rest(req)
				if err == nil {
					printTime(a, res)
				}
				return err
			})
		},
	}
	f := cmd.Flags()
	f.IntVar(&req.Days, "days", 0, "days of rest")
	f.BoolVar(&notSheltered, "not-sheltered", false, "without adequate shelter")
	f.BoolVar(&notProvisioned, "not-provisioned", false, "not fully provisioned")
	f.BoolVar(&moved, "moved", false, "did not stay in one location")
	f.BoolVar(&strenuous, "strenuous", false, "took part in combat or strenuous activity")
	f.BoolVar(&party, "party", false, "every living party member rests (the same as naming nobody)")
	return cmd
}

func newTimelineCmd(a *app) *cobra.Command {
	var q campaign.TimelineQuery
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "timeline [--day N] [--adventure N] [--rolls] [--json]",
		Short: "Tell the campaign day by day: encounters, wounds, deaths, XP and karma",
		Long: `Tell the campaign day by day: encounters and their outcomes, who was hurt,
healed, died or revived, XP and karma gained, spent or expired, notes.
--rolls tells every roll and contest too (initiative, a tackle, a medic's
check): who rolled what, the dice, the total against the target, the
outcome, and what it was for.

The whole timeline (or one --adventure) is told as the log is read: the first
day appears at once, however long the campaign. --day N tells one day of the
current adventure (or of --adventure's), reading only that day's events.`,
		Example: `  ltscamp timeline
  ltscamp timeline --day 2 --rolls
  ltscamp timeline --adventure 1 --day 3
  ltscamp timeline --json | jq '.periods[0].days'
  ltscamp timeline --adventure 1 --rolls > session-1.txt`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				if q.Day == 0 {
					return streamTimeline(a.out, s, q, asJSON)
				}
				t, err := s.TimelineOf(q)
				if err != nil {
					return err
				}
				if asJSON {
					return a.out.json(t)
				}
				printTimeline(a.out, t)
				return nil
			})
		},
	}
	cmd.Flags().IntVar(&q.Day, "day", 0, "only this day (of the current or --adventure's adventure)")
	cmd.Flags().IntVar(&q.Adventure, "adventure", 0, "only this adventure")
	cmd.Flags().BoolVar(&q.Rolls, "rolls", false, "tell every roll and contest too")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the timeline as JSON")
	return cmd
}

// streamTimeline prints the timeline a day at a time, as it is folded.
func streamTimeline(p *printer, s *campaign.Service, q campaign.TimelineQuery, asJSON bool) error {
	if asJSON {
		w := exports.NewTimelineJSON(p.w)
		if err := s.TimelineStreamOf(q, w.Day); err != nil {
			return err
		}
		return w.Close()
	}
	tp := &timelinePrinter{p: p}
	if err := s.TimelineStreamOf(q, func(per projections.TimelinePeriod, d projections.TimelineDay) error {
		tp.day(per, d)
		return nil
	}); err != nil {
		return err
	}
	if tp.period == nil {
		p.note("nothing has happened in game time yet")
	}
	return nil
}

func printTimeline(p *printer, t projections.Timeline) {
	tp := &timelinePrinter{p: p}
	for _, per := range t.Periods {
		for _, d := range per.Days {
			tp.day(per, d)
		}
	}
	if tp.period == nil {
		p.note("nothing has happened in game time yet")
	}
}

// timelinePrinter prints a timeline's days in order, with a heading at
// each period.
type timelinePrinter struct {
	p      *printer
	period *projections.TimelinePeriod
}

func (tp *timelinePrinter) day(per projections.TimelinePeriod, d projections.TimelineDay) {
	p := tp.p
	if tp.period == nil || tp.period.Adventure != per.Adventure || tp.period.Title != per.Title {
		if per.Adventure == 0 {
			p.printf("%s\n", p.heading("Between adventures"))
		} else {
			p.printf("%s\n", p.heading(fmt.Sprintf("Adventure %d: %s", per.Adventure, per.Title)))
		}
		tp.period = &per
	}
	if per.Adventure != 0 {
		p.printf("  Day %d\n", d.Day)
	}
	for _, e := range d.Entries {
		enc := ""
		if e.Encounter > 0 {
			enc = fmt.Sprintf("[encounter %d] ", e.Encounter)
		}
		p.printf("    %5d  %s%s\n", e.Seq, enc, e.Text)
	}
}

func newInitiativeCmd(a *app) *cobra.Command {
	var dice, tacDice, oppDice string
	var req campaign.InitiativeRequest
	cmd := &cobra.Command{
		Use:   "initiative [--dice P,F] [--tactician NAME --against NAME]",
		Short: "Roll initiative: one die per side, the higher moves first (ties roll again)",
		Long: `Roll initiative for the encounter under way: "each side rolls one die. The
side rolling the higher die moves first. Players alternate turns for the rest
of the battle." A tie is rolled again.

--dice records physical dice: the party's die, then the foes' die; after a
tie, both again (--dice 3,3,5,2). From then on the encounter tracks the round
and whose turn it is: the other side's first attack passes the turn, or
ltscamp turn end does. A defender who dodged loses his next turn.

--tactician names a character with the Tactician skill: if his side loses the
die he "steals initiative by winning IQ", a contest against --against (its
own event: karma re-rolls it with ltscamp reroll SEQ).`,
		Example: `  ltscamp initiative
  ltscamp initiative --dice 5,2
  ltscamp initiative --dice 4,4,2,6
  ltscamp initiative --dice 2,5 --tactician Kira --against "Pirate 1" \
      --tactician-dice 2,3,4 --against-dice 5,5,6`,
		Args: exactArgs(0, "no arguments (the dice go in --dice P,F)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			faces, err := parseFacesFlag(cmd, "dice", dice)
			if err != nil {
				return err
			}
			return a.withCampaign(func(s *campaign.Service) error {
				req.Faces = faces
				if req.TacticianFaces, err = parseFacesFlag(cmd, "tactician-dice", tacDice); err != nil {
					return err
				}
				if req.AgainstFaces, err = parseFacesFlag(cmd, "against-dice", oppDice); err != nil {
					return err
				}
				res, err := s.Initiative(req)
				if err == nil {
					printTurns(a, res)
				}
				return err
			})
		},
	}
	cmd.Flags().StringVar(&dice, "dice", "", "faces of physical dice: party's die, foes' die (again after a tie)")
	cmd.Flags().StringVar(&req.Tactician, "tactician", "", "a character with Tactician who steals the initiative by winning IQ, if his side loses the die")
	cmd.Flags().StringVar(&req.Against, "against", "", "the combatant of the other side whose IQ the Tactician must beat")
	cmd.Flags().StringVar(&tacDice, "tactician-dice", "", "faces of the Tactician's IQ dice")
	cmd.Flags().StringVar(&oppDice, "against-dice", "", "faces of the opponent's IQ dice")
	return cmd
}

func newTurnCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{Use: "turn", Short: "The turns of an encounter: end the side's turn"}
	cmd.AddCommand(&cobra.Command{
		Use:   "end",
		Short: "End the side's turn: the other side acts (the next round when both have)",
		Long: `End the turn of the side that is acting: the other side's turn begins. The
other side's first attack passes the turn too, so turn end is needed only when
a side ends its turn without one (or to pass a turn a character lost).`,
		Example: "  ltscamp turn end",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.TurnEnd()
				if err == nil {
					printTurns(a, res)
				}
				return err
			})
		},
	})
	return cmd
}

func printTurns(a *app, res campaign.TurnsResult) {
	for _, e := range res.Events {
		a.out.printf("  seq %d  %s\n", e.Seq, projections.Describe(e, nil))
	}
	a.out.printf("now: %s\n", res.Turns.TurnText())
}

// newDayEndCmd builds `day end` (use "end") and its short form `night`.
func newDayEndCmd(a *app, use string) *cobra.Command {
	return &cobra.Command{
		Use:   use,
		Short: "End the day for the whole party: a night's sleep, then the next day",
		Long: `End the game day for the whole party in one command (undone as one): the
mortally wounded who were not healed die; every living party member (the
characters of the roster, not foes; the dead are skipped) sleeps a full night
and recovers all his fatigue; karma that had to be used today expires; the next
day begins. It is ` + "`sleep` then `day next`" + `. Damage heals only with proper rest:
use ` + "`rest --days N`" + ` for that. Refused while an encounter is under way: end it
first with ` + "`encounter end`" + `.`,
		Example: "  ltscamp day end\n  ltscamp night",
		Args:    exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				res, err := s.DayEnd()
				if err == nil {
					printTime(a, res)
				}
				return err
			})
		},
	}
}

// newNightCmd builds `night`, the short form of `day end`.
func newNightCmd(a *app) *cobra.Command {
	return newDayEndCmd(a, "night")
}
