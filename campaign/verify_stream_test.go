package campaign

import (
	"encoding/json"
	"fmt"
	"hash/maphash"
	"iter"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/memstore"
	"github.com/ltscamp/ltscamp/rules"
)

// sliceStore serves a log as it is given, tampering included: the reads
// verify makes, in seq order, as a store would return a damaged file.
type sliceStore struct {
	events.Store // nil: writes are not needed
	log          []events.Event
}

func (s sliceStore) Read(q events.Query) ([]events.Event, error) {
	var out []events.Event
	for _, e := range s.log {
		switch {
		case e.Seq <= q.AfterSeq, q.UpToSeq > 0 && e.Seq > q.UpToSeq,
			len(q.Streams) > 0 && !slices.Contains(q.Streams, e.Stream),
			len(q.CommandIDs) > 0 && !slices.Contains(q.CommandIDs, e.CommandID):
			continue
		}
		out = append(out, e)
		if q.Limit > 0 && len(out) == q.Limit {
			break
		}
	}
	return out, nil
}

func (s sliceStore) Iter(q events.Query) iter.Seq2[events.Event, error] {
	return func(yield func(events.Event, error) bool) {
		evs, _ := s.Read(q)
		for _, e := range evs {
			if !yield(e, nil) {
				return
			}
		}
	}
}

func (s sliceStore) ReadStream(stream string, after int64) ([]events.Event, error) {
	var out []events.Event
	for _, e := range s.log {
		if e.Stream == stream && e.StreamVersion > after {
			out = append(out, e)
		}
	}
	return out, nil
}

func (s sliceStore) EventByID(id string) (events.Event, error) {
	for _, e := range s.log {
		if e.ID == id {
			return e, nil
		}
	}
	return events.Event{}, events.ErrNotFound
}

func (s sliceStore) Count() (int64, error) { return int64(len(s.log)), nil }

// rechain recomputes every hash from index i on, as a forger would.
func rechain(log []events.Event, i int) {
	for ; i < len(log); i++ {
		if i > 0 {
			log[i].PrevHash = log[i-1].Hash
		}
		log[i].Hash = events.ComputeHash(log[i].PrevHash, log[i])
	}
}

// TestVerifyStreamingMatchesWhole: the one-pass verify gives the report
// the whole-log verify gives, on clean logs and on every kind of damage.
func TestVerifyStreamingMatchesWhole(t *testing.T) {
	demo := newCampaign(t, rules.Edition2021)
	if _, err := demo.PlayDemo(); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, demo, "Zed", 10, 12, 10)
	if _, err := demo.AwardXP([]string{"Zed"}, 5, "r"); err != nil {
		t.Fatal(err)
	}
	if _, err := demo.Undo(UndoRequest{}); err != nil {
		t.Fatal(err)
	}
	gen := memstore.New()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if _, err := Generate(gen, GenerateOptions{Characters: 7, EventsPerCharacter: 300, EventsPerCommand: 3, Seed: 3, Start: start, Edition: rules.Edition2021}); err != nil {
		t.Fatal(err)
	}
	logs := map[string][]events.Event{}
	for name, st := range map[string]events.Store{"demo": demo.store, "generated": gen, "verify": verifyCampaign(t).store} {
		log, err := st.Read(events.Query{})
		if err != nil {
			t.Fatal(err)
		}
		logs[name] = log
	}
	base := logs["demo"]
	edit := func(f func(l []events.Event) []events.Event) []events.Event {
		l := make([]events.Event, len(base))
		copy(l, base)
		return f(l)
	}
	spend := slices.IndexFunc(base, func(e events.Event) bool { return e.Type == events.TypeXPSpent })
	undo := slices.IndexFunc(base, func(e events.Event) bool { return e.Stream == events.CommandsStream })
	roll := slices.IndexFunc(base, func(e events.Event) bool { return e.Type == events.TypeRollMade })
	logs["payload edited"] = edit(func(l []events.Event) []events.Event {
		l[spend].Payload = json.RawMessage(string(l[spend].Payload[:len(l[spend].Payload)-1]) + `,"x":1}`)
		return l
	})
	logs["price forged, rechained"] = edit(func(l []events.Event) []events.Event {
		var p map[string]any
		_ = json.Unmarshal(l[spend].Payload, &p)
		p["price"] = 1
		l[spend].Payload, _ = json.Marshal(p)
		rechain(l, spend)
		return l
	})
	logs["row deleted"] = edit(func(l []events.Event) []events.Event { return append(l[:5:5], l[6:]...) })
	logs["first rows deleted"] = edit(func(l []events.Event) []events.Event { return l[3:] })
	logs["rows swapped"] = edit(func(l []events.Event) []events.Event { l[7], l[8] = l[8], l[7]; return l })
	logs["duplicate id"] = edit(func(l []events.Event) []events.Event { l[9].ID = l[4].ID; rechain(l, 9); return l })
	logs["id thrice"] = edit(func(l []events.Event) []events.Event {
		l[9].ID, l[12].ID = l[4].ID, l[4].ID
		rechain(l, 9)
		return l
	})
	logs["ids out of order"] = edit(func(l []events.Event) []events.Event {
		// A clock set back: later events with earlier IDs, one of them
		// an ID already used.
		for i, j := 3, 12; i < j; i, j = i+1, j-1 {
			l[i].ID, l[j].ID = l[j].ID, l[i].ID
		}
		l[14].ID = l[6].ID
		rechain(l, 3)
		return l
	})
	logs["command resumes"] = edit(func(l []events.Event) []events.Event { l[10].CommandID = l[3].CommandID; rechain(l, 10); return l })
	logs["actor differs in a command"] = edit(func(l []events.Event) []events.Event {
		for i := 1; i < len(l); i++ {
			if l[i].CommandID == l[i-1].CommandID {
				l[i].Actor = "mallory"
				rechain(l, i)
				break
			}
		}
		return l
	})
	logs["stream version jumps"] = edit(func(l []events.Event) []events.Event { l[11].StreamVersion += 3; rechain(l, 11); return l })
	logs["undo of nothing"] = edit(func(l []events.Event) []events.Event {
		l[undo].Payload = []byte(`{"command_id":"01NOSUCHCOMMAND00000000000","reason":"x"}`)
		rechain(l, undo)
		return l
	})
	logs["undo of the creation, itself and a later command"] = edit(func(l []events.Event) []events.Event {
		p, _ := json.Marshal(events.CommandReverted{CommandID: l[0].CommandID, Cascade: []string{l[undo].CommandID, l[len(l)-1].CommandID, l[3].CommandID}})
		l[undo].Payload = p
		rechain(l, undo)
		return l
	})
	logs["undo joins a command"] = edit(func(l []events.Event) []events.Event {
		l[undo].CommandID = l[undo-1].CommandID
		rechain(l, undo)
		return l
	})
	logs["roll faces forged"] = edit(func(l []events.Event) []events.Event {
		var p map[string]any
		_ = json.Unmarshal(l[roll].Payload, &p)
		p["faces"] = []int{6, 6, 6}
		l[roll].Payload, _ = json.Marshal(p)
		rechain(l, roll)
		return l
	})
	logs["genesis rewritten"] = edit(func(l []events.Event) []events.Event { l[0].PrevHash = l[1].Hash; rechain(l, 0); return l })
	logs["empty"] = nil
	logs["no campaign.created"] = edit(func(l []events.Event) []events.Event { return l[1:] })
	for name, log := range logs {
		t.Run(name, func(t *testing.T) {
			s := &Service{store: sliceStore{log: log}}
			want, err := s.verifyWhole(nil)
			if err != nil {
				t.Fatal(err)
			}
			got, ok, err := s.verifyStreaming(nil, nil)
			if err != nil || !ok {
				t.Fatalf("streaming verify: ok %v, %v", ok, err)
			}
			if !reflect.DeepEqual(got, want) {
				gj, _ := json.MarshalIndent(got, "", " ")
				wj, _ := json.MarshalIndent(want, "", " ")
				t.Fatalf("the streaming report differs:\n%s\nwant\n%s", gj, wj)
			}
			if name != "demo" && name != "generated" && name != "verify" && want.OK {
				t.Fatalf("the damaged log %q passes verification", name)
			}
		})
	}
}

// TestBloom: the filter never says a string added was not, and says so of
// few strings never added.
func TestBloom(t *testing.T) {
	const n = 100000
	b := newBloom(n, maphash.MakeSeed())
	for i := range n {
		b.addHas(b.hash(fmt.Sprint("added", i)))
	}
	for i := range n {
		if !b.addHas(b.hash(fmt.Sprint("added", i))) {
			t.Fatalf("added%d was added, but the filter does not have it", i)
		}
	}
	wrong := 0
	for i := range n {
		if b.has(b.hash(fmt.Sprint("other", i))) {
			wrong++
		}
	}
	// 16 to 32 bits a string, 4 of them in one block: about 0.2%.
	t.Logf("%d of %d strings never added seem added", wrong, n)
	if wrong > n/200 {
		t.Errorf("%d of %d strings never added seem added", wrong, n)
	}
}
