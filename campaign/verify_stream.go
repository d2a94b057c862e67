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

// verifyStreaming is Verify in one pass over the log, holding one event
// at a time: its memory grows with the campaign's state (characters,
// streams, rolls), not with the length of the log. It gives the report
// verifyWhole gives. ok is false when a row cannot be read: the caller
// then reads around it with verifyWhole.
func (s *Service) verifyStreaming() (rep VerifyReport, ok bool, err error) {
	rv, undoProblems, err := s.foldCommandsStream()
	if err != nil {
		return VerifyReport{}, false, err
	}
	total, err := s.store.Count()
	if err != nil {
		return VerifyReport{}, false, err
	}
	rep = VerifyReport{Violations: []projections.Violation{}, Ledgers: []LedgerCheck{}, HeadHash: hex.EncodeToString(events.GenesisHash())}
	rep.RevertedCommands = rv.Count()

	w := projections.NewWorld(projections.WorldOptions{Lookup: s.eventAt, TrimLedgers: true})
	chain := chainCheck{c: ChainCheck{OK: true}}
	env := newEnvelopeCheck(s.store, total)
	ledgers := map[string]*ledgerState{}
	var first, last events.Event
	n := 0
	for e, err := range s.store.Iter(events.Query{}) {
		if err != nil {
			return VerifyReport{}, false, nil
		}
		if n == 0 {
			first = e
		}
		chain.add(e, n)
		if err := env.add(e, n); err != nil {
			return VerifyReport{}, false, err
		}
		w.Step(e, !rv.InEffect(e))
		if strings.HasPrefix(e.Stream, events.CharacterStreamPrefix) {
			ls, ok := ledgers[e.Stream]
			if !ok {
				ls = &ledgerState{}
				ledgers[e.Stream] = ls
			}
			ls.add(e, &rv)
		}
		last = e
		n++
		if n%progressEvery == 0 {
			s.report("verifying", int64(n), total)
		}
	}
	s.report("verifying", int64(n), total)
	w.Finish()
	rep.Events = n
	if n > 0 {
		rep.HeadSeq, rep.HeadHash = last.Seq, hex.EncodeToString(last.Hash)
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
	c    ChainCheck
	prev events.Event
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

// add checks the i-th event (from 0) of the log.
func (cc *chainCheck) add(e events.Event, i int) {
	defer func() { cc.prev = e }()
	if !cc.c.OK {
		return
	}
	prevSeq, prevHash := int64(0), events.GenesisHash()
	if i > 0 {
		prevSeq, prevHash = cc.prev.Seq, cc.prev.Hash
	}
	if i == 0 && e.Seq > 1 {
		return // the late start is named once the log is read
	}
	reason := events.Link(prevSeq, prevHash, e)
	if reason == "" {
		return
	}
	c := &cc.c
	c.OK, c.Seq, c.Detail = false, e.Seq, reason
	switch {
	case e.Seq < 1:
		c.Kind, c.Problem = ChainSeq, fmt.Sprintf("seq %d is not a log position: seqs start at 1", e.Seq)
	case i > 0 && e.Seq != cc.prev.Seq+1:
		cc.gap(cc.prev.Seq, e.Seq)
		c.Detail = ""
	case i == 0 && !bytes.Equal(e.PrevHash, events.GenesisHash()):
		c.Kind, c.Problem = ChainGenesis, fmt.Sprintf("seq %d: prev_hash is not the genesis hash (32 zero bytes): the start of the log was rewritten", e.Seq)
	case i > 0 && !bytes.Equal(e.PrevHash, cc.prev.Hash):
		c.Kind, c.Problem = ChainPrevHash, fmt.Sprintf("seq %d: prev_hash is not the hash of seq %d: seq %d was changed and rehashed, or seq %d's prev_hash was edited", e.Seq, cc.prev.Seq, cc.prev.Seq, e.Seq)
	default:
		c.Kind, c.Problem = ChainHash, fmt.Sprintf("seq %d: hash mismatch: the event was changed after it was written", e.Seq)
	}
}

// envelopeCheck is checkEnvelopes one event at a time. What it must
// remember of every event — its ID, and whether its command was seen
// before — it keeps in Bloom filters, and asks the store to confirm a
// match: a few bits an event instead of the IDs themselves.
type envelopeCheck struct {
	store    events.Store
	versions map[string]int64
	ids      *bloom
	commands *bloom
	// dupIDs are the IDs found twice, with the seq last seen.
	dupIDs map[string]int64
	prev   events.Event
	// cmdFirst is the first event of the command of the run being read.
	cmdFirst events.Event
	out      []projections.Violation
}

func newEnvelopeCheck(store events.Store, expected int64) *envelopeCheck {
	return &envelopeCheck{store: store, versions: map[string]int64{}, ids: newBloom(expected), commands: newBloom(expected), dupIDs: map[string]int64{}}
}

func (ec *envelopeCheck) bad(e events.Event, format string, a ...any) {
	ec.out = append(ec.out, projections.Violation{Seq: e.Seq, EventID: e.ID, CommandID: e.CommandID, Type: e.Type, Problem: fmt.Sprintf(format, a...)})
}

// add checks the i-th event (from 0) of the log.
func (ec *envelopeCheck) add(e events.Event, i int) error {
	defer func() { ec.prev = e }()
	if want := ec.versions[e.Stream] + 1; e.StreamVersion != want {
		if e.StreamVersion > want {
			ec.bad(e, "stream %s jumps from version %d to %d (an event of the stream is missing)", e.Stream, want-1, e.StreamVersion)
		} else {
			ec.bad(e, "stream %s version %d comes after version %d", e.Stream, e.StreamVersion, want-1)
		}
	}
	ec.versions[e.Stream] = max(ec.versions[e.Stream], e.StreamVersion)

	if ec.ids.has(e.ID) {
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
			ec.dupIDs[e.ID] = e.Seq
		}
	}
	ec.ids.add(e.ID)

	if i == 0 || ec.prev.CommandID != e.CommandID {
		// A new run of events: a command seen before resumes.
		ec.cmdFirst = e
		if ec.commands.has(e.CommandID) {
			evs, err := ec.store.Read(events.Query{CommandIDs: []string{e.CommandID}, UpToSeq: e.Seq - 1, Limit: 1})
			if err != nil {
				return err
			}
			if len(evs) == 1 {
				ec.cmdFirst = evs[0]
				ec.bad(e, "command %s resumes after other commands: its events must be consecutive (it began at seq %d)", e.CommandID, evs[0].Seq)
				return nil
			}
		}
		ec.commands.add(e.CommandID)
		return nil
	}
	f := ec.cmdFirst
	switch {
	case e.Actor != f.Actor || !e.RecordedAt.Equal(f.RecordedAt):
		ec.bad(e, "recorded by %s at %s, but its command began at seq %d by %s at %s", e.Actor, events.FormatTime(e.RecordedAt), f.Seq, f.Actor, events.FormatTime(f.RecordedAt))
	case e.Stream == events.CommandsStream || f.Stream == events.CommandsStream:
		ec.bad(e, "an undo or a redo is a command of one event, alone (command %s began at seq %d)", e.CommandID, f.Seq)
	}
	return nil
}

// foldCommandsStream is foldCommands reading the commands stream only: a
// command an undo or a redo names is looked up by its ID.
func (s *Service) foldCommandsStream() (projections.Reverts, []projections.Violation, error) {
	stream, err := s.store.ReadStream(events.CommandsStream, 0)
	if err != nil {
		return projections.Reverts{}, nil, err
	}
	firsts := map[string]*events.Event{}
	return foldUndos(stream, func(id string) (*events.Event, error) {
		if f, ok := firsts[id]; ok {
			return f, nil
		}
		evs, err := s.store.Read(events.Query{CommandIDs: []string{id}, Limit: 1})
		if err != nil {
			return nil, err
		}
		var f *events.Event
		if len(evs) == 1 {
			f = &evs[0]
		}
		firsts[id] = f
		return f, nil
	})
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

// bloom is a Bloom filter of strings: has may say yes for a string never
// added (about 1 in 400 at 16 bits a string), never no for one added.
type bloom struct {
	bits []uint64
	seed maphash.Seed
}

// newBloom sizes a filter for n strings.
func newBloom(n int64) *bloom {
	words := max(n*16/64, 64)
	return &bloom{bits: make([]uint64, words), seed: maphash.MakeSeed()}
}

// positions returns the filter's 4 bits for s, from one 64-bit hash
// (double hashing).
func (b *bloom) positions(s string) [4]uint64 {
	h := maphash.String(b.seed, s)
	h1, h2 := h, h>>32|h<<32
	m := uint64(len(b.bits)) * 64
	var out [4]uint64
	for i := range out {
		out[i] = (h1 + uint64(i)*h2) % m
	}
	return out
}

func (b *bloom) add(s string) {
	for _, p := range b.positions(s) {
		b.bits[p/64] |= 1 << (p % 64)
	}
}

func (b *bloom) has(s string) bool {
	for _, p := range b.positions(s) {
		if b.bits[p/64]&(1<<(p%64)) == 0 {
			return false
		}
	}
	return true
}
