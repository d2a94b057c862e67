package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// filesIn lists the names in dir.
func filesIn(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// logOf returns a campaign's whole log as `log --json --all` prints it.
func logOf(t *testing.T, dir string) string {
	t.Helper()
	code, out, stderr := run(t, dir, "log", "--json", "--all")
	if code != ExitOK {
		t.Fatalf("log of %s: exit %d: %s", dir, code, stderr)
	}
	return out
}

// TestRestore restores a campaign from what `backup` and `export log`
// write, into a new file and, with --force only, over a campaign; and
// refuses a source that would not pass verify, leaving nothing behind.
func TestRestore(t *testing.T) {
	orig, _, _ := buildCampaign(t)
	want := logOf(t, orig)
	backup := filepath.Join(t.TempDir(), "b.ltscamp")
	if code, _, stderr := run(t, orig, "backup", backup); code != ExitOK {
		t.Fatalf("backup: exit %d: %s", code, stderr)
	}
	export := filepath.Join(t.TempDir(), "l.ndjson")
	if code, _, stderr := run(t, orig, "export", "log", "-o", export); code != ExitOK {
		t.Fatalf("export log: exit %d: %s", code, stderr)
	}
	// run names --db DIR/c.ltscamp: restore writes there.
	for _, src := range []string{backup, export, export + ".gz"} {
		t.Run(filepath.Base(src), func(t *testing.T) {
			if strings.HasSuffix(src, ".gz") {
				if code, _, stderr := run(t, orig, "export", "log", "-o", src); code != ExitOK {
					t.Fatalf("export log: exit %d: %s", code, stderr)
				}
			}
			dir := t.TempDir()
			code, _, stderr := run(t, dir, "restore", src)
			if code != ExitOK || !strings.Contains(stderr, "restored 10 events of \"Tamper\"") || !strings.Contains(stderr, "verify ok") {
				t.Fatalf("restore %s: exit %d: %s", src, code, stderr)
			}
			// The campaign, and the record that it was checked as it was
			// put in place (its next write needs no quick_check).
			if got := filesIn(t, dir); !slices.Equal(got, []string{".c.ltscamp.checked", "c.ltscamp"}) {
				t.Errorf("the folder holds %v, want the campaign and its record alone", got)
			}
			if got := logOf(t, dir); got != want {
				t.Errorf("the restored log differs:\n%s\nwant\n%s", got, want)
			}
			if code, out, _ := run(t, dir, "verify"); code != ExitOK {
				t.Errorf("verify of the restored campaign: exit %d\n%s", code, out)
			}
		})
	}

	t.Run("a campaign at --db is kept without --force", func(t *testing.T) {
		dir := t.TempDir()
		if code, _, stderr := run(t, dir, "init", "--name", "Other"); code != ExitOK {
			t.Fatalf("init: %d %s", code, stderr)
		}
		before, _ := os.ReadFile(filepath.Join(dir, "c.ltscamp"))
		code, _, stderr := run(t, dir, "restore", backup)
		if code != ExitConflict || !strings.Contains(stderr, "already exists: pass --force") || !strings.Contains(stderr, "nothing was changed") {
			t.Fatalf("restore over a campaign: exit %d: %s", code, stderr)
		}
		if after, _ := os.ReadFile(filepath.Join(dir, "c.ltscamp")); !bytes.Equal(before, after) {
			t.Errorf("the campaign was changed")
		}
		if got := filesIn(t, dir); slices.ContainsFunc(got, func(n string) bool { return strings.Contains(n, ".tmp") }) {
			t.Errorf("a temporary file stayed: %v", got)
		}

		// --force replaces it, and leaves no -wal or -shm of the old.
		for _, src := range []string{export, backup} {
			if code, _, stderr := run(t, dir, "restore", src, "--force"); code != ExitOK {
				t.Fatalf("restore --force %s: exit %d: %s", src, code, stderr)
			}
			if got := filesIn(t, dir); !slices.Equal(got, []string{".c.ltscamp.checked", "c.ltscamp"}) {
				t.Errorf("after restore --force the folder holds %v", got)
			}
			if got := logOf(t, dir); got != want {
				t.Errorf("restore --force: the log is not the backup's:\n%s", got)
			}
		}
	})

	t.Run("--force while another program has the campaign open", func(t *testing.T) {
		dir := t.TempDir()
		if code, _, stderr := run(t, dir, "init", "--name", "Open"); code != ExitOK {
			t.Fatalf("init: %d %s", code, stderr)
		}
		db := openSQL(t, filepath.Join(dir, "c.ltscamp"))
		defer db.Close()
		var n int
		if err := db.QueryRow(`SELECT count(*) FROM events`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := run(t, dir, "restore", backup, "--force")
		if code != ExitConflict || !strings.Contains(stderr, "is open in another program") {
			t.Fatalf("restore --force over an open campaign: exit %d: %s", code, stderr)
		}
		if got := logOf(t, dir); got == want || !strings.Contains(got, "Open") {
			t.Errorf("the open campaign was replaced")
		}
	})

	t.Run("--force never replaces a file that is not a campaign", func(t *testing.T) {
		dir := t.TempDir()
		notes := filepath.Join(dir, "c.ltscamp")
		if err := os.WriteFile(notes, []byte("my notes\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := run(t, dir, "restore", backup, "--force")
		if code != ExitConflict || !strings.Contains(stderr, "is not a campaign file") {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		if b, _ := os.ReadFile(notes); string(b) != "my notes\n" {
			t.Errorf("the file was changed: %q", b)
		}
	})

	// A source that fails verify is refused with exit 7, and leaves
	// nothing: no campaign, no temporary file, an existing one untouched.
	bad := []struct {
		name   string
		edit   func(dir string)
		stderr string
	}{
		{"payload edited", func(dir string) {
			tamper(t, dir, false, `UPDATE events SET payload = json_set(payload, '$.amount', 200) WHERE seq = 4`)
		}, "seq 4: hash"},
		{"a spend underpriced, chain recomputed", func(dir string) {
			tamper(t, dir, true, `UPDATE events SET payload = json_set(payload, '$.price', 1) WHERE type = 'xp.spent'`)
		}, "would not pass `ltscamp verify`"},
		{"rows deleted", func(dir string) { tamper(t, dir, false, `DELETE FROM events WHERE seq IN (4, 5)`) }, "seq gap"},
		{"the first event deleted", func(dir string) { tamper(t, dir, false, `DELETE FROM events WHERE seq = 1`) }, "does not begin with campaign.created"},
		{"triggers dropped", func(dir string) { rawEdit(t, dir, `DROP TRIGGER events_no_update`) }, "events_no_update is missing"},
	}
	for _, c := range bad {
		t.Run("refused: "+c.name, func(t *testing.T) {
			srcDir := copyCampaign(t, orig)
			c.edit(srcDir)
			src := filepath.Join(srcDir, "c.ltscamp")
			dir := t.TempDir()
			code, _, stderr := run(t, dir, "restore", src)
			if code != ExitInvalidLog || !strings.Contains(stderr, c.stderr) || !strings.Contains(stderr, "nothing was restored") {
				t.Fatalf("restore: exit %d: %s", code, stderr)
			}
			if got := filesIn(t, dir); len(got) != 0 {
				t.Errorf("a refused restore left %v", got)
			}
			// Over a campaign with --force: the campaign stays as it was.
			if code, _, _ := run(t, dir, "init", "--name", "Kept"); code != ExitOK {
				t.Fatal("init")
			}
			before := logOf(t, dir)
			if code, _, stderr := run(t, dir, "restore", src, "--force"); code != ExitInvalidLog {
				t.Fatalf("restore --force: exit %d: %s", code, stderr)
			}
			if got := logOf(t, dir); got != before {
				t.Errorf("a refused restore --force changed the campaign")
			}
			if got := filesIn(t, dir); slices.ContainsFunc(got, func(n string) bool { return strings.Contains(n, ".tmp") }) {
				t.Errorf("a temporary file stayed: %v", got)
			}
		})
	}

	t.Run("not a backup", func(t *testing.T) {
		dir := t.TempDir()
		text := filepath.Join(t.TempDir(), "notes.txt")
		if err := os.WriteFile(text, []byte("hello\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := run(t, dir, "restore", text)
		if code != ExitInvalidLog || !strings.Contains(stderr, "is not an ltscamp backup") {
			t.Errorf("a text file: exit %d: %s", code, stderr)
		}
		if got := filesIn(t, dir); len(got) != 0 {
			t.Errorf("a refused restore left %v", got)
		}
		// import log points a campaign file at restore.
		code, _, stderr = run(t, dir, "import", "log", backup)
		if code != ExitInvalidLog || !strings.Contains(stderr, "ltscamp restore "+backup) {
			t.Errorf("import log of a campaign file: exit %d: %s", code, stderr)
		}
	})
}
