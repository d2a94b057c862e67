package main

import (
	"io"
	"strings"
	"testing"
	"time"
)

// TestTopCommandsNamed checks that each entry of topCommands is named as
// the command it makes: play builds the tree of one command by that name.
func TestTopCommandsNamed(t *testing.T) {
	a := &app{env: &Env{Getenv: func(string) string { return "" }, Now: time.Now}}
	root := newRootCmd(a)
	// help and completion are added by cobra when it runs.
	if got, want := len(root.Commands()), len(topCommands()); got != want {
		t.Errorf("the root has %d commands, topCommands lists %d", got, want)
	}
	for _, c := range topCommands() {
		if got := c.make(a).Name(); got != c.name {
			t.Errorf("topCommands names %q a command called %q", c.name, got)
		}
	}
}

// TestOneCommandTreeHelpsAlike checks that a tree built with one
// top-level command (as play builds it) answers --help as the whole tree.
func TestOneCommandTreeHelpsAlike(t *testing.T) {
	for _, line := range [][]string{{"roll", "--help"}, {"xp", "spend", "--help"}, {"undo", "--help"}} {
		var whole, one strings.Builder
		env := &Env{Args: line, Stdin: strings.NewReader(""), Stdout: &whole, Stderr: io.Discard, Getenv: func(string) string { return "" }, Now: time.Now}
		invoke(env, nil, "", "")
		env.Stdout = &one
		invoke(env, nil, topCommand(line), "")
		if whole.String() != one.String() || whole.Len() == 0 {
			t.Errorf("%v: the one-command tree says\n%s\nthe whole tree\n%s", line, one.String(), whole.String())
		}
	}
}
