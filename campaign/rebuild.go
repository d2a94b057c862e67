package campaign

import (
	"encoding/json"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
)

// RebuildResult reports what Rebuild saved.
type RebuildResult struct {
	// Events is how many events were folded.
	Events int64 `json:"events"`
	// Snapshots is how many snapshots were saved, of Streams streams.
	Snapshots int `json:"snapshots"`
	Streams   int `json:"streams"`
	// Code is the fold code the snapshots are keyed by.
	Code string `json:"code"`
}

// defaultRebuildEvery spaces the snapshots Rebuild saves of each
// character before his last event: a read as of an earlier point folds at
// most this many events past one.
const defaultRebuildEvery = 500

// rebuilt is one character's or foe's stream folded by Rebuild.
type rebuilt struct {
	c     character
	audit *auditFold
	last  events.Event // the stream's last event
}

// Rebuild drops every snapshot and folds new ones from the whole log, in
// one pass, trusting none: of every character and foe, their XP audits,
// the campaign, the roster and the undo set. It appends nothing to the
// log. Commands save snapshots as they go, so a rebuild is needed only
// after an upgrade (a new build trusts no snapshot of the old) or to
// reclaim their space; it is never needed for correctness.
func (s *Service) Rebuild() (RebuildResult, error) {
	out := RebuildResult{Code: s.snapCode}
	cmds, err := s.store.ReadStream(events.CommandsStream, 0)
	if err != nil {
		return out, err
	}
	rv, err := projections.FoldReverts(cmds)
	if err != nil {
		return out, err
	}
	total, err := s.store.Count()
	if err != nil {
		return out, err
	}
	var (
		camp      projections.Campaign
		campLast  events.Event
		roster    projections.Roster
		rosterSeq int64
		snaps     []events.Snapshot
		streams   = map[string]*rebuilt{}
		order     []string
	)
	for e, err := range s.store.Iter(events.Query{}) {
		if err != nil {
			return out, err
		}
		out.Events++
		if out.Events%progressEvery == 0 {
			s.report("rebuilding", out.Events, total)
		}
		inEffect := rv.InEffect(e)
		switch {
		case e.Stream == events.CampaignStream:
			campLast = e
			if !inEffect && e.Type != events.TypeCampaignCreated {
				camp.Version = e.StreamVersion
				continue
			}
			if err := camp.Apply(e); err != nil {
				return out, err
			}
		case strings.HasPrefix(e.Stream, events.CharacterStreamPrefix), strings.HasPrefix(e.Stream, events.FoeStreamPrefix):
			r := streams[e.Stream]
			if r == nil {
				r = &rebuilt{c: character{stream: e.Stream}}
				if strings.HasPrefix(e.Stream, events.CharacterStreamPrefix) {
					r.audit = &auditFold{Edition: camp.Edition}
				}
				streams[e.Stream] = r
				order = append(order, e.Stream)
			}
			r.last = e
			if r.audit != nil {
				if err := r.audit.step(e, &rv); err != nil {
					return out, err
				}
			}
			if isRosterEvent(e) {
				rosterSeq = e.Seq
				if inEffect {
					if err := roster.Apply(e); err != nil {
						return out, err
					}
				}
			}
			if inEffect {
				if err := r.c.sheet.Apply(e); err != nil {
					return out, err
				}
				if err := r.c.rolls.Apply(e); err != nil {
					return out, err
				}
			}
			if e.StreamVersion%int64(s.rebuildEvery) == 0 {
				// Earlier points too, for reads as of them.
				state, err := projections.EncodeCharacter(r.c.sheet, r.c.rolls)
				if err != nil {
					return out, err
				}
				snaps = append(snaps, events.Snapshot{Stream: e.Stream, Kind: projections.SnapCharacter, Code: s.snapCode,
					Seq: e.Seq, Version: e.StreamVersion, Commands: rv.Version, State: state})
			}
		}
	}
	s.report("rebuilding", out.Events, total)

	add := func(stream, kind string, last events.Event, latest, across bool, state []byte, err error) error {
		if err != nil {
			return err
		}
		snaps = append(snaps, events.Snapshot{Stream: stream, Kind: kind, Code: s.snapCode,
			Seq: last.Seq, Version: last.StreamVersion, Commands: rv.Version, State: state, Latest: latest, Across: across})
		return nil
	}
	for _, stream := range order {
		r := streams[stream]
		if r.last.StreamVersion%int64(s.rebuildEvery) != 0 {
			state, err := projections.EncodeCharacter(r.c.sheet, r.c.rolls)
			if err := add(stream, projections.SnapCharacter, r.last, false, false, state, err); err != nil {
				return out, err
			}
		}
		if r.audit != nil {
			state, err := json.Marshal(r.audit)
			if err := add(stream, projections.SnapAudit, r.last, false, false, state, err); err != nil {
				return out, err
			}
		}
	}
	if campLast.Seq > 0 {
		state, err := projections.EncodeCampaign(camp)
		if err := add(events.CampaignStream, projections.SnapCampaign, campLast, false, false, state, err); err != nil {
			return out, err
		}
	}
	if rosterSeq > 0 {
		state, err := projections.EncodeRoster(roster)
		last := events.Event{Seq: rosterSeq, StreamVersion: rosterSeq}
		if err := add(rosterView, projections.SnapRoster, last, false, true, state, err); err != nil {
			return out, err
		}
	}
	if len(cmds) > 0 {
		state, err := rv.Encode()
		if err := add(events.CommandsStream, projections.SnapReverts, cmds[len(cmds)-1], true, false, state, err); err != nil {
			return out, err
		}
	}
	if err := s.store.DropSnapshots(); err != nil {
		return out, err
	}
	if err := s.store.SaveSnapshots(snaps); err != nil {
		return out, err
	}
	distinct := map[string]bool{}
	for _, sn := range snaps {
		distinct[sn.Stream] = true
	}
	out.Snapshots, out.Streams = len(snaps), len(distinct)
	return out, nil
}
