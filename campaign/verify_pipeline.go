package campaign

import (
	"bytes"
	"hash/maphash"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// scanned is an event of the log with what the pipeline worked out for it
// ahead of the fold.
type scanned struct {
	e events.Event
	// hashOK is true when e.Hash is the hash of e's contents chained
	// after e.PrevHash (events.ComputeHash(e.PrevHash, e)); whether
	// PrevHash is the hash of the event before is the fold's to check.
	hashOK bool
	// pre is e's payload decoded and the checks of it alone made
	// (projections.Preparer); not for the commands stream, which the rules
	// replay does not fold.
	pre projections.Prepared
	// idHash and commandHash hash e.ID and e.CommandID for the
	// envelope check's filters.
	idHash, commandHash uint64
}

// scanBatch is a run of consecutive events on its way through the
// pipeline.
type scanBatch struct {
	items []scanned
	// readErr ends the last batch when a row could not be read.
	readErr error
	// done holds a token once a worker is through with the batch.
	done chan struct{}
}

// The pipeline holds at most scanBatches batches of scanBatchSize events:
// a few megabytes, however long the log.
const (
	scanBatchSize = 256
	scanBatches   = 16
)

// scanLog reads the whole log in seq order and hands fold every event, in
// order, with its hash checked against its contents and its payload
// decoded and prepared for the rules replay. One goroutine reads the
// rows; as many as there are cores hash, decode and prepare whole
// batches, work that needs nothing of the events before; the caller's
// goroutine folds. ok is false when a row cannot be read. An error from
// fold stops the scan and is returned.
//
// The workers hash each event's ID and command ID with seed, for the
// envelope check's filters.
//
// The rules checks that Prepare makes need the campaign's edition: the
// workers take it from the first campaign.created they decode, a guess
// the fold checks before it uses anything prepared with it.
func (s *Service) scanLog(seed maphash.Seed, fold func(*scanned) error) (ok bool, err error) {
	free := make(chan *scanBatch, scanBatches)
	for range scanBatches {
		free <- &scanBatch{items: make([]scanned, 0, scanBatchSize), done: make(chan struct{}, 1)}
	}
	// Neither channel ever blocks a sender: each holds every batch.
	work := make(chan *scanBatch, scanBatches)
	ordered := make(chan *scanBatch, scanBatches)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() {
		// The reader stops at its next batch; the workers finish what
		// they hold. Nothing reads the store once scanLog returns.
		close(stop)
		wg.Wait()
	}()

	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(work)
		defer close(ordered)
		var b *scanBatch
		take := func() bool {
			select {
			case <-stop:
				return false
			default:
			}
			select {
			case b = <-free:
				b.items, b.readErr = b.items[:0], nil
				return true
			case <-stop:
				return false
			}
		}
		send := func() {
			work <- b
			ordered <- b
		}
		if !take() {
			return
		}
		for e, err := range s.store.Iter(events.Query{}) {
			if err != nil {
				b.readErr = err
				break
			}
			b.items = append(b.items, scanned{e: e})
			if len(b.items) == scanBatchSize {
				send()
				if !take() {
					return
				}
			}
		}
		send()
	}()

	var edition atomic.Pointer[rules.Edition]
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var h events.Hasher
			var prep projections.Preparer
			for b := range work {
				var ed rules.Edition
				if p := edition.Load(); p != nil {
					ed = *p
				}
				for i := range b.items {
					it := &b.items[i]
					sum := h.Sum(it.e.PrevHash, &it.e)
					it.hashOK = bytes.Equal(sum[:], it.e.Hash)
					it.idHash, it.commandHash = maphash.String(seed, it.e.ID), maphash.String(seed, it.e.CommandID)
					it.pre = projections.Prepared{}
					if it.e.Stream == events.CommandsStream {
						continue
					}
					it.pre = prep.Prepare(it.e, ed)
					if p, _ := it.pre.Payload(); ed == "" && it.e.Type == events.TypeCampaignCreated {
						if c, ok := p.(*events.CampaignCreated); ok {
							guess := rules.Edition(c.Edition)
							if edition.CompareAndSwap(nil, &guess) {
								ed = guess
							}
						}
					}
				}
				b.done <- struct{}{}
			}
		}()
	}

	for b := range ordered {
		<-b.done
		for i := range b.items {
			if err := fold(&b.items[i]); err != nil {
				return false, err
			}
		}
		if b.readErr != nil {
			return false, nil
		}
		free <- b
	}
	return true, nil
}
