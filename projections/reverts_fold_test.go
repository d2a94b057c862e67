package projections

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

// The commands out of effect, given the undos and redos of the commands
// stream (and a snapshot of them), expect this set.

// undoLog is a campaign's log with three undos: K1 with K2 and K3 by
// cascade (seq 5), K4 (seq 6), then K4 redone (seq 7) and K1 undone
// again on its own after K1..K3 were redone (seqs 8, 9).
func undoLog(t *testing.T) []events.Event {
	return logOf(t,
		step{ajaxStream, "K1", events.XPAwarded{Amount: 1}},
		step{ajaxStream, "K2", events.XPAwarded{Amount: 2}},
		step{ajaxStream, "K3", events.XPAwarded{Amount: 3}},
		step{ajaxStream, "K4", events.XPAwarded{Amount: 4}},
		step{events.CommandsStream, "U1", events.CommandReverted{CommandID: "K1", Cascade: []string{"K3", "K2"}, Reason: "typo"}},
		step{events.CommandsStream, "U2", events.CommandReverted{CommandID: "K4"}},
		step{events.CommandsStream, "R1", events.CommandRestored{CommandIDs: []string{"K4"}, Reason: "after all"}},
		step{events.CommandsStream, "R2", events.CommandRestored{CommandIDs: []string{"K1", "K2", "K3"}}},
		step{events.CommandsStream, "U3", events.CommandReverted{CommandID: "K2", Reason: "again"}},
	)
}

// revertAt is the Revert an undo event gives.
func revertAt(e events.Event, target, reason string) Revert {
	return Revert{Seq: e.Seq, EventID: e.ID, CommandID: e.CommandID, Actor: e.Actor, At: e.RecordedAt, Reason: reason, Target: target}
}

// state is what a Reverts answers, for comparing two of them.
func revertsState(r *Reverts, ids ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "version %d, count %d;", r.Version, r.Count())
	for _, id := range ids {
		rv, ok := r.Reverted(id)
		fmt.Fprintf(&b, " %s: %t %+v %t;", id, ok, rv, r.InEffect(events.Event{CommandID: id}))
	}
	last, lastIDs, ok := r.LastReverted()
	fmt.Fprintf(&b, " last %t %+v %q", ok, last, lastIDs)
	return b.String()
}

func TestRevertsFold(t *testing.T) {
	log := undoLog(t)
	cmds := log[4:]
	check := func(r *Reverts, n int) {
		t.Helper()
		type want struct {
			out    map[string]Revert
			last   Revert
			lastID []string
		}
		u1, u2, u3 := revertAt(log[4], "K1", "typo"), revertAt(log[5], "K4", ""), revertAt(log[8], "K2", "again")
		w := map[int]want{
			0: {out: map[string]Revert{}},
			1: {out: map[string]Revert{"K1": u1, "K2": u1, "K3": u1}, last: u1, lastID: []string{"K1", "K3", "K2"}},
			2: {out: map[string]Revert{"K1": u1, "K2": u1, "K3": u1, "K4": u2}, last: u2, lastID: []string{"K4"}},
			3: {out: map[string]Revert{"K1": u1, "K2": u1, "K3": u1}, last: u1, lastID: []string{"K1", "K3", "K2"}},
			4: {out: map[string]Revert{}},
			5: {out: map[string]Revert{"K2": u3}, last: u3, lastID: []string{"K2"}},
		}[n]
		if r.Version != int64(n) || r.Count() != len(w.out) {
			t.Errorf("after %d: version %d, count %d; want %d", n, r.Version, r.Count(), len(w.out))
		}
		for _, id := range []string{"K1", "K2", "K3", "K4", "K5"} {
			got, ok := r.Reverted(id)
			wantRv, out := w.out[id]
			if ok != out || got != wantRv {
				t.Errorf("after %d: Reverted(%s) = %+v, %t; want %+v, %t", n, id, got, ok, wantRv, out)
			}
			if r.InEffect(events.Event{CommandID: id}) == out {
				t.Errorf("after %d: InEffect(%s) = %t", n, id, !out)
			}
		}
		last, ids, ok := r.LastReverted()
		if ok != (len(w.lastID) > 0) || last != w.last || !slices.Equal(ids, w.lastID) {
			t.Errorf("after %d: LastReverted = %+v, %q, %t; want %+v, %q", n, last, ids, ok, w.last, w.lastID)
		}
	}
	var r Reverts
	check(&r, 0)
	for i, e := range cmds {
		if err := r.Apply(e); err != nil {
			t.Fatal(err)
		}
		check(&r, i+1)
	}
	folded, err := FoldReverts(cmds)
	if err != nil {
		t.Fatal(err)
	}
	check(&folded, len(cmds))
}

// TestRevertsSkip: Skip's filter skips the events of the commands out of
// effect, as if alsoOut were undone too and alsoIn redone.
func TestRevertsSkip(t *testing.T) {
	log := undoLog(t)
	r, err := FoldReverts(log[4:6]) // K1, K2, K3, K4 out
	if err != nil {
		t.Fatal(err)
	}
	skipped := func(skip func(events.Event) bool) []string {
		var out []string
		for _, id := range []string{"K1", "K2", "K3", "K4", "K5", "K6"} {
			if skip(events.Event{CommandID: id}) {
				out = append(out, id)
			}
		}
		return out
	}
	for _, c := range []struct {
		alsoOut, alsoIn []string
		want            []string
	}{
		{nil, nil, []string{"K1", "K2", "K3", "K4"}},
		{[]string{"K5"}, nil, []string{"K1", "K2", "K3", "K4", "K5"}},
		{nil, []string{"K2", "K4", "K6"}, []string{"K1", "K3"}},
		{[]string{"K6"}, []string{"K1", "K6"}, []string{"K2", "K3", "K4"}},
	} {
		if got := skipped(r.Skip(c.alsoOut, c.alsoIn)); !slices.Equal(got, c.want) {
			t.Errorf("Skip(%q, %q) skips %q, want %q", c.alsoOut, c.alsoIn, got, c.want)
		}
	}
	// The filter does not change with the set after it was made, nor the
	// set with it.
	skip := r.Skip(nil, []string{"K1"})
	if err := r.Apply(log[6]); err != nil { // K4 redone
		t.Fatal(err)
	}
	if got := skipped(skip); !slices.Equal(got, []string{"K2", "K3", "K4"}) {
		t.Errorf("the filter changed with the set: %q", got)
	}
	if !r.InEffect(events.Event{CommandID: "K4"}) || r.InEffect(events.Event{CommandID: "K1"}) {
		t.Error("the filter changed the set")
	}
}

// TestRevertsFromSnapshot: a set decoded from a snapshot answers as the
// set it was encoded from, reading the undos' details through Lookup, and
// folds the commands stream on from there as the whole fold does.
func TestRevertsFromSnapshot(t *testing.T) {
	log := undoLog(t)
	cmds := log[4:]
	lookup := func(seq int64) (events.Event, error) {
		for _, e := range log {
			if e.Seq == seq {
				return e, nil
			}
		}
		return events.Event{}, errors.New("no such event")
	}
	ids := []string{"K1", "K2", "K3", "K4", "K5"}
	// A snapshot after every event, folded on to the end, answers as the
	// whole fold at every step.
	for at := 0; at <= len(cmds); at++ {
		head, err := FoldReverts(cmds[:at])
		if err != nil {
			t.Fatal(err)
		}
		state, err := head.Encode()
		if err != nil {
			t.Fatal(err)
		}
		r, err := DecodeReverts(state, lookup)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := revertsState(&r, ids...), revertsState(&head, ids...); got != want {
			t.Errorf("snapshot at %d, decoded:\n got %s\nwant %s", at, got, want)
		}
		for i := at; i < len(cmds); i++ {
			if err := r.Apply(cmds[i]); err != nil {
				t.Fatal(err)
			}
			whole, err := FoldReverts(cmds[:i+1])
			if err != nil {
				t.Fatal(err)
			}
			if got, want := revertsState(&r, ids...), revertsState(&whole, ids...); got != want {
				t.Errorf("snapshot at %d, folded to %d:\n got %s\nwant %s", at, i+1, got, want)
			}
		}
	}
}

// TestRevertsSnapshotLookup: an undo held out by a snapshot has its
// details read through Lookup, once; without Lookup, or when it fails or
// reads an event that is not an undo, the Revert has its seq only.
func TestRevertsSnapshotLookup(t *testing.T) {
	log := undoLog(t)
	head, err := FoldReverts(log[4:6])
	if err != nil {
		t.Fatal(err)
	}
	state, err := head.Encode()
	if err != nil {
		t.Fatal(err)
	}
	reads := 0
	for _, c := range []struct {
		name   string
		lookup func(int64) (events.Event, error)
		want   Revert
	}{
		{"no lookup", nil, Revert{Seq: 5}},
		{"a failing lookup", func(int64) (events.Event, error) { reads++; return events.Event{}, errors.New("gone") }, Revert{Seq: 5}},
		{"an event not an undo", func(int64) (events.Event, error) { reads++; return log[6], nil }, Revert{Seq: 5}},
		{"an event that cannot be read", func(int64) (events.Event, error) {
			reads++
			e := log[4]
			e.Payload = []byte("not json")
			return e, nil
		}, Revert{Seq: 5}},
		{"the undo", func(seq int64) (events.Event, error) { reads++; return log[seq-1], nil }, revertAt(log[4], "K1", "typo")},
	} {
		reads = 0
		r, err := DecodeReverts(state, c.lookup)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if got, ok := r.Reverted("K3"); !ok || got != c.want {
				t.Errorf("%s: Reverted(K3) = %+v, %t; want %+v", c.name, got, ok, c.want)
			}
		}
		if got, ok := r.Reverted("K4"); !ok || got.Seq != 6 {
			t.Errorf("%s: Reverted(K4) = %+v, %t", c.name, got, ok)
		}
		if c.name == "the undo" && reads != 2 {
			t.Errorf("%s: %d lookups for two undos asked of thrice, want 2 (one each, then kept)", c.name, reads)
		}
		if _, ok := r.Reverted("K9"); ok {
			t.Errorf("%s: K9 out of effect", c.name)
		}
	}
	if _, err := DecodeReverts([]byte("RVB0 not a snapshot"), nil); err == nil {
		t.Error("a bad snapshot decodes")
	}
}

// TestRevertsFoldErrors: an event of another stream, or one that cannot
// be read, is an error and leaves the set; FoldReverts then returns none.
func TestRevertsFoldErrors(t *testing.T) {
	log := undoLog(t)
	for _, b := range []struct {
		name string
		e    events.Event
		want string
	}{
		{"a character's event", log[0], "event 1: xp.awarded does not belong on the commands stream"},
		{"not JSON", events.Event{Seq: 20, StreamVersion: 9, Type: events.TypeCommandReverted, PayloadVersion: 1, Payload: []byte("[")}, "event 20: decode command.reverted"},
	} {
		r, err := FoldReverts(log[4:6])
		if err != nil {
			t.Fatal(err)
		}
		before := revertsState(&r, "K1", "K4")
		if err := r.Apply(b.e); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: err = %v, want %q", b.name, err, b.want)
		}
		if after := revertsState(&r, "K1", "K4"); after != before {
			t.Errorf("%s: the refused event changed the set:\n%s\n%s", b.name, after, before)
		}
		if got, err := FoldReverts(append(slices.Clone(log[4:6]), b.e)); err == nil || !reflect.DeepEqual(got, Reverts{}) {
			t.Errorf("%s: FoldReverts = %+v, %v", b.name, got, err)
		}
	}
}

// TestRevertBaseShortIDs: many short command IDs (records shorter than
// the space their offsets take) encode and decode.
func TestRevertBaseShortIDs(t *testing.T) {
	refs := map[string]revertRef{}
	for i := range 26 {
		refs[string(rune('a'+i))] = revertRef{seq: int64(i + 1), pos: i}
	}
	b := encodeBase(refs, 3)
	if want := 4 + 8 + 4 + 4*27 + 26*(1+recordTail); len(b) != want {
		t.Errorf("encoded %d bytes, want %d", len(b), want)
	}
	base, version, err := decodeBase(b)
	if err != nil || version != 3 || base.n != 26 {
		t.Fatalf("decode: %v, version %d, n %d", err, version, base.n)
	}
	for id, want := range refs {
		if got, ok := base.find(id); !ok || got != want {
			t.Errorf("find(%q) = %+v, %t", id, got, ok)
		}
		if gotID, got := base.record(int(want.pos)); gotID != id || got != want {
			t.Errorf("record(%d) = %q %+v, want %q %+v", want.pos, gotID, got, id, want)
		}
	}
}

// TestRevertBaseRefusesDamage: an encoding with an empty command ID,
// offsets out of order or past the records, or bytes after them, is
// refused.
func TestRevertBaseRefusesDamage(t *testing.T) {
	if _, _, err := decodeBase(encodeBase(map[string]revertRef{"": {seq: 1}}, 1)); err == nil {
		t.Error("a record with an empty command ID decodes")
	}
	if _, _, err := decodeBase(encodeBase(map[string]revertRef{"x": {seq: 1}}, 1)); err != nil {
		t.Errorf("a record with a one-byte command ID: %v", err)
	}
	empty := encodeBase(nil, 7)
	if base, version, err := decodeBase(empty); err != nil || base.n != 0 || version != 7 {
		t.Errorf("an empty base: %v, n %d, version %d", err, base.n, version)
	}
	good := encodeBase(map[string]revertRef{"K1": {seq: 5}, "K2": {seq: 5, pos: 1}}, 9)
	head := 4 + 8 + 4
	put := func(b []byte, at int, v uint32) []byte {
		b = slices.Clone(b)
		b[at], b[at+1], b[at+2], b[at+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		return b
	}
	for _, c := range []struct {
		name string
		b    []byte
		want string
	}{
		{"bytes after the records", append(slices.Clone(good), 0, 0, 0), "3 bytes after the records"},
		{"an offset before the one before it", put(good, head+4, 0), "record 1"},
		{"an offset past the records", put(good, head+8, 100), "record 2"},
		{"a count past the bytes", put(good, 12, 1000), "malformed"},
		{"a wrong magic", append([]byte("RVB2"), good[4:]...), "malformed"},
		{"too short for the head", good[:head-1], "malformed"},
	} {
		if _, _, err := decodeBase(c.b); err == nil || !errors.Is(err, errBadBase) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", c.name, err, c.want)
		}
	}
	if _, _, err := decodeBase(good[:head+12]); err == nil {
		t.Error("offsets without records decode")
	}
	if _, _, err := decodeBase(good); err != nil {
		t.Errorf("the good base: %v", err)
	}
}

// TestRevertBaseRefusesAFirstOffsetPastZero: the records begin at offset
// 0; an encoding whose first offset is past it is damaged, and refused,
// rather than read with its first command ID cut short (K1 read as "1",
// so that K1 would be taken as in effect).
func TestRevertBaseRefusesAFirstOffsetPastZero(t *testing.T) {
	b := encodeBase(map[string]revertRef{"K1": {seq: 5}, "K2": {seq: 5, pos: 1}}, 9)
	b[4+8+4] = 1 // the first offset
	base, _, err := decodeBase(b)
	if err == nil {
		id, _ := base.record(0)
		t.Errorf("an encoding whose first offset is 1 decodes, its first command read as %q", id)
	}
}

// TestRevertBaseRefusesAnEmptyIDAfterTheFirst: every record holds a
// command ID, the second as well as the first: one no longer than its
// fixed tail is refused wherever it stands.
func TestRevertBaseRefusesAnEmptyIDAfterTheFirst(t *testing.T) {
	le32 := func(b []byte, v uint32) []byte { return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24)) }
	b := append([]byte(revertBaseMagic), 9, 0, 0, 0, 0, 0, 0, 0) // version 9
	b = le32(b, 2)                                               // two records
	b = le32(le32(le32(b, 0), 14), 26)                           // K1 (2 + 12 bytes), then an empty ID (12)
	b = append(b, "K1"...)
	b = append(b, make([]byte, 24)...)
	if _, _, err := decodeBase(b); err == nil || !strings.Contains(err.Error(), "record 2") {
		t.Errorf("a second record with no command ID: %v", err)
	}
}

// TestRevertBaseRefusesEveryCut: an encoding cut short anywhere, by a
// byte or more, is refused.
func TestRevertBaseRefusesEveryCut(t *testing.T) {
	for n := range 4 {
		refs := map[string]revertRef{}
		for i := range n {
			refs[fmt.Sprintf("K%d", i)] = revertRef{seq: int64(i + 1)}
		}
		b := encodeBase(refs, 1)
		for cut := range len(b) {
			if _, _, err := decodeBase(b[:cut]); err == nil {
				t.Errorf("%d records: an encoding cut at byte %d of %d decodes", n, cut, len(b))
			}
		}
	}
}

// TestRevertsFromSnapshotThenMany: a set from a snapshot of one undone
// command that folds undos of more commands than the snapshot holds
// counts them all.
func TestRevertsFromSnapshotThenMany(t *testing.T) {
	log := logOf(t,
		step{events.CommandsStream, "U1", events.CommandReverted{CommandID: "K1"}},
		step{events.CommandsStream, "U2", events.CommandReverted{CommandID: "K2", Cascade: []string{"K3", "K4"}}},
	)
	head, err := FoldReverts(log[:1])
	if err != nil {
		t.Fatal(err)
	}
	state, err := head.Encode()
	if err != nil {
		t.Fatal(err)
	}
	r, err := DecodeReverts(state, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Apply(log[1]); err != nil {
		t.Fatal(err)
	}
	if r.Count() != 4 {
		t.Errorf("Count = %d, want 4", r.Count())
	}
	last, ids, ok := r.LastReverted()
	if !ok || last.Seq != 2 || !slices.Equal(ids, []string{"K2", "K3", "K4"}) {
		t.Errorf("LastReverted = %+v, %q, %t", last, ids, ok)
	}
	skip := r.Skip(nil, nil)
	for _, id := range []string{"K1", "K2", "K3", "K4"} {
		if !skip(events.Event{CommandID: id}) {
			t.Errorf("%s is not skipped", id)
		}
	}
}
