package main

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
)

// TestStoreErrorExits: each failure of the file or the disk, as the store
// classifies it, is said in words and exits with its row of the table,
// never 1.
func TestStoreErrorExits(t *testing.T) {
	cases := []struct {
		sentinel error
		code     int
		words    string
	}{
		{events.ErrDamaged, ExitInvalidLog, "c.ltscamp is damaged"},
		{events.ErrDiskFull, ExitSystem, "the disk holding c.ltscamp is full; nothing was appended"},
		{events.ErrReadOnly, ExitUsage, "c.ltscamp is read-only"},
		{events.ErrBusy, ExitConflict, "c.ltscamp stayed locked by another process for too long"},
		{events.ErrIO, ExitSystem, "the operating system could not read or write c.ltscamp"},
	}
	for _, c := range cases {
		t.Run(c.sentinel.Error(), func(t *testing.T) {
			raw := fmt.Errorf("append command X: %w: SQLITE_SOMETHING (99)", c.sentinel)
			err := campaign.MediumError("c.ltscamp", raw)
			if got := exitCode(err); got != c.code {
				t.Errorf("exit %d, want %d", got, c.code)
			}
			if !strings.HasPrefix(err.Error(), c.words) || !strings.HasSuffix(err.Error(), "("+raw.Error()+")") {
				t.Errorf("message %q", err)
			}
			if !errors.Is(err, c.sentinel) {
				t.Errorf("the sentinel is lost")
			}
		})
	}
	if err := errors.New("a bug"); exitCode(campaign.MediumError("c.ltscamp", err)) != ExitInternal {
		t.Errorf("an error of no medium is not internal")
	}
}
