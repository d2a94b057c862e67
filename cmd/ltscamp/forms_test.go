package main

import (
	"bytes"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/ltscamp/ltscamp/rules"
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
	if !strings.Contains(errs, "seq 2  Lee created: ST12 DX11 IQ9, Pistol 2, Medic 2") {
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
	if !strings.Contains(errs, "Ajax: -15 XP: IQ 9→10") {
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

// drive sends msgs to a form as a terminal would, running the commands
// each one returns (a field's move to the next or back) and skipping those
// that wait (a cursor's blink).
func drive(f *huh.Form, msgs ...tea.Msg) {
	var run func(cmd tea.Cmd, depth int)
	run = func(cmd tea.Cmd, depth int) {
		if cmd == nil || depth > 8 {
			return
		}
		got := make(chan tea.Msg, 1)
		go func() { got <- cmd() }()
		var msg tea.Msg
		select {
		case msg = <-got:
		case <-time.After(50 * time.Millisecond):
			return // a timer: nothing a key press waits for
		}
		switch m := msg.(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range m {
				run(c, depth+1)
			}
		default:
			_, next := f.Update(m)
			run(next, depth+1)
		}
	}
	for _, msg := range msgs {
		_, cmd := f.Update(msg)
		run(cmd, 0)
	}
}

// keys are the key presses that type s; "\t" is Tab, "\r" Enter, "\b"
// Backspace and "⇤" Shift+Tab.
func keys(s string) []tea.Msg {
	var out []tea.Msg
	for _, r := range s {
		switch r {
		case '\t':
			out = append(out, tea.KeyPressMsg{Code: tea.KeyTab})
		case '\r':
			out = append(out, tea.KeyPressMsg{Code: tea.KeyEnter})
		case '\b':
			out = append(out, tea.KeyPressMsg{Code: tea.KeyBackspace})
		case '⇤':
			out = append(out, tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
		default:
			out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
		}
	}
	return out
}

// focused is the key of the form's focused field.
func focused(f *huh.Form) string { return f.GetFocusedField().GetKey() }

// Issue 21: with more points placed than the budget, the char new form
// said "go back" on the skills page, where Shift+Tab did nothing and only
// Ctrl-C left. Now IQ, the last attribute, is refused until the points
// add up, Shift+Tab goes back from it to fix DX, and Shift+Tab from the
// skills page goes back to the attributes.
func TestCharFormGoesBack(t *testing.T) {
	v := &charValues{}
	name, attrs, skills := charFields(rules.Edition2021, v, true)
	f := huh.NewForm(attrPage(rules.Edition2021, append([]huh.Field{name}, attrs...)...), huh.NewGroup(skills))
	drive(f, f.Init())
	drive(f, keys("Lee\t16\t16\t8\r")...)
	if got := focused(f); got != "iq" {
		t.Fatalf("40 of 32 points placed: the form went on to %q", got)
	}
	if err := f.GetFocusedField().Error(); err == nil || !strings.Contains(err.Error(), "40 of 32 points placed: 8 too many") {
		t.Errorf("IQ with 8 points too many: error %v", err)
	}
	drive(f, keys("⇤")...)
	if got := focused(f); got != "dx" {
		t.Fatalf("Shift+Tab from IQ went to %q, not DX", got)
	}
	drive(f, keys("\b\b8\t\t")...)
	if got := focused(f); got != "skills" {
		t.Fatalf("with DX 8 the points add up, but the form is on %q (%v)", got, f.GetFocusedField().Error())
	}
	drive(f, keys("⇤")...)
	if got := focused(f); got != "iq" {
		t.Fatalf("Shift+Tab on the skills page went to %q, not back to IQ", got)
	}
	drive(f, keys("\t\r")...)
	if f.State != huh.StateCompleted {
		t.Errorf("the form did not complete: on %q", focused(f))
	}
	if at := v.attributes(); v.Name != "Lee" || at != (rules.Attributes{ST: 16, DX: 8, IQ: 8}) {
		t.Errorf("the form gave %q %+v", v.Name, at)
	}
}

// Line by line (ACCESSIBLE=1) there is no going back: attributes whose
// points do not add up are asked again (not the name), and input that
// ends leaves the form with a usage error instead of asking for ever.
func TestCharFormAsksAttributesAgain(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.ltscamp")
	if _, errs, code := runTerminal(t, db, "", "init"); code != 0 {
		t.Fatalf("init: %s", errs)
	}
	out, errs, code := runTerminal(t, db, "Lee\n16\n16\n8\n16\n8\n8\n0\n", "char", "new")
	if code != 0 {
		t.Fatalf("char new: exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(out, "Points: 40 of 32 points placed: 8 too many; give ST, DX and IQ again") {
		t.Errorf("the form did not ask again:\n%s", out)
	}
	if !strings.Contains(errs, "Lee created") {
		t.Errorf("char new reported:\n%s", errs)
	}
	if _, sheet, _ := run(t, filepath.Dir(db), "sheet", "Lee"); !strings.Contains(sheet, "DX       8 ") {
		t.Errorf("Lee's sheet:\n%s", sheet)
	}
	out, errs, code = runTerminal(t, db, "Kim\n16\n16\n8\n", "char", "new")
	if code != ExitUsage || !strings.Contains(errs, "the form was not completed: 40 of 32 points placed: 8 too many") {
		t.Errorf("char new with input that ends: exit %d\n%s\n%s", code, out, errs)
	}
}
