package sqlitestore

import (
	"os"
	"testing"

	"modernc.org/sqlite"
)

func TestTmpHeader(t *testing.T) {
	s := newStore(t)
	b, _ := os.ReadFile(s.Path())
	t.Logf("len %d appid bytes % x ofd %v", len(b), b[68:72], sqlite.OFDLockingEnabled())
	st, err := os.Stat(s.Path() + "-wal")
	t.Log(st.Size(), err)
}
