package main

//go:generate go test -run TestGeneratedDocsAreCurrent -update-docs

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// The command reference (docs/cli, Markdown) and the man pages (docs/man)
// are generated from the command tree itself, so they cannot drift from
// --help. The generator lives in the tests, not in the program: cobra/doc
// and its Markdown renderer would cost every run of ltscamp their start-up
// (see docs/performance.md).
var updateDocs = flag.Bool("update-docs", false, "rewrite docs/cli and docs/man from the command tree (go generate ./...)")

// manualDate is the date the man pages carry. It is fixed so that a
// regeneration changes the pages only when the commands change; move it on
// with a release.
var manualDate = time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC)

// docsDir is the repository's docs folder, seen from this package.
var docsDir = filepath.Join("..", "..", "docs")

// TestGeneratedDocsAreCurrent fails when docs/cli or docs/man differ from
// what the command tree generates: run `go generate ./...` after changing
// a command, and commit the pages. With -update-docs it rewrites them.
func TestGeneratedDocsAreCurrent(t *testing.T) {
	dir := t.TempDir()
	if *updateDocs {
		dir = docsDir
	}
	if err := writeDocs(newRootCmd(&app{env: quietEnv()}), dir); err != nil {
		t.Fatal(err)
	}
	if *updateDocs {
		return
	}
	for _, sub := range []string{"cli", "man"} {
		want := listDir(t, filepath.Join(dir, sub))
		have := listDir(t, filepath.Join(docsDir, sub))
		if !slices.Equal(want, have) {
			t.Errorf("docs/%s holds %v; the commands generate %v: run go generate ./...", sub, have, want)
			continue
		}
		for _, name := range want {
			gen, _ := os.ReadFile(filepath.Join(dir, sub, name))
			got, _ := os.ReadFile(filepath.Join(docsDir, sub, name))
			if !bytes.Equal(gen, got) {
				t.Errorf("docs/%s/%s is out of date: run go generate ./...", sub, name)
			}
		}
	}
}

// TestTheProgramLeavesTheDocGeneratorOut keeps cobra/doc (and the
// Markdown and man renderers it pulls in) out of the ltscamp binary.
func TestTheProgramLeavesTheDocGeneratorOut(t *testing.T) {
	ents, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".go") && !strings.HasSuffix(e.Name(), "_test.go") {
			src, err := os.ReadFile(e.Name())
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(src, []byte(`"github.com/spf13/cobra/doc"`)) {
				t.Errorf("%s imports cobra/doc: generate the docs from the tests (gendocs_test.go)", e.Name())
			}
		}
	}
}

// quietEnv is an environment with no variables, no input and discarded
// output.
func quietEnv() *Env {
	return &Env{Getenv: func(string) string { return "" }, Now: time.Now, Stdin: bytes.NewReader(nil), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
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

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}
