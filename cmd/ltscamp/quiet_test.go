package main

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// Issue 22: a write printed the whole sheet after its summary (char new,
// equip, foe add). A write now prints one line per event it appended, with
// the seq, as `log` says it, and the sheet only with --show.
func TestWritesPrintOneLinePerEvent(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, dir, "init", "--edition", "2021")
	head := func() int {
		return strings.Count(mustRun(t, dir, "log", "--json"), "\n")
	}
	eventLine := regexp.MustCompile(`(?m)^  seq (\d+)  \S.*$`)
	sheetLine := regexp.MustCompile(`(?m)^(ST|DX|IQ|Damage) +\d+|— (foe, )?edition 2021|— operational`)
	for _, c := range []struct {
		args  []string
		sheet string // the sheet --show prints
	}{
		{[]string{"char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9", "--skill", "Medic:2"}, "Ajax — edition 2021"},
		{[]string{"char", "new", "Kira", "--st", "10", "--dx", "12", "--iq", "10", "--skill", "Pistol:1"}, "Kira — edition 2021"},
		{[]string{"equip", "Ajax", "weapon", "Handgun"}, "Ajax — edition 2021"},
		{[]string{"equip", "Kira", "weapon", "Handgun", "armor", "flak vest"}, "Kira — edition 2021"},
		{[]string{"foe", "add", "Drone", "--st", "10", "--dx", "11", "--iq", "8", "--weapon", "Handgun"}, "Drone — foe, edition 2021"},
		{[]string{"karma", "grant", "Kira", "1", "--reason", "good play"}, "Kira — edition 2021"},
		{[]string{"xp", "award", "--party", "20", "--reason", "the derelict"}, "Kira — edition 2021"},
		{[]string{"xp", "spend", "Kira", "Pistol"}, "Kira — edition 2021"},
		{[]string{"curse", "add", "Kira", "--reason", "the idol"}, "Kira — edition 2021"},
		{[]string{"wish", "grant", "Ajax"}, "Ajax — edition 2021"},
		{[]string{"ship", "new", "Kit", "--record", "C1, E1, O1, L1, d6/1, M+0"}, "Kit — operational"},
	} {
		for _, show := range []bool{false, true} {
			name := strings.Join(c.args, " ")
			args := c.args
			if show {
				// The same command again, on a fresh name where it creates one.
				args = append(append([]string{}, c.args...), "--show")
				if c.args[0] == "char" || c.args[0] == "foe" || c.args[0] == "ship" {
					args[2] += "2"
				}
				if c.args[0] == "equip" && c.args[1] == "Kira" {
					args = []string{"equip", "Kira", "weapon", "--off", "--show"}
				}
			}
			before := head()
			code, stdout, stderr := run(t, dir, args...)
			if code != ExitOK {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			appended := head() - before
			if stdout != "" {
				t.Errorf("%v printed on standard output:\n%s", args, stdout)
			}
			lines := eventLine.FindAllStringSubmatch(stderr, -1)
			if appended == 0 || len(lines) != appended {
				t.Errorf("%v appended %d events and printed %d event lines:\n%s", args, appended, len(lines), stderr)
				continue
			}
			for i, l := range lines {
				if want := fmt.Sprint(before + i + 1); l[1] != want {
					t.Errorf("%v: event line %d says seq %s, not %s", args, i+1, l[1], want)
				}
			}
			for _, l := range eventLine.FindAllString(stderr, -1) {
				if len([]rune(l)) > 80 {
					t.Errorf("%v: an event line wider than 80 columns: %q", args, l)
				}
			}
			sheet := c.sheet
			if show && (c.args[0] == "char" || c.args[0] == "foe" || c.args[0] == "ship") {
				sheet = strings.Replace(c.sheet, c.args[2], c.args[2]+"2", 1)
			}
			switch {
			case !show && sheetLine.MatchString(stderr):
				t.Errorf("%s printed a sheet without --show:\n%s", name, stderr)
			case show && !strings.Contains(stderr, sheet):
				t.Errorf("%s --show did not print %q:\n%s", name, sheet, stderr)
			}
		}
	}
	// --quiet prints nothing, --show or not; --json the events, no sheet.
	code, stdout, stderr := run(t, dir, "karma", "grant", "Kira", "1", "--show", "--quiet")
	if code != ExitOK || stdout != "" || stderr != "" {
		t.Errorf("--quiet --show: exit %d, %q, %q", code, stdout, stderr)
	}
	code, stdout, stderr = run(t, dir, "karma", "grant", "Kira", "1", "--show", "--json")
	if code != ExitOK || !strings.HasPrefix(stdout, "[") || sheetLine.MatchString(stdout+stderr) {
		t.Errorf("--json --show: exit %d, %q, %q", code, stdout, stderr)
	}
}

// TestLongEventLinesWrap: an event line longer than the screen wraps at
// spaces, under its text; no word of it is cut off (it was cut at 79
// columns with "…", losing the end of a long reason).
func TestLongEventLinesWrap(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, dir, "init", "--edition", "2021")
	mustRun(t, dir, "char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9")
	reason := "for holding the airlock alone against the boarders while the others sealed the reactor room and the bridge"
	code, _, stderr := run(t, dir, "xp", "award", "Ajax", "5", "--reason", reason)
	if code != ExitOK {
		t.Fatalf("xp award: exit %d: %s", code, stderr)
	}
	var text []string
	for _, l := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		if w := len([]rune(l)); w > 80 {
			t.Errorf("a line of %d columns: %q", w, l)
		}
		if strings.Contains(l, "…") {
			t.Errorf("a line cut short: %q", l)
		}
		text = append(text, strings.TrimSpace(l))
	}
	if got := strings.Join(text, " "); !strings.Contains(got, reason) {
		t.Errorf("the reason is not whole in what was printed:\n%s", stderr)
	}
	if !strings.HasPrefix(stderr, "  seq 3  Ajax: +5 XP: for holding") || !strings.Contains(stderr, "\n"+strings.Repeat(" ", len("  seq 3  "))+"the others") {
		t.Errorf("want the event line and its rest indented under its text:\n%s", stderr)
	}
}
