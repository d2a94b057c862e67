package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
)

// TestHelpFitsEightyColumns renders every command's help and fails on any
// line wider than 80 columns: the listing, the flags, the examples.
func TestHelpFitsEightyColumns(t *testing.T) {
	env := &Env{Getenv: func(string) string { return "" }, Now: time.Now, Stdin: bytes.NewReader(nil), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
	root := newRootCmd(&app{env: env})
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden {
			return
		}
		var b bytes.Buffer
		c.SetOut(&b)
		if err := c.Help(); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(b.String(), "\n") {
			if n := utf8.RuneCountInString(line); n > 80 {
				t.Errorf("%s --help: a line of %d columns:\n%s", c.CommandPath(), n, line)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
