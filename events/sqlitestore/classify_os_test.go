package sqlitestore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

// TestClassifyOS: the operating system's words for a full or failing
// disk, met around the driver (creating, linking, syncing a file), are
// classified as SQLite's are, words kept; init on a full disk once exited
// 2 ("cannot create the campaign") for them.
func TestClassifyOS(t *testing.T) {
	errnos := []struct {
		errno error
		want  error
	}{
		{syscall.ENOSPC, events.ErrDiskFull},
		{syscall.EDQUOT, events.ErrDiskFull},
		{syscall.EIO, events.ErrIO},
	}
	if f, err := os.OpenFile("/dev/full", os.O_WRONLY, 0); err == nil {
		_, werr := f.Write([]byte("x")) // the kernel's own ENOSPC
		f.Close()
		errnos = append(errnos, struct{ errno, want error }{werr, events.ErrDiskFull})
	}
	for _, c := range errnos {
		wrapped := fmt.Errorf("create c.ltscamp: %w", &fs.PathError{Op: "write", Path: ".c.ltscamp.init-1", Err: c.errno})
		got := Classify(wrapped)
		if !errors.Is(got, c.want) {
			t.Errorf("Classify(%v) does not match %v", wrapped, c.want)
		}
		if got.Error() != wrapped.Error() {
			t.Errorf("the words changed: %q, was %q", got, wrapped)
		}
	}
	for _, other := range []error{syscall.EACCES, syscall.ENOENT, errors.New("a bug")} {
		if got := Classify(fmt.Errorf("x: %w", other)); errors.Is(got, events.ErrDiskFull) || errors.Is(got, events.ErrIO) {
			t.Errorf("Classify(%v) = %v, a disk failure", other, got)
		}
	}
}
