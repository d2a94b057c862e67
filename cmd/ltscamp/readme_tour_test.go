package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Issue 21: the README's quick start runs the demo, which writes
// ./campaign.ltscamp; its tour then began with `ltscamp init` in the same
// folder and failed (exit 5). The tour is run here as written, in order,
// in a folder where the demo has just run: every command succeeds and
// prints what the README shows (ids, hashes and wall times aside; "…"
// stands for any lines).
func TestReadmeTourAfterDemo(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, tour, ok := strings.Cut(string(readme), "\n## A short tour\n")
	if !ok {
		t.Fatal("README.md has no section \"A short tour\"")
	}
	tour, _, _ = strings.Cut(tour, "\n## ")
	t.Chdir(t.TempDir())
	vars := map[string]string{"NO_COLOR": "1"}
	runHere := func(args ...string) (int, string) {
		var out bytes.Buffer
		env := &Env{Args: args, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out,
			Getenv: func(k string) string { return vars[k] }, Now: time.Now}
		return Main(env), out.String()
	}
	if code, out := runHere("--actor", "gm", "demo"); code != ExitOK {
		t.Fatalf("demo: exit %d\n%s", code, out)
	}
	steps := 0
	for _, block := range tourBlocks(tour) {
		for _, step := range block {
			cmd, filter, _ := strings.Cut(step.cmd, " | grep -E ")
			args := shellWords(cmd)
			if len(args) > 0 && args[0] == "export" {
				for _, kv := range args[1:] {
					k, v, _ := strings.Cut(kv, "=")
					vars[k] = v
				}
				continue
			}
			if len(args) == 0 || args[0] != "ltscamp" {
				t.Fatalf("the tour runs %q, which this test cannot", step.cmd)
			}
			steps++
			code, out := runHere(args[1:]...)
			if filter != "" {
				re := regexp.MustCompile(strings.Trim(filter, `'"`))
				var kept []string
				for _, l := range strings.Split(out, "\n") {
					if re.MatchString(l) {
						kept = append(kept, l)
					}
				}
				out = strings.Join(kept, "\n")
			}
			if code != ExitOK {
				t.Fatalf("$ %s: exit %d\n%s", step.cmd, code, out)
			}
			if !shownMatches(step.shown, strings.Split(strings.TrimRight(out, "\n"), "\n")) {
				t.Errorf("$ %s prints\n%s\nthe README shows\n%s", step.cmd, out, strings.Join(step.shown, "\n"))
			}
		}
	}
	if steps < 10 {
		t.Fatalf("only %d commands found in the tour", steps)
	}
}

// tourStep is one "$ command" of a transcript and the lines shown after it.
type tourStep struct {
	cmd   string
	shown []string
}

// tourBlocks reads the transcripts of the fenced code blocks of md.
func tourBlocks(md string) [][]tourStep {
	var blocks [][]tourStep
	var cur []tourStep
	in := false
	for _, l := range strings.Split(md, "\n") {
		switch {
		case strings.HasPrefix(l, "```"):
			if in {
				blocks = append(blocks, cur)
				cur = nil
			}
			in = !in
		case in && strings.HasPrefix(l, "$ "):
			cur = append(cur, tourStep{cmd: l[2:]})
		case in && len(cur) > 0:
			cur[len(cur)-1].shown = append(cur[len(cur)-1].shown, l)
		}
	}
	return blocks
}

// shellWords splits a command line as a shell does, quotes and all.
func shellWords(s string) []string {
	var words []string
	var w strings.Builder
	var quote rune
	inWord := false
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		default:
			w.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words
}

var tourVolatile = []*regexp.Regexp{
	regexp.MustCompile(`\b01[0-9A-HJKMNP-TV-Z]{24}\b`),                // ids
	regexp.MustCompile(`\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?Z?`), // wall times
	regexp.MustCompile(`\b[0-9a-f]{12,64}\b`),                         // hashes
}

// shownMatches says whether the lines got are those shown, with ids,
// times and hashes as they fall, and "…" for any run of lines; a shown
// line ending in "…" stands for any line it begins.
func shownMatches(shown, got []string) bool {
	norm := func(s string) string {
		for _, re := range tourVolatile {
			s = re.ReplaceAllString(s, "X")
		}
		return strings.TrimRight(s, " ")
	}
	if len(shown) == 0 {
		return true
	}
	if strings.TrimSpace(shown[0]) == "…" {
		for k := 0; k <= len(got); k++ {
			if shownMatches(shown[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	if len(got) == 0 {
		return false
	}
	s, g := norm(shown[0]), norm(got[0])
	if s != g && !(strings.HasSuffix(s, "…") && strings.HasPrefix(g, strings.TrimSuffix(s, "…"))) {
		return false
	}
	return shownMatches(shown[1:], got[1:])
}
