package pgstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/pgstore"
	"github.com/ltscamp/ltscamp/events/pgstore/pgtest"
)

// appenderEnv, set in a child process of the test binary, makes it an
// appender (see runAppender) instead of running the tests.
const appenderEnv = "LTSCAMP_PGSTORE_APPENDER"

// appender is what a child process appends: Goroutines × Commands
// commands to the campaign at Address, their IDs starting with Prefix.
type appender struct {
	Address    string
	Prefix     string
	Goroutines int
	Commands   int
}

// runAppender is the child process: it appends, and exits 0 when every
// command went in, 1 with the errors on stderr otherwise.
func runAppender(spec string) int {
	var a appender
	if err := json.Unmarshal([]byte(spec), &a); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	s, err := pgstore.Open(a.Address, pgstore.Options{Now: clock})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer s.Close()
	var failed atomic.Int64
	var wg sync.WaitGroup
	for g := range a.Goroutines {
		wg.Go(func() {
			own := fmt.Sprintf("character/%s-%d", a.Prefix, g)
			for i := range a.Commands {
				if err := appendOne(s, a.Prefix, own, g, i); err != nil {
					fmt.Fprintln(os.Stderr, err)
					failed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if failed.Load() > 0 {
		return 1
	}
	return 0
}

// appendOne appends a command of two events as a roll does: one on the
// goroutine's own stream, checked at its exact version (which only this
// goroutine moves), one on the shared dice stream.
func appendOne(s *pgstore.Store, prefix, own string, g, i int) error {
	id := fmt.Sprintf("%s-%d-%d", prefix, g, i)
	c := events.Command{ID: id, Actor: "gm", RecordedAt: clock(),
		Expected: map[string]int64{own: int64(i), "dice": events.AnyVersion},
		Events: []events.Pending{
			{ID: id + "a", Stream: own, Type: "check.rolled", PayloadVersion: 1, Payload: json.RawMessage(`{"faces":[1,2,3]}`)},
			{ID: id + "b", Stream: "dice", Type: "dice.rolled", PayloadVersion: 1, Payload: json.RawMessage(`{"n":3}`)},
		}}
	_, err := s.Append(c)
	return err
}

// TestConcurrentProcesses: 4 processes × 4 goroutines append 1,000
// commands each to one campaign, then to two campaigns at once: no
// error, positions dense from 1, the chain whole, each campaign holding
// its own commands and no other's.
func TestConcurrentProcesses(t *testing.T) {
	const procs, goroutines = 4, 4
	commands := 1000
	if testing.Short() || raceEnabled {
		commands = 50
	}
	db := pgtest.Database(t)
	one, two := named(db, "one"), named(db, "two")
	for _, a := range []string{one, two} {
		createNamed(t, a).Close()
	}
	run := func(t *testing.T, specs []appender) {
		t.Helper()
		errs := make([]error, len(specs))
		var wg sync.WaitGroup
		for i, a := range specs {
			wg.Go(func() {
				b, _ := json.Marshal(a)
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), appenderEnv+"="+string(b))
				out, err := cmd.CombinedOutput()
				if err != nil {
					errs[i] = fmt.Errorf("appender %s: %v\n%s", a.Prefix, err, firstLines(string(out), 5))
				}
			})
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatal(err)
		}
	}
	var specs []appender
	for p := range procs {
		specs = append(specs, appender{Address: one, Prefix: fmt.Sprintf("one.p%d", p), Goroutines: goroutines, Commands: commands})
	}
	run(t, specs)
	checkLog(t, one, "one.", procs*goroutines*commands)

	specs = specs[:0]
	for p := range procs {
		addr, name := one, "one"
		if p%2 == 1 {
			addr, name = two, "two"
		}
		specs = append(specs, appender{Address: addr, Prefix: fmt.Sprintf("%s.q%d", name, p), Goroutines: goroutines, Commands: commands})
	}
	run(t, specs)
	checkLog(t, one, "one.", (procs+procs/2)*goroutines*commands)
	checkLog(t, two, "two.", procs/2*goroutines*commands)
}

// checkLog checks the campaign at address: cmds commands of two events,
// every command ID starting with prefix, seqs dense from 1, the chain
// whole, each command whole.
func checkLog(t *testing.T, address, prefix string, cmds int) {
	t.Helper()
	s, err := pgstore.OpenReadOnly(address)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var log []events.Event
	for e, err := range s.Iter(events.Query{}) {
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, e)
	}
	if len(log) != 2*cmds {
		t.Fatalf("%s: %d events, want %d", address, len(log), 2*cmds)
	}
	perCommand := map[string]int{}
	for i, e := range log {
		if e.Seq != int64(i+1) {
			t.Fatalf("%s: event %d has seq %d: positions are not dense", address, i+1, e.Seq)
		}
		if !strings.HasPrefix(e.CommandID, prefix) {
			t.Fatalf("%s: seq %d is of command %s, another campaign's", address, e.Seq, e.CommandID)
		}
		perCommand[e.CommandID]++
	}
	for id, n := range perCommand {
		if n != 2 {
			t.Fatalf("%s: command %s has %d events, want 2", address, id, n)
		}
	}
	if seq, why, broken := events.ChainBreak(log, events.GenesisHash()); broken {
		t.Fatalf("%s: chain broken at %d: %s", address, seq, why)
	}
	if n, _ := s.StreamVersion("dice"); n != int64(cmds) {
		t.Fatalf("%s: dice at version %d, want %d", address, n, cmds)
	}
}

// firstLines returns s's first n lines.
func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// TestServerRestartsDuringAppends crashes the server (pg_ctl restart -m
// immediate) at random moments while goroutines append: every command
// acknowledged is in the log, whole; a command whose append failed is
// retried with the same ID until it goes in or is found there already;
// and the log chains from 1 to its head with no gap.
func TestServerRestartsDuringAppends(t *testing.T) {
	db := pgtest.Database(t)
	addr := named(db, "faults")
	s := createNamed(t, addr)
	defer s.Close()
	const workers = 4
	restarts := 4
	if testing.Short() {
		restarts = 2
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 0))
	ctx, stop := context.WithCancel(context.Background())
	var acknowledged, failures atomic.Int64
	var wg sync.WaitGroup
	for g := range workers {
		wg.Go(func() {
			own := "character/w" + strconv.Itoa(g)
			for i := 0; ctx.Err() == nil; i++ {
				// A failed append is tried again as it was: the same
				// command ID, decided at the same version. It goes in
				// once, or is reported a duplicate if the first try
				// committed after all.
				for {
					err := appendOne(s, "w", own, g, i)
					if err == nil {
						acknowledged.Add(1)
						break
					}
					var ce *events.ConcurrencyError
					if errors.As(err, &ce) {
						t.Errorf("worker %d command %d: %v (the stream is this worker's alone)", g, i, err)
						return
					}
					if !errors.Is(err, events.ErrUnreachable) && !errors.Is(err, events.ErrBusy) {
						t.Errorf("worker %d command %d: %v, want the server's absence classified", g, i, err)
						return
					}
					failures.Add(1)
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
	for range restarts {
		time.Sleep(time.Duration(100+rng.IntN(400)) * time.Millisecond)
		pgtest.Restart(t)
	}
	time.Sleep(200 * time.Millisecond)
	stop()
	wg.Wait()
	if t.Failed() {
		return
	}
	t.Logf("%d commands acknowledged, %d failed tries across %d restarts", acknowledged.Load(), failures.Load(), restarts)
	if failures.Load() == 0 {
		t.Fatalf("no append failed across %d restarts: the restarts did not land while appending", restarts)
	}
	r, err := pgstore.OpenReadOnly(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	log, err := r.Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(log)) != 2*acknowledged.Load() {
		t.Fatalf("%d events for %d commands acknowledged, want two each", len(log), acknowledged.Load())
	}
	seen := map[string]int{}
	for i, e := range log {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i+1, e.Seq)
		}
		seen[e.CommandID]++
	}
	for g := range workers {
		v, _ := r.StreamVersion("character/w" + strconv.Itoa(g))
		for i := range v {
			if n := seen[fmt.Sprintf("w-%d-%d", g, i)]; n != 2 {
				t.Fatalf("command w-%d-%d: %d events in the log, want 2", g, i, n)
			}
		}
	}
	if seq, why, broken := events.ChainBreak(log, events.GenesisHash()); broken {
		t.Fatalf("chain broken at %d: %s", seq, why)
	}
	// The pool mends itself: an append now goes in at once.
	if _, err := s.Append(events.Command{ID: "after", Actor: "gm", RecordedAt: clock(), Expected: map[string]int64{"dice": events.AnyVersion},
		Events: []events.Pending{{ID: "after-a", Stream: "dice", Type: "t", PayloadVersion: 1, Payload: json.RawMessage(`{}`)}}}); err != nil {
		t.Fatalf("an append after the restarts: %v", err)
	}
}
