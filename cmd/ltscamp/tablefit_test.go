package main

import (
	"bytes"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// runWidth runs one ltscamp command as if its output went to a terminal of
// the given width (0: piped).
func runWidth(t *testing.T, dir string, width int, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{
		Args:   append([]string{"--db", filepath.Join(dir, "c.ltscamp"), "--actor", "gm"}, args...),
		Stdin:  strings.NewReader(""),
		Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string {
			if k == "NO_COLOR" {
				return "1"
			}
			return ""
		},
		Now:       func() time.Time { return time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC) },
		StdoutTTY: width > 0, Width: width,
	}
	if code := Main(env); code != ExitOK {
		t.Fatalf("%v at %d columns: exit %d: %s", args, width, code, errb.String())
	}
	return ansi.Strip(out.String())
}

// boxTable is a bordered table read back from the screen: each column's
// header and the words of all its cells, top to bottom, and the line that
// names the columns left out.
type boxTable struct {
	headers []string
	words   [][]string
	leftOut string
}

var leftOutLine = regexp.MustCompile(`\(([^()]*(?:\(UTC\))?[^()]*) left out to fit \d+ columns\)`)

// readBox reads the first bordered table of out. A table without headers
// names its columns by number.
func readBox(t *testing.T, out string) boxTable {
	t.Helper()
	var b boxTable
	var cells [][]string
	inTable, done := false, false
	for _, line := range strings.Split(out, "\n") {
		switch {
		case done:
		case strings.HasPrefix(line, "╭"):
			inTable = true
		case inTable && strings.HasPrefix(line, "├"):
			for _, c := range cells {
				b.headers = append(b.headers, strings.Join(c, " "))
			}
			cells = nil
		case inTable && strings.HasPrefix(line, "╰"):
			b.words, done = cells, true
		case inTable && strings.HasPrefix(line, "│"):
			fields := strings.Split(line, "│")
			fields = fields[1 : len(fields)-1]
			for len(cells) < len(fields) {
				cells = append(cells, nil)
			}
			for i, f := range fields {
				cells[i] = append(cells[i], strings.Fields(f)...)
			}
		}
	}
	// The line naming the columns left out may wrap too.
	if m := leftOutLine.FindStringSubmatch(strings.Join(strings.Fields(out), " ")); m != nil {
		b.leftOut = m[1]
	}
	if b.headers == nil {
		for i := range b.words {
			b.headers = append(b.headers, string(rune('A'+i)))
		}
	}
	return b
}

// tableStory is a campaign whose tables are wide: a long name, armour and
// a weapon, seven skills, a long reason, a medic's heal (damage.healed),
// an undo.
var tableStory = [][]string{
	{"init", "--name", "The long night aboard the Kit-Kat"},
	{"char", "new", "Bartholomew Quince", "--st", "11", "--dx", "12", "--iq", "9", "--skill", "Knife:1", "--skill", "Medic:2", "--skill", "Scholar:1"},
	{"char", "new", "Hector", "--st", "12", "--dx", "11", "--iq", "9", "--skill", "Unarmed:2", "--skill", "Medic:2"},
	{"equip", "Bartholomew Quince", "armor", "Flak Vest"},
	{"equip", "Bartholomew Quince", "weapon", "Cutlass"},
	{"equip", "Hector", "weapon", "Handgun"},
	{"xp", "award", "Bartholomew Quince", "Hector", "30", "--reason", "for holding the airlock against the boarding party, alone and unarmed"},
	{"xp", "spend", "Hector", "ST"},
	{"xp", "spend", "Bartholomew Quince", "skill:Knife"},
	{"undo", "--reason", "the player changed his mind about the knife"},
	{"xp", "award", "Bartholomew Quince", "40", "--reason", "the envoy"},
	{"xp", "spend", "Bartholomew Quince", "skill:Pistol"},
	{"xp", "spend", "Bartholomew Quince", "skill:Alertness"},
	{"xp", "spend", "Bartholomew Quince", "skill:Pilot"},
	{"xp", "spend", "Bartholomew Quince", "skill:Stealth"},
	{"adventure", "start", "The Kit-Kat run"},
	{"encounter", "start", "pirates at the airlock"},
	{"attack", "Hector", "Bartholomew Quince", "--weapon", "handgun", "--dice", "1,3,6", "--damage-dice", "5,6"},
	{"heal", "Bartholomew Quince", "--medic", "Hector", "--dice", "2,3,4"},
	{"encounter", "end", "--outcome", "victory"},
}

// Every table fits the terminal (issue 21): at 60, 72, 80 and 100 columns
// no line is wider than the screen, and each column shown holds every word
// it holds on a wide screen, in order and whole (an event type such as
// damage.healed is never broken: "damage.heale" "d" would not match). A
// column left out is named under the table; the gear, the type of an
// event and the balance never are.
func TestTablesFitTheTerminal(t *testing.T) {
	dir := t.TempDir()
	for _, args := range tableStory {
		if code, _, stderr := run(t, dir, args...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	for _, tc := range []struct {
		args  []string
		never []string // columns that are never left out
	}{
		{[]string{"party"}, []string{"NAME", "DAMAGE", "GEAR"}},
		{[]string{"sheet", "Bartholomew Quince"}, []string{"A", "B"}},
		{[]string{"log"}, []string{"SEQ", "TYPE", "WHAT"}},
		{[]string{"log", "--all"}, []string{"SEQ", "TYPE", "WHAT"}},
		{[]string{"audit", "xp", "Bartholomew Quince"}, []string{"SEQ", "WHAT", "XP", "BALANCE"}},
		{[]string{"audit", "xp", "Hector", "--wide"}, []string{"SEQ", "WHAT", "XP", "BALANCE"}},
	} {
		wide := readBox(t, runWidth(t, dir, 1000, tc.args...))
		if len(wide.words) == 0 || wide.leftOut != "" {
			t.Fatalf("%v: no whole table on a wide screen:\n%s", tc.args, runWidth(t, dir, 1000, tc.args...))
		}
		for _, width := range []int{60, 72, 80, 100} {
			out := runWidth(t, dir, width, tc.args...)
			for _, line := range strings.Split(out, "\n") {
				if w := ansi.StringWidth(line); w > width {
					t.Errorf("%v at %d columns: a line of %d columns: %q", tc.args, width, w, line)
				}
			}
			got := readBox(t, out)
			for i, h := range wide.headers {
				k := slices.Index(got.headers, h)
				if k < 0 {
					if slices.Contains(tc.never, h) {
						t.Errorf("%v at %d columns: %s is left out", tc.args, width, h)
					}
					if !strings.Contains(got.leftOut, h) {
						t.Errorf("%v at %d columns: %s is left out and not named (%q)", tc.args, width, h, got.leftOut)
					}
					continue
				}
				if !slices.Equal(got.words[k], wide.words[i]) {
					t.Errorf("%v at %d columns: column %s holds\n%q\nnot\n%q\n%s", tc.args, width, h, got.words[k], wide.words[i], out)
				}
			}
		}
	}
}

// Piped, the narrow XP audit keeps to 80 columns by wrapping what a row
// was, never by cutting it (it was shortened with an ellipsis).
func TestAuditPipedWraps(t *testing.T) {
	dir := t.TempDir()
	for _, args := range tableStory {
		if code, _, stderr := run(t, dir, args...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	out := runWidth(t, dir, 0, "audit", "xp", "Hector")
	for _, line := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(line); w > 80 {
			t.Errorf("a line of %d columns: %q", w, line)
		}
	}
	if strings.Contains(out, "…") || !strings.Contains(strings.Join(strings.Fields(out), " "), "boarding party, alone") {
		t.Errorf("the audit cut the reason:\n%s", out)
	}
}

// wrapCell breaks lines at spaces only, and reopens a style a break
// interrupts.
func TestWrapCell(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		hard  bool
		want  string
	}{
		{"damage.healed by Ajax", 10, false, "damage.healed\nby Ajax"},
		{"Cutlass 2d6-2, Flak Vest", 12, false, "Cutlass\n2d6-2, Flak\nVest"},
		{"2026-11-21 20:00:00", 12, false, "2026-11-21\n20:00:00"},
		{"abcdefghij", 4, true, "abcd\nefgh\nij"},
		{"\x1b[31m[undone, seq 9]\x1b[m ST", 9, false, "\x1b[31m[undone,\x1b[m\n\x1b[31mseq 9]\x1b[m ST"},
	} {
		if got := wrapCell(tc.in, tc.width, tc.hard); got != tc.want {
			t.Errorf("wrapCell(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}
