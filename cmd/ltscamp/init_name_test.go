package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInitNameLimits: the campaign's name obeys the text limits of every
// other name (docs/limits.md): no control character, escape sequence or
// bidirectional override, at most 64 characters; exit 2 and no file made.
// init once took all of these.
func TestInitNameLimits(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "c.ltscamp")
	for _, c := range []struct{ name, words string }{
		{"\x1b[31mred\x1b[0m", `holds the control character U+001B (escape)`},
		{"Evil\u202eniaga", `holds the control character U+202E`},
		{"two\nlines", `holds the control character U+000A (newline)`},
		{strings.Repeat("a", 100000), `is 100000 characters long; a name has at most 64`},
		{strings.Repeat("é", 65), `is 65 characters long; a name has at most 64`},
	} {
		code, _, stderr := runDB(t, db, "init", "--name", c.name)
		if code != ExitUsage || !strings.Contains(stderr, "campaign name") || !strings.Contains(stderr, c.words) {
			t.Errorf("init --name %.30q: exit %d, %q; want %d and %q", c.name, code, stderr, ExitUsage, c.words)
		}
		if len(stderr) > 300 {
			t.Errorf("init --name %.30q: a %d-byte message: a long name is quoted shortened", c.name, len(stderr))
		}
		if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("init --name %.30q made %s (%v)", c.name, db, err)
		}
	}
	if code, _, stderr := runDB(t, db, "init", "--name", strings.Repeat("é", 64)); code != ExitOK {
		t.Errorf("a name of 64 characters: exit %d (%s)", code, stderr)
	}
}
