package campaign

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/memstore"
	"github.com/ltscamp/ltscamp/rules"
)

// The child processes of the concurrency tests are this test binary run
// again, told by these variables what to do.
const (
	childFileEnv  = "LTSCAMP_RELIABILITY_FILE"
	childRollsEnv = "LTSCAMP_RELIABILITY_ROLLS"
	childNameEnv  = "LTSCAMP_RELIABILITY_NAME"
)

// TestRollChild is the child process of the concurrency tests: it does
// nothing unless the variables say so, and then exits when it is done.
func TestRollChild(t *testing.T) {
	if path := os.Getenv(childFileEnv); path != "" {
		os.Exit(rollChild(path))
	}
}

// rollChild is one player's process: it rolls 3/DX for Ajax the number of
// times it is told, opening and closing the campaign for each roll as the
// CLI does, with the real clock and the default pauses. It prints every
// error, and exits 1 if there was any.
func rollChild(path string) int {
	n, err := strconv.Atoi(os.Getenv(childRollsEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	failed := 0
	for i := range n {
		err := func() error {
			s, err := Open(path, Options{VerifyKept: true, Now: time.Now, Actor: os.Getenv(childNameEnv)})
			if err != nil {
				return err
			}
			defer s.Close()
			_, err = s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax", Reason: fmt.Sprintf("%s roll %d", os.Getenv(childNameEnv), i+1)})
			return err
		}()
		if err != nil {
			failed++
			fmt.Fprintf(os.Stderr, "roll %d: %s: %v\n", i+1, rules.CodeOf(err), err)
		}
	}
	if failed > 0 {
		return 1
	}
	return 0
}

// concurrentRolls has procs processes roll rolls times each for the same
// character in one campaign file, and checks that every roll was
// appended: no process saw a conflict, the seqs run on without a gap and
// the log verifies.
func concurrentRolls(t *testing.T, procs, rolls int) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.ltscamp")
	s, err := Create(path, "Race", rules.Edition2021, Options{VerifyKept: true, Now: time.Now, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "Ajax", 12, 11, 9)
	before := count(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	start := time.Now()
	var wg sync.WaitGroup
	outs := make([]bytes.Buffer, procs)
	errs := make([]error, procs)
	for p := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRollChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), childFileEnv+"="+path, childRollsEnv+"="+strconv.Itoa(rolls), childNameEnv+"=player"+strconv.Itoa(p+1))
		cmd.Stdout, cmd.Stderr = &outs[p], &outs[p]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[p] = cmd.Wait()
		}()
	}
	wg.Wait()
	failures := 0
	for p := range procs {
		if errs[p] != nil {
			t.Errorf("player%d: %v\n%s", p+1, errs[p], outs[p].String())
			failures += strings.Count(outs[p].String(), "\n")
		}
	}

	s, err = Open(path, Options{VerifyKept: true, Now: time.Now, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	log, err := s.Store().Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range log {
		if e.Seq != int64(i+1) {
			t.Fatalf("the event at index %d is seq %d: the seqs do not run on", i, e.Seq)
		}
	}
	rolled := 0
	for _, e := range log {
		if e.Type == events.TypeRollMade {
			rolled++
		}
	}
	t.Logf("%d processes × %d rolls: %d rolls appended, %d errors, %d events in all, %s",
		procs, rolls, rolled, failures, len(log), time.Since(start).Round(time.Millisecond))
	if want := procs * rolls; rolled != want || int64(len(log)) != before+int64(want) {
		t.Errorf("%d rolls appended (%d events), want %d (%d)", rolled, len(log), want, before+int64(want))
	}
	rep, err := s.Verify()
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK {
		t.Errorf("the log fails verification: %+v", rep)
	}
}

// TestConcurrentRollsNeverConflict is the short run of the concurrency
// check; reliability_stress_test.go (-tags stress) has the full size.
func TestConcurrentRollsNeverConflict(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	concurrentRolls(t, 4, 15)
}

// conflictingStore refuses the first conflicts Appends with a
// concurrency error (every Append when conflicts is negative), and
// counts the rows the head check reads.
type conflictingStore struct {
	events.Store
	conflicts int
	appends   int
	// lastRead is the Limit of the reads with Last, the head check's.
	lastRead []int
	// tamper, when set, changes the events a read with Last returns.
	tamper func([]events.Event)
}

func (c *conflictingStore) Append(cmd events.Command) (events.AppendResult, error) {
	c.appends++
	if c.conflicts < 0 || c.appends <= c.conflicts {
		return events.AppendResult{}, &events.ConcurrencyError{Stream: "character/X", Expected: 1, Actual: 2}
	}
	return c.Store.Append(cmd)
}

func (c *conflictingStore) Read(q events.Query) ([]events.Event, error) {
	evs, err := c.Store.Read(q)
	if q.Last {
		c.lastRead = append(c.lastRead, q.Limit)
		if c.tamper != nil && err == nil {
			c.tamper(evs)
		}
	}
	return evs, err
}

// retryCampaign is a campaign on st with a clock that stands still, and
// a sleep that records the pauses instead of waiting.
func retryCampaign(t *testing.T, st events.Store) (*Service, *[]time.Duration) {
	t.Helper()
	at := time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)
	var pauses []time.Duration
	s, err := Init(st, "test", rules.Edition2021, Options{VerifyKept: true, Now: func() time.Time { return at }, Actor: "gm",
		Entropy: rand.New(rand.NewSource(1)), Sleep: func(d time.Duration) { pauses = append(pauses, d) }})
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "Ajax", 12, 11, 9)
	return s, &pauses
}

// TestRetryOutlastsConflicts: a command beaten by other processes' commands
// many times in a row is decided again, after growing, jittered pauses,
// until it goes in; the caller never sees the conflicts.
func TestRetryOutlastsConflicts(t *testing.T) {
	st := &conflictingStore{Store: memstore.New()}
	s, pauses := retryCampaign(t, st)
	st.conflicts, st.appends = 12, 0 // more than the old 3 tries
	before := count(t, s)
	if _, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax"}); err != nil {
		t.Fatalf("a conflict a retry resolves reached the caller: %v", err)
	}
	if got := count(t, s); got != before+1 {
		t.Errorf("%d events appended, want 1", got-before)
	}
	// The first try was decided on the states the creation kept (no read
	// of the log): its refusal sends the command back to the log at once.
	// Each of the 11 tries decided from the log that a conflict beat
	// pauses before the next.
	if len(*pauses) != 11 {
		t.Fatalf("%d pauses, want one before each of the 11 retries after a try read from the log: %v", len(*pauses), *pauses)
	}
	step := retryBase
	distinct := map[time.Duration]bool{}
	for i, p := range *pauses {
		if p < step/2 || p > step {
			t.Errorf("pause %d is %s, want between %s and %s", i+1, p, step/2, step)
		}
		distinct[p] = true
		step = min(2*step, retryMax)
	}
	if len(distinct) < 6 {
		t.Errorf("the pauses are not jittered: %v", *pauses)
	}
}

// TestRetryGivesUpAfterDeadline: a command that never goes in gives up
// with a conflict once retryFor has passed, by its pauses alone when the
// clock stands still, and appends nothing.
func TestRetryGivesUpAfterDeadline(t *testing.T) {
	st := &conflictingStore{Store: memstore.New()}
	s, pauses := retryCampaign(t, st)
	st.conflicts = -1
	before := count(t, s)
	_, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax"})
	if rules.CodeOf(err) != rules.CodeConflict || !strings.Contains(err.Error(), "kept changing") || !errors.Is(err, events.ErrConcurrency) && !strings.Contains(err.Error(), "concurrent change") {
		t.Fatalf("err = %v (%s), want a conflict", err, rules.CodeOf(err))
	}
	var total time.Duration
	for _, p := range *pauses {
		total += p
	}
	if total < retryFor || total > retryFor+retryMax {
		t.Errorf("paused %s in all over %d tries, want %s to %s", total, len(*pauses)+1, retryFor, retryFor+retryMax)
	}
	if got := count(t, s); got != before {
		t.Errorf("a command that gave up appended %d events", got-before)
	}
}

// TestWriteRefusedOnBrokenHead: a log whose last events do not chain
// takes no more appends; the error points to verify, and the check read
// only the last few events.
func TestWriteRefusedOnBrokenHead(t *testing.T) {
	st := &conflictingStore{Store: memstore.New()}
	s, _ := retryCampaign(t, st)
	for range 20 {
		if _, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, limit := range st.lastRead {
		if limit < 1 || limit > headCheckEvents {
			t.Fatalf("the head check read %d rows, want at most %d", limit, headCheckEvents)
		}
	}
	if len(st.lastRead) == 0 {
		t.Fatal("no write checked the head")
	}
	cases := map[string]func([]events.Event){
		"payload edited":   func(evs []events.Event) { evs[len(evs)-1].Payload = []byte(`{"edited":true}`) },
		"prev_hash edited": func(evs []events.Event) { evs[1].PrevHash = bytes.Repeat([]byte{1}, events.HashSize) },
		"event missing":    func(evs []events.Event) { evs[2].Seq++ },
	}
	for name, tamper := range cases {
		t.Run(name, func(t *testing.T) {
			st.tamper = tamper
			defer func() { st.tamper = nil }()
			before := count(t, s)
			_, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax"})
			if rules.CodeOf(err) != rules.CodeInvalidLog || !errors.Is(err, events.ErrBrokenHead) || !strings.Contains(err.Error(), "ltscamp verify") {
				t.Fatalf("err = %v (%s), want an invalid log pointing to verify", err, rules.CodeOf(err))
			}
			if got := count(t, s); got != before {
				t.Errorf("a refused write appended %d events", got-before)
			}
		})
	}
	if _, err := s.Roll(RollRequest{Expr: "3/DX", Character: "Ajax"}); err != nil {
		t.Errorf("an intact head refused: %v", err)
	}
}
