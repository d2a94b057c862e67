package campaign

import (
	"bytes"
	"errors"
	"fmt"
	"iter"
	"os"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/pgstore"
	"github.com/ltscamp/ltscamp/events/sqlitestore"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// RestoreOptions shape a restore.
type RestoreOptions struct {
	// Force lets the restore replace a campaign file at the path (never
	// any other file); without it a campaign there is refused.
	Force bool
}

// RestoreReport is what a restore made: the report of the verify it
// passed, the campaign's name, and the snapshots it saved.
type RestoreReport struct {
	VerifyReport
	Campaign  string
	Snapshots int
}

// restoreBatch is how many events go into the new file per transaction.
const restoreBatch = 4096

// RestoreLog makes a new campaign file at path from a backup's events, in
// seq order: RestoreLogWith without options (path must be free).
func RestoreLog(path string, want RestoreExpect, evs iter.Seq2[events.Event, error], opts Options) (VerifyReport, error) {
	rep, err := RestoreLogWith(path, want, evs, opts, RestoreOptions{})
	return rep.VerifyReport, err
}

// RestoreLogWith makes a campaign file at path from a backup's events, in
// seq order. It is all or nothing: the file is built under a temporary
// name, each event is checked to continue the hash chain as it is loaded,
// the header's promise (want) is checked at the end, and then the whole
// log is verified as `ltscamp verify` does (envelopes, undo and redo,
// every event replayed under the rules, every XP ledger, the append-only
// triggers). The verify's pass also folds the snapshots `ltscamp rebuild`
// saves, so the restored campaign reads as fast as a played one. Only a
// log that passes is put at path (in place of a campaign there only with
// ro.Force); on any failure nothing is left there, nor any temporary
// file. The restored log has the backup's IDs, seqs and hashes. A problem
// with the backup's content is a *RestoreError inside a CodeInvalidLog
// error; an error of the events iterator is returned as it is (wrapped).
func RestoreLogWith(path string, want RestoreExpect, evs iter.Seq2[events.Event, error], opts Options, ro RestoreOptions) (RestoreReport, error) {
	st, err := createStaged(path, opts, ro)
	if err != nil {
		return RestoreReport{}, restoreTargetError(path, err, ro)
	}
	published := false
	defer func() {
		if !published {
			_ = st.Discard()
		}
	}()
	refuse := func(ordinal, seq int64, format string, a ...any) error {
		re := &RestoreError{Ordinal: ordinal, Seq: seq, Problem: fmt.Sprintf(format, a...)}
		return &rules.Error{Code: rules.CodeInvalidLog, Message: re.Error(), Err: re}
	}
	var n int64 // events loaded
	var first events.Event
	// Lines are read and parsed on one core while the other loads the
	// batches before them: the two take about as long.
	for b := range readAhead(evs, restoreBatch) {
		if len(b.events) > 0 && n == 0 {
			first = b.events[0]
		}
		err := st.Load(b.events)
		var le *events.LoadError
		if errors.As(err, &le) {
			// The events before a bad line may already break the chain:
			// that is the first problem, so it is the one named.
			return RestoreReport{}, refuse(n+int64(le.Index)+1, le.Seq, "%s", le.Problem)
		}
		if err != nil {
			return RestoreReport{}, err
		}
		n += int64(len(b.events))
		if b.err != nil {
			var coded *rules.Error
			if errors.As(b.err, &coded) {
				return RestoreReport{}, b.err // a damaged source says so
			}
			return RestoreReport{}, rules.Wrap(rules.CodeInvalidLog, b.err)
		}
		if opts.Progress != nil {
			opts.Progress("loading", n, want.Events)
		}
	}
	seq, head, err := st.Head()
	if err != nil {
		return RestoreReport{}, err
	}
	switch {
	case n == 0:
		return RestoreReport{}, refuse(0, 0, "the backup holds no events: a campaign begins with campaign.created")
	case n != want.Events || !bytes.Equal(head, want.HeadHash):
		return RestoreReport{}, refuse(0, 0, "the backup's events end at seq %d with hash %x, but its header promised %d events ending with hash %x", seq, head, want.Events, want.HeadHash)
	case first.Type != events.TypeCampaignCreated || first.ID != want.CampaignID:
		return RestoreReport{}, refuse(1, 1, "the first event is %s %s, but the header names campaign %s", first.Type, first.ID, want.CampaignID)
	}
	s, err := New(st, opts)
	if err != nil {
		return RestoreReport{}, err
	}
	rep, snaps, err := s.verifyAndFold()
	if err != nil {
		return RestoreReport{}, err
	}
	out := RestoreReport{VerifyReport: rep}
	if !rep.OK {
		// Every event was loaded in its place: seq and ordinal agree.
		seq, problem := rep.FirstProblem()
		return out, refuse(seq, seq, "%s (the log restored would not pass `ltscamp verify`)", problem)
	}
	if err := st.SaveSnapshots(snaps); err != nil {
		return out, storeError(path, err)
	}
	out.Snapshots = len(snaps)
	if p, err := events.Decode(first); err == nil {
		if c, ok := p.(*events.CampaignCreated); ok {
			out.Campaign = c.Name
		}
	}
	if err := st.Publish(); err != nil {
		return out, restoreTargetError(path, err, ro)
	}
	published = true
	return out, nil
}

// stagedStore is a campaign being built for a restore: a file under a
// temporary name (sqlitestore.Staged), or a campaign on a server that no
// one opens yet (pgstore.Staged). Publish puts it in place and closes
// it; Discard removes it.
type stagedStore interface {
	events.Store
	Publish() error
	Discard() error
}

// createStaged starts the campaign a restore builds at path: a file, or
// a campaign on PostgreSQL. A campaign on a server is never replaced
// (its log is append-only): ro.Force is refused there.
func createStaged(path string, opts Options, ro RestoreOptions) (stagedStore, error) {
	if pgstore.IsAddress(path) {
		if ro.Force {
			return nil, rules.Errorf(rules.CodeConflict, "restore --force cannot replace a campaign on PostgreSQL: its log is append-only there; restore into a new ?campaign=NAME instead (nothing was changed)")
		}
		st, err := pgstore.CreateStaged(path, pgstore.Options{Now: opts.Now})
		if err != nil {
			return nil, err
		}
		return publishCloses{st}, nil
	}
	if ro.Force {
		return sqlitestore.CreateStagedOver(path, sqlitestore.Options{Now: opts.Now})
	}
	return sqlitestore.CreateStaged(path, sqlitestore.Options{Now: opts.Now})
}

// publishCloses is a campaign staged on a server whose Publish also
// closes it, as a staged file's does.
type publishCloses struct{ *pgstore.Staged }

func (p publishCloses) Publish() error {
	if err := p.Staged.Publish(); err != nil {
		return err
	}
	return p.Close()
}

// verifyAndFold verifies the whole log as Verify does and, in the same
// pass, folds the snapshots Rebuild would save of it. The snapshots are
// good only when the report is OK.
func (s *Service) verifyAndFold() (VerifyReport, []events.Snapshot, error) {
	cmds, err := s.store.ReadStream(events.CommandsStream, 0)
	if err != nil {
		return VerifyReport{}, nil, err
	}
	// An undo that does not fold is verify's to report; no snapshots then.
	rv, rvErr := projections.FoldReverts(cmds)
	fold := s.newSnapshotFold(&rv)
	var foldErr error
	rep, err := s.verifyWith(VerifyOptions{}, func(e events.Event) error {
		if rvErr == nil && foldErr == nil {
			foldErr = fold.step(e)
		}
		return nil
	})
	if err != nil || !rep.OK {
		return rep, nil, err
	}
	switch {
	case rvErr != nil:
		return rep, nil, fmt.Errorf("snapshots: the undo set: %w", rvErr)
	case foldErr != nil:
		return rep, nil, fmt.Errorf("snapshots: %w", foldErr)
	case fold.events != int64(rep.Events):
		return rep, nil, fmt.Errorf("snapshots: folded %d events of %d", fold.events, rep.Events)
	}
	snaps, err := fold.finish()
	return rep, snaps, err
}

// RestoreFile makes a campaign file at path from a campaign file src (a
// copy `ltscamp backup` wrote), as RestoreLogWith does from an NDJSON
// backup: src is read, never written; its events are loaded into a new
// file, checked to continue the hash chain, and verified as `ltscamp
// verify` verifies src (a src whose append-only triggers were dropped is
// refused too); the snapshots are folded on the way; and only then is the
// new file put at path. src and path must be two files.
func RestoreFile(src, path string, opts Options, ro RestoreOptions) (RestoreReport, error) {
	if a, err := os.Stat(src); !pgstore.IsAddress(src) && err == nil {
		if b, err := os.Stat(path); err == nil && os.SameFile(a, b) {
			return RestoreReport{}, rules.Errorf(rules.CodeInvalid, "%s is the file to restore and the campaign to restore it into: name a new --db file (nothing was changed)", src)
		}
	}
	in, err := openStoreReadOnly(src)
	if err != nil {
		return RestoreReport{}, err // coded already
	}
	defer in.Close()
	problems, err := in.AppendOnlyProblems()
	if err != nil {
		return RestoreReport{}, MediumError(src, err)
	}
	if len(problems) > 0 {
		re := &RestoreError{Problem: fmt.Sprintf("%s (the backup does not pass `ltscamp verify`: it was changed outside ltscamp)", problems[0])}
		return RestoreReport{}, &rules.Error{Code: rules.CodeInvalidLog, Message: re.Error(), Err: re}
	}
	n, err := in.Count()
	if err != nil {
		return RestoreReport{}, MediumError(src, err)
	}
	_, head, err := in.Head()
	if err != nil {
		return RestoreReport{}, MediumError(src, err)
	}
	firsts, err := in.Read(events.Query{Limit: 1})
	if err != nil {
		return RestoreReport{}, MediumError(src, err)
	}
	if len(firsts) == 0 || firsts[0].Type != events.TypeCampaignCreated {
		re := &RestoreError{Ordinal: 1, Seq: 1, Problem: "the log does not begin with campaign.created: it is not a campaign's log"}
		if len(firsts) == 0 {
			re = &RestoreError{Problem: "the backup holds no events: a campaign begins with campaign.created"}
		}
		return RestoreReport{}, &rules.Error{Code: rules.CodeInvalidLog, Message: re.Error(), Err: re}
	}
	want := RestoreExpect{Events: n, HeadHash: head, CampaignID: firsts[0].ID}
	// A row of src that cannot be read is named as src's damage, not
	// the new file's.
	evs := func(yield func(events.Event, error) bool) {
		for e, err := range in.Iter(events.Query{}) {
			if !yield(e, MediumError(src, err)) || err != nil {
				return
			}
		}
	}
	return RestoreLogWith(path, want, evs, opts, ro)
}

// restoreTargetError words a store's refusal of the file a restore is to
// make at path.
func restoreTargetError(path string, err error, ro RestoreOptions) error {
	var coded *rules.Error
	switch {
	case errors.As(err, &coded):
		return err
	case pgstore.IsAddress(path) && errors.Is(err, events.ErrExists):
		return rules.Errorf(rules.CodeConflict, "%s already exists in its database, and a campaign on PostgreSQL is never replaced (its log is append-only): restore into a new ?campaign=NAME (nothing was changed)", pgstore.Redact(path))
	case pgstore.IsAddress(path):
		return openError(path, err)
	case errors.Is(err, sqlitestore.ErrInUse):
		return rules.Errorf(rules.CodeConflict, "%s is open in another program (its -wal or -shm file is there): close it, then restore again (nothing was changed)", path)
	case ro.Force && errors.Is(err, events.ErrExists):
		return rules.Errorf(rules.CodeConflict, "%s is not a campaign file, and restore --force replaces only a campaign: move it away or choose another --db file (nothing was changed)", path)
	case errors.Is(err, events.ErrExists):
		return rules.Errorf(rules.CodeConflict, "%s already exists: pass --force to replace it with the campaign restored, or choose another --db file (nothing was changed)", path)
	}
	return storeError(path, err)
}
