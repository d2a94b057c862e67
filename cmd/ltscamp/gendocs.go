package main

//go:generate go run . __gendocs ../../docs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// manualDate is the date the man pages carry. It is fixed so that a
// regeneration changes the pages only when the commands change; move it on
// with a release.
var manualDate = time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)

// newGenDocsCmd is the hidden command `go generate ./...` runs: it writes
// the command reference (docs/cli, Markdown) and the man pages (docs/man)
// from the command tree itself, so they cannot drift from --help.
func newGenDocsCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:    "__gendocs DIR",
		Short:  "Write the command reference and man pages under DIR (for go generate)",
		Hidden: true,
		Args:   exactArgs(1, "the docs folder"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return writeDocs(cmd.Root(), args[0])
		},
	}
}

// writeDocs replaces DIR/cli and DIR/man with pages generated from root.
func writeDocs(root *cobra.Command, dir string) error {
	cli, man := filepath.Join(dir, "cli"), filepath.Join(dir, "man")
	for _, d := range []string{cli, man} {
		if err := os.RemoveAll(d); err != nil {
			return err
		}
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	// The completion and help commands are added when the tree runs; add
	// them here too, so the pages are the same however they are made.
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	root.DisableAutoGenTag = true
	link := func(name string) string { return strings.ToLower(name) }
	if err := doc.GenMarkdownTreeCustom(root, cli, func(string) string { return "" }, link); err != nil {
		return fmt.Errorf("command reference: %w", err)
	}
	header := &doc.GenManHeader{Title: "LTSCAMP", Section: "1", Date: &manualDate, Source: "ltscamp", Manual: "ltscamp manual"}
	if err := doc.GenManTree(root, header, man); err != nil {
		return fmt.Errorf("man pages: %w", err)
	}
	return nil
}
