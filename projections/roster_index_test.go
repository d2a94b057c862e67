package projections

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ltscamp/ltscamp/events"
)

// TestRosterFindIndexEqualsLinearSearch: Find and FindFoe, which look
// names up in an index, answer as a search of the whole list with
// strings.EqualFold does, for random rosters of names that fold into one
// another (K, k and the Kelvin sign; s, S and ſ; the three sigmas;
// invalid bytes), with foes added and removed between the lookups, and
// on copies of the roster.
func TestRosterFindIndexEqualsLinearSearch(t *testing.T) {
	parts := []string{"k", "K", "\u212a", "s", "S", "\u017f", "σ", "ς", "Σ", "ß", "ẞ", "a", "\xff", "\xfe", " ", "é", "É"}
	name := func(rng *rand.Rand) string {
		var b strings.Builder
		for range 1 + rng.Intn(3) {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		return b.String()
	}
	for seed := range int64(200) {
		rng := rand.New(rand.NewSource(seed))
		var r Roster
		seq := int64(0)
		apply := func(p events.Payload, stream string) {
			seq++
			raw, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			if err := r.Apply(events.Event{Seq: seq, Stream: stream, Type: p.EventType(), PayloadVersion: p.PayloadVersion(), Payload: raw}); err != nil {
				t.Fatal(err)
			}
		}
		for step := range 60 {
			switch rng.Intn(4) {
			case 0:
				id := fmt.Sprintf("C%d", step)
				apply(events.CharacterCreated{CharacterID: id, Name: NormalizeName(name(rng))}, events.CharacterStream(id))
			case 1:
				id := fmt.Sprintf("F%d", step)
				apply(events.FoeAdded{FoeID: id, Name: NormalizeName(name(rng))}, events.FoeStream(id))
			case 2:
				if len(r.Foes) > 0 {
					apply(events.FoeRemoved{}, events.FoeStream(r.Foes[rng.Intn(len(r.Foes))].ID))
				}
			case 3:
				// A copy answers for itself, and leaves the original's
				// answers as they were.
				c := r
				c.Members = append([]Member(nil), r.Members...)
				c.Members = append(c.Members, Member{ID: "copy", Name: name(rng)})
				q := name(rng)
				if g, w := lookup(c.Find, q), lookup(func(n string) (Member, bool) { return findName(c.Members, n) }, q); g != w {
					t.Fatalf("seed %d step %d: copy Find(%q) = %s, want %s", seed, step, q, g, w)
				}
			}
			for range 5 {
				q := name(rng)
				if rng.Intn(3) == 0 && len(r.Members) > 0 {
					q = strings.ToUpper(r.Members[rng.Intn(len(r.Members))].Name)
				}
				if g, w := lookup(r.Find, q), lookup(func(n string) (Member, bool) { return findName(r.Members, n) }, q); g != w {
					t.Fatalf("seed %d step %d: Find(%q) = %s, want %s (members %q)", seed, step, q, g, w, r.Names())
				}
				if g, w := lookup(r.FindFoe, q), lookup(func(n string) (Member, bool) { return findName(r.Foes, n) }, q); g != w {
					t.Fatalf("seed %d step %d: FindFoe(%q) = %s, want %s (foes %q)", seed, step, q, g, w, r.FoeNames())
				}
			}
		}
	}
}

func lookup(find func(string) (Member, bool), name string) string {
	m, ok := find(name)
	return fmt.Sprintf("%v %s", ok, m.ID)
}

// TestFoldKeyIsEqualFold: two names have the same key exactly when
// strings.EqualFold holds between them.
func TestFoldKeyIsEqualFold(t *testing.T) {
	runes := []string{"k", "K", "\u212a", "s", "S", "\u017f", "σ", "ς", "Σ", "ß", "ẞ", "\xff", "\xfe", "\ufffd", "Ǆ", "ǅ", "ǆ", "İ", "i", "I", "ı"}
	for _, a := range runes {
		for _, b := range runes {
			for _, tail := range []string{"", "x", "X"} {
				x, y := a+tail, b+"x"
				if (foldKey(x) == foldKey(y)) != strings.EqualFold(x, y) {
					t.Errorf("%q %q: same key %v, EqualFold %v", x, y, foldKey(x) == foldKey(y), strings.EqualFold(x, y))
				}
			}
		}
	}
	if !utf8.ValidString(foldKey("a\xffb")) {
		t.Error("the key of an invalid name is not valid UTF-8")
	}
}

// findName is what Find answers, the slow way: the first member whose
// name matches, ignoring case and surrounding or repeated space.
func findName(ms []Member, name string) (Member, bool) {
	name = NormalizeName(name)
	for _, m := range ms {
		if strings.EqualFold(m.Name, name) {
			return m, true
		}
	}
	return Member{}, false
}
