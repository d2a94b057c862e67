package main

import (
	"bytes"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/sqlitestore"
)

// readLog reads the whole log of the campaign at path.
func readLog(t *testing.T, path string) []events.Event {
	t.Helper()
	s, err := sqlitestore.Open(path, sqlitestore.Options{Now: time.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	es, err := s.Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// TestSameSeedSameLog generates campaigns into files, in batches that span
// several of the generator's transactions: the same flags give the same
// log, event for event, and another seed another one.
func TestSameSeedSameLog(t *testing.T) {
	dir := t.TempDir()
	gen := func(name string, seed int) []events.Event {
		path := filepath.Join(dir, name)
		var stderr bytes.Buffer
		args := []string{"-characters", "7", "-events", "3000", "-per-command", "40", "-seed", fmt.Sprint(seed), "-o", path}
		if err := run(args, &stderr, time.Now); err != nil {
			t.Fatalf("run %v: %v", args, err)
		}
		if !strings.Contains(stderr.String(), "wrote ") {
			t.Errorf("stderr %q does not report the events written", stderr.String())
		}
		return readLog(t, path)
	}
	a, b, c := gen("a.ltscamp", 7), gen("b.ltscamp", 7), gen("c.ltscamp", 8)
	if len(a) < 7*3000 {
		t.Fatalf("%d events, want at least %d", len(a), 7*3000)
	}
	if seq, reason, broken := events.ChainBreak(a, events.GenesisHash()); broken {
		t.Fatalf("chain broken at %d: %s", seq, reason)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("two runs with seed 7 wrote different logs")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("seeds 7 and 8 wrote the same log")
	}
}

// TestRefusesAnExistingFile leaves a file in the way alone.
func TestRefusesAnExistingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.ltscamp")
	if err := run([]string{"-characters", "1", "-events", "1", "-o", path}, io.Discard, time.Now); err != nil {
		t.Fatal(err)
	}
	before := readLog(t, path)
	if err := run([]string{"-characters", "1", "-events", "5", "-o", path}, io.Discard, time.Now); err == nil {
		t.Fatal("run over an existing campaign succeeded")
	}
	if after := readLog(t, path); !reflect.DeepEqual(after, before) {
		t.Fatal("the existing campaign changed")
	}
}

// BenchmarkGenerate writes a campaign of 200 characters with 500 events
// each (about 104,000 events) per op, and reports events/s. The issue's
// goal, at 1M events (-characters 200 -events 5000), is 100,000 ev/s.
func BenchmarkGenerate(b *testing.B) {
	dir := b.TempDir()
	n := 0
	for i := 0; b.Loop(); i++ {
		path := filepath.Join(dir, fmt.Sprintf("bench-%d.ltscamp", i))
		if err := run([]string{"-characters", "200", "-events", "500", "-seed", "42", "-o", path}, io.Discard, time.Now); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		s, err := sqlitestore.Open(path, sqlitestore.Options{Now: time.Now})
		if err != nil {
			b.Fatal(err)
		}
		c, err := s.Count()
		if err != nil {
			b.Fatal(err)
		}
		n += int(c)
		_ = s.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "ev/s")
}
