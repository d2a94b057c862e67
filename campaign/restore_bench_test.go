package campaign_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events/sqlitestore"
	"github.com/ltscamp/ltscamp/exports"
	"github.com/ltscamp/ltscamp/importers"
	"github.com/ltscamp/ltscamp/rules"
)

// benchEvents is the size of the generated campaign the restore benchmark
// restores: $LTSCAMP_BENCH_EVENTS (rounded to 200 characters' streams),
// else 100,000. The figure is taken at 1,000,000.
func benchEvents(b *testing.B) int {
	n := 100_000
	if v := os.Getenv("LTSCAMP_BENCH_EVENTS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1000 {
			b.Fatalf("LTSCAMP_BENCH_EVENTS=%q: want a number of events, 1000 or more", v)
		}
	}
	return n
}

// BenchmarkRestoreLog restores a backup of a generated campaign (export
// log, then import log into a new file): parse every line, load it into
// a staged file checking the chain, verify the whole log, publish. It
// reports events/s.
func BenchmarkRestoreLog(b *testing.B) {
	n := benchEvents(b)
	dir := b.TempDir()
	src := filepath.Join(dir, "src.ltscamp")
	epoch := time.Date(2026, 1, 1, 19, 0, 0, 0, time.UTC)
	st, err := sqlitestore.CreateStaged(src, sqlitestore.Options{Now: func() time.Time { return epoch }})
	if err != nil {
		b.Fatal(err)
	}
	const chars = 200
	if _, err := campaign.Generate(st.Store, campaign.GenerateOptions{Characters: chars, EventsPerCharacter: n / chars, EventsPerCommand: 500, Seed: 42, Start: epoch, Edition: rules.DefaultEdition}); err != nil {
		b.Fatal(err)
	}
	if err := st.Publish(); err != nil {
		b.Fatal(err)
	}
	s, err := campaign.Open(src, options())
	if err != nil {
		b.Fatal(err)
	}
	var backup bytes.Buffer
	p, err := s.Point("")
	if err != nil {
		b.Fatal(err)
	}
	h := exports.LogHeader{CampaignID: p.CampaignID, Campaign: p.Campaign.Name, Edition: string(p.Campaign.Edition), Events: p.Seq, HeadSeq: p.Seq, HeadHash: p.HashHex()}
	if _, err := exports.WriteLog(&backup, h, s.Events(p.Seq)); err != nil {
		b.Fatal(err)
	}
	s.Close()
	head, _ := importers.DecodeHash(h.HeadHash)
	b.SetBytes(int64(backup.Len()))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		lr, err := importers.NewLogReader("bench.ndjson", bytes.NewReader(backup.Bytes()))
		if err != nil {
			b.Fatal(err)
		}
		out := filepath.Join(dir, fmt.Sprintf("restored-%d.ltscamp", i))
		if _, err := campaign.RestoreLog(out, campaign.RestoreExpect{Events: h.Events, HeadHash: head, CampaignID: h.CampaignID}, lr.Events(), options()); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		_ = os.Remove(out)
		b.StartTimer()
	}
	b.ReportMetric(float64(h.Events)*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
