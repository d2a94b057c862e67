package campaign

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"hash/maphash"
	"sort"
	"strings"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/projections"
)

// verifyStreaming is Verify in one pass over the log, holding a bounded
// window of events at a time: its memory grows with the campaign's state
// (characters, streams, rolls), not with the length of the log. It gives
// the report verifyWhole gives. ok is false when a row cannot be read: the
// caller then reads around it with verifyWhole.
//
// The pass is a pipeline (see scanLog): one goroutine reads the rows,
// others rehash each event and decode its payload, and this one folds
// the events in seq order.
//
// The commands stream is folded first, for the commands out of effect;
// the undos and redos are checked once the pass has found the first event
// of every command they name.
//
// see, when not nil, is handed every event after the checks of it.
func (s *Service) verifyStreaming(hm *headMatcher, see func(events.Event) error) (rep VerifyReport, ok bool, err error) {
	commands, err := s.store.ReadStream(events.CommandsStream, 0)
	if err != nil {
		return VerifyReport{}, false, err
	}
	// Which commands are out of effect does not depend on the commands
	// the undos name being found: this fold's problems are left for the
	// one after the pass.
	rv, _, _ := foldUndos(commands, func(string) (*events.Event, error) { return nil, nil })
	named := namedCommands(commands)
	// firsts are the first events of the commands named, found by the
	// pass: their seqs, streams and types, which is what foldUndos reads.
	firsts := map[string]*events.Event{}
	total, err := s.store.Count()
	if err != nil {
		return VerifyReport{}, false, err
	}
	rep = VerifyReport{Violations: []projections.Violation{}, Ledgers: []LedgerCheck{}, HeadHash: hex.EncodeToString(events.GenesisHash())}
	rep.RevertedCommands = rv.Count()

	// The ledgers are folded here, apart from the sheets they are held
	// against: the world need not fold them too.
	w := projections.NewWorld(projections.WorldOptions{Lookup: s.eventAt, NoLedgers: true})
	chain := chainCheck{c: ChainCheck{OK: true}}
	seed := maphash.MakeSeed()
	env := newEnvelopeCheck(s.store, total, seed)
	// ledgers are the characters' XP ledgers by stream; streamLedgers the
	// same by the envelope check's stream numbers (nil for a stream not a
	// character's), which spares a lookup by name an event.
	ledgers := map[string]*ledgerState{}
	var streamLedgers []*ledgerState
	var first events.Event
	var lastSeq int64
	var lastHash []byte
	n := 0
	// Whether the command of the run of events being read is in effect.
	var runCommand string
	var runSkip bool
	readOK, err := s.scanLog(seed, func(it *scanned) error {
		e := &it.e
		if n == 0 {
			first = *e
		}
		chain.add(e, n, it.hashOK)
		hm.see(e)
		stream, err := env.add(e, n, it.idHash, it.commandHash)
		if err != nil {
			return err
		}
		if n == 0 || e.CommandID != runCommand {
			runCommand, runSkip = e.CommandID, !rv.InEffect(*e)
			if _, seen := firsts[e.CommandID]; named[e.CommandID] && !seen {
				// Copies: the event's strings may share one buffer with
				// its whole row.
				firsts[strings.Clone(e.CommandID)] = &events.Event{Seq: e.Seq, Stream: strings.Clone(e.Stream), Type: strings.Clone(e.Type)}
			}
		}
		w.StepPrepared(*e, &it.pre, runSkip)
		if stream == len(streamLedgers) {
			// A stream seen for the first time.
			var ls *ledgerState
			if strings.HasPrefix(e.Stream, events.CharacterStreamPrefix) {
				ls = &ledgerState{}
				ledgers[strings.Clone(e.Stream)] = ls
			}
			streamLedgers = append(streamLedgers, ls)
		}
		if ls := streamLedgers[stream]; ls != nil {
			ls.add(*e, &rv)
		}
		if see != nil {
			if err := see(*e); err != nil {
				return err
			}
		}
		lastSeq, lastHash = e.Seq, e.Hash
		n++
		if n%progressEvery == 0 {
			s.report("verifying", int64(n), total)
		}
		return nil
	})
	if err != nil || !readOK {
		return VerifyReport{}, false, err
	}
	_, undoProblems, _ := foldUndos(commands, func(id string) (*events.Event, error) { return firsts[id], nil })
	s.report("verifying", int64(n), total)
	w.Finish()
	rep.Events = n
	if n > 0 {
		rep.HeadSeq, rep.HeadHash = lastSeq, hex.EncodeToString(lastHash)
		if first.Seq > 1 {
			// The log starts late: seqs are missing before it.
			chain.c = ChainCheck{}
			chain.gap(0, first.Seq)
		}
	}
	rep.Chain = chain.c
	rep.Edition = w.Campaign.Edition

	rep.Violations = append(rep.Violations, env.out...)
	rep.Violations = append(rep.Violations, undoProblems...)
	if w.Campaign.Version == 0 {
		v := projections.Violation{Problem: "the log has no campaign.created event in effect: the rules cannot re-check anything"}
		if n > 0 {
			v.Seq, v.EventID, v.CommandID, v.Type = first.Seq, first.ID, first.CommandID, first.Type
		}
		rep.Violations = append(rep.Violations, v)
	} else {
		rep.Violations = append(rep.Violations, w.Violations...)
	}
	sort.SliceStable(rep.Violations, func(i, j int) bool { return rep.Violations[i].Seq < rep.Violations[j].Seq })

	for _, m := range w.Roster.Members {
		ls := ledgers[events.CharacterStream(m.ID)]
		if ls == nil {
			ls = &ledgerState{}
		}
		lc := ls.check(m, w)
		rep.Ledgers = append(rep.Ledgers, lc)
	}

	rep.OK = rep.Chain.OK && len(rep.Violations) == 0
	for _, l := range rep.Ledgers {
		rep.OK = rep.OK && l.OK
	}
	return rep, true, nil
}

// eventAt reads back the event at seq.
func (s *Service) eventAt(seq int64) (events.Event, error) {
	evs, err := s.store.Read(events.Query{AfterSeq: seq - 1, UpToSeq: seq})
	if err != nil {
		return events.Event{}, err
	}
	if len(evs) != 1 {
		return events.Event{}, fmt.Errorf("no event at seq %d", seq)
	}
	return evs[0], nil
}

// chainCheck is checkChain one event at a time: it names the first break.
type chainCheck struct {
	c ChainCheck
	// prevSeq and prevHash are the event before.
	prevSeq  int64
	prevHash []byte
}

// gap records missing seqs.
func (cc *chainCheck) gap(after, next int64) { chainGap(&cc.c, after, next) }

// chainGap records in c that the seqs between after and next are missing.
func chainGap(c *ChainCheck, after, next int64) {
	c.OK, c.Seq = false, after+1
	c.Kind = ChainGap
	missing := fmt.Sprintf("seq %d missing", after+1)
	if next-after > 2 {
		missing = fmt.Sprintf("seqs %d–%d missing", after+1, next-1)
	}
	if after == 0 {
		c.Problem = fmt.Sprintf("%s: the log starts at seq %d", missing, next)
	} else {
		c.Problem = fmt.Sprintf("%s: the log jumps from %d to %d", missing, after, next)
	}
}

// genesis is the hash before seq 1.
var genesis = events.GenesisHash()

// add checks the i-th event (from 0) of the log. hashOK says that the
// event's Hash is the hash of its contents chained after its own
// PrevHash (ComputeHash(e.PrevHash, e)), as the pipeline worked out ahead
// of the fold; add checks that PrevHash is the hash of the event before.
func (cc *chainCheck) add(e *events.Event, i int, hashOK bool) {
	prevSeq, prevHash := cc.prevSeq, cc.prevHash
	cc.prevSeq, cc.prevHash = e.Seq, e.Hash
	if !cc.c.OK {
		return
	}
	if i == 0 {
		prevSeq, prevHash = 0, genesis
		if e.Seq > 1 {
			return // the late start is named once the log is read
		}
	}
	if hashOK && e.Seq >= 1 && e.Seq == prevSeq+1 && bytes.Equal(e.PrevHash, prevHash) && (e.Seq != 1 || bytes.Equal(prevHash, genesis)) {
		return // events.Link would find nothing: the event continues the chain
	}
	reason := events.Link(prevSeq, prevHash, *e)
	if reason == "" {
		return
	}
	c := &cc.c
	c.OK, c.Seq, c.Detail = false, e.Seq, reason
	switch {
	case e.Seq < 1:
		c.Kind, c.Problem = ChainSeq, fmt.Sprintf("seq %d is not a log position: seqs start at 1", e.Seq)
	case i > 0 && e.Seq != prevSeq+1:
		cc.gap(prevSeq, e.Seq)
		c.Detail = ""
	case i == 0 && !bytes.Equal(e.PrevHash, genesis):
		c.Kind, c.Problem = ChainGenesis, fmt.Sprintf("seq %d: prev_hash is not the genesis hash (32 zero bytes): the start of the log was rewritten", e.Seq)
	case i > 0 && !bytes.Equal(e.PrevHash, prevHash):
		c.Kind, c.Problem = ChainPrevHash, fmt.Sprintf("seq %d: prev_hash is not the hash of seq %d: seq %d was changed and rehashed, or seq %d's prev_hash was edited", e.Seq, prevSeq, prevSeq, e.Seq)
	default:
		c.Kind, c.Problem = ChainHash, fmt.Sprintf("seq %d: hash mismatch: the event was changed after it was written", e.Seq)
	}
}

// envelopeCheck is checkEnvelopes one event at a time. What it must
// remember of every event — its ID, and whether its command was seen
// before — it keeps in Bloom filters, and asks the store to confirm a
// match: a few bits an event instead of the IDs themselves.
type envelopeCheck struct {
	store events.Store
	// streams numbers the streams seen; versions holds each one's
	// highest version so far.
	streams  map[string]int
	versions []int64
	ids      *bloom
	commands *bloom
	// maxID and maxCommand are the greatest event and command IDs so
	// far: an ID above them is new, whatever the filters say (ULIDs
	// grow with time, so in a log written by ltscamp nearly every one
	// is).
	maxID, maxCommand string
	// dupIDs are the IDs found twice, with the seq last seen.
	dupIDs map[string]int64
	// prevCommand is the command of the event before.
	prevCommand string
	// cmdFirst is the first event of the command of the run being read.
	cmdFirst events.Event
	out      []projections.Violation
}

// newEnvelopeCheck returns a check for a log of about expected events,
// whose filters hash with seed.
func newEnvelopeCheck(store events.Store, expected int64, seed maphash.Seed) *envelopeCheck {
	return &envelopeCheck{store: store, streams: map[string]int{}, ids: newBloom(expected, seed), commands: newBloom(expected, seed), dupIDs: map[string]int64{}}
}

func (ec *envelopeCheck) bad(e *events.Event, format string, a ...any) {
	ec.out = append(ec.out, projections.Violation{Seq: e.Seq, EventID: e.ID, CommandID: e.CommandID, Type: e.Type, Problem: fmt.Sprintf(format, a...)})
}

// add checks the i-th event (from 0) of the log. idHash and
// commandHash are the hashes of its ID and its command's ID, as the
// filters take them (bloom.hash). It returns the event's stream number:
// the streams are numbered from 0 as they first come.
func (ec *envelopeCheck) add(e *events.Event, i int, idHash, commandHash uint64) (stream int, err error) {
	prevCommand := ec.prevCommand
	ec.prevCommand = e.CommandID
	si, ok := ec.streams[e.Stream]
	if !ok {
		// A copy: the event's strings may share one buffer with its
		// whole row.
		si = len(ec.versions)
		ec.streams[strings.Clone(e.Stream)] = si
		ec.versions = append(ec.versions, 0)
	}
	stream = si
	version := &ec.versions[si]
	if want := *version + 1; e.StreamVersion != want {
		if e.StreamVersion > want {
			ec.bad(e, "stream %s jumps from version %d to %d (an event of the stream is missing)", e.Stream, want-1, e.StreamVersion)
		} else {
			ec.bad(e, "stream %s version %d comes after version %d", e.Stream, e.StreamVersion, want-1)
		}
	}
	*version = max(*version, e.StreamVersion)

	newest := i == 0 || e.ID > ec.maxID
	if newest {
		ec.maxID = e.ID
	}
	if ec.ids.addHas(idHash) && !newest {
		seq, dup := ec.dupIDs[e.ID]
		if !dup {
			// The store finds the earliest row with the ID (by its
			// index, or a scan in seq order where the index is gone).
			other, err := ec.store.EventByID(e.ID)
			if err == nil && other.Seq < e.Seq {
				seq, dup = other.Seq, true
			}
		}
		if dup {
			ec.bad(e, "event ID %s is also the ID of seq %d", e.ID, seq)
			ec.dupIDs[strings.Clone(e.ID)] = e.Seq
		}
	}

	if i == 0 || prevCommand != e.CommandID {
		// A new run of events: a command seen before resumes.
		ec.cmdFirst = *e
		newest := i == 0 || e.CommandID > ec.maxCommand
		if newest {
			ec.maxCommand = e.CommandID
		}
		if ec.commands.addHas(commandHash) && !newest {
			evs, err := ec.store.Read(events.Query{CommandIDs: []string{e.CommandID}, UpToSeq: e.Seq - 1, Limit: 1})
			if err != nil {
				return stream, err
			}
			if len(evs) == 1 {
				ec.cmdFirst = evs[0]
				ec.bad(e, "command %s resumes after other commands: its events must be consecutive (it began at seq %d)", e.CommandID, evs[0].Seq)
			}
		}
		return stream, nil
	}
	f := &ec.cmdFirst
	switch {
	case e.Actor != f.Actor || !e.RecordedAt.Equal(f.RecordedAt):
		ec.bad(e, "recorded by %s at %s, but its command began at seq %d by %s at %s", e.Actor, events.FormatTime(e.RecordedAt), f.Seq, f.Actor, events.FormatTime(f.RecordedAt))
	case e.Stream == events.CommandsStream || f.Stream == events.CommandsStream:
		ec.bad(e, "an undo or a redo is a command of one event, alone (command %s began at seq %d)", e.CommandID, f.Seq)
	}
	return stream, nil
}

// namedCommands returns the commands the undos and redos of stream name.
func namedCommands(stream []events.Event) map[string]bool {
	named := map[string]bool{}
	for _, e := range stream {
		p, err := events.Decode(e)
		if err != nil {
			continue
		}
		switch p := p.(type) {
		case *events.CommandReverted:
			for _, id := range p.Commands() {
				named[id] = true
			}
		case *events.CommandRestored:
			for _, id := range p.CommandIDs {
				named[id] = true
			}
		}
	}
	return named
}

// foldUndos folds the commands stream into the commands out of effect,
// checking each undo and redo as it comes: it names commands that exist
// earlier in the log (first returns a command's first event, nil for none),
// that are not themselves undos or redos, and that are in effect (undo) or
// out of effect (redo) at that point. A problem event is reported and, when
// it is not an undo or a redo at all, left out of the fold.
func foldUndos(stream []events.Event, first func(id string) (*events.Event, error)) (projections.Reverts, []projections.Violation, error) {
	var rv projections.Reverts
	var out []projections.Violation
	for _, e := range stream {
		bad := func(format string, a ...any) {
			out = append(out, projections.Violation{Seq: e.Seq, EventID: e.ID, CommandID: e.CommandID, Type: e.Type, Problem: fmt.Sprintf(format, a...)})
		}
		p, err := events.Decode(e)
		if err != nil {
			bad("%v", err)
			continue
		}
		var ids []string
		undo := false
		switch p := p.(type) {
		case *events.CommandReverted:
			ids, undo = p.Commands(), true
		case *events.CommandRestored:
			ids = p.CommandIDs
			if len(ids) == 0 {
				bad("a redo that restores no command")
			}
		default:
			bad("%s does not belong on the commands stream", e.Type)
			continue
		}
		named := map[string]bool{}
		for _, id := range ids {
			f, err := first(id)
			if err != nil {
				return rv, nil, err
			}
			prior, reverted := rv.Reverted(id)
			switch {
			case named[id]:
				bad("names command %q twice", id)
			case f == nil || f.Seq >= e.Seq:
				bad("names command %q, which is not earlier in the log", id)
			case f.Stream == events.CommandsStream:
				bad("names command %s (seq %d), itself an undo or a redo", id, f.Seq)
			case undo && f.Type == events.TypeCampaignCreated:
				bad("undoes the campaign's creation (seq %d), which cannot be undone", f.Seq)
			case undo && reverted:
				bad("undoes command %s (seq %d), already undone at seq %d", id, f.Seq, prior.Seq)
			case !undo && !reverted:
				bad("redoes command %s (seq %d), which was in effect", id, f.Seq)
			}
			named[id] = true
		}
		if err := rv.Apply(e); err != nil {
			bad("%v", err)
		}
	}
	return rv, out, nil
}

// ledgerState is one character's XP ledger folded as its events come, for
// checkLedgers' assertions: totals only, and the first failure.
type ledgerState struct {
	l       projections.Ledger
	failed  bool
	seq     int64
	problem string
}

func (ls *ledgerState) fail(seq int64, format string, a ...any) {
	if !ls.failed {
		ls.failed, ls.seq, ls.problem = true, seq, fmt.Sprintf(format, a...)
	}
}

// add folds one event of the character's stream.
func (ls *ledgerState) add(e events.Event, rv *projections.Reverts) {
	l := &ls.l
	if err := l.Apply(e, rv); err != nil {
		ls.fail(e.Seq, "seq %d: %v", e.Seq, err)
		return
	}
	if len(l.Entries) == 0 {
		return
	}
	// 2021 "Experience Points": XP are spent from the unspent total,
	// which can never go below zero.
	if en := l.Entries[0]; en.Reverted == nil && en.Balance < 0 {
		ls.fail(e.Seq, "the balance goes to %d XP at seq %d (%s %s, %+d XP)", en.Balance, e.Seq, en.Kind, en.What, en.Amount)
	}
	l.Entries = l.Entries[:0]
}

// check is the ledger's LedgerCheck against the replayed sheet.
func (ls *ledgerState) check(m projections.Member, w *projections.World) LedgerCheck {
	l := &ls.l
	lc := LedgerCheck{Character: m.Name, CharacterID: m.ID, OK: !ls.failed, Seq: ls.seq, Problem: ls.problem}
	fail := func(seq int64, format string, a ...any) {
		if lc.OK {
			lc.OK, lc.Seq, lc.Problem = false, seq, fmt.Sprintf(format, a...)
		}
	}
	lc.Earned, lc.Spent, lc.Unspent = l.Earned, l.Spent, l.Balance()
	if sh, ok := w.Sheets[m.ID]; !ok {
		fail(m.Seq, "no replayed sheet for %s", m.Name)
	} else if sh.XP.Earned != l.Earned || sh.XP.Spent != l.Spent || sh.XP.Unspent != l.Balance() {
		fail(sh.Seq, "earned %d − spent %d = %d XP, but the replayed sheet has earned %d, spent %d, %d unspent", l.Earned, l.Spent, l.Balance(), sh.XP.Earned, sh.XP.Spent, sh.XP.Unspent)
	}
	return lc
}

// bloom is a Bloom filter of strings, by their hashes (bloom.hash): addHas
// may say a string was added when it was not (about 1 in 300 at 16 bits
// a string), never that it was not when it was. A string's 4 bits lie in
// one 512-bit block, a cache line, and blocks are found by mask rather
// than division: a long log's verify adds a million IDs.
type bloom struct {
	blocks [][8]uint64
	mask   uint64
	seed   maphash.Seed
}

// newBloom sizes a filter for n strings, hashed with seed.
func newBloom(n int64, seed maphash.Seed) *bloom {
	blocks := uint64(1)
	for blocks*512 < uint64(max(n, 1))*16 {
		blocks *= 2
	}
	return &bloom{blocks: make([][8]uint64, blocks), mask: blocks - 1, seed: seed}
}

// hash is the hash of s that addHas takes.
func (b *bloom) hash(s string) uint64 { return maphash.String(b.seed, s) }

// addHas adds the string whose hash is h and reports whether the filter
// had it (or seemed to) before. The block is chosen by h's top bits, the
// 4 bits in it by 9-bit slices of its bottom ones.
func (b *bloom) addHas(h uint64) bool {
	blk := &b.blocks[(h>>36)&b.mask]
	had := true
	for i := range 4 {
		pos := (h >> (9 * i)) & 511
		w, bit := &blk[pos>>6], uint64(1)<<(pos&63)
		had = had && *w&bit != 0
		*w |= bit
	}
	return had
}

// has reports whether the filter has (or seems to have) the string whose
// hash is h.
func (b *bloom) has(h uint64) bool {
	blk := &b.blocks[(h>>36)&b.mask]
	for i := range 4 {
		if pos := (h >> (9 * i)) & 511; blk[pos>>6]&(1<<(pos&63)) == 0 {
			return false
		}
	}
	return true
}
