// Command ltscamp-gen writes a large, reproducible campaign for benchmarks:
// the same flags give the same campaign, byte for byte in its log. It
// saves the snapshots `ltscamp rebuild` would, keyed by its own build (and
// -build): an ltscamp built from the same commit reads the campaign as
// fast as a played one straight away.
//
//	go run ./cmd/ltscamp-gen -characters 200 -events 5000 -seed 42 -o big.ltscamp
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"runtime/pprof"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events/sqlitestore"
	"github.com/ltscamp/ltscamp/rules"
)

func main() {
	if err := run(os.Args[1:], os.Stderr, time.Now); err != nil {
		fmt.Fprintf(os.Stderr, "ltscamp-gen: %v\n", err)
		os.Exit(1)
	}
}

// run parses the flags and writes the campaign; now times the run only
// (the campaign's own clock starts at a fixed date).
func run(args []string, stderr io.Writer, now func() time.Time) error {
	fs := flag.NewFlagSet("ltscamp-gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	chars := fs.Int("characters", 200, "party size")
	perChar := fs.Int("events", 5000, "events per character after its creation")
	perCmd := fs.Int("per-command", 500, "events per command (each command is one transaction)")
	seed := fs.Int64("seed", 42, "random seed: the same seed gives the same campaign")
	out := fs.String("o", "", "the campaign file to create (required; must not exist)")
	edition := fs.String("edition", string(rules.DefaultEdition), "edition of the rules")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the run to FILE")
	build := fs.String("build", "", "the release of ltscamp that will read the campaign (its -X main.releaseVersion), which the snapshots saved are keyed by")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	if *out == "" {
		return errors.New("-o FILE is required")
	}
	ed, err := rules.ParseEdition(*edition)
	if err != nil {
		return err
	}
	// The heap stays small (a few batches of events) while a great deal
	// passes through it: collecting it at four times its size rather than
	// twice halves the collector's work, for tens of MB more memory.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	start := now()
	epoch := time.Date(2026, 1, 1, 19, 0, 0, 0, time.UTC)
	st, err := sqlitestore.CreateStaged(*out, sqlitestore.Options{Now: func() time.Time { return epoch }})
	if err != nil {
		return err
	}
	_, err = campaign.Generate(st, campaign.GenerateOptions{
		Characters: *chars, EventsPerCharacter: *perChar, EventsPerCommand: *perCmd, Seed: *seed, Start: epoch, Edition: ed, Build: *build,
	})
	if err != nil {
		_ = st.Discard()
		return err
	}
	n, err := st.Count()
	if err != nil {
		_ = st.Discard()
		return err
	}
	if err := st.Publish(); err != nil {
		return err
	}
	secs := now().Sub(start).Seconds()
	fmt.Fprintf(stderr, "wrote %d events to %s in %.1f s (%.0f events/s)\n", n, *out, secs, float64(n)/secs)
	return nil
}
