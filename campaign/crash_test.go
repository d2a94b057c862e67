package campaign

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/rules"
)

// crashFileEnv tells this test binary, run again, to be the writer that
// the crash test kills (TestAwardChild).
const crashFileEnv = "LTSCAMP_CRASH_FILE"

// TestAwardChild is the child process of TestKilledWritersLoseNothing: it
// awards XP to two characters, one command of two events at a time, for
// ever, and prints "ack SEQ" (the command's last seq) once each append has
// returned, that is once the command is committed.
func TestAwardChild(t *testing.T) {
	path := os.Getenv(crashFileEnv)
	if path == "" {
		return
	}
	s, err := Open(path, Options{VerifyKept: true, Now: time.Now, Actor: "crash"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	for i := 1; ; i++ {
		res, err := s.execute(func(d *decision) error {
			for _, name := range []string{"Ajax", "Hector"} {
				c, err := d.character(name)
				if err != nil {
					return err
				}
				if err := d.emit(c.stream, events.XPAwarded{Amount: 1, Reason: fmt.Sprintf("award %d", i)}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stdout, "ack %d\n", res.Events[len(res.Events)-1].Seq)
	}
}

// TestKilledWritersLoseNothing kills a writer with SIGKILL at random
// moments, again and again on the same campaign file, and then checks that
// every command the writer was told had committed is in the log, that no
// command is in it in part, and that the log verifies.
// reliability_stress_test.go (-tags stress) kills it more often.
func TestKilledWritersLoseNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills processes")
	}
	killedWriters(t, 6)
}

func killedWriters(t *testing.T, kills int) {
	path := filepath.Join(t.TempDir(), "c.ltscamp")
	s, err := Create(path, "Crash", rules.Edition2021, Options{VerifyKept: true, Now: time.Now, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	mustCreate(t, s, "Ajax", 12, 11, 9)
	mustCreate(t, s, "Hector", 11, 12, 9)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewSource(seed))
	acked := map[int64]bool{}
	for k := range kills {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAwardChild$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashFileEnv+"="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		// Let the writer commit a few commands, then kill it at a random
		// moment: between commands, or in the middle of one
		// (at the first ack after the deadline, when none came before it).
		acks := 0
		deadline := time.After(time.Duration(20+r.Intn(180)) * time.Millisecond)
		late := false
	read:
		for {
			select {
			case line, ok := <-lines:
				if !ok {
					t.Fatalf("kill %d: the writer stopped by itself: %s", k+1, stderr.String())
				}
				seq, err := strconv.ParseInt(strings.TrimPrefix(line, "ack "), 10, 64)
				if err != nil {
					t.Fatalf("kill %d: writer said %q", k+1, line)
				}
				acked[seq] = true
				acks++
				if late {
					break read
				}
			case <-deadline:
				if acks == 0 {
					late, deadline = true, nil // not a single commit yet: wait for one
					continue
				}
				break read
			}
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		for line := range lines { // acks written before the kill
			if seq, err := strconv.ParseInt(strings.TrimPrefix(line, "ack "), 10, 64); err == nil {
				acked[seq] = true
			}
		}
		_ = cmd.Wait()
	}

	s, err = OpenReadOnly(path, Options{VerifyKept: true, Now: time.Now, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	log, err := s.Store().Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	have := map[int64]bool{}
	perCommand := map[string]int{}
	for _, e := range log {
		have[e.Seq] = true
		if e.Type == events.TypeXPAwarded {
			perCommand[e.CommandID]++
		}
	}
	lost := 0
	for seq := range acked {
		if !have[seq] {
			lost++
		}
	}
	partial := 0
	for _, n := range perCommand {
		if n != 2 {
			partial++
		}
	}
	t.Logf("%d kills: %d commands acknowledged, %d in the log, %d lost, %d partial", kills, len(acked), len(perCommand), lost, partial)
	if lost > 0 || partial > 0 {
		t.Errorf("%d acknowledged commands lost, %d commands in the log in part", lost, partial)
	}
	if len(perCommand) < len(acked) {
		t.Errorf("the log holds %d commands, fewer than the %d acknowledged", len(perCommand), len(acked))
	}
	rep, err := s.Verify()
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK {
		t.Errorf("the log fails verification after the kills: %+v", rep)
	}
}
