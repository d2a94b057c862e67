package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/exports"
	"github.com/ltscamp/ltscamp/projections"
)

// logEvent is the --json shape of one event: the backup line of the event
// (the envelope with hashes in hex and the payload as stored), a summary,
// and the undo that reverted it.
type logEvent struct {
	exports.LogLine
	Summary string `json:"summary"`
	// Reverted is set when the event's command is out of effect.
	Reverted *exports.RevertJSON `json:"reverted,omitempty"`
}

func eventJSON(e events.Event) logEvent {
	return logEvent{LogLine: exports.NewLogLine(e), Summary: projections.Describe(e, nil)}
}

// revertMark is the human mark on an event of a reverted command.
func revertMark(r *projections.Revert) string {
	if r.Reason == "" {
		return fmt.Sprintf("[reverted by seq %d]", r.Seq)
	}
	return fmt.Sprintf("[reverted by seq %d: %s]", r.Seq, r.Reason)
}

// logOptions are the flags of `log`.
type logOptions struct {
	filter       campaign.LogFilter
	since, until string
	asJSON       bool
}

func newLogCmd(a *app) *cobra.Command {
	o := &logOptions{}
	cmd := &cobra.Command{
		Use:   "log [--char NAME] [--type PREFIX] [--actor NAME] [--since WHEN] [--until WHEN] [--adventure N] [--day N] [--all] [--limit N] [--json]",
		Short: "Show the event log, oldest first",
		Long: `Show the event log, oldest first: every event with its seq, time, actor and
a one-line summary. Events are named by seq, which reroll, undo and
sheet --as-of also take.

Events of a command that was undone stay in the log, marked
"[reverted by seq N: reason]" with the seq of the undo. --all also shows the
undo and redo events themselves (command.reverted, command.restored).

Filters combine:
  --char NAME      one character's events (with --all, the undos and redos
                   of his commands too)
  --type PREFIX    event types starting with PREFIX: xp, roll, karma.spent,
                   command (undo and redo)
  --actor NAME     events recorded by NAME (the global --actor flag: for log,
                   it selects rather than names who is running)
  --since WHEN     events recorded at or after WHEN
  --until WHEN     events recorded at or before WHEN
  --adventure N    events of adventure N
  --day N          events of game day N (of --adventure, else the current or
                   latest adventure)
  --limit N        only the last N events that match
WHEN is an RFC 3339 time (2026-11-21T20:00:00Z) or a date (2026-11-21), which
means the start of that UTC day for --since and its end for --until.

--json prints one JSON object per line (NDJSON): the full envelope (ids
included), the payload as stored, the hashes, a summary, and a "reverted"
object when the event's command is out of effect.`,
		Example: `  ltscamp log --limit 20
  ltscamp log --char Ajax --type xp
  ltscamp log --all --type command           # every undo and redo
  ltscamp log --actor alice --since 2026-11-21 --until 2026-11-22
  ltscamp log --since 2026-11-21T20:00:00Z --json | jq .hash
  ltscamp log --type roll --json | jq .payload.faces`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("actor") {
				// The global --actor names who runs a command; on log it
				// selects the events that actor recorded.
				if strings.TrimSpace(a.actor) == "" {
					return usagef("--actor is empty: give the actor whose events to show")
				}
				o.filter.Actor = a.actor
			}
			var err error
			if o.filter.Since, err = parseWhen("--since", o.since, false); err != nil {
				return err
			}
			if o.filter.Until, err = parseWhen("--until", o.until, true); err != nil {
				return err
			}
			return a.withCampaign(func(s *campaign.Service) error { return logRun(a, s, o) })
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.filter.Character, "char", "", "only this character's events")
	fl.StringVar(&o.filter.TypePrefix, "type", "", "only event types starting with PREFIX (xp, roll, karma.spent, command...)")
	fl.StringVar(&o.since, "since", "", "only events recorded at or after WHEN (RFC 3339 time or YYYY-MM-DD)")
	fl.StringVar(&o.until, "until", "", "only events recorded at or before WHEN (RFC 3339 time, or YYYY-MM-DD for the whole day)")
	fl.BoolVar(&o.filter.All, "all", false, "also show the undo and redo events themselves")
	fl.IntVar(&o.filter.Adventure, "adventure", 0, "only events of adventure N")
	fl.IntVar(&o.filter.Day, "day", 0, "only events of game day N (of --adventure, else the latest adventure)")
	fl.IntVar(&o.filter.Limit, "limit", 0, "show only the last N events (0: all)")
	fl.BoolVar(&o.asJSON, "json", false, "one JSON object per line, with hashes")
	return cmd
}

func logRun(a *app, s *campaign.Service, o *logOptions) error {
	evs, err := s.Log(o.filter)
	if err != nil {
		return err
	}
	if o.asJSON {
		enc := json.NewEncoder(a.out.w)
		enc.SetEscapeHTML(false)
		for _, e := range evs {
			v := eventJSON(e.Event)
			v.Reverted = exports.NewRevertJSON(e.Reverted)
			if err := enc.Encode(v); err != nil {
				return err
			}
		}
		return nil
	}
	if len(evs) == 0 {
		a.out.note("no events match")
		return nil
	}
	// Name the events and commands referred to by seq: those listed
	// first, the others looked up once.
	seqs := make(map[string]int64, len(evs))
	for _, e := range evs {
		seqs[e.ID] = e.Seq
	}
	seqOf := func(id string) (int64, bool) {
		if seq, ok := seqs[id]; ok {
			return seq, true
		}
		seq, ok := s.SeqOf(id)
		if ok {
			seqs[id] = seq
		}
		return seq, ok
	}
	rows := make([][]string, 0, len(evs))
	for _, e := range evs {
		what := printable(projections.Describe(e.Event, seqOf))
		if e.Reverted != nil {
			what = a.out.cell(a.out.bad(revertMark(e.Reverted)), " ", what)
		}
		rows = append(rows, []string{strconv.FormatInt(e.Seq, 10), e.RecordedAt.Format("2006-01-02 15:04:05"), printable(e.Actor), e.Type, what})
	}
	// A narrow terminal loses the wall time first, then the actor; an
	// event type is never broken.
	a.out.table([]string{"SEQ", "RECORDED (UTC)", "ACTOR", "TYPE", "WHAT"}, rows, "RECORDED (UTC)", "ACTOR")
	return nil
}

// parseWhen reads a --since or --until value: an RFC 3339 time, or a date
// (YYYY-MM-DD, UTC) meaning the start of that day, or its last instant when
// endOfDay is set. "" is no bound.
func parseWhen(flag, s string, endOfDay bool) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t.UTC(), nil
	}
	if d, err := time.Parse(time.DateOnly, s); err == nil {
		if endOfDay {
			return d.AddDate(0, 0, 1).Add(-time.Nanosecond), nil
		}
		return d, nil
	}
	return time.Time{}, usagef("%s %q: give an RFC 3339 time (2026-11-21T20:00:00Z) or a date (2026-11-21)", flag, s)
}
