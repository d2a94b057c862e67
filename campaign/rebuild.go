package campaign

import (
	"encoding/json"
	"fmt"
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
	f := s.newSnapshotFold(&rv)
	for e, err := range s.store.Iter(events.Query{}) {
		if err != nil {
			return out, err
		}
		if err := f.step(e); err != nil {
			return out, err
		}
		if f.events%progressEvery == 0 {
			s.report("rebuilding", f.events, total)
		}
	}
	out.Events = f.events
	s.report("rebuilding", out.Events, total)
	snaps, err := f.finish()
	if err != nil {
		return out, err
	}
	if err := s.store.DropSnapshots(); err != nil {
		return out, err
	}
	if err := s.store.SaveSnapshots(snaps); err != nil {
		return out, err
	}
	out.Snapshots, out.Streams = len(snaps), distinctStreams(snaps)
	return out, nil
}

// distinctStreams counts the streams snaps are of.
func distinctStreams(snaps []events.Snapshot) int {
	distinct := map[string]bool{}
	for _, sn := range snaps {
		distinct[sn.Stream] = true
	}
	return len(distinct)
}

// snapshotFold folds a whole log, one event at a time in seq order, into
// the snapshots Rebuild saves: of every character and foe (every
// rebuildEvery versions of its stream, and at its last event), their XP
// audits, the campaign, the roster and the undo set. Rebuild feeds it
// from the store; a restore from the verify pass it makes anyway, and the
// generator from the events it makes, so that a campaign is as quick to
// read straight after either as after a rebuild.
type snapshotFold struct {
	code  string
	every int64
	// rv says which events are in effect. It must hold every undo and
	// redo that names a command before step folds that command's events
	// (the whole commands stream, for Rebuild); the snapshots are stamped
	// with its version when finish is called.
	rv *projections.Reverts

	events    int64 // how many events step folded
	camp      projections.Campaign
	campLast  events.Event
	roster    projections.Roster
	rosterSeq int64
	cmdLast   events.Event // the commands stream's last event
	snaps     []events.Snapshot
	streams   map[string]*rebuilt
	order     []string
}

// newSnapshotFold starts a fold keyed by this build's code.
func (s *Service) newSnapshotFold(rv *projections.Reverts) *snapshotFold {
	return &snapshotFold{code: s.snapCode, every: int64(s.rebuildEvery), rv: rv, streams: map[string]*rebuilt{}}
}

// step folds the log's next event.
func (f *snapshotFold) step(e events.Event) error {
	f.events++
	inEffect := f.rv.InEffect(e)
	switch {
	case e.Stream == events.CommandsStream:
		f.cmdLast = e
	case e.Stream == events.CampaignStream:
		f.campLast = e
		if !inEffect && e.Type != events.TypeCampaignCreated {
			f.camp.Version = e.StreamVersion
			return nil
		}
		return f.camp.Apply(e)
	case strings.HasPrefix(e.Stream, events.CharacterStreamPrefix), strings.HasPrefix(e.Stream, events.FoeStreamPrefix):
		r := f.streams[e.Stream]
		if r == nil {
			r = &rebuilt{c: character{stream: e.Stream}}
			if strings.HasPrefix(e.Stream, events.CharacterStreamPrefix) {
				r.audit = &auditFold{Edition: f.camp.Edition}
			}
			f.streams[e.Stream] = r
			f.order = append(f.order, e.Stream)
		}
		r.last = e
		if r.audit != nil {
			if err := r.audit.step(e, f.rv); err != nil {
				return err
			}
		}
		if rosterFolds(e) {
			f.rosterSeq = e.Seq
			if inEffect {
				if err := f.roster.Apply(e); err != nil {
					return err
				}
			}
		}
		if inEffect {
			if err := r.c.sheet.Apply(e); err != nil {
				return err
			}
			if err := r.c.rolls.Apply(e); err != nil {
				return err
			}
		}
		if e.StreamVersion%f.every == 0 {
			// Earlier points too, for reads as of them.
			state, err := projections.EncodeCharacter(r.c.sheet, r.c.rolls)
			if err != nil {
				return err
			}
			f.snaps = append(f.snaps, events.Snapshot{Stream: e.Stream, Kind: projections.SnapCharacter, Code: f.code,
				Seq: e.Seq, Version: e.StreamVersion, State: state})
		}
	}
	return nil
}

// finish returns the snapshots of the log folded: those step saved on the
// way, and those of every stream at its last event.
func (f *snapshotFold) finish() ([]events.Snapshot, error) {
	snaps := f.snaps
	add := func(stream, kind string, last events.Event, latest, across bool, state []byte, err error) error {
		if err != nil {
			return err
		}
		snaps = append(snaps, events.Snapshot{Stream: stream, Kind: kind, Code: f.code,
			Seq: last.Seq, Version: last.StreamVersion, State: state, Latest: latest, Across: across})
		return nil
	}
	for _, stream := range f.order {
		r := f.streams[stream]
		if r.last.StreamVersion%f.every != 0 {
			state, err := projections.EncodeCharacter(r.c.sheet, r.c.rolls)
			if err := add(stream, projections.SnapCharacter, r.last, false, false, state, err); err != nil {
				return nil, err
			}
		}
		if r.audit != nil {
			state, err := json.Marshal(r.audit)
			if err := add(stream, projections.SnapAudit, r.last, false, false, state, err); err != nil {
				return nil, err
			}
		}
	}
	if f.campLast.Seq > 0 {
		state, err := projections.EncodeCampaign(f.camp)
		if err := add(events.CampaignStream, projections.SnapCampaign, f.campLast, false, false, state, err); err != nil {
			return nil, err
		}
	}
	if f.rosterSeq > 0 {
		state, err := projections.EncodeRoster(f.roster)
		last := events.Event{Seq: f.rosterSeq, StreamVersion: f.rosterSeq}
		if err := add(rosterView, projections.SnapRoster, last, false, true, state, err); err != nil {
			return nil, err
		}
	}
	if f.cmdLast.Seq > 0 {
		if f.cmdLast.StreamVersion != f.rv.Version {
			return nil, fmt.Errorf("snapshots: the commands stream folded ends at version %d, the undo set at %d", f.cmdLast.StreamVersion, f.rv.Version)
		}
		state, err := f.rv.Encode()
		if err := add(events.CommandsStream, projections.SnapReverts, f.cmdLast, true, false, state, err); err != nil {
			return nil, err
		}
	}
	// Every snapshot was folded knowing every undo and redo of the log.
	for i := range snaps {
		snaps[i].Commands = f.rv.Version
	}
	return snaps, nil
}
