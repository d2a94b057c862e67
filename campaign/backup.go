package campaign

import (
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"strconv"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/sqlitestore"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// LogPoint is one state of the log: its last event and the campaign as of
// it. Exports print it in their footers, so that a page can be traced back
// to the log it was folded from.
type LogPoint struct {
	// Seq is the last event's seq; Hash its hash.
	Seq  int64
	Hash []byte
	// CampaignID is the ID of the campaign.created event.
	CampaignID string
	Campaign   projections.Campaign
	// AsOf is true when the point was asked for (--as-of), false when it
	// is the head of the log.
	AsOf bool
}

// HashHex returns the point's hash in lowercase hex.
func (p LogPoint) HashHex() string { return hex.EncodeToString(p.Hash) }

// At returns the point as an as-of argument ("" never: the seq itself),
// so that every read of one export folds the same events.
func (p LogPoint) At() string { return strconv.FormatInt(p.Seq, 10) }

// Point returns the log's state at an as-of point (see ResolveAsOf), or at
// its head when asOf is "".
func (s *Service) Point(asOf string) (LogPoint, error) {
	seq, err := s.ResolveAsOf(asOf)
	if err != nil {
		return LogPoint{}, err
	}
	p := LogPoint{Seq: seq, AsOf: seq > 0}
	if seq == 0 {
		if p.Seq, p.Hash, err = s.store.Head(); err != nil {
			return LogPoint{}, err
		}
	} else {
		evs, err := s.store.Read(events.Query{AfterSeq: seq - 1, UpToSeq: seq})
		if err != nil {
			return LogPoint{}, err
		}
		if len(evs) != 1 {
			return LogPoint{}, rules.Errorf(rules.CodeInvalidLog, "seq %d is missing from the log: run `ltscamp verify`", seq)
		}
		p.Hash = evs[0].Hash
	}
	v, err := s.view(p.At())
	if err != nil {
		return LogPoint{}, err
	}
	if p.Campaign, err = v.campaign(); err != nil {
		return LogPoint{}, err
	}
	// Only the stream's first event is needed, not the whole stream.
	created, err := s.store.Read(events.Query{Streams: []string{events.CampaignStream}, Limit: 1})
	if err != nil {
		return LogPoint{}, err
	}
	if len(created) == 0 || created[0].Type != events.TypeCampaignCreated {
		return LogPoint{}, rules.Errorf(rules.CodeInvalidLog, "the log does not begin with campaign.created: run `ltscamp verify`")
	}
	p.CampaignID = created[0].ID
	return p, nil
}

// Events yields the log from seq 1 up to upTo (0: all of it), one event
// at a time.
func (s *Service) Events(upTo int64) iter.Seq2[events.Event, error] {
	return s.store.Iter(events.Query{UpToSeq: upTo})
}

// backuper is a store that can copy itself while others write to it.
type backuper interface {
	Backup(path string) error
}

// Backup writes a consistent copy of the campaign file to path, which must
// not exist, while others may go on writing: the copy is the log as of
// the moment the copy began. It returns the copy's head, read back from
// the copy.
func (s *Service) Backup(path string) (seq int64, hash []byte, err error) {
	b, ok := s.store.(backuper)
	if !ok {
		return s.backupByLoad(path)
	}
	if err := b.Backup(path); err != nil {
		if errors.Is(sqlitestore.Classify(err), events.ErrDamaged) {
			// The copy is new: what SQLite found damaged is the file
			// it copies from.
			return 0, nil, storeError(s.path(), err)
		}
		return 0, nil, storeError(path, err)
	}
	st, err := sqlitestore.Open(path, sqlitestore.Options{Now: s.now})
	if err != nil {
		return 0, nil, storeError(path, err)
	}
	defer st.Close()
	return st.Head()
}

// RestoreExpect is what a backup's header promises of its events, checked
// once they are all read.
type RestoreExpect struct {
	Events     int64
	HeadHash   []byte
	CampaignID string
}

// RestoreError is a backup refused by RestoreLog: the first event found
// wrong, and what is wrong with it.
type RestoreError struct {
	// Ordinal is the event's place among the backup's events (from 1; 0
	// when the problem is with the backup as a whole). Seq is the seq the
	// event gives itself: the two differ when lines were moved.
	Ordinal int64
	Seq     int64
	Problem string
}

// Error implements error.
func (e *RestoreError) Error() string {
	if e.Seq == 0 {
		return e.Problem
	}
	return fmt.Sprintf("seq %d: %s", e.Seq, e.Problem)
}

// progressEvery is how many events long work goes between reports.
const progressEvery = 4096

// readBatch is a batch of events read ahead, and the error that ended the
// reading after them, if any.
type readBatch struct {
	events []events.Event
	err    error
}

// readAhead reads evs in a goroutine of its own, size events a batch, one
// batch ahead of the consumer. The last batch carries the error that ended
// the sequence, if any. When the consumer stops early the goroutine stops
// too.
func readAhead(evs iter.Seq2[events.Event, error], size int) iter.Seq[readBatch] {
	return func(yield func(readBatch) bool) {
		ch := make(chan readBatch, 1)
		done := make(chan struct{})
		defer close(done)
		go func() {
			defer close(ch)
			send := func(b readBatch) bool {
				select {
				case ch <- b:
					return true
				case <-done:
					return false
				}
			}
			batch := make([]events.Event, 0, size)
			for e, err := range evs {
				if err != nil {
					send(readBatch{events: batch, err: err})
					return
				}
				batch = append(batch, e)
				if len(batch) == size {
					if !send(readBatch{events: batch}) {
						return
					}
					batch = make([]events.Event, 0, size)
				}
			}
			if len(batch) > 0 {
				send(readBatch{events: batch})
			}
		}()
		for b := range ch {
			if !yield(b) {
				return
			}
		}
	}
}

// FirstProblem returns the seq and text of the first problem the report
// found, in log order: a chain break, a violation or a ledger that fails
// (seq 0 when none names a seq; "" when the report is OK).
func (r VerifyReport) FirstProblem() (int64, string) {
	var seq int64
	problem := ""
	consider := func(s int64, p string) {
		if p != "" && (problem == "" || (s > 0 && (seq == 0 || s < seq))) {
			seq, problem = s, p
		}
	}
	if !r.Damage.OK {
		consider(0, "the file is damaged: SQLite's integrity check finds damage in "+r.Damage.Where())
	}
	if !r.Chain.OK {
		consider(r.Chain.Seq, r.Chain.Problem)
	}
	for _, v := range r.Violations {
		consider(v.Seq, fmt.Sprintf("%s: %s", v.Type, v.Problem))
	}
	for _, l := range r.Ledgers {
		if !l.OK {
			consider(l.Seq, fmt.Sprintf("XP ledger of %s: %s", l.Character, l.Problem))
		}
	}
	return seq, problem
}

// backupByLoad writes the campaign of a store that cannot copy itself (a
// campaign on PostgreSQL) to a new campaign file at path: its events,
// read in one read-only transaction (the log as of the moment the copy
// began, whatever is appended meanwhile), loaded into a file built under
// a temporary name, each batch checked to continue the chain, and put at
// path only when whole. It returns the copy's head.
func (s *Service) backupByLoad(path string) (int64, []byte, error) {
	st, err := sqlitestore.CreateStaged(path, sqlitestore.Options{Now: s.now})
	if err != nil {
		return 0, nil, storeError(path, err)
	}
	published := false
	defer func() {
		if !published {
			_ = st.Discard()
		}
	}()
	// The log is read on one core while the other loads the batches
	// before, as a restore reads its backup.
	for b := range readAhead(s.store.Iter(events.Query{}), restoreBatch) {
		if err := st.Load(b.events); err != nil {
			return 0, nil, backupLoadError(s.path(), path, err)
		}
		if b.err != nil {
			return 0, nil, storeError(s.path(), b.err)
		}
	}
	seq, hash, err := st.Head()
	if err != nil {
		return 0, nil, storeError(path, err)
	}
	if err := st.Publish(); err != nil {
		return 0, nil, storeError(path, err)
	}
	published = true
	return seq, hash, nil
}

// backupLoadError words a copy refused as it was loaded: the source's
// log does not chain (a LoadError) or the copy's disk failed.
func backupLoadError(src, path string, err error) error {
	var le *events.LoadError
	if errors.As(err, &le) {
		return rules.Errorf(rules.CodeInvalidLog, "%s: seq %d: %s; no backup was written: run `ltscamp verify` on it", src, le.Seq, le.Problem)
	}
	return storeError(path, err)
}
