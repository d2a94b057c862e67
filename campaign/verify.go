package campaign

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/sqlitestore"
	"github.com/ltscamp/ltscamp/projections"
	"github.com/ltscamp/ltscamp/rules"
)

// Chain break kinds, as ChainCheck.Kind reports them.
const (
	// ChainGap: one or more seqs are missing (rows deleted).
	ChainGap = "gap"
	// ChainHash: an event's hash does not match its contents (the event was
	// changed after it was written).
	ChainHash = "hash"
	// ChainPrevHash: an event's prev_hash is not the hash of the event
	// before it (an earlier event was changed and rehashed on its own).
	ChainPrevHash = "prev_hash"
	// ChainGenesis: seq 1's prev_hash is not the genesis hash.
	ChainGenesis = "genesis"
	// ChainSeq: a seq below 1.
	ChainSeq = "seq"
	// ChainUnreadable: a row the store cannot read (a hash that is not hex,
	// a time that does not parse).
	ChainUnreadable = "unreadable"
)

// VerifyReport is what Verify found. Its JSON form is the output of
// `ltscamp verify --json`, and is stable.
type VerifyReport struct {
	// OK is true when the chain is intact, no event breaks the rules and
	// every XP ledger balances.
	OK bool `json:"ok"`
	// Events is the number of events read from the log.
	Events int `json:"events"`
	// HeadSeq and HeadHash (lowercase hex) are the last event read, as
	// stored: record them to notice later that the log was cut short.
	HeadSeq  int64  `json:"head_seq"`
	HeadHash string `json:"head_hash"`
	// Edition is the edition whose rules re-checked the events ("" when
	// the log has no campaign.created).
	Edition rules.Edition `json:"edition"`
	// RevertedCommands is how many commands are out of effect (undone);
	// their events are left out of the rules replay and the ledgers.
	RevertedCommands int `json:"reverted_commands"`
	// Chain is the hash chain check.
	Chain ChainCheck `json:"chain"`
	// Violations lists, in seq order, every event the rules would not have
	// produced at its place in the log, every malformed envelope (a stream
	// version out of order, a split command) and every undo or redo that
	// names commands it cannot.
	Violations []projections.Violation `json:"violations"`
	// Ledgers is the XP ledger check of every character in effect, in
	// creation order.
	Ledgers []LedgerCheck `json:"ledgers"`
	// Schema is the check that the events table is still append-only.
	Schema SchemaCheck `json:"schema"`
	// Damage is SQLite's own integrity check of the file.
	Damage DamageCheck `json:"damage"`
	// KeptHead is the check of the head hash the caller kept (verify
	// --head), nil when none was given.
	KeptHead *HeadCheck `json:"kept_head,omitempty"`
}

// SchemaCheck is the check that the triggers that make the events table
// append-only are in the file, as ltscamp created them.
type SchemaCheck struct {
	OK bool `json:"ok"`
	// Problems says, a sentence each, which trigger is missing, changed or
	// foreign.
	Problems []string `json:"problems"`
}

// DamageCheck is SQLite's own integrity check of the campaign file
// (PRAGMA integrity_check): damage to the file, such as pages overwritten
// or an index that no longer matches its table, as opposed to an edit of
// the log, which the chain and the rules find.
type DamageCheck struct {
	OK bool `json:"ok"`
	// Objects names the tables and indexes the damage is in ("index
	// sqlite_autoindex_events_1 (events: id)"), as far as SQLite's words
	// name them.
	Objects []string `json:"objects"`
	// Problems are SQLite's own lines (the first 50).
	Problems []string `json:"problems"`
	// Stopped, when set, says why the other checks could not read the log
	// past the damage: their results are then empty.
	Stopped string `json:"stopped,omitempty"`
}

// Where says what is damaged, in words.
func (d DamageCheck) Where() string {
	if len(d.Objects) == 0 {
		return "pages SQLite cannot read"
	}
	return strings.Join(d.Objects, ", ")
}

// HeadCheck is the check of a head hash kept from earlier (verify --head):
// the log must hold an event with that hash, in place, with the chain
// intact up to it. A log cut short after it, or rewritten before it and
// rehashed, holds no such event.
type HeadCheck struct {
	// Hash is the hash (or prefix of one) that was given, in lowercase.
	Hash string `json:"hash"`
	// OK is true when the log holds the event, with the chain intact up
	// to it.
	OK bool `json:"ok"`
	// Seq and FullHash name the event found (0 and "" when none was).
	Seq      int64  `json:"seq"`
	FullHash string `json:"full_hash"`
	// After is how many events the log holds after it.
	After int64 `json:"after"`
	// Problem says, when OK is false, why.
	Problem string `json:"problem,omitempty"`
}

// MinHeadPrefix is the fewest hex digits of a head hash verify --head
// takes: 48 bits, which no log will match by chance.
const MinHeadPrefix = 12

// VerifyOptions are the options of a verification.
type VerifyOptions struct {
	// Head, when set, is a head hash kept from earlier, in full or a
	// prefix of MinHeadPrefix hex digits or more (see HeadCheck).
	Head string
}

// headMatcher finds the first event whose hash starts with a prefix.
type headMatcher struct {
	prefix string // lowercase hex
	// whole are the prefix's whole bytes; nibble, when odd, is its last
	// hex digit.
	whole  []byte
	nibble byte
	odd    bool
	// seq and hash are the first event matched (seq 0: none yet).
	seq  int64
	hash []byte
}

// newHeadMatcher parses a head hash or prefix: a usage error unless it is
// MinHeadPrefix to 64 hex digits.
func newHeadMatcher(h string) (*headMatcher, error) {
	h = strings.ToLower(strings.TrimSpace(h))
	if len(h) < MinHeadPrefix || len(h) > 2*events.HashSize {
		return nil, rules.Errorf(rules.CodeInvalid, "--head %q: give the head hash verify printed, in full (64 hex digits) or its first %d digits or more", h, MinHeadPrefix)
	}
	m := &headMatcher{prefix: h, odd: len(h)%2 == 1}
	even := h[:len(h)/2*2]
	var err error
	if m.whole, err = hex.DecodeString(even); err == nil && m.odd {
		var b []byte
		if b, err = hex.DecodeString(h[len(h)-1:] + "0"); err == nil {
			m.nibble = b[0] >> 4
		}
	}
	if err != nil {
		return nil, rules.Errorf(rules.CodeInvalid, "--head %q is not a hash: hex digits (0-9, a-f) only", h)
	}
	return m, nil
}

// see notes e if its hash matches and none did before.
func (m *headMatcher) see(e *events.Event) {
	if m == nil || m.seq != 0 || !bytes.HasPrefix(e.Hash, m.whole) {
		return
	}
	if m.odd && (len(e.Hash) <= len(m.whole) || e.Hash[len(m.whole)]>>4 != m.nibble) {
		return
	}
	m.seq, m.hash = e.Seq, bytes.Clone(e.Hash)
}

// check is the HeadCheck of the finished report rep.
func (m *headMatcher) check(rep *VerifyReport) *HeadCheck {
	c := &HeadCheck{Hash: m.prefix}
	switch {
	case m.seq == 0:
		c.Problem = fmt.Sprintf("no event of the log has the head hash %s you kept: the log was cut short before it, or rewritten (and rehashed) at or before it; it now ends at seq %d with hash %s", m.prefix, rep.HeadSeq, rep.HeadHash)
	case !rep.Chain.OK && rep.Chain.Seq <= m.seq:
		c.Seq, c.FullHash = m.seq, hex.EncodeToString(m.hash)
		c.Problem = fmt.Sprintf("the head hash %s you kept is seq %d's, but the chain breaks at seq %d, before it", m.prefix, m.seq, rep.Chain.Seq)
	default:
		c.OK, c.Seq, c.FullHash, c.After = true, m.seq, hex.EncodeToString(m.hash), rep.HeadSeq-m.seq
	}
	return c
}

// ChainCheck is the result of recomputing the hash chain.
type ChainCheck struct {
	// OK is true when every event's prev_hash and hash hold, seqs run from
	// 1 without a gap and every row can be read.
	OK bool `json:"ok"`
	// Seq is the first seq where the chain breaks: the changed event, or
	// the first missing seq of a gap (0 when OK).
	Seq int64 `json:"seq"`
	// Kind classifies the break: "hash", "prev_hash", "gap", "genesis",
	// "seq" or "unreadable" ("" when OK).
	Kind string `json:"kind"`
	// Problem says what broke, naming the seq, in a sentence.
	Problem string `json:"problem"`
	// Detail gives the hashes involved, when there are any.
	Detail string `json:"detail,omitempty"`
	// Unreadable lists every row the store could not read; the checks ran
	// without them.
	Unreadable []UnreadableRow `json:"unreadable,omitempty"`
}

// UnreadableRow is a row of the log the store could not decode.
type UnreadableRow struct {
	Seq     int64  `json:"seq"`
	Problem string `json:"problem"`
}

// LedgerCheck is the XP ledger assertion for one character: earned − spent
// = unspent, and the balance is never below 0 at a row in effect.
type LedgerCheck struct {
	Character   string `json:"character"`
	CharacterID string `json:"character_id"`
	Earned      int    `json:"earned"`
	Spent       int    `json:"spent"`
	Unspent     int    `json:"unspent"`
	OK          bool   `json:"ok"`
	// Seq is the row where the ledger first fails, when a row does.
	Seq     int64  `json:"seq,omitempty"`
	Problem string `json:"problem,omitempty"`
}

// VerifyFile opens the campaign file at path and verifies it. Unlike Open,
// it accepts a log that lacks its campaign.created event, so that verify
// can report the log as invalid instead of refusing to read it.
func VerifyFile(path string, opts Options, vo VerifyOptions) (VerifyReport, error) {
	if vo.Head != "" {
		// A bad --head is a usage error, found before the file is read.
		if _, err := newHeadMatcher(vo.Head); err != nil {
			return VerifyReport{}, err
		}
	}
	st, err := openStoreReadOnly(path)
	if err != nil {
		return VerifyReport{}, err // coded already
	}
	defer st.Close()
	s, err := New(st, opts)
	if err != nil {
		return VerifyReport{}, err
	}
	rep, err := s.VerifyWith(vo)
	return rep, MediumError(path, err)
}

// ReadHead returns the seq and hash (lowercase hex) of the last event of
// the campaign file at path, reading only that row: what a write prints
// with --print-head, for verify --head later.
func ReadHead(path string, opts Options) (int64, string, error) {
	st, err := openStoreReadOnly(path)
	if err != nil {
		return 0, "", err // coded already
	}
	defer st.Close()
	seq, hash, err := st.Head()
	if err != nil {
		return 0, "", MediumError(path, err)
	}
	return seq, hex.EncodeToString(hash), nil
}

// Verify checks the whole log: it recomputes the hash chain, replays every
// command in effect through the rules of the campaign's edition, checks
// the undo and redo events and the XP ledger of every character. It keeps
// going past the first problem and reports them all (the chain's first
// break only). The error is for a log that cannot be read at all; an
// invalid log is a report with OK false.
func (s *Service) Verify() (VerifyReport, error) { return s.VerifyWith(VerifyOptions{}) }

// VerifyWith is Verify with options: with a kept head hash, the report is
// OK only if the log holds it (see HeadCheck).
func (s *Service) VerifyWith(vo VerifyOptions) (VerifyReport, error) { return s.verifyWith(vo, nil) }

// verifyWith is VerifyWith, handing see every event of the log in seq
// order (see nil: none) as the streaming pass folds it: a restore folds
// its snapshots on the way. When see is not nil, it saw the whole log
// only if the report's Events is how many it was handed.
func (s *Service) verifyWith(vo VerifyOptions, see func(events.Event) error) (VerifyReport, error) {
	var hm *headMatcher
	if vo.Head != "" {
		var err error
		if hm, err = newHeadMatcher(vo.Head); err != nil {
			return VerifyReport{}, err
		}
	}
	// SQLite's integrity check reads the whole file on a connection of
	// its own, alongside the pass below: on two cores the two take about
	// as long as the longer of them, rather than their sum.
	ctx, cancel := context.WithCancel(context.Background())
	damage := s.checkDamage(ctx)
	defer func() {
		cancel()
		damage() // nothing reads the store once Verify returns
	}()

	rep, ok, err := s.verifyStreaming(hm, see)
	if err == nil && !ok {
		// A row could not be read: read around it.
		if hm != nil {
			*hm = headMatcher{prefix: hm.prefix, whole: hm.whole, nibble: hm.nibble, odd: hm.odd}
		}
		rep, err = s.verifyWhole(hm)
	}
	if err != nil && !errors.Is(sqlitestore.Classify(err), events.ErrDamaged) {
		return rep, err // the check is stopped: it cannot change this
	}
	dc, derr := damage()
	if derr != nil {
		return VerifyReport{}, derr
	}
	if err != nil {
		if dc.OK || !errors.Is(sqlitestore.Classify(err), events.ErrDamaged) {
			return rep, err
		}
		// The damage stopped the other checks: the report says so.
		dc.Stopped = fmt.Sprintf("the other checks stopped at the damage: %v", err)
		rep = VerifyReport{Violations: []projections.Violation{}, Ledgers: []LedgerCheck{}, HeadHash: hex.EncodeToString(events.GenesisHash()),
			Chain: ChainCheck{Kind: ChainUnreadable, Problem: "the log cannot be read past the damage"}}
	}
	rep.Damage = dc
	rep.Schema = SchemaCheck{OK: true, Problems: []string{}}
	if st, ok := s.store.(interface{ AppendOnlyProblems() ([]string, error) }); ok {
		problems, err := st.AppendOnlyProblems()
		if err != nil && dc.OK {
			return VerifyReport{}, err
		}
		if len(problems) > 0 {
			rep.Schema = SchemaCheck{Problems: problems}
		}
	}
	if hm != nil {
		rep.KeptHead = hm.check(&rep)
	}
	rep.OK = rep.OK && rep.Schema.OK && rep.Damage.OK && (rep.KeptHead == nil || rep.KeptHead.OK)
	return rep, nil
}

// checkDamage starts SQLite's integrity check of the store's file, when
// the store has one, and returns a function that waits for it and
// returns its result: the DamageCheck, or an error when the check could
// not run (the disk fails, ctx was cancelled).
func (s *Service) checkDamage(ctx context.Context) func() (DamageCheck, error) {
	type result struct {
		dc  DamageCheck
		err error
	}
	ch := make(chan result, 1)
	ic, ok := s.store.(interface{ IntegrityCheck(context.Context) error })
	if !ok {
		ch <- result{dc: DamageCheck{OK: true, Objects: []string{}, Problems: []string{}}}
	} else {
		go func() {
			r := result{dc: DamageCheck{OK: true, Objects: []string{}, Problems: []string{}}}
			var de *sqlitestore.DamageError
			switch err := ic.IntegrityCheck(ctx); {
			case errors.As(err, &de):
				r.dc = DamageCheck{Objects: append([]string{}, de.Objects...), Problems: de.Problems}
			case err != nil:
				r.err = err
			}
			ch <- r
		}()
	}
	var once sync.Once
	var r result
	return func() (DamageCheck, error) {
		once.Do(func() { r = <-ch })
		return r.dc, r.err
	}
}

// verifyWhole is Verify over the whole log read into memory, reading
// around rows the store cannot decode (which the streaming pass cannot
// skip), and naming them. hm, when set, looks for a kept head.
func (s *Service) verifyWhole(hm *headMatcher) (VerifyReport, error) {
	log, unreadable, err := s.readLog()
	if err != nil {
		return VerifyReport{}, err
	}
	for i := range log {
		hm.see(&log[i])
	}
	rep := VerifyReport{Events: len(log), Violations: []projections.Violation{}, Ledgers: []LedgerCheck{}, HeadHash: hex.EncodeToString(events.GenesisHash())}
	if n := len(log); n > 0 {
		rep.HeadSeq, rep.HeadHash = log[n-1].Seq, hex.EncodeToString(log[n-1].Hash)
	}
	rep.Chain = checkChain(log, unreadable)

	rv, undoProblems := foldCommands(log)
	rep.RevertedCommands = rv.Count()
	w := projections.Replay(log, func(e events.Event) bool { return !rv.InEffect(e) })
	rep.Edition = w.Campaign.Edition

	rep.Violations = append(rep.Violations, checkEnvelopes(log)...)
	rep.Violations = append(rep.Violations, undoProblems...)
	if w.Campaign.Version == 0 {
		// Without an edition there are no rules to replay by (Replay
		// names every event as coming before the campaign's creation):
		// say once what is missing.
		v := projections.Violation{Problem: "the log has no campaign.created event in effect: the rules cannot re-check anything"}
		if len(log) > 0 {
			v.Seq, v.EventID, v.CommandID, v.Type = log[0].Seq, log[0].ID, log[0].CommandID, log[0].Type
		}
		rep.Violations = append(rep.Violations, v)
	} else {
		rep.Violations = append(rep.Violations, w.Violations...)
	}
	// Stable: at one seq, envelope problems first, then undo, then rules.
	sort.SliceStable(rep.Violations, func(i, j int) bool { return rep.Violations[i].Seq < rep.Violations[j].Seq })

	rep.Ledgers = checkLedgers(log, w, &rv)

	rep.OK = rep.Chain.OK && len(rep.Violations) == 0
	for _, l := range rep.Ledgers {
		rep.OK = rep.OK && l.OK
	}
	return rep, nil
}

// readLog reads the whole log. When the store cannot decode a row (a hash
// that is not hex, a time that does not parse), it reads around it: the
// unreadable rows are returned by seq with the store's error, and the
// checks run on the rest.
func (s *Service) readLog() ([]events.Event, map[int64]string, error) {
	log, err := s.store.Read(events.Query{})
	if err == nil {
		return log, nil, nil
	}
	firstErr := err
	total, cerr := s.store.Count()
	if cerr != nil {
		return nil, nil, firstErr
	}
	const chunk = 1000
	unreadable := map[int64]string{}
	log = nil
	var after int64 // the last seq read or found unreadable
	for {
		if int64(len(log)+len(unreadable)) > total {
			// More rows than the log holds: the store itself is
			// failing, not a row.
			return nil, nil, firstErr
		}
		evs, err := s.store.Read(events.Query{AfterSeq: after, Limit: chunk})
		if err == nil {
			if len(evs) == 0 {
				return log, unreadable, nil
			}
			log, after = append(log, evs...), evs[len(evs)-1].Seq
			continue
		}
		// An unreadable row within the next chunk: go row by row.
		evs, rowErr := s.store.Read(events.Query{AfterSeq: after, Limit: 1})
		if rowErr == nil {
			if len(evs) == 0 {
				return nil, nil, firstErr
			}
			log, after = append(log, evs[0]), evs[0].Seq
			continue
		}
		// The next row is unreadable. Its seq is the smallest bad such
		// that reading the first row of (after, bad] fails: search for
		// it, one row per probe.
		ok, bad := after, int64(math.MaxInt64)
		for bad-ok > 1 {
			mid := ok + (bad-ok)/2
			if _, err := s.store.Read(events.Query{AfterSeq: after, UpToSeq: mid, Limit: 1}); err != nil {
				bad = mid
			} else {
				ok = mid
			}
		}
		// The store names the row itself ("read events: event 9: hash:
		// ..."); the report names it by seq already.
		msg := strings.TrimPrefix(rowErr.Error(), "read events: ")
		unreadable[bad] = strings.TrimPrefix(msg, fmt.Sprintf("event %d: ", bad))
		after = bad
	}
}

// checkChain recomputes the hash chain from the genesis hash and names the
// first seq where it breaks.
func checkChain(log []events.Event, unreadable map[int64]string) ChainCheck {
	c := ChainCheck{OK: true}
	for _, seq := range sortedKeys(unreadable) {
		c.Unreadable = append(c.Unreadable, UnreadableRow{Seq: seq, Problem: unreadable[seq]})
	}
	gap := func(after, next int64) {
		if msg, ok := unreadable[after+1]; ok {
			c.OK, c.Seq = false, after+1
			c.Kind, c.Problem = ChainUnreadable, fmt.Sprintf("seq %d cannot be read: %s", after+1, msg)
			return
		}
		chainGap(&c, after, next)
	}
	if len(log) == 0 {
		if len(c.Unreadable) > 0 {
			gap(0, c.Unreadable[len(c.Unreadable)-1].Seq+1)
		}
		return c
	}
	if first := log[0].Seq; first > 1 {
		gap(0, first)
		return c
	}
	seq, reason, broken := events.ChainBreak(log, events.GenesisHash())
	if !broken {
		if len(c.Unreadable) > 0 {
			// Unreadable rows after the last readable one.
			last := log[len(log)-1].Seq
			gap(last, c.Unreadable[len(c.Unreadable)-1].Seq+1)
		}
		return c
	}
	i := sort.Search(len(log), func(i int) bool { return log[i].Seq >= seq })
	e := log[i]
	c.OK, c.Seq, c.Detail = false, seq, reason
	switch {
	case e.Seq < 1:
		c.Kind, c.Problem = ChainSeq, fmt.Sprintf("seq %d is not a log position: seqs start at 1", e.Seq)
	case i > 0 && e.Seq != log[i-1].Seq+1:
		gap(log[i-1].Seq, e.Seq)
		c.Detail = ""
	case i == 0 && string(e.PrevHash) != string(events.GenesisHash()):
		c.Kind, c.Problem = ChainGenesis, fmt.Sprintf("seq %d: prev_hash is not the genesis hash (32 zero bytes): the start of the log was rewritten", e.Seq)
	case i > 0 && string(e.PrevHash) != string(log[i-1].Hash):
		c.Kind, c.Problem = ChainPrevHash, fmt.Sprintf("seq %d: prev_hash is not the hash of seq %d: seq %d was changed and rehashed, or seq %d's prev_hash was edited", e.Seq, log[i-1].Seq, log[i-1].Seq, e.Seq)
	default:
		c.Kind, c.Problem = ChainHash, fmt.Sprintf("seq %d: hash mismatch: the event was changed after it was written", e.Seq)
	}
	return c
}

func sortedKeys(m map[int64]string) []int64 {
	keys := make([]int64, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}

// checkEnvelopes checks what the store guarantees of every envelope: each
// stream's versions run 1, 2, 3... in seq order; event IDs are unique; a
// command's events are consecutive and share its actor and time; an undo
// or a redo is a command of its own with one event.
func checkEnvelopes(log []events.Event) []projections.Violation {
	var out []projections.Violation
	bad := func(e events.Event, format string, a ...any) {
		out = append(out, projections.Violation{Seq: e.Seq, EventID: e.ID, CommandID: e.CommandID, Type: e.Type, Problem: fmt.Sprintf(format, a...)})
	}
	versions := map[string]int64{}
	ids := map[string]int64{}
	first := map[string]events.Event{} // each command's first event
	for i, e := range log {
		if want := versions[e.Stream] + 1; e.StreamVersion != want {
			if e.StreamVersion > want {
				bad(e, "stream %s jumps from version %d to %d (an event of the stream is missing)", e.Stream, want-1, e.StreamVersion)
			} else {
				bad(e, "stream %s version %d comes after version %d", e.Stream, e.StreamVersion, want-1)
			}
		}
		versions[e.Stream] = max(versions[e.Stream], e.StreamVersion)
		if seq, dup := ids[e.ID]; dup {
			bad(e, "event ID %s is also the ID of seq %d", e.ID, seq)
		}
		ids[e.ID] = e.Seq
		f, seen := first[e.CommandID]
		switch {
		case !seen:
			first[e.CommandID] = e
		case log[i-1].CommandID != e.CommandID:
			bad(e, "command %s resumes after other commands: its events must be consecutive (it began at seq %d)", e.CommandID, f.Seq)
		case e.Actor != f.Actor || !e.RecordedAt.Equal(f.RecordedAt):
			bad(e, "recorded by %s at %s, but its command began at seq %d by %s at %s", e.Actor, events.FormatTime(e.RecordedAt), f.Seq, f.Actor, events.FormatTime(f.RecordedAt))
		case e.Stream == events.CommandsStream || f.Stream == events.CommandsStream:
			bad(e, "an undo or a redo is a command of one event, alone (command %s began at seq %d)", e.CommandID, f.Seq)
		}
	}
	return out
}

// foldCommands folds the commands stream of a whole log into the
// commands out of effect, checking each undo and redo as it comes (see
// foldUndos); the commands they name are found in the log.
func foldCommands(log []events.Event) (projections.Reverts, []projections.Violation) {
	first := map[string]*events.Event{}
	var stream []events.Event
	for i, e := range log {
		if _, ok := first[e.CommandID]; !ok {
			first[e.CommandID] = &log[i]
		}
		if e.Stream == events.CommandsStream {
			stream = append(stream, e)
		}
	}
	rv, out, _ := foldUndos(stream, func(id string) (*events.Event, error) { return first[id], nil })
	return rv, out
}

// checkLedgers folds every character's XP ledger with the commands out of
// effect marked, and checks it against the replayed sheet (see
// ledgerState): the balance is never below 0 at a row in effect, and
// earned − spent = unspent.
func checkLedgers(log []events.Event, w *projections.World, rv *projections.Reverts) []LedgerCheck {
	ledgers := map[string]*ledgerState{}
	for _, m := range w.Roster.Members {
		ledgers[events.CharacterStream(m.ID)] = &ledgerState{}
	}
	for _, e := range log {
		if ls, ok := ledgers[e.Stream]; ok {
			ls.add(e, rv)
		}
	}
	out := []LedgerCheck{}
	for _, m := range w.Roster.Members {
		out = append(out, ledgers[events.CharacterStream(m.ID)].check(m, w))
	}
	return out
}
