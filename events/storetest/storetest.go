// Package storetest is the conformance suite that every events.Store must
// pass. Each store package runs it from its own tests:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) events.Store { return memstore.New() })
//	}
package storetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
)

// Run runs the conformance suite. newStore must return a new, empty store
// for each subtest; Run closes it when the subtest ends.
func Run(t *testing.T, newStore func(t *testing.T) events.Store) {
	open := func(t *testing.T) events.Store {
		t.Helper()
		s := newStore(t)
		t.Cleanup(func() {
			if err := s.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
		return s
	}
	for _, tc := range []struct {
		name string
		test func(*testing.T, events.Store)
	}{
		{"EmptyLog", testEmptyLog},
		{"AppendAndReadBack", testAppendAndReadBack},
		{"PayloadBytesKept", testPayloadBytesKept},
		{"StreamVersions", testStreamVersions},
		{"ReadStream", testReadStream},
		{"MultiStreamAtomicity", testMultiStreamAtomicity},
		{"ExpectedZeroForNewStream", testExpectedZero},
		{"AnyVersion", testAnyVersion},
		{"PreconditionOnlyStream", testPreconditionOnly},
		{"ConcurrencyError", testConcurrencyError},
		{"ExpectedHead", testExpectedHead},
		{"DuplicateCommand", testDuplicateCommand},
		{"InvalidCommands", testInvalidCommands},
		{"EventIDAlreadyInLog", testEventIDTaken},
		{"Query", testQuery},
		{"QueryActorsAndTime", testQueryActorsAndTime},
		{"QueryPrefixesAreBytewise", testQueryPrefixes},
		{"EventByID", testEventByID},
		{"Count", testCount},
		{"ReturnedEventsAreCopies", testCopies},
		{"ConcurrentAppends", testConcurrentAppends},
		{"IterStopsEarly", testIterStopsEarly},
		{"LoadSealedEvents", testLoad},
		{"LoadRefusesWhatDoesNotContinueTheLog", testLoadRefused},
		{"SnapshotsSavedWithTheirCommand", testSnapshotsWithCommand},
		{"SnapshotsSelectedByCodeAndSeq", testSnapshotsSelected},
		{"SnapshotsRefused", testSnapshotsRefused},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.test(t, open(t)) })
	}
}

// clock is the fixed time of the suite's commands, deliberately not in
// UTC and with nanoseconds.
var clock = time.Date(2024, 3, 1, 19, 30, 0, 123456789, time.FixedZone("CET", 60*60))

// ev returns a pending event with a small JSON payload.
func ev(id, stream, typ string) events.Pending {
	return events.Pending{ID: id, Stream: stream, Type: typ, PayloadVersion: 1, Payload: json.RawMessage(fmt.Sprintf(`{"n":%q}`, id))}
}

// command returns a command whose Expected gives AnyVersion to every
// stream its events touch, plus the entries of expected.
func command(id string, expected map[string]int64, pending ...events.Pending) events.Command {
	exp := map[string]int64{}
	for _, p := range pending {
		exp[p.Stream] = events.AnyVersion
	}
	for s, v := range expected {
		exp[s] = v
	}
	return events.Command{ID: id, Actor: "gm", RecordedAt: clock, Expected: exp, Events: pending}
}

func mustAppend(t *testing.T, s events.Store, cmd events.Command) []events.Event {
	t.Helper()
	res, err := s.Append(cmd)
	if err != nil {
		t.Fatalf("Append %s: %v", cmd.ID, err)
	}
	if res.Duplicate {
		t.Fatalf("Append %s: unexpectedly a duplicate", cmd.ID)
	}
	if len(res.Events) != len(cmd.Events) {
		t.Fatalf("Append %s: %d events committed, want %d", cmd.ID, len(res.Events), len(cmd.Events))
	}
	return res.Events
}

func mustRead(t *testing.T, s events.Store, q events.Query) []events.Event {
	t.Helper()
	es, err := s.Read(q)
	if err != nil {
		t.Fatalf("Read(%+v): %v", q, err)
	}
	return es
}

// snapshot is the whole observable log, to show that a rejected command
// appended nothing.
type snapshot struct {
	count int64
	seq   int64
	hash  []byte
	all   []events.Event
}

func take(t *testing.T, s events.Store) snapshot {
	t.Helper()
	n, err := s.Count()
	if err != nil {
		t.Fatalf("Count: %v", err)
	}
	seq, hash, err := s.Head()
	if err != nil {
		t.Fatalf("Head: %v", err)
	}
	return snapshot{count: n, seq: seq, hash: hash, all: mustRead(t, s, events.Query{})}
}

func assertUnchanged(t *testing.T, s events.Store, before snapshot) {
	t.Helper()
	after := take(t, s)
	if after.count != before.count || after.seq != before.seq || !bytes.Equal(after.hash, before.hash) {
		t.Fatalf("log changed: count %d→%d, head %d→%d", before.count, after.count, before.seq, after.seq)
	}
	assertEvents(t, after.all, before.all)
}

// assertEvents compares events field by field.
func assertEvents(t *testing.T, got, want []events.Event) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d events %v, want %d %v", len(got), seqs(got), len(want), seqs(want))
	}
	for i := range got {
		if d := diff(got[i], want[i]); d != "" {
			t.Fatalf("event %d differs: %s", i, d)
		}
	}
}

func diff(g, w events.Event) string {
	var d []string
	add := func(field string, gv, wv any) { d = append(d, fmt.Sprintf("%s: got %v, want %v", field, gv, wv)) }
	if g.Seq != w.Seq {
		add("Seq", g.Seq, w.Seq)
	}
	if g.ID != w.ID {
		add("ID", g.ID, w.ID)
	}
	if g.CommandID != w.CommandID {
		add("CommandID", g.CommandID, w.CommandID)
	}
	if g.Stream != w.Stream {
		add("Stream", g.Stream, w.Stream)
	}
	if g.StreamVersion != w.StreamVersion {
		add("StreamVersion", g.StreamVersion, w.StreamVersion)
	}
	if g.Type != w.Type {
		add("Type", g.Type, w.Type)
	}
	if g.PayloadVersion != w.PayloadVersion {
		add("PayloadVersion", g.PayloadVersion, w.PayloadVersion)
	}
	if !bytes.Equal(g.Payload, w.Payload) {
		add("Payload", string(g.Payload), string(w.Payload))
	}
	if g.Actor != w.Actor {
		add("Actor", g.Actor, w.Actor)
	}
	if !g.RecordedAt.Equal(w.RecordedAt) || g.RecordedAt.Location() != w.RecordedAt.Location() {
		add("RecordedAt", g.RecordedAt, w.RecordedAt)
	}
	if !bytes.Equal(g.PrevHash, w.PrevHash) {
		add("PrevHash", fmt.Sprintf("%x", g.PrevHash), fmt.Sprintf("%x", w.PrevHash))
	}
	if !bytes.Equal(g.Hash, w.Hash) {
		add("Hash", fmt.Sprintf("%x", g.Hash), fmt.Sprintf("%x", w.Hash))
	}
	return strings.Join(d, "; ")
}

func seqs(es []events.Event) []int64 {
	out := make([]int64, len(es))
	for i, e := range es {
		out[i] = e.Seq
	}
	return out
}

func assertConcurrency(t *testing.T, err error, stream string, expected, actual int64) {
	t.Helper()
	if !errors.Is(err, events.ErrConcurrency) {
		t.Fatalf("err = %v, want ErrConcurrency", err)
	}
	var ce *events.ConcurrencyError
	if !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a *ConcurrencyError", err)
	}
	if ce.Stream != stream || ce.Expected != expected || ce.Actual != actual {
		t.Fatalf("ConcurrencyError = %+v, want stream %q expected %d actual %d", *ce, stream, expected, actual)
	}
}

func testEmptyLog(t *testing.T, s events.Store) {
	seq, hash, err := s.Head()
	if err != nil || seq != 0 || !bytes.Equal(hash, events.GenesisHash()) {
		t.Fatalf("Head = %d, %x, %v; want 0, genesis, nil", seq, hash, err)
	}
	if n, err := s.Count(); err != nil || n != 0 {
		t.Fatalf("Count = %d, %v; want 0", n, err)
	}
	if es := mustRead(t, s, events.Query{}); len(es) != 0 {
		t.Fatalf("Read = %v, want nothing", seqs(es))
	}
	if es, err := s.ReadStream("campaign", 0); err != nil || len(es) != 0 {
		t.Fatalf("ReadStream = %v, %v; want nothing", seqs(es), err)
	}
	if v, err := s.StreamVersion("campaign"); err != nil || v != 0 {
		t.Fatalf("StreamVersion = %d, %v; want 0", v, err)
	}
}

func testAppendAndReadBack(t *testing.T, s events.Store) {
	c1 := command("C1", map[string]int64{events.CampaignStream: 0},
		events.Pending{ID: "E1", Stream: events.CampaignStream, Type: events.TypeCampaignCreated, PayloadVersion: 1, Payload: json.RawMessage(`{"name":"Hoth","edition":"2021"}`)})
	c2 := command("C2", map[string]int64{"character/A": 0},
		events.Pending{ID: "E2", Stream: "character/A", Type: events.TypeCharacterCreated, PayloadVersion: 1, Payload: json.RawMessage(`{"name":"Ajax"}`)},
		events.Pending{ID: "E3", Stream: "character/A", Type: events.TypeXPAwarded, PayloadVersion: 2, Payload: json.RawMessage(`{"amount":5}`)})
	c3 := command("C3", map[string]int64{"character/A": 2, events.CampaignStream: 1},
		events.Pending{ID: "E4", Stream: events.CampaignStream, Type: events.TypePlotwordAcquired, PayloadVersion: 1, Payload: json.RawMessage(`{"word":"Ember"}`)},
		events.Pending{ID: "E5", Stream: "character/A", Type: events.TypeXPAwarded, PayloadVersion: 1, Payload: json.RawMessage(`{"amount":3}`)})
	c3.Actor = "Ümit"
	c3.RecordedAt = clock.Add(90 * time.Minute)

	var committed []events.Event
	for _, c := range []events.Command{c1, c2, c3} {
		got := mustAppend(t, s, c)
		for i, e := range got {
			p := c.Events[i]
			if e.ID != p.ID || e.CommandID != c.ID || e.Stream != p.Stream || e.Type != p.Type ||
				e.PayloadVersion != p.PayloadVersion || !bytes.Equal(e.Payload, p.Payload) || e.Actor != c.Actor {
				t.Fatalf("command %s event %d: envelope %+v does not match %+v", c.ID, i, e, p)
			}
			if !e.RecordedAt.Equal(c.RecordedAt) || e.RecordedAt.Location() != time.UTC {
				t.Fatalf("RecordedAt = %v (%v), want %v in UTC", e.RecordedAt, e.RecordedAt.Location(), c.RecordedAt)
			}
		}
		committed = append(committed, got...)
	}
	for i, e := range committed {
		if e.Seq != int64(i+1) {
			t.Fatalf("seqs = %v, want 1..%d without gaps", seqs(committed), len(committed))
		}
	}
	wantVersions := []int64{1, 1, 2, 2, 3}
	for i, e := range committed {
		if e.StreamVersion != wantVersions[i] {
			t.Fatalf("event %s: stream version %d, want %d", e.ID, e.StreamVersion, wantVersions[i])
		}
	}
	if !bytes.Equal(committed[0].PrevHash, events.GenesisHash()) {
		t.Fatalf("first PrevHash = %x, want the genesis hash", committed[0].PrevHash)
	}
	if seq, reason, broken := events.ChainBreak(committed, events.GenesisHash()); broken {
		t.Fatalf("hash chain broken at %d: %s", seq, reason)
	}

	all := mustRead(t, s, events.Query{})
	assertEvents(t, all, committed)
	if seq, reason, broken := events.ChainBreak(all, events.GenesisHash()); broken {
		t.Fatalf("hash chain read back broken at %d: %s", seq, reason)
	}
	seq, hash, err := s.Head()
	if err != nil || seq != 5 || !bytes.Equal(hash, committed[4].Hash) {
		t.Fatalf("Head = %d, %x, %v; want 5, %x", seq, hash, err, committed[4].Hash)
	}
	stream, err := s.ReadStream("character/A", 0)
	if err != nil {
		t.Fatal(err)
	}
	assertEvents(t, stream, []events.Event{committed[1], committed[2], committed[4]})
}

func testPayloadBytesKept(t *testing.T, s events.Store) {
	payloads := []string{
		"{ \"b\" : 1,\n  \"a\" : [ 1.50, 2e3 ] }",
		`{"name":"Ümlaut \u00fc ü","tab":"\t","z":null}`,
		`"just a string"`,
		`42`,
		"  [ ]  ",
	}
	var pending []events.Pending
	for i, p := range payloads {
		pending = append(pending, events.Pending{ID: fmt.Sprintf("P%d", i), Stream: "s", Type: "t", PayloadVersion: 1, Payload: json.RawMessage(p)})
	}
	mustAppend(t, s, command("C1", nil, pending...))
	for i, e := range mustRead(t, s, events.Query{}) {
		if string(e.Payload) != payloads[i] {
			t.Errorf("payload %d read back as %q, want %q byte for byte", i, e.Payload, payloads[i])
		}
	}
}

func testStreamVersions(t *testing.T, s events.Store) {
	mustAppend(t, s, command("C1", nil, ev("E1", "a", "t"), ev("E2", "b", "t"), ev("E3", "a", "t")))
	mustAppend(t, s, command("C2", nil, ev("E4", "a", "t")))
	for stream, want := range map[string]int64{"a": 3, "b": 1, "c": 0} {
		if v, err := s.StreamVersion(stream); err != nil || v != want {
			t.Errorf("StreamVersion(%q) = %d, %v; want %d", stream, v, err, want)
		}
	}
}

func testReadStream(t *testing.T, s events.Store) {
	mustAppend(t, s, command("C1", nil, ev("E1", "a", "t"), ev("E2", "b", "t"), ev("E3", "a", "t"), ev("E4", "a", "t")))
	for _, tc := range []struct {
		stream string
		after  int64
		want   []string
	}{
		{"a", 0, []string{"E1", "E3", "E4"}},
		{"a", -5, []string{"E1", "E3", "E4"}},
		{"a", 1, []string{"E3", "E4"}},
		{"a", 3, nil},
		{"a", 9, nil},
		{"b", 0, []string{"E2"}},
		{"zzz", 0, nil},
		{"A", 0, nil},
	} {
		es, err := s.ReadStream(tc.stream, tc.after)
		if err != nil {
			t.Fatalf("ReadStream(%q, %d): %v", tc.stream, tc.after, err)
		}
		if got := ids(es); !slices.Equal(got, tc.want) {
			t.Errorf("ReadStream(%q, %d) = %v, want %v", tc.stream, tc.after, got, tc.want)
		}
	}
}

func ids(es []events.Event) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

func testMultiStreamAtomicity(t *testing.T, s events.Store) {
	mustAppend(t, s, command("C1", map[string]int64{"character/A": 0, "character/B": 0}, ev("E1", "character/A", "t"), ev("E2", "character/B", "t")))
	mustAppend(t, s, command("C2", map[string]int64{"character/B": 1}, ev("E3", "character/B", "t")))
	before := take(t, s)

	// A is where the command expects it; B has moved on. Nothing of the
	// command may be appended, not even A's event, which comes first.
	_, err := s.Append(command("C3", map[string]int64{"character/A": 1, "character/B": 1},
		ev("E4", "character/A", "t"), ev("E5", "character/B", "t"), ev("E6", "character/A", "t")))
	assertConcurrency(t, err, "character/B", 1, 2)
	assertUnchanged(t, s, before)
	if v, _ := s.StreamVersion("character/A"); v != 1 {
		t.Fatalf("stream character/A at %d after a rejected command, want 1", v)
	}
	if _, err := s.EventByID("E4"); !errors.Is(err, events.ErrNotFound) {
		t.Fatalf("EventByID(E4) = %v, want ErrNotFound", err)
	}

	// The same command decided against the current versions goes through,
	// and its events keep the command's order.
	got := mustAppend(t, s, command("C3", map[string]int64{"character/A": 1, "character/B": 2},
		ev("E4", "character/A", "t"), ev("E5", "character/B", "t"), ev("E6", "character/A", "t")))
	if got[0].Seq != 4 || got[0].StreamVersion != 2 || got[1].StreamVersion != 3 || got[2].Seq != 6 || got[2].StreamVersion != 3 {
		t.Fatalf("committed %+v", got)
	}
}

func testExpectedZero(t *testing.T, s events.Store) {
	got := mustAppend(t, s, command("C1", map[string]int64{"character/A": 0}, ev("E1", "character/A", events.TypeCharacterCreated)))
	if got[0].StreamVersion != 1 {
		t.Fatalf("first event of a stream at version %d, want 1", got[0].StreamVersion)
	}
	before := take(t, s)
	// 0 means "the stream must not exist yet": creating it twice fails.
	_, err := s.Append(command("C2", map[string]int64{"character/A": 0}, ev("E2", "character/A", events.TypeCharacterCreated)))
	assertConcurrency(t, err, "character/A", 0, 1)
	assertUnchanged(t, s, before)
}

func testAnyVersion(t *testing.T, s events.Store) {
	mustAppend(t, s, command("C1", map[string]int64{"dice": 0}, ev("E1", "dice", "t"), ev("E2", "dice", "t")))
	got := mustAppend(t, s, command("C2", map[string]int64{"dice": events.AnyVersion, "new": events.AnyVersion}, ev("E3", "dice", "t"), ev("E4", "new", "t")))
	if got[0].StreamVersion != 3 || got[1].StreamVersion != 1 {
		t.Fatalf("AnyVersion appends at versions %d and %d, want 3 and 1", got[0].StreamVersion, got[1].StreamVersion)
	}
}

func testPreconditionOnly(t *testing.T, s events.Store) {
	mustAppend(t, s, command("C1", map[string]int64{events.CampaignStream: 0}, ev("E1", events.CampaignStream, "t")))
	// The command depends on the campaign stream without appending to it.
	got := mustAppend(t, s, command("C2", map[string]int64{events.CampaignStream: 1, "character/A": 0}, ev("E2", "character/A", "t")))
	if got[0].Seq != 2 {
		t.Fatalf("seq %d, want 2", got[0].Seq)
	}
	if v, _ := s.StreamVersion(events.CampaignStream); v != 1 {
		t.Fatalf("precondition stream moved to %d", v)
	}
	// A precondition on a stream that does not exist yet.
	mustAppend(t, s, command("C3", map[string]int64{"ship/X": 0}, ev("E3", "character/A", "t")))

	mustAppend(t, s, command("C4", nil, ev("E4", events.CampaignStream, "t")))
	before := take(t, s)
	_, err := s.Append(command("C5", map[string]int64{events.CampaignStream: 1}, ev("E5", "character/A", "t")))
	assertConcurrency(t, err, events.CampaignStream, 1, 2)
	assertUnchanged(t, s, before)
}

func testConcurrencyError(t *testing.T, s events.Store) {
	mustAppend(t, s, command("C1", nil, ev("E1", "b", "t"), ev("E2", "b", "t"), ev("E3", "b", "t"), ev("E4", "c", "t")))
	before := take(t, s)
	_, err := s.Append(command("C2", map[string]int64{"a": 0, "b": 2, "c": 0}, ev("E5", "a", "t")))
	// Streams are checked in name order: b is reported, not c.
	assertConcurrency(t, err, "b", 2, 3)
	if !strings.Contains(err.Error(), `"b"`) {
		t.Errorf("error %q does not name the stream", err)
	}
	if errors.Is(err, events.ErrInvalidCommand) || errors.Is(err, events.ErrNotFound) {
		t.Errorf("error %v matches an unrelated sentinel", err)
	}
	assertUnchanged(t, s, before)
}

// testExpectedHead: a command that names the head it was decided at goes
// in while the head is that one, and is refused with a *HeadMovedError
// (an ErrConcurrency, nothing appended) once another command moved it,
// or when the hash differs. A duplicate is still reported as one.
func testExpectedHead(t *testing.T, s events.Store) {
	first := mustAppend(t, s, command("H1", nil, ev("E1", "a", "t")))
	at := func(e events.Event) *events.Head { return &events.Head{Seq: e.Seq, Hash: e.Hash} }
	cmd := command("H2", nil, ev("E2", "a", "t"))
	cmd.ExpectedHead = at(first[0])
	second := mustAppend(t, s, cmd)
	cmd = command("H3", nil, ev("E3", "b", "t"))
	cmd.ExpectedHead = at(second[0])
	third := mustAppend(t, s, cmd)

	before := take(t, s)
	stale := command("H4", nil, ev("E4", "a", "t"))
	stale.ExpectedHead = at(second[0])
	_, err := s.Append(stale)
	var moved *events.HeadMovedError
	if !errors.Is(err, events.ErrConcurrency) || !errors.As(err, &moved) {
		t.Fatalf("a command decided at seq %d, the head at %d: err = %v, want a *HeadMovedError", second[0].Seq, third[0].Seq, err)
	}
	if moved.Expected != second[0].Seq || moved.Actual != third[0].Seq {
		t.Errorf("HeadMovedError = %+v, want expected %d actual %d", *moved, second[0].Seq, third[0].Seq)
	}
	assertUnchanged(t, s, before)

	forged := command("H5", nil, ev("E5", "a", "t"))
	forged.ExpectedHead = &events.Head{Seq: third[0].Seq, Hash: bytes.Repeat([]byte{7}, len(third[0].Hash))}
	if _, err := s.Append(forged); !errors.Is(err, events.ErrConcurrency) {
		t.Fatalf("a command expecting the head's seq with another hash: err = %v, want ErrConcurrency", err)
	}
	assertUnchanged(t, s, before)

	again := command("H3", nil, ev("E3", "b", "t"))
	again.ExpectedHead = at(first[0])
	res, err := s.Append(again)
	if err != nil || !res.Duplicate {
		t.Fatalf("a command appended before, expecting an old head: duplicate %v, err %v; want the duplicate reported", res.Duplicate, err)
	}

	negative := command("H6", nil, ev("E6", "a", "t"))
	negative.ExpectedHead = &events.Head{Seq: -1}
	if _, err := s.Append(negative); !errors.Is(err, events.ErrInvalidCommand) {
		t.Fatalf("an expected head at seq -1: err = %v, want ErrInvalidCommand", err)
	}
	assertUnchanged(t, s, before)
}

func testDuplicateCommand(t *testing.T, s events.Store) {
	first := mustAppend(t, s, command("C1", map[string]int64{"a": 0}, ev("E1", "a", "t"), ev("E2", "b", "t")))
	mustAppend(t, s, command("C2", nil, ev("E3", "a", "t")))
	before := take(t, s)

	// A retry of C1 (its expected versions are now stale) reports the
	// events logged the first time and appends nothing, whatever it carries.
	for _, retry := range []events.Command{
		command("C1", map[string]int64{"a": 0}, ev("E1", "a", "t"), ev("E2", "b", "t")),
		command("C1", map[string]int64{"z": 0}, ev("X1", "z", "t")),
	} {
		res, err := s.Append(retry)
		if err != nil {
			t.Fatalf("Append duplicate: %v", err)
		}
		if !res.Duplicate {
			t.Fatal("Duplicate = false for a command ID already in the log")
		}
		assertEvents(t, res.Events, first)
		assertUnchanged(t, s, before)
	}
}

func testInvalidCommands(t *testing.T, s events.Store) {
	mustAppend(t, s, command("C0", nil, ev("E0", "a", "t")))
	before := take(t, s)
	valid := func() events.Command {
		return command("C1", map[string]int64{"a": 1}, ev("E1", "a", "t"), ev("E2", "b", "t"))
	}
	for name, change := range map[string]func(*events.Command){
		"no command ID":          func(c *events.Command) { c.ID = "" },
		"no actor":               func(c *events.Command) { c.Actor = "" },
		"no recorded time":       func(c *events.Command) { c.RecordedAt = time.Time{} },
		"no events":              func(c *events.Command) { c.Events = nil },
		"event without ID":       func(c *events.Command) { c.Events[1].ID = "" },
		"event without stream":   func(c *events.Command) { c.Events[1].Stream = "" },
		"event without type":     func(c *events.Command) { c.Events[1].Type = "" },
		"payload version 0":      func(c *events.Command) { c.Events[1].PayloadVersion = 0 },
		"empty payload":          func(c *events.Command) { c.Events[1].Payload = nil },
		"invalid JSON":           func(c *events.Command) { c.Events[1].Payload = json.RawMessage(`{"a":1`) },
		"no expected version":    func(c *events.Command) { delete(c.Expected, "b") },
		"duplicate event IDs":    func(c *events.Command) { c.Events[1].ID = c.Events[0].ID },
		"negative expected":      func(c *events.Command) { c.Expected["a"] = -7 },
		"recorded in year 10000": func(c *events.Command) { c.RecordedAt = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC) },
	} {
		t.Run(name, func(t *testing.T) {
			c := valid()
			change(&c)
			res, err := s.Append(c)
			if !errors.Is(err, events.ErrInvalidCommand) {
				t.Fatalf("err = %v, want ErrInvalidCommand", err)
			}
			if len(res.Events) != 0 || res.Duplicate {
				t.Fatalf("result %+v for a rejected command", res)
			}
			assertUnchanged(t, s, before)
		})
	}
	// An invalid command whose ID is already in the log is still invalid.
	c := valid()
	c.ID = "C0"
	c.Actor = ""
	if _, err := s.Append(c); !errors.Is(err, events.ErrInvalidCommand) {
		t.Fatalf("err = %v, want ErrInvalidCommand", err)
	}
	assertUnchanged(t, s, before)
}

func testEventIDTaken(t *testing.T, s events.Store) {
	mustAppend(t, s, command("C1", nil, ev("E1", "a", "t")))
	before := take(t, s)
	// The second event reuses an ID already in the log: the first must not
	// be appended either.
	_, err := s.Append(command("C2", nil, ev("E2", "a", "t"), ev("E1", "b", "t")))
	if !errors.Is(err, events.ErrInvalidCommand) || !strings.Contains(err.Error(), `"E1"`) {
		t.Fatalf("err = %v, want ErrInvalidCommand naming E1", err)
	}
	assertUnchanged(t, s, before)
}

// queryLog appends the log that testQuery and testCount read: 12 events in
// 6 commands.
func queryLog(t *testing.T, s events.Store) {
	mustAppend(t, s, command("K1", nil, ev("E01", "campaign", "campaign.created")))                                             // 1
	mustAppend(t, s, command("K2", nil, ev("E02", "character/A", "character.created"), ev("E03", "character/A", "xp.awarded"))) // 2 3
	mustAppend(t, s, command("K3", nil, ev("E04", "character/B", "character.created")))                                         // 4
	mustAppend(t, s, command("K4", nil, ev("E05", "character/A", "xp.spent"), ev("E06", "characterX", "xp.awarded"),
		ev("E07", "dice", "roll.made"), ev("E08", "Character/C", "xp.spent"))) // 5 6 7 8
	mustAppend(t, s, command("K5", nil, ev("E09", "character/B", "xpx.other"), ev("E10", "character/B", "roll.made")))       // 9 10
	mustAppend(t, s, command("K6", nil, ev("E11", "campaign", "plotword.acquired"), ev("E12", "character/A", "xp.awarded"))) // 11 12
}

func testQuery(t *testing.T, s events.Store) {
	queryLog(t, s)
	for _, tc := range []struct {
		name string
		q    events.Query
		want []int64
	}{
		{"everything", events.Query{}, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		{"AfterSeq", events.Query{AfterSeq: 9}, []int64{10, 11, 12}},
		{"AfterSeq past the end", events.Query{AfterSeq: 12}, nil},
		{"negative AfterSeq", events.Query{AfterSeq: -3}, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		{"UpToSeq", events.Query{UpToSeq: 3}, []int64{1, 2, 3}},
		{"AfterSeq and UpToSeq", events.Query{AfterSeq: 4, UpToSeq: 6}, []int64{5, 6}},
		{"empty seq range", events.Query{AfterSeq: 6, UpToSeq: 6}, nil},
		{"Streams", events.Query{Streams: []string{"campaign", "dice"}}, []int64{1, 7, 11}},
		{"Seqs, in any order and repeated", events.Query{Seqs: []int64{9, 2, 9, 40, 5}}, []int64{2, 5, 9}},
		{"Seqs and a range", events.Query{Seqs: []int64{2, 5, 9}, AfterSeq: 3}, []int64{5, 9}},
		{"Streams is case-sensitive", events.Query{Streams: []string{"character/c"}}, nil},
		{"Streams unknown", events.Query{Streams: []string{"ship/X"}}, nil},
		{"StreamPrefix", events.Query{StreamPrefix: "character/"}, []int64{2, 3, 4, 5, 9, 10, 12}},
		{"StreamPrefix without slash", events.Query{StreamPrefix: "character"}, []int64{2, 3, 4, 5, 6, 9, 10, 12}},
		{"StreamPrefix is case-sensitive", events.Query{StreamPrefix: "Character/"}, []int64{8}},
		{"StreamPrefix equal to a stream", events.Query{StreamPrefix: "dice"}, []int64{7}},
		{"TypePrefix", events.Query{TypePrefix: "xp."}, []int64{3, 5, 6, 8, 12}},
		{"TypePrefix whole type", events.Query{TypePrefix: "roll.made"}, []int64{7, 10}},
		{"TypePrefix xp", events.Query{TypePrefix: "xp"}, []int64{3, 5, 6, 8, 9, 12}},
		{"Types", events.Query{Types: []string{"roll.made", "plotword.acquired"}}, []int64{7, 10, 11}},
		{"Types is whole types", events.Query{Types: []string{"xp."}}, nil},
		{"Types in a seq range", events.Query{Types: []string{"roll.made", "xp.awarded"}, AfterSeq: 7, UpToSeq: 11}, []int64{10}},
		{"CommandIDs", events.Query{CommandIDs: []string{"K4", "K2"}}, []int64{2, 3, 5, 6, 7, 8}},
		{"CommandIDs unknown", events.Query{CommandIDs: []string{"nope"}}, nil},
		{"Limit", events.Query{Limit: 3}, []int64{1, 2, 3}},
		{"Limit with Last", events.Query{Limit: 3, Last: true}, []int64{10, 11, 12}},
		{"Last without Limit", events.Query{Last: true}, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}},
		{"Limit beyond the matches", events.Query{TypePrefix: "roll.", Limit: 10, Last: true}, []int64{7, 10}},
		{"filters combine", events.Query{StreamPrefix: "character/", TypePrefix: "xp.", AfterSeq: 3}, []int64{5, 12}},
		{"Streams and StreamPrefix combine", events.Query{Streams: []string{"campaign", "character/B"}, StreamPrefix: "char"}, []int64{4, 9, 10}},
		{"CommandIDs and Streams", events.Query{CommandIDs: []string{"K4", "K6"}, Streams: []string{"character/A"}}, []int64{5, 12}},
		{"everything with Limit and Last", events.Query{StreamPrefix: "character/", TypePrefix: "xp.", AfterSeq: 1, UpToSeq: 11, Limit: 1, Last: true}, []int64{5}},
		{"first of a filter", events.Query{StreamPrefix: "character/", Limit: 2}, []int64{2, 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			read := mustRead(t, s, tc.q)
			if got := seqs(read); !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
				t.Errorf("Read(%+v) = %v, want %v", tc.q, got, tc.want)
			}
			// Iter yields exactly what Read returns.
			var iterated []events.Event
			for e, err := range s.Iter(tc.q) {
				if err != nil {
					t.Fatalf("Iter(%+v): %v", tc.q, err)
				}
				iterated = append(iterated, e)
			}
			assertEvents(t, iterated, read)
		})
	}
}

// testQueryActorsAndTime filters by actor and by recorded wall time, with
// times given in another zone than the one recorded.
func testQueryActorsAndTime(t *testing.T, s events.Store) {
	at := func(minute int) time.Time { return time.Date(2026, 11, 21, 20, minute, 0, 0, time.UTC) }
	for i, c := range []struct {
		actor  string
		minute int
	}{{"gm", 0}, {"alice", 10}, {"gm", 20}, {"bob", 30}} {
		cmd := command(fmt.Sprintf("T%d", i+1), nil, ev(fmt.Sprintf("E%d", i+1), "a", "t"))
		cmd.Actor, cmd.RecordedAt = c.actor, at(c.minute)
		mustAppend(t, s, cmd)
	}
	paris := time.FixedZone("Paris", 60*60)
	for _, tc := range []struct {
		name string
		q    events.Query
		want []int64
	}{
		{"Actors", events.Query{Actors: []string{"gm"}}, []int64{1, 3}},
		{"Actors several", events.Query{Actors: []string{"bob", "alice"}}, []int64{2, 4}},
		{"Actors unknown", events.Query{Actors: []string{"carol"}}, nil},
		{"Since is inclusive", events.Query{Since: at(10)}, []int64{2, 3, 4}},
		{"Until is inclusive", events.Query{Until: at(20)}, []int64{1, 2, 3}},
		{"Since and Until", events.Query{Since: at(5), Until: at(25)}, []int64{2, 3}},
		{"times in another zone", events.Query{Since: at(10).In(paris), Until: at(10).In(paris)}, []int64{2}},
		{"Actors and time combine", events.Query{Actors: []string{"gm"}, Since: at(1)}, []int64{3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			read := mustRead(t, s, tc.q)
			if got := seqs(read); !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
				t.Errorf("Read(%+v) = %v, want %v", tc.q, got, tc.want)
			}
			// Iter yields exactly what Read returns.
			var iterated []events.Event
			for e, err := range s.Iter(tc.q) {
				if err != nil {
					t.Fatalf("Iter(%+v): %v", tc.q, err)
				}
				iterated = append(iterated, e)
			}
			assertEvents(t, iterated, read)
		})
	}
}

func testQueryPrefixes(t *testing.T, s events.Store) {
	streams := []string{
		"odd/100%_done", // 1
		"odd/100x",      // 2
		"odd/100%",      // 3
		"z\x7f1",        // 4
		"z\x7f",         // 5
		"z~",            // 6
		"ü/1",           // 7
		"ü",             // 8
		"üb",            // 9
		"ý",             // 10
		"u/1",           // 11
		"\U0010FFFF/1",  // 12: the largest code point, ends in 0xBF
	}
	var pending []events.Pending
	for i, st := range streams {
		pending = append(pending, ev(fmt.Sprintf("E%02d", i+1), st, "t"))
	}
	mustAppend(t, s, command("C1", nil, pending...))
	for _, tc := range []struct {
		prefix string
		want   []int64
	}{
		{"odd/100%", []int64{1, 3}}, // LIKE wildcards are literal
		{"odd/100_", nil},
		{"odd/100%_", []int64{1}},
		{"z\x7f", []int64{4, 5}},
		{"ü", []int64{7, 8, 9}},
		{"ü/", []int64{7}},
		{"u", []int64{11}},
		{"\U0010FFFF", []int64{12}},
	} {
		if got := seqs(mustRead(t, s, events.Query{StreamPrefix: tc.prefix})); !slices.Equal(got, tc.want) && !(len(got) == 0 && len(tc.want) == 0) {
			t.Errorf("StreamPrefix %q = %v, want %v", tc.prefix, got, tc.want)
		}
	}
}

func testEventByID(t *testing.T, s events.Store) {
	got := mustAppend(t, s, command("C1", nil, ev("E1", "a", "t"), ev("E2", "b", "u")))
	e, err := s.EventByID("E2")
	if err != nil {
		t.Fatal(err)
	}
	assertEvents(t, []events.Event{e}, got[1:])
	_, err = s.EventByID("nope")
	if !errors.Is(err, events.ErrNotFound) {
		t.Fatalf("EventByID(nope) = %v, want ErrNotFound", err)
	}
	if _, err := s.EventByID("C1"); !errors.Is(err, events.ErrNotFound) {
		t.Fatalf("EventByID(command ID) = %v, want ErrNotFound", err)
	}
}

func testCount(t *testing.T, s events.Store) {
	queryLog(t, s)
	if n, err := s.Count(); err != nil || n != 12 {
		t.Fatalf("Count = %d, %v; want 12", n, err)
	}
}

func testCopies(t *testing.T, s events.Store) {
	got := mustAppend(t, s, command("C1", nil, ev("E1", "a", "t")))
	want := mustRead(t, s, events.Query{})
	wantPayload := string(want[0].Payload)
	got[0].Payload[0], got[0].Hash[0], got[0].PrevHash[0] = 'X', ^got[0].Hash[0], 1
	read := mustRead(t, s, events.Query{})
	read[0].Payload[0] = 'Y'
	e, _ := s.EventByID("E1")
	if string(e.Payload) != wantPayload || !bytes.Equal(e.Hash, want[0].Hash) || !bytes.Equal(e.PrevHash, events.GenesisHash()) {
		t.Fatal("changing returned events changed the log")
	}
	_, hash, _ := s.Head()
	hash[0] ^= 0xFF
	if _, again, _ := s.Head(); !bytes.Equal(again, want[0].Hash) {
		t.Fatal("changing the returned head hash changed the log")
	}
}

func testConcurrentAppends(t *testing.T, s events.Store) {
	// Racing creators of the same stream: exactly one wins.
	const racers = 6
	var wg sync.WaitGroup
	errs := make([]error, racers)
	start := make(chan struct{})
	for i := range racers {
		wg.Go(func() {
			<-start
			_, errs[i] = s.Append(command(fmt.Sprintf("R%d", i), map[string]int64{"character/A": 0}, ev(fmt.Sprintf("RE%d", i), "character/A", "t")))
		})
	}
	close(start)
	wg.Wait()
	wins := 0
	for _, err := range errs {
		switch {
		case err == nil:
			wins++
		case !errors.Is(err, events.ErrConcurrency):
			t.Fatalf("racing append: %v", err)
		}
	}
	if wins != 1 {
		t.Fatalf("%d racing creators won, want exactly 1", wins)
	}

	// Appenders that do not care about versions all get in, gap-free.
	const writers, each = 4, 3
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				id := fmt.Sprintf("W%d-%d", w, i)
				if _, err := s.Append(command(id, nil, ev(id+"a", "dice", "t"), ev(id+"b", fmt.Sprintf("w/%d", w), "t"))); err != nil {
					t.Errorf("Append %s: %v", id, err)
				}
			}
		})
	}
	wg.Wait()
	all := mustRead(t, s, events.Query{})
	if len(all) != 1+writers*each*2 {
		t.Fatalf("%d events, want %d", len(all), 1+writers*each*2)
	}
	if seq, reason, broken := events.ChainBreak(all, events.GenesisHash()); broken {
		t.Fatalf("hash chain broken at %d: %s", seq, reason)
	}
	if v, _ := s.StreamVersion("dice"); v != writers*each {
		t.Fatalf("dice at version %d, want %d", v, writers*each)
	}
}

// testIterStopsEarly breaks out of Iter and goes on using the store: the
// read it held is released.
func testIterStopsEarly(t *testing.T, s events.Store) {
	queryLog(t, s)
	var got []int64
	for e, err := range s.Iter(events.Query{}) {
		if err != nil {
			t.Fatalf("Iter: %v", err)
		}
		got = append(got, e.Seq)
		if len(got) == 3 {
			break
		}
	}
	if !slices.Equal(got, []int64{1, 2, 3}) {
		t.Fatalf("Iter gave %v before the break, want 1 2 3", got)
	}
	mustAppend(t, s, command("K7", nil, ev("E13", "campaign", "plotword.acquired")))
	if n, err := s.Count(); err != nil || n != 13 {
		t.Fatalf("Count after the break and an append = %d, %v; want 13", n, err)
	}
}

// sealedLog returns 5 events in 3 commands, sealed from the genesis hash as
// another store would have committed them: the content of a backup.
func sealedLog() []events.Event {
	var out []events.Event
	seq, hash := int64(0), events.GenesisHash()
	versions := map[string]int64{}
	for _, c := range []events.Command{
		command("L1", nil, ev("F1", "campaign", "campaign.created")),
		command("L2", nil, ev("F2", "character/A", "character.created"), ev("F3", "character/A", "xp.awarded")),
		command("L3", nil, ev("F4", "character/A", "xp.spent"), ev("F5", "campaign", "plotword.acquired")),
	} {
		for _, e := range c.Seal(seq, hash, versions) {
			out = append(out, e)
			seq, hash = e.Seq, e.Hash
			versions[e.Stream] = e.StreamVersion
		}
	}
	return out
}

func testLoad(t *testing.T, s events.Store) {
	log := sealedLog()
	if err := s.Load(nil); err != nil {
		t.Fatalf("Load of nothing: %v", err)
	}
	if err := s.Load(log[:2]); err != nil {
		t.Fatalf("Load first batch: %v", err)
	}
	if err := s.Load(log[2:]); err != nil {
		t.Fatalf("Load second batch: %v", err)
	}
	assertEvents(t, mustRead(t, s, events.Query{}), log)
	seq, hash, err := s.Head()
	if err != nil || seq != 5 || !bytes.Equal(hash, log[4].Hash) {
		t.Fatalf("Head = %d %x %v, want 5 %x", seq, hash, err, log[4].Hash)
	}
	if v, err := s.StreamVersion("character/A"); err != nil || v != 3 {
		t.Fatalf("StreamVersion(character/A) = %d, %v; want 3", v, err)
	}
	if e, err := s.EventByID("F3"); err != nil || e.Seq != 3 {
		t.Fatalf("EventByID(F3) = seq %d, %v; want 3", e.Seq, err)
	}
	// Appends go on from the loaded head.
	got := mustAppend(t, s, command("L4", map[string]int64{"character/A": 3}, ev("F6", "character/A", "xp.awarded")))
	if got[0].Seq != 6 || got[0].StreamVersion != 4 || !bytes.Equal(got[0].PrevHash, log[4].Hash) {
		t.Fatalf("append after Load: seq %d, version %d, prev %x; want 6, 4, %x", got[0].Seq, got[0].StreamVersion, got[0].PrevHash, log[4].Hash)
	}
	if seq, reason, broken := events.ChainBreak(mustRead(t, s, events.Query{}), events.GenesisHash()); broken {
		t.Fatalf("chain broken at %d after Load and Append: %s", seq, reason)
	}
}

func testLoadRefused(t *testing.T, s events.Store) {
	log := sealedLog()
	if err := s.Load(log[:2]); err != nil {
		t.Fatalf("Load: %v", err)
	}
	rest := log[2:]
	edit := func(f func(b []events.Event)) []events.Event {
		b := make([]events.Event, len(rest))
		for i, e := range rest {
			e.Payload = slices.Clone(e.Payload)
			b[i] = e
		}
		f(b)
		return b
	}
	for _, tc := range []struct {
		name  string
		batch []events.Event
		want  string
	}{
		{"a seq skipped", rest[1:], "seq gap"},
		{"the batch again", log[:2], "seq gap"},
		{"a payload edited", edit(func(b []events.Event) { b[1].Payload = []byte(`{"n":"edited"}`) }), "does not match"},
		{"an actor edited", edit(func(b []events.Event) { b[2].Actor = "mallory" }), "does not match"},
		{"prev_hash of another event", edit(func(b []events.Event) { b[0].PrevHash = log[0].Hash }), "prev_hash"},
		{"two events swapped", []events.Event{rest[1], rest[0], rest[2]}, "seq gap"},
		{"an ID already in the log", resealed(log[:2], edit(func(b []events.Event) { b[0].ID = "F1" })), "already in the log"},
		{"an ID twice in the batch", resealed(log[:2], edit(func(b []events.Event) { b[2].ID = b[1].ID })), "already in the log"},
		{"a stream version skipped", resealed(log[:2], edit(func(b []events.Event) { b[0].StreamVersion = 4 })), "version"},
		{"a payload that is not JSON", resealed(log[:2], edit(func(b []events.Event) { b[1].Payload = []byte(`{"n":`) })), "JSON"},
		{"no actor", resealed(log[:2], edit(func(b []events.Event) { b[1].Actor = "" })), "actor"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := take(t, s)
			err := s.Load(tc.batch)
			if !errors.Is(err, events.ErrBadLoad) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Load = %v, want ErrBadLoad saying %q", err, tc.want)
			}
			assertUnchanged(t, s, before)
		})
	}
}

// resealed recomputes the hashes of batch after prior, so that only the
// edit made to it is wrong.
func resealed(prior, batch []events.Event) []events.Event {
	prev := prior[len(prior)-1].Hash
	for i := range batch {
		batch[i].PrevHash = prev
		batch[i].Hash = events.ComputeHash(prev, batch[i])
		prev = batch[i].Hash
	}
	return batch
}
