package campaign

import (
	"fmt"
	"slices"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
)

// A list (party, char list, foe list, ship list, the names a completion
// offers) folds every stream of a kind at once. Each stream is folded from
// its newest snapshot, as one is on its own; the events past the snapshots
// are read stream by stream when they are few, and otherwise in one pass
// over the log (a campaign straight after generation or a restore has no
// snapshot, and a stream-by-stream read of a million events costs several
// times a pass over them: each stream's events lie scattered through the
// file). The pass leaves out the types the folds only count (a sheet's
// rolls, most of a long log), so SQLite reads their rows without handing
// them over, and looks for each stream's last such event at its end.
// Readers never save snapshots: only commands do.

// streamFold is one stream of a list: where its fold starts, and what
// folds it.
type streamFold struct {
	stream string
	// from is the snapshot the fold starts from (zero: the start).
	from  events.Snapshot
	apply func(events.Event) error
	// head is the stream's version when the read began; last is the
	// version of the last event in effect the fold took in (from.Version
	// before it took any).
	head, last int64
}

// passCost is how many events of the log one pass reads in the time a
// read stream by stream takes for one of its events (measured on
// 100,000 and 1,000,000 events: about 1 µs an event for a pass that
// leaves the rolls out, 2.4 µs with them, and 6–7 µs an event of streams
// read one by one, scattered in the file).
const passCost = 6

// foldStreams folds the events in effect of every stream of fs, up to seq
// upTo (0: the log as it is when the read begins), each after its
// snapshot. versionOnly lists the types of event whose payloads the folds
// do not read (they count only as the stream's version and seq): the pass
// reads none of them, and each stream's last one in effect is found at the
// stream's end.
func (s *Service) foldStreams(fs []*streamFold, rv *projections.Reverts, upTo int64, versionOnly []string) error {
	if len(fs) == 0 {
		return nil
	}
	head, _, err := s.store.Head()
	if err != nil {
		return err
	}
	atHead := upTo == 0 || upTo >= head
	if upTo == 0 || upTo > head {
		// Fixed now, so that events appended during the read are left
		// out of every stream alike.
		upTo = head
	}
	// behind is how many events lie past the snapshots: at most the
	// events logged after each (no query needed when the snapshots are
	// recent), else counted from the streams' versions.
	var behind int64
	from := upTo
	for _, f := range fs {
		f.last = f.from.Version
		behind += max(0, upTo-f.from.Seq)
		from = min(from, f.from.Seq)
	}
	if behind*passCost > upTo-from {
		behind = 0
		for _, f := range fs {
			if f.head, err = s.store.StreamVersion(f.stream); err != nil {
				return err
			}
			behind += max(0, f.head-f.from.Version)
		}
	}
	if behind*passCost <= upTo-from {
		for _, f := range fs {
			if _, err := s.foldFrom(f.stream, f.from, rv, upTo, f.apply); err != nil {
				return err
			}
		}
		return nil
	}
	// One pass. The types the folds only count are left out of it when
	// the read is of the log as it is now: their last events are then at
	// the streams' ends. As of an earlier point, the streams go on past
	// it, and the pass reads every type.
	q := events.Query{AfterSeq: from, UpToSeq: upTo}
	if atHead && len(versionOnly) > 0 {
		for _, t := range events.TypeNames() {
			if !slices.Contains(versionOnly, t) {
				q.Types = append(q.Types, t)
			}
		}
	} else {
		versionOnly = nil
	}
	byStream := make(map[string]*streamFold, len(fs))
	for _, f := range fs {
		byStream[f.stream] = f
	}
	for e, err := range s.store.Iter(q) {
		if err != nil {
			return err
		}
		f, ok := byStream[e.Stream]
		if !ok || e.StreamVersion <= f.from.Version {
			continue
		}
		if !rv.InEffect(e) {
			continue
		}
		if err := f.apply(e); err != nil {
			return err
		}
		f.last = e.StreamVersion
	}
	if len(versionOnly) == 0 {
		return nil
	}
	for _, f := range fs {
		if err := s.foldTail(f, rv, upTo, versionOnly); err != nil {
			return err
		}
	}
	return nil
}

// foldTail folds into f the last event in effect, up to seq upTo, among
// those of its stream after the pass's last, which are all of the types
// versionOnly lists (or out of effect). It reads back from the stream's
// end, a few events at first, then four times as many each time, until it
// meets one in effect or the events the pass folded.
func (s *Service) foldTail(f *streamFold, rv *projections.Reverts, upTo int64, versionOnly []string) error {
	hi := f.head
	for n := int64(4); hi > f.last; n *= 4 {
		after := max(f.last, hi-n)
		evs, err := s.store.ReadStream(f.stream, after)
		if err != nil {
			return err
		}
		for i := len(evs) - 1; i >= 0; i-- {
			e := evs[i]
			if e.StreamVersion > hi || e.Seq > upTo || !rv.InEffect(e) {
				continue
			}
			if !slices.Contains(versionOnly, e.Type) {
				return fmt.Errorf("event %d (%s, %s version %d) was not in the pass over the log", e.Seq, e.Type, e.Stream, e.StreamVersion)
			}
			return f.apply(e)
		}
		hi = after
	}
	return nil
}

// foldSheets folds the sheets of the members ms (party members or foes)
// as of seq upTo (0: now), each from its newest snapshot that holds.
func (s *Service) foldSheets(ms []projections.Member, rv *projections.Reverts, upTo int64) ([]projections.Sheet, error) {
	sheets := make([]projections.Sheet, len(ms))
	fs := make([]*streamFold, len(ms))
	for i, m := range ms {
		f := &streamFold{stream: m.Stream(), apply: sheets[i].Apply}
		sn, ok, err := s.snapshot(f.stream, projections.SnapCharacter, rv, upTo)
		if err != nil {
			return nil, err
		}
		if ok {
			if sheets[i], _, err = projections.DecodeCharacter(sn.State); err != nil {
				sheets[i], sn = projections.Sheet{}, events.Snapshot{} // fold from the start
			}
		}
		f.from = sn
		fs[i] = f
	}
	if err := s.foldStreams(fs, rv, upTo, projections.SheetVersionOnlyTypes()); err != nil {
		return nil, err
	}
	return sheets, nil
}

// foldShips folds the records of the section ships ms as of seq upTo (0:
// now). Ships have no snapshots: each is folded from its start.
func (s *Service) foldShips(ms []projections.ShipMember, rv *projections.Reverts, upTo int64) ([]projections.Ship, error) {
	recs := make([]projections.Ship, len(ms))
	fs := make([]*streamFold, len(ms))
	for i, m := range ms {
		fs[i] = &streamFold{stream: events.ShipStream(m.ID), apply: recs[i].Apply}
	}
	return recs, s.foldStreams(fs, rv, upTo, nil)
}

// foldDetailedShips folds the detailed ships ms as of seq upTo (0: now),
// each from its start.
func (s *Service) foldDetailedShips(ms []projections.ShipMember, rv *projections.Reverts, upTo int64) ([]projections.DetailedShip, error) {
	recs := make([]projections.DetailedShip, len(ms))
	fs := make([]*streamFold, len(ms))
	for i, m := range ms {
		fs[i] = &streamFold{stream: events.ShipStream(m.ID), apply: recs[i].Apply}
	}
	return recs, s.foldStreams(fs, rv, upTo, nil)
}
