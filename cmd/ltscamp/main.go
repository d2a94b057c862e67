// Command ltscamp is an event-sourced campaign tracker for Legends of Time
// and Space. Run `ltscamp --help`, or `ltscamp demo` to see it at work.
package main

import (
	"os"
	"time"

	"golang.org/x/term"
)

func main() {
	os.Exit(Main(System()))
}

// System returns the real process environment: standard streams, the
// environment variables, the wall clock and whether the streams are
// terminals.
func System() *Env {
	width := 0
	if w, _, err := term.GetSize(int(os.Stdout.Fd())); err == nil {
		width = w
	}
	return &Env{
		Width:     width,
		Args:      os.Args[1:],
		Stdin:     os.Stdin,
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
		Getenv:    os.Getenv,
		Now:       time.Now,
		StdinTTY:  term.IsTerminal(int(os.Stdin.Fd())),
		StdoutTTY: term.IsTerminal(int(os.Stdout.Fd())),
		StderrTTY: term.IsTerminal(int(os.Stderr.Fd())),
	}
}
