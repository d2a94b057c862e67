// Package memstore is an in-memory events.Store with the same semantics as
// the SQLite store. It keeps nothing on disk: it serves tests and dry runs.
package memstore

import (
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"

	"github.com/ltscamp/ltscamp/events"
)

// errClosed is returned by every method of a closed Store.
var errClosed = errors.New("memstore: store is closed")

// Store is an in-memory, append-only event log. It is safe for concurrent
// use. The zero value is not usable; call New.
type Store struct {
	mu        sync.RWMutex
	closed    bool
	log       []events.Event   // log[i].Seq == i+1
	byID      map[string]int   // event ID -> index in log
	byCommand map[string][]int // command ID -> indexes in log
	byStream  map[string][]int // stream -> indexes in log, by stream version
	snaps     []events.Snapshot
}

// New returns an empty Store.
func New() *Store {
	return &Store{
		byID:      map[string]int{},
		byCommand: map[string][]int{},
		byStream:  map[string][]int{},
	}
}

var _ events.Store = (*Store)(nil)

// Append implements events.Store.
func (s *Store) Append(cmd events.Command) (events.AppendResult, error) {
	if err := cmd.Validate(); err != nil {
		return events.AppendResult{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return events.AppendResult{}, errClosed
	}
	if idx, ok := s.byCommand[cmd.ID]; ok {
		return events.AppendResult{Events: s.copies(idx), Duplicate: true}, nil
	}
	for _, p := range cmd.Events {
		if _, taken := s.byID[p.ID]; taken {
			return events.AppendResult{}, fmt.Errorf("%w: command %q: event ID %q is already in the log", events.ErrInvalidCommand, cmd.ID, p.ID)
		}
	}
	head, hash := s.head()
	if err := cmd.CheckHead(head, hash); err != nil {
		return events.AppendResult{}, err
	}
	versions, err := cmd.CheckExpected(func(stream string) (int64, error) {
		return int64(len(s.byStream[stream])), nil
	})
	if err != nil {
		return events.AppendResult{}, err
	}
	sealed := cmd.Seal(head, hash, versions)
	out := make([]events.Event, len(sealed))
	for i, e := range sealed {
		idx := len(s.log)
		s.log = append(s.log, e)
		s.byID[e.ID] = idx
		s.byCommand[e.CommandID] = append(s.byCommand[e.CommandID], idx)
		s.byStream[e.Stream] = append(s.byStream[e.Stream], idx)
		out[i] = clone(e)
	}
	s.save(cmd.Snapshots)
	return events.AppendResult{Events: out}, nil
}

// Snapshot implements events.Store.
func (s *Store) Snapshot(q events.SnapshotQuery) (events.Snapshot, bool, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return events.Snapshot{}, false, errClosed
	}
	var best events.Snapshot
	found := false
	for _, sn := range s.snaps {
		if sn.Stream != q.Stream || sn.Kind != q.Kind || sn.Code != q.Code || q.UpToSeq > 0 && sn.Seq > q.UpToSeq {
			continue
		}
		if !found || sn.Seq > best.Seq {
			best, found = sn, true
		}
	}
	best.State = slices.Clone(best.State)
	return best, found, nil
}

// SaveSnapshots implements events.Store.
func (s *Store) SaveSnapshots(snaps []events.Snapshot) error {
	for _, sn := range snaps {
		if err := sn.Validate(); err != nil {
			return err
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	s.save(snaps)
	return nil
}

// save stores snapshots; the caller holds the lock.
func (s *Store) save(snaps []events.Snapshot) {
	for _, sn := range snaps {
		sn.State = slices.Clone(sn.State)
		s.snaps = slices.DeleteFunc(s.snaps, func(o events.Snapshot) bool {
			return o.Stream == sn.Stream && o.Kind == sn.Kind && (sn.Latest || o.Code != sn.Code || o.Version == sn.Version)
		})
		s.snaps = append(s.snaps, sn)
	}
}

// DropSnapshots implements events.Store.
func (s *Store) DropSnapshots() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	s.snaps = nil
	return nil
}

// ReadStream implements events.Store.
func (s *Store) ReadStream(stream string, afterVersion int64) ([]events.Event, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, errClosed
	}
	idx := s.byStream[stream]
	// Stream versions are 1-based positions in idx.
	start := max(afterVersion, 0)
	if start >= int64(len(idx)) {
		return nil, nil
	}
	return s.copies(idx[start:]), nil
}

// StreamVersion implements events.Store.
func (s *Store) StreamVersion(stream string) (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return 0, errClosed
	}
	return int64(len(s.byStream[stream])), nil
}

// Read implements events.Store.
func (s *Store) Read(q events.Query) ([]events.Event, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, errClosed
	}
	var out []events.Event
	for _, e := range s.log {
		if match(q, e) {
			out = append(out, e)
		}
	}
	if q.Limit > 0 && len(out) > q.Limit {
		if q.Last {
			out = out[len(out)-q.Limit:]
		} else {
			out = out[:q.Limit]
		}
	}
	for i := range out {
		out[i] = clone(out[i])
	}
	return out, nil
}

// Iter implements events.Store. It reads under the lock once and yields
// copies, so the loop body may call the store.
func (s *Store) Iter(q events.Query) iter.Seq2[events.Event, error] {
	return func(yield func(events.Event, error) bool) {
		events.Each(s.Read(q))(yield)
	}
}

// Load implements events.Store.
func (s *Store) Load(batch []events.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	seq, hash := s.head()
	err := events.CheckLoad(seq, hash, batch, func(stream string) (int64, error) {
		return int64(len(s.byStream[stream])), nil
	})
	if err != nil {
		return err
	}
	ids := make(map[string]bool, len(batch))
	for i, e := range batch {
		if _, taken := s.byID[e.ID]; taken || ids[e.ID] {
			return &events.LoadError{Index: i, Seq: e.Seq, EventID: e.ID, Problem: fmt.Sprintf("event ID %q is already in the log", e.ID)}
		}
		ids[e.ID] = true
	}
	for _, e := range batch {
		idx := len(s.log)
		s.log = append(s.log, clone(e))
		s.byID[e.ID] = idx
		s.byCommand[e.CommandID] = append(s.byCommand[e.CommandID], idx)
		s.byStream[e.Stream] = append(s.byStream[e.Stream], idx)
	}
	return nil
}

// match reports whether e passes every filter of q except Limit.
func match(q events.Query, e events.Event) bool {
	switch {
	case e.Seq <= q.AfterSeq:
		return false
	case q.UpToSeq > 0 && e.Seq > q.UpToSeq:
		return false
	case len(q.Streams) > 0 && !slices.Contains(q.Streams, e.Stream):
		return false
	case q.StreamPrefix != "" && !strings.HasPrefix(e.Stream, q.StreamPrefix):
		return false
	case q.TypePrefix != "" && !strings.HasPrefix(e.Type, q.TypePrefix):
		return false
	case len(q.Types) > 0 && !slices.Contains(q.Types, e.Type):
		return false
	case len(q.CommandIDs) > 0 && !slices.Contains(q.CommandIDs, e.CommandID):
		return false
	case len(q.Seqs) > 0 && !slices.Contains(q.Seqs, e.Seq):
		return false
	case len(q.Actors) > 0 && !slices.Contains(q.Actors, e.Actor):
		return false
	case !q.Since.IsZero() && e.RecordedAt.Before(q.Since):
		return false
	case !q.Until.IsZero() && e.RecordedAt.After(q.Until):
		return false
	}
	return true
}

// EventByID implements events.Store.
func (s *Store) EventByID(id string) (events.Event, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return events.Event{}, errClosed
	}
	i, ok := s.byID[id]
	if !ok {
		return events.Event{}, fmt.Errorf("event %q: %w", id, events.ErrNotFound)
	}
	return clone(s.log[i]), nil
}

// Head implements events.Store.
func (s *Store) Head() (int64, []byte, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return 0, nil, errClosed
	}
	seq, hash := s.head()
	return seq, slices.Clone(hash), nil
}

// Count implements events.Store.
func (s *Store) Count() (int64, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return 0, errClosed
	}
	return int64(len(s.log)), nil
}

// Close implements events.Store. Closing twice is harmless; every other
// method of a closed Store fails.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.log, s.byID, s.byCommand, s.byStream = nil, nil, nil, nil
	return nil
}

// head returns the last seq and hash; the caller holds the lock. The hash
// is not copied.
func (s *Store) head() (int64, []byte) {
	if len(s.log) == 0 {
		return 0, events.GenesisHash()
	}
	last := s.log[len(s.log)-1]
	return last.Seq, last.Hash
}

// copies returns copies of the events at idx; the caller holds the lock.
func (s *Store) copies(idx []int) []events.Event {
	out := make([]events.Event, len(idx))
	for i, j := range idx {
		out[i] = clone(s.log[j])
	}
	return out
}

// clone returns e with its slices copied, so that callers cannot change
// the log through what they are given.
func clone(e events.Event) events.Event {
	e.Payload = slices.Clone(e.Payload)
	e.PrevHash = slices.Clone(e.PrevHash)
	e.Hash = slices.Clone(e.Hash)
	return e
}
