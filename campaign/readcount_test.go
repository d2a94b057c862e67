package campaign

import (
	"iter"
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

// countingStore is a store that counts what its readers ask of it: the
// queries (Read, Iter, ReadStream) and the events they return. Tests of
// how much a read reads wrap a store in one.
type countingStore struct {
	events.Store
	queries, events int
	// streams counts the reads of one stream (ReadStream), and
	// streamEvents the events they returned.
	streams, streamEvents int
	// passes counts the reads that walk the log itself rather than an
	// index: no stream, no type prefix, no command named (a fold of the
	// whole log is one).
	passes int
}

// pass reports whether q walks the log rather than an index.
func pass(q events.Query) bool {
	return len(q.Streams) == 0 && q.TypePrefix == "" && len(q.CommandIDs) == 0 && !(q.Limit > 0 && q.Last)
}

func (c *countingStore) Read(q events.Query) ([]events.Event, error) {
	c.queries++
	if pass(q) {
		c.passes++
	}
	evs, err := c.Store.Read(q)
	c.events += len(evs)
	return evs, err
}

func (c *countingStore) ReadStream(stream string, after int64) ([]events.Event, error) {
	c.queries++
	c.streams++
	evs, err := c.Store.ReadStream(stream, after)
	c.events += len(evs)
	c.streamEvents += len(evs)
	return evs, err
}

func (c *countingStore) Iter(q events.Query) iter.Seq2[events.Event, error] {
	c.queries++
	if pass(q) {
		c.passes++
	}
	return func(yield func(events.Event, error) bool) {
		for e, err := range c.Store.Iter(q) {
			if err == nil {
				c.events++
			}
			if !yield(e, err) {
				return
			}
		}
	}
}

// reset zeroes the counts.
func (c *countingStore) reset() { *c = countingStore{Store: c.Store} }

// counted opens s's store again through a countingStore, as a new
// service with s's options.
func counted(t testing.TB, s *Service) (*Service, *countingStore) {
	t.Helper()
	c := &countingStore{Store: s.store}
	cs := *s
	cs.store = c
	cs.undone = nil
	return &cs, c
}
