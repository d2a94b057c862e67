package sqlitestore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

// TestOpenWALFileWithOurIDButNoSchema: Open skips the read-only probe for
// a WAL file whose header carries the campaign's application ID, so the
// schema check on opening must still refuse a file that only borrows the
// ID, and leave it as it was.
func TestOpenWALFileWithOurIDButNoSchema(t *testing.T) {
	path := makeForeign(t, t.TempDir(), `PRAGMA journal_mode = WAL`,
		fmt.Sprintf(`PRAGMA application_id = %d`, ApplicationID), `CREATE TABLE events (x)`)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if before[18] != 2 || before[19] != 2 {
		t.Fatalf("the test file is not in WAL mode (header bytes %d, %d)", before[18], before[19])
	}
	_, err = Open(path, testOpts)
	if !errors.Is(err, events.ErrNotCampaign) {
		t.Fatalf("err = %v, want ErrNotCampaign", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
		t.Fatal("Open changed the file it refused")
	}
}

// TestOpenCheckpointedCampaignRefusesNewerSchema: the same fast path must
// still refuse a campaign made by a newer ltscamp.
func TestOpenCheckpointedCampaignRefusesNewerSchema(t *testing.T) {
	s := newTestStore(t)
	if _, err := s.db.Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_future.sql', 'x')`); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	head, _ := os.ReadFile(s.Path())
	if len(head) < 100 || head[18] != 2 {
		t.Fatal("the campaign is not a checkpointed WAL file")
	}
	if _, err := Open(s.Path(), testOpts); !errors.Is(err, events.ErrNewerFormat) {
		t.Fatalf("err = %v, want ErrNewerFormat", err)
	}
}
