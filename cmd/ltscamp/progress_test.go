package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// The bar stays away from work that ends within a second, and from a
// standard error that is not a terminal; past a second it shows the stage
// and the count, and done clears its line.
func TestProgressBar(t *testing.T) {
	var errb bytes.Buffer
	clock := time.Date(2026, 11, 23, 6, 0, 0, 0, time.UTC)
	env := &Env{Stderr: &errb, StderrTTY: true, Getenv: func(string) string { return "1" }, Now: func() time.Time { return clock }}
	a := &app{env: env}
	p := a.newProgress()
	p.report("verifying", 10, 100)
	if errb.Len() != 0 {
		t.Fatalf("a bar within the first second: %q", errb.String())
	}
	clock = clock.Add(1500 * time.Millisecond)
	p.report("verifying", 50, 100)
	if got := errb.String(); !strings.Contains(got, "verifying") || !strings.Contains(got, "50/100 events") || !strings.Contains(got, "50%") {
		t.Fatalf("the bar past a second: %q", got)
	}
	p.done()
	if !strings.HasSuffix(errb.String(), "\r\033[2K") {
		t.Fatalf("done left the bar: %q", errb.String())
	}
	env.StderrTTY = false
	if (&app{env: env}).newProgress() != nil {
		t.Fatal("a bar on a standard error that is not a terminal")
	}
	var none *progressBar
	none.done() // no bar, nothing to clear
}
