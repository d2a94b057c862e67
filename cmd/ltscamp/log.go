package main

import (
	"encoding/hex"
	"encoding/json"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
)

// logEvent is the --json shape of one event: the envelope with hashes in hex
// and the payload as stored.
type logEvent struct {
	Seq            int64           `json:"seq"`
	ID             string          `json:"id"`
	CommandID      string          `json:"command_id"`
	Stream         string          `json:"stream"`
	StreamVersion  int64           `json:"stream_version"`
	Type           string          `json:"type"`
	PayloadVersion int             `json:"payload_version"`
	Payload        json.RawMessage `json:"payload"`
	Actor          string          `json:"actor"`
	RecordedAt     string          `json:"recorded_at"`
	PrevHash       string          `json:"prev_hash"`
	Hash           string          `json:"hash"`
	Summary        string          `json:"summary"`
}

func eventJSON(e events.Event) logEvent {
	return logEvent{
		Seq: e.Seq, ID: e.ID, CommandID: e.CommandID, Stream: e.Stream, StreamVersion: e.StreamVersion,
		Type: e.Type, PayloadVersion: e.PayloadVersion, Payload: e.Payload, Actor: e.Actor,
		RecordedAt: events.FormatTime(e.RecordedAt), PrevHash: hex.EncodeToString(e.PrevHash), Hash: hex.EncodeToString(e.Hash),
		Summary: projections.Describe(e, nil),
	}
}

func newLogCmd(a *app) *cobra.Command {
	var f campaign.LogFilter
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "log [--char NAME] [--type PREFIX] [--limit N] [--json]",
		Short: "Show the event log, oldest first",
		Long: `Show the event log, oldest first: every event with its seq, time, actor and
a one-line summary. --limit N shows the last N. Events are named by seq, which
reroll also takes; --json prints one JSON object per line (NDJSON) with the
full envelope (ids included), payload and hashes.`,
		Example: `  ltscamp log --limit 20
  ltscamp log --char Ajax --type xp
  ltscamp log --type roll --json | jq .payload.faces`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withCampaign(func(s *campaign.Service) error {
				evs, err := s.Log(f)
				if err != nil {
					return err
				}
				if asJSON {
					enc := json.NewEncoder(a.out.w)
					enc.SetEscapeHTML(false)
					for _, e := range evs {
						if err := enc.Encode(eventJSON(e.Event)); err != nil {
							return err
						}
					}
					return nil
				}
				seqs := make(map[string]int64, len(evs))
				for _, e := range evs {
					seqs[e.ID] = e.Seq
				}
				seqOf := func(id string) (int64, bool) {
					if seq, ok := seqs[id]; ok {
						return seq, true
					}
					// An event outside the filter: look it up once.
					e, err := s.FindEvent(id)
					if err != nil {
						return 0, false
					}
					seqs[id] = e.Seq
					return e.Seq, true
				}
				rows := make([][]string, 0, len(evs))
				for _, e := range evs {
					rows = append(rows, []string{strconv.FormatInt(e.Seq, 10), e.RecordedAt.Format("2006-01-02 15:04:05"), e.Actor, e.Type, projections.Describe(e.Event, seqOf)})
				}
				if len(rows) == 0 {
					a.out.note("no events match")
					return nil
				}
				a.out.table([]string{"SEQ", "RECORDED (UTC)", "ACTOR", "TYPE", "WHAT"}, rows)
				return nil
			})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.Character, "char", "", "only this character's events")
	fl.StringVar(&f.TypePrefix, "type", "", "only event types starting with PREFIX (xp, roll, karma.spent...)")
	fl.IntVar(&f.Limit, "limit", 0, "show only the last N events (0: all)")
	fl.BoolVar(&asJSON, "json", false, "one JSON object per line, with hashes")
	return cmd
}
