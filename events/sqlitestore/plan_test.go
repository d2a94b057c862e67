package sqlitestore

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

// TestLastEventsOfOneStreamStopAtTheLimit: the last N events of one
// stream (a character's last rolls on serve's page, `log --char NAME
// --limit N`) are read newest first from the stream's index, stopping at
// N, instead of sorting the whole stream by seq first (100,000 rows for a
// character of the 1M bench campaign: 0.4 s). And they come back in seq
// order, the last N of the stream.
func TestLastEventsOfOneStreamStopAtTheLimit(t *testing.T) {
	s := newTestStore(t)
	for i := range 20 {
		mustAppend(t, s, cmd(fmt.Sprintf("c%02d", i), "character/a", "character/b"))
	}
	q := events.Query{Streams: []string{"character/a"}, Limit: 5, Last: true}
	query, args := selectQuery(q)
	rows, err := s.db.Query("EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if p := strings.Join(plan, "; "); strings.Contains(p, "TEMP B-TREE") || !strings.Contains(p, "INDEX") {
		t.Errorf("the last events of one stream are read by %q: want its index, and no sort", p)
	}
	es, err := s.Read(q)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		if e.Stream != "character/a" {
			t.Errorf("read an event of %s", e.Stream)
		}
		got = append(got, fmt.Sprint(e.StreamVersion))
	}
	if g := strings.Join(got, " "); g != "16 17 18 19 20" {
		t.Errorf("read versions %s, want the last five in order: 16 17 18 19 20", g)
	}
}
