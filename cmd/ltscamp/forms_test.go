package main

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// runTerminal runs one ltscamp command as if on a terminal, in huh's
// accessible mode (ACCESSIBLE=1: the form asks line by line), typing input.
func runTerminal(t *testing.T, db, input string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{Args: append([]string{"--db", db}, args...), Stdin: &lineReader{lines: strings.SplitAfter(input, "\n")}, Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string {
			switch k {
			case "ACCESSIBLE":
				return "1"
			case "LTSCAMP_ACTOR":
				return "gm"
			case "NO_COLOR":
				return "1"
			}
			return ""
		},
		Now: time.Now, StdinTTY: true, StdoutTTY: true, StderrTTY: true}
	code = Main(env)
	return out.String(), errb.String(), code
}

// lineReader types one line per Read, as a person at a terminal does: the
// accessible form reads each answer with a reader of its own, which must
// not swallow the answers after it.
type lineReader struct{ lines []string }

func (r *lineReader) Read(p []byte) (int, error) {
	for len(r.lines) > 0 && r.lines[0] == "" {
		r.lines = r.lines[1:]
	}
	if len(r.lines) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.lines[0])
	r.lines[0] = r.lines[0][n:]
	return n, nil
}

// The char new form, answered line by line: empty fields (a typed 10 is
// 10), bounds per attribute, the live point budget, skills picked from the
// edition's catalogue by number, and their levels.
func TestCharNewForm(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.ltscamp")
	if _, errs, code := runTerminal(t, db, "", "init"); code != 0 {
		t.Fatalf("init: %s", errs)
	}
	// ST 7 is refused and asked again; 17 is above the 16 the others
	// leave; 38 is Medic, 7 Pistol (2021's catalogue order); 0 confirms.
	out, errs, code := runTerminal(t, db, "Lee\n7\n17\n12\n11\n9\n7\n38\n0\n2\n2\n", "char", "new")
	if code != 0 {
		t.Fatalf("char new: exit %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"7 is below the minimum of 8", "ST 17: at most 16, with the others at 8", "Points: all 32 points placed", "Skill points: 4 of 4 placed"} {
		if !strings.Contains(out, want) {
			t.Errorf("the form lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "created Lee") || !strings.Contains(errs, "Medic 2, Pistol 2") {
		t.Errorf("char new reported:\n%s", errs)
	}
	// Without a terminal the form is not shown: the command says what is
	// missing.
	env := &Env{Args: []string{"--db", db, "char", "new", "Kim"}, Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{},
		Getenv: func(string) string { return "" }, Now: time.Now}
	if code := Main(env); code != ExitUsage || !strings.Contains(env.Stderr.(*bytes.Buffer).String(), "char new needs --st, --dx, --iq (there is no terminal to ask in)") {
		t.Errorf("char new without a terminal: exit %d, %s", code, env.Stderr)
	}
}

// The xp spend form lists only what the character can afford, with the
// price and the XP left; the encounter end form asks the outcome and a
// plotword.
func TestSpendAndEncounterForms(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.ltscamp")
	for _, args := range [][]string{{"init"}, {"char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9", "--skill", "Medic:2"}, {"xp", "award", "Ajax", "15", "--reason", "r"}} {
		if _, errs, code := runTerminal(t, db, "", args...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
	}
	out, errs, code := runTerminal(t, db, "1\n", "xp", "spend", "Ajax")
	if code != 0 {
		t.Fatalf("xp spend: exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "Raise what? Ajax has 15 XP unspent") || !strings.Contains(out, "IQ                     9→10 for 15 XP, 0 left") || strings.Contains(out, "ST ") {
		t.Errorf("the spend form:\n%s", out)
	}
	if !strings.Contains(errs, "Ajax: IQ 9→10 for 15 XP") {
		t.Errorf("xp spend reported:\n%s", errs)
	}
	// None left: nothing costs so little.
	if _, errs, code := runTerminal(t, db, "", "xp", "spend", "Ajax"); code != ExitRule || !strings.Contains(errs, "nothing costs so little") {
		t.Errorf("xp spend with 5 XP: exit %d, %s", code, errs)
	}
	for _, args := range [][]string{{"adventure", "start", "A"}, {"encounter", "start"}} {
		if _, errs, code := runTerminal(t, db, "", args...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
	}
	out, errs, code = runTerminal(t, db, "1\nKITKAT\n", "encounter", "end")
	if code != 0 {
		t.Fatalf("encounter end: exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "Ajax: +1 XP: victory in encounter 1") || !strings.Contains(errs, "plotword KITKAT acquired") {
		t.Errorf("encounter end reported:\n%s", errs)
	}
}
