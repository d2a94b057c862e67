package campaign

import (
	"fmt"
	"os"
	"runtime/debug"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
)

// Snapshots: a command folds a character's stream, the campaign stream
// and the commands stream from the newest snapshot it can trust plus the
// events after it, instead of from the start. Commands save new snapshots
// as they go, in the transaction that appends their events: when a fold
// read more than snapEvery events past its snapshot, the command saves the
// state it read (at the version it expects, so the append's checks cover
// the snapshot too). `ltscamp rebuild` folds them all afresh.
//
// A snapshot is trusted only when:
//   - its code is this build's (projections.SnapshotCode and the build's
//     VCS revision), so a new binary never reads an old fold;
//   - it is at or before the point read (a reader as of an earlier seq
//     takes an earlier snapshot, or folds from the start);
//   - no undo or redo between the commands version it was folded with and
//     the one the reader folds with changes the effect of an event it
//     folded (character and campaign snapshots; the commands stream's own
//     snapshot is append-only history and needs no such check).

// Thresholds: a command saves a snapshot when its fold read more events
// than this past the last one.
const (
	defaultSnapEvery        = 100
	defaultRevertsSnapEvery = 64
)

// snapshotCode returns the code version snapshots are keyed by: the
// projections' SnapshotCode, the release build, and the build's VCS
// revision when it has one.
// A build from a modified tree adds its executable's size and time, since
// the revision does not tell two such builds apart.
func snapshotCode(build string) string {
	code := "p" + projections.SnapshotCode
	if build != "" {
		code += "+" + build
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return code
	}
	for _, st := range bi.Settings {
		switch {
		case st.Key == "vcs.revision":
			code += "+" + st.Value
		case st.Key == "vcs.modified" && st.Value == "true":
			code += "-dirty"
			if exe, err := os.Executable(); err == nil {
				if fi, err := os.Stat(exe); err == nil {
					code += fmt.Sprintf("-%d-%d", fi.Size(), fi.ModTime().UnixNano())
				}
			}
		}
	}
	return code
}

// folded is where a fold started and ended.
type folded struct {
	// version and seq are the last event read (in effect or not).
	version, seq int64
	// read counts the events read past the snapshot; audit is set when
	// one of them adds to the XP audit (a character's fold).
	read  int
	audit bool
}

// snapshot returns the newest snapshot of stream and kind at or before
// upTo (0: any) that the reader, folding with rv, can trust.
func (s *Service) snapshot(stream, kind string, rv *projections.Reverts, upTo int64) (events.Snapshot, bool, error) {
	sn, ok, err := s.store.Snapshot(events.SnapshotQuery{Stream: stream, Kind: kind, Code: s.snapCode, UpToSeq: upTo})
	if err != nil || !ok {
		return events.Snapshot{}, false, err
	}
	if kind == projections.SnapReverts {
		return sn, true, nil
	}
	stale, err := s.stale(sn, kind, rv.Version)
	if err != nil || stale {
		if stale {
			s.staleSnapshots++
		}
		return events.Snapshot{}, false, err
	}
	return sn, true, nil
}

// stale reports whether an undo or redo logged between the commands
// version sn was folded with and the reader's (either way round) reverts
// or restores a command with an event that sn folded.
func (s *Service) stale(sn events.Snapshot, kind string, commands int64) (bool, error) {
	if commands == sn.Commands {
		return false, nil
	}
	ids, err := s.undoneBetween(min(commands, sn.Commands), max(commands, sn.Commands))
	if err != nil || len(ids) == 0 {
		return false, err
	}
	if kind == projections.SnapRoster {
		// The roster folds creations, foes added and foes removed.
		touched, err := s.store.Read(events.Query{CommandIDs: ids, UpToSeq: sn.Seq})
		for _, e := range touched {
			if rosterFolds(e) {
				return true, err
			}
		}
		return false, err
	}
	// No Limit: ordered by seq with a limit, SQLite would walk the log
	// from its start rather than look the commands up.
	touched, err := s.store.Read(events.Query{CommandIDs: ids, Streams: []string{sn.Stream}, UpToSeq: sn.Seq})
	return len(touched) > 0, err
}

// undoneBetween returns the commands that the undo and redo events of the
// commands stream after version lo and up to version hi revert or restore.
// A range of the stream never changes, so each is read once per Service:
// the snapshots of one read (the clock, the roster, a character) all ask.
func (s *Service) undoneBetween(lo, hi int64) ([]string, error) {
	key := [2]int64{lo, hi}
	if ids, ok := s.undone[key]; ok {
		return ids, nil
	}
	evs, err := s.store.ReadStream(events.CommandsStream, lo)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range evs {
		if e.StreamVersion > hi {
			break
		}
		named, err := undoNames(e)
		if err != nil {
			return nil, err
		}
		ids = append(ids, named...)
	}
	if s.undone == nil {
		s.undone = map[[2]int64][]string{}
	}
	s.undone[key] = ids
	return ids, nil
}

// undoNames returns the commands an undo or a redo event names: those it
// reverts, or those it restores.
func undoNames(e events.Event) ([]string, error) {
	p, err := events.Decode(e)
	if err != nil {
		return nil, err
	}
	switch p := p.(type) {
	case *events.CommandReverted:
		return p.Commands(), nil
	case *events.CommandRestored:
		return p.CommandIDs, nil
	}
	return nil, nil
}

// foldFrom folds the events of stream after version from.Version, up to
// seq upTo (0: all), into apply, those in effect only (rv nil: all of
// them; apply then judges).
func (s *Service) foldFrom(stream string, from events.Snapshot, rv *projections.Reverts, upTo int64, apply ...func(events.Event) error) (folded, error) {
	f := folded{version: from.Version, seq: from.Seq}
	evs, err := s.store.ReadStream(stream, from.Version)
	if err != nil {
		return f, err
	}
	for _, e := range evs {
		if upTo > 0 && e.Seq > upTo {
			break
		}
		f.version, f.seq = e.StreamVersion, e.Seq
		f.read++
		if rv != nil && !rv.InEffect(e) {
			continue
		}
		for _, fn := range apply {
			if err := fn(e); err != nil {
				return f, err
			}
		}
	}
	return f, nil
}

// due returns the snapshot a command should save of a fold it read
// (nil when the fold is short), encoding state now, before the command
// changes it.
func (d *decision) snapshotDue(f folded, stream, kind string, every int, latest bool, encode func() ([]byte, error)) error {
	if f.read <= every || f.version < 1 || d.reverts == nil {
		return nil
	}
	state, err := encode()
	if err != nil {
		return err
	}
	d.snapshots = append(d.snapshots, events.Snapshot{
		Stream: stream, Kind: kind, Code: d.s.snapCode,
		Seq: f.seq, Version: f.version, Commands: d.reverts.Version,
		State: state, Latest: latest, Across: kind == projections.SnapRoster,
	})
	return nil
}
