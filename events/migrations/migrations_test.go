package migrations_test

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/ltscamp/ltscamp/events/migrations"
)

func TestLoad(t *testing.T) {
	good := fstest.MapFS{
		"m/0002_snapshots.sql": {Data: []byte("CREATE TABLE s (x)")},
		"m/0001_events.sql":    {Data: []byte("CREATE TABLE e (x)")},
	}
	ms, err := migrations.Load(good, "m")
	if err != nil || len(ms) != 2 || ms[0].Version != 1 || ms[0].Name != "0001_events.sql" || ms[1].Version != 2 || ms[1].SQL != "CREATE TABLE s (x)" {
		t.Fatalf("Load = %+v, %v", ms, err)
	}
	for _, tc := range []struct {
		fsys fstest.MapFS
		want string
	}{
		{fstest.MapFS{"m/0001_a.sql": {}, "m/0003_c.sql": {}}, "expected number 0002"},
		{fstest.MapFS{"m/0001_a.sql": {}, "m/notes.txt": {}}, "not named NNNN_name.sql"},
		{fstest.MapFS{"m": {Mode: fs.ModeDir}}, "no embedded migrations"},
		{fstest.MapFS{}, "read embedded migrations"},
	} {
		if _, err := migrations.Load(tc.fsys, "m"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load of %v: %v, want an error saying %q", tc.fsys, err, tc.want)
		}
	}
}
