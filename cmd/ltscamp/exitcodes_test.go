package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// run invokes Main in-process with buffers for the streams, on the
// campaign file c.ltscamp in dir.
func run(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return runOn(t, filepath.Join(dir, "c.ltscamp"), args...)
}

// runOn is run on the campaign db names: a file, or a postgres://
// address.
func runOn(t *testing.T, db string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{
		Args:   append([]string{"--db", db, "--actor", "gm"}, args...),
		Stdin:  strings.NewReader(""),
		Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" },
		Now:    func() time.Time { return time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC) },
	}
	code = Main(env)
	return code, out.String(), errb.String()
}

// TestExitCodes checks each row of the exit-code table with a real command.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	for _, setup := range [][]string{
		{"init"},
		{"char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9"},
	} {
		if code, _, stderr := run(t, dir, setup...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", setup, code, stderr)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a campaign\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tampered := copyCampaign(t, dir)
	tamper(t, tampered, false, `UPDATE events SET actor = 'mallory' WHERE seq = 2`)
	tests := []struct {
		args []string
		want int
	}{
		{[]string{"sheet", "Ajax"}, ExitOK},
		{[]string{"roll", "3/DX", "--char", "Ajax", "--dice", "1,3,7"}, ExitUsage},
		{[]string{"roll"}, ExitUsage},
		{[]string{"fly"}, ExitUsage},
		{[]string{"sheet", "Ajax", "--luck"}, ExitUsage},
		{[]string{"xp", "award", "Ajax", "-5", "--reason", "r"}, ExitUsage},
		{[]string{"sheet", "Ajx"}, ExitNotFound},
		{[]string{"char", "new", "Q1", "--st", "17", "--dx", "8", "--iq", "8"}, ExitUsage},
		{[]string{"char", "new", "Q1", "--st", "16", "--dx", "9", "--iq", "8"}, ExitRule},
		{[]string{"export", "sheet", "Ajax", "-o", filepath.Join(dir, "no", "such", "ajax.md")}, ExitUsage},
		{[]string{"--db", filepath.Join(dir, "n.ltscamp"), "init", "--name", "\x1b[31mred\x1b[0m"}, ExitUsage},
		{[]string{"xp", "spend", "Ajax", "ST"}, ExitRule},
		{[]string{"char", "new", "ajax", "--st", "12", "--dx", "11", "--iq", "9"}, ExitConflict},
		{[]string{"init"}, ExitConflict},
		{[]string{"--db", filepath.Join(dir, "notes.txt"), "sheet", "Ajax"}, ExitNotCampaign},
		{[]string{"--db", filepath.Join(dir, "none.ltscamp"), "sheet", "Ajax"}, ExitNotCampaign},
		{[]string{"verify"}, ExitOK},
		{[]string{"--db", filepath.Join(tampered, "c.ltscamp"), "verify"}, ExitInvalidLog},
	}
	for _, tt := range tests {
		code, _, stderr := run(t, dir, tt.args...)
		if code != tt.want {
			t.Errorf("%v: exit %d, want %d (stderr %q)", tt.args, code, tt.want, stderr)
		}
		if code != ExitOK && !strings.HasPrefix(stderr, "ltscamp: ") {
			t.Errorf("%v: stderr %q lacks the ltscamp: prefix", tt.args, stderr)
		}
	}
}
