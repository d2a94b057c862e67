package events

import "fmt"

// Snapshot is a projection's state folded from one stream up to a point of
// the log, kept beside the log so that a reader folds only the events
// after it. It is derived data, never part of the log: the log alone
// decides what happened, any snapshot can be dropped and folded again
// (`ltscamp rebuild`), and verify never reads one.
//
// A snapshot records what it was folded from, so that a reader can tell
// whether it still holds:
//   - Code names the projection code that folded it: a reader running other
//     code ignores it;
//   - Seq and Version are the last event folded (its seq, and its version in
//     Stream);
//   - Commands is the version of the commands stream (undo and redo) whose
//     effect it was folded with. An undo or redo logged after that version
//     which reverts or restores a command with events on Stream up to Seq
//     makes the snapshot stale.
type Snapshot struct {
	// Stream is the stream folded.
	Stream string
	// Kind names the projection, such as "character".
	Kind string
	// Code is the version of the projection code that folded State.
	Code string
	// Seq is the seq of the last event folded; Version is its stream version.
	Seq, Version int64
	// Commands is the commands stream's version the fold saw.
	Commands int64
	// State is the projection's encoded state.
	State []byte
	// Latest, when saving, replaces every other snapshot of the stream and
	// kind: only the newest is kept (for large states that change rarely).
	// Otherwise earlier snapshots are kept, for reads as of earlier points.
	Latest bool
	// Across marks a snapshot folded from events of many streams (the
	// party roster), up to Seq, whose Seq is the highest it folded: Stream
	// then names the projection, not a stream of the log, and Version is
	// Seq. Seqs are given in commit order, so every event it did not fold
	// has a higher seq.
	Across bool
}

// Validate reports a snapshot that cannot be saved.
func (s Snapshot) Validate() error {
	switch {
	case s.Stream == "" || s.Kind == "" || s.Code == "":
		return fmt.Errorf("%w: a snapshot needs a stream, a kind and a code version", ErrInvalidCommand)
	case s.Seq < 1 || s.Version < 1 || s.Commands < 0:
		return fmt.Errorf("%w: snapshot of %s (%s) at seq %d, version %d: positions start at 1", ErrInvalidCommand, s.Stream, s.Kind, s.Seq, s.Version)
	case len(s.State) == 0:
		return fmt.Errorf("%w: snapshot of %s (%s) has no state", ErrInvalidCommand, s.Stream, s.Kind)
	}
	return nil
}

// SnapshotQuery selects the snapshot a reader may start from.
type SnapshotQuery struct {
	Stream, Kind, Code string
	// UpToSeq, when positive, keeps snapshots with Seq <= UpToSeq.
	UpToSeq int64
}

// Snapshots is the part of a Store that keeps snapshots beside the log.
type Snapshots interface {
	// Snapshot returns the newest snapshot q selects, the one with the
	// highest Seq, and false when there is none.
	Snapshot(q SnapshotQuery) (Snapshot, bool, error)
	// SaveSnapshots stores snapshots (a rebuild). A snapshot of the same
	// stream, kind, code and version replaces the one stored.
	SaveSnapshots(snaps []Snapshot) error
	// DropSnapshots removes every snapshot.
	DropSnapshots() error
}
