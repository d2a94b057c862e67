package web

import (
	"testing"

	"github.com/ltscamp/ltscamp/projections"
)

// TestTrimTimelineKeepsTheLatest: a timeline page keeps the last entries,
// across days and adventures, and drops the days and adventures left empty.
func TestTrimTimelineKeepsTheLatest(t *testing.T) {
	day := func(n int, seqs ...int64) projections.TimelineDay {
		d := projections.TimelineDay{Day: n}
		for _, s := range seqs {
			d.Entries = append(d.Entries, projections.TimelineEntry{Seq: s})
		}
		return d
	}
	tl := projections.Timeline{Periods: []projections.TimelinePeriod{
		{Adventure: 1, Days: []projections.TimelineDay{day(1, 1, 2), day(2, 3)}},
		{Adventure: 2, Days: []projections.TimelineDay{day(1, 4, 5, 6), day(2, 7)}},
	}}
	if dropped := trimTimeline(&tl, 3); dropped != 4 {
		t.Errorf("dropped %d entries, want 4", dropped)
	}
	var kept []int64
	for _, p := range tl.Periods {
		if p.Adventure != 2 {
			t.Errorf("adventure %d kept with no entry", p.Adventure)
		}
		for _, d := range p.Days {
			for _, e := range d.Entries {
				kept = append(kept, e.Seq)
			}
		}
	}
	if len(kept) != 3 || kept[0] != 5 || kept[2] != 7 {
		t.Errorf("kept %v, want [5 6 7]", kept)
	}
	if n := trimTimeline(&tl, 10); n != 0 {
		t.Errorf("a timeline within the bound lost %d entries", n)
	}
}
