package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDiceReportOnATerminal: on a terminal the report's bars are coloured
// (green for the luck of 50 or more), written as the terminal's own
// escapes, not escaped into text ("\x1b[1;32m" shown as letters).
func TestDiceReportOnATerminal(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init"},
		{"char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9"},
		{"roll", "3/DX", "--char", "Ajax", "--dice", "1,2,3"},
	} {
		if code, _, errs := run(t, dir, args...); code != 0 {
			t.Fatalf("%v: %d %s", args, code, errs)
		}
	}
	var out, errb bytes.Buffer
	env := &Env{Args: []string{"--db", filepath.Join(dir, "c.ltscamp"), "dice", "report"}, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" }, Now: time.Now, StdoutTTY: true, Width: 80}
	if code := Main(env); code != 0 {
		t.Fatalf("dice report: %d %s", code, errb.String())
	}
	got := out.String()
	if strings.Contains(got, `\x1b`) {
		t.Errorf("escapes written as text:\n%s", got)
	}
	if !strings.Contains(got, "\x1b[") || !strings.Contains(got, "███") {
		t.Errorf("no coloured bars on a terminal:\n%s", got)
	}
}
