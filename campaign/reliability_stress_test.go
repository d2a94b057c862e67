//go:build stress

package campaign

import (
	"fmt"
	"testing"
)

// TestConcurrentRollsStress is the concurrency check at full size: run it
// with `go test -tags stress -run Stress ./campaign`.
func TestConcurrentRollsStress(t *testing.T) {
	for _, size := range []struct{ procs, rolls int }{{4, 60}, {8, 60}, {4, 250}} {
		t.Run(fmt.Sprintf("%dx%d", size.procs, size.rolls), func(t *testing.T) { concurrentRolls(t, size.procs, size.rolls) })
	}
}

// TestKilledWritersStress kills the writer 60 times (see
// TestKilledWritersLoseNothing).
func TestKilledWritersStress(t *testing.T) { killedWriters(t, 60) }
