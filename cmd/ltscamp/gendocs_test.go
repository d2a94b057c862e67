package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestGeneratedDocsAreCurrent fails when docs/cli or docs/man differ from
// what the command tree generates: run `go generate ./...` after changing
// a command, and commit the pages.
func TestGeneratedDocsAreCurrent(t *testing.T) {
	dir := t.TempDir()
	env := &Env{Getenv: func(string) string { return "" }, Now: time.Now, Stdin: bytes.NewReader(nil), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}}
	if err := writeDocs(newRootCmd(&app{env: env}), dir); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"cli", "man"} {
		want := listDir(t, filepath.Join(dir, sub))
		have := listDir(t, filepath.Join("..", "..", "docs", sub))
		if !slices.Equal(want, have) {
			t.Errorf("docs/%s holds %v; the commands generate %v: run go generate ./...", sub, have, want)
			continue
		}
		for _, name := range want {
			gen, _ := os.ReadFile(filepath.Join(dir, sub, name))
			got, _ := os.ReadFile(filepath.Join("..", "..", "docs", sub, name))
			if !bytes.Equal(gen, got) {
				t.Errorf("docs/%s/%s is out of date: run go generate ./...", sub, name)
			}
		}
	}
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
