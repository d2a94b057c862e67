package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/play"
	"github.com/ltscamp/ltscamp/rules"
)

// The tests of `ltscamp play` live here, where the real Runner is: the
// playSession running the CLI's cobra commands in process. The screen's
// model (package play) is driven with teatest v2 for the golden screens
// and by calling its Update and View for the keys.

// playClock is the fixed wall clock of the play tests: with it and a
// seeded entropy for the ULIDs, every event, hash and ID is the same from
// run to run, so the goldens hold the head's hash as the screen shows it.
func playClock() time.Time { return time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC) }

// newTable creates an edition 2021 campaign in a temp folder, opens it as
// `ltscamp play` does (one campaign.Service for the session, but with the
// fixed clock and entropy) and runs the setup lines through the session.
func newTable(t *testing.T, setup ...string) *playSession {
	t.Helper()
	db := filepath.Join(t.TempDir(), "c.ltscamp")
	opts := campaign.Options{Now: playClock, Actor: "gm", Entropy: rand.New(rand.NewSource(23))}
	svc, err := campaign.Create(db, "Legends campaign", rules.Edition("2021"), opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Close() })
	env := &Env{
		Stdin:  strings.NewReader(""),
		Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{},
		Getenv: func(string) string { return "" },
		Now:    playClock,
	}
	p := &playSession{env: env, db: db, svc: svc, actor: "gm", actorSet: true}
	for _, line := range setup {
		playRun(t, p, line)
	}
	return p
}

// playRun runs a line through the session's Runner and fails the test
// when it fails.
func playRun(t *testing.T, p *playSession, line string) string {
	t.Helper()
	var out, errs bytes.Buffer
	if code := p.Run(line, &out, &errs); code != ExitOK {
		t.Fatalf("%s: exit %d: %s", line, code, errs.String())
	}
	return out.String() + errs.String()
}

// The party of the tests, as the acceptance script makes it.
var (
	quietDay = []string{
		"char new Ajax --st 12 --dx 11 --iq 9 --skill Unarmed:2 --skill Medic:2",
		"char new Hector --st 11 --dx 12 --iq 9 --skill Knife:1 --skill Medic:2 --skill Pilot:1",
		"char new Kira --st 10 --dx 12 --iq 10 --skill Pistol:1 --skill Scholar:1",
		`adventure start "The derelict"`,
		`xp award Ajax 12 --reason "good play"`,
	}
	// fightRound1 is the books' turn order, edition 2021 (as
	// turns_2021.txtar plays it): the party won initiative, Ajax hit the
	// pirate, the pirate attacked Hector, who dodged, so he loses his
	// next turn.
	fightRound1 = []string{
		"char new Ajax --st 12 --dx 11 --iq 9 --skill Unarmed:2",
		"char new Hector --st 11 --dx 12 --iq 9 --skill Knife:1",
		"foe add Pirate --st 12 --dx 12 --iq 9",
		`adventure start "The derelict"`,
		"encounter start Pirates",
		"initiative --dice 5,2",
		"attack Ajax Pirate --dice 1,2,3 --damage-dice 3",
		"attack Pirate Hector --dice 2,3,4 --dodge 3,3,3",
	}
)

// playConfig is the screen's Config on the session.
func playConfig(p *playSession) play.Config {
	return play.Config{Runner: p, Reader: p.svc, Poll: time.Millisecond, Getenv: p.env.Getenv}
}

// Keys as the terminal sends them.
var (
	keyEnter = tea.KeyPressMsg{Code: tea.KeyEnter}
	keyTab   = tea.KeyPressMsg{Code: tea.KeyTab}
	keyUp    = tea.KeyPressMsg{Code: tea.KeyUp}
	keyDown  = tea.KeyPressMsg{Code: tea.KeyDown}
	keyEsc   = tea.KeyPressMsg{Code: tea.KeyEscape}
)

func ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }
func char(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Text: string(r)} }

// plainText is a screen as text: the view through the NoTTY colour
// profile, which drops every escape code, without trailing blanks.
func plainText(t *testing.T, v tea.View) string {
	t.Helper()
	var b bytes.Buffer
	w := &colorprofile.Writer{Forward: &b, Profile: colorprofile.NoTTY}
	if _, err := w.WriteString(v.Content); err != nil {
		t.Fatal(err)
	}
	ls := strings.Split(b.String(), "\n")
	for i, l := range ls {
		ls[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(ls, "\n") + "\n"
}

// goldenScreen compares a screen with play/testdata/NAME.golden; -update
// (the flag of charmbracelet/x/exp/golden, which teatest registers)
// rewrites it.
func goldenScreen(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("..", "..", "play", "testdata", name+".golden")
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to write it)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("screen %s differs from %s (go test -update rewrites it)\n--- got:\n%s--- want:\n%s", name, path, got, want)
	}
	for i, l := range strings.Split(got, "\n") {
		if w := ansi.StringWidth(l); w > screenWidth(name) {
			t.Errorf("%s: line %d is %d columns wide: %q", name, i+1, w, l)
		}
	}
}

// screenWidth is the width a golden's name ends with ("quiet-80x24").
func screenWidth(name string) int {
	if strings.Contains(name, "-120x") {
		return 120
	}
	return 80
}

// step is one thing done on the screen: a line typed and Enter, or keys.
type step struct {
	line string
	keys []tea.KeyPressMsg
}

// driveScreen runs the screen with teatest at w×h, does the steps and
// returns the final model once the program has quit.
func driveScreen(t *testing.T, p *playSession, w, h int, steps ...step) tea.Model {
	t.Helper()
	tm := teatest.NewTestModel(t, play.NewModel(playConfig(p)),
		teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	for _, s := range steps {
		if s.line != "" {
			tm.Type(s.line)
			tm.Send(keyEnter)
		}
		for _, k := range s.keys {
			tm.Send(k)
		}
	}
	// The messages are handled in order: when the quit is, every step
	// before it was.
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second))
}

// headSeq is the log's last seq.
func headSeq(t *testing.T, p *playSession) int64 {
	t.Helper()
	seq, _, err := p.svc.Head()
	if err != nil {
		t.Fatal(err)
	}
	return seq
}

// TestPlayGoldenScreens: the four screens the issue names, at 80×24 and
// 120×40, driven with teatest v2 on the real runner, in the Ascii colour
// profile and compared as plain text.
func TestPlayGoldenScreens(t *testing.T) {
	scenarios := []struct {
		name  string
		setup []string
		steps []step
		check func(t *testing.T, p *playSession, before int64, screen string)
	}{
		{
			name:  "quiet",
			setup: quietDay,
			steps: []step{
				{line: "roll 3/DX --char Ajax --dice 1,3,6"},
				{line: "roll 3/IQ+Medic --char Hector --dice 2,2,5"},
				{line: "xp award Kira 3 --reason 'found the log'"},
			},
			check: func(t *testing.T, p *playSession, before int64, screen string) {
				if got := headSeq(t, p); got != before+3 {
					t.Errorf("head seq %d after three lines from %d", got, before)
				}
			},
		},
		{
			name:  "fight",
			setup: fightRound1,
			steps: []step{{keys: []tea.KeyPressMsg{ctrl('t')}}},
			check: func(t *testing.T, p *playSession, before int64, screen string) {
				for _, want := range []string{"round 2, the party to act", "loses this"} {
					if !strings.Contains(screen, want) {
						t.Errorf("the screen lacks %q", want)
					}
				}
			},
		},
		{
			name:  "refusal",
			setup: append(append([]string{}, fightRound1...), "turn end"),
			steps: []step{{line: "attack Hector Pirate --dice 1,1,1 --damage-dice 3"}},
			check: func(t *testing.T, p *playSession, before int64, screen string) {
				if got := headSeq(t, p); got != before {
					t.Errorf("a refused attack moved the head from seq %d to %d", before, got)
				}
				// The refusal is shown whole, wrapped, with what to do.
				if !strings.Contains(screen, "loses his next turn") || !strings.Contains(strings.ReplaceAll(screen, "\n", " "), "or overrule with --force REASON") {
					t.Errorf("the screen does not show the whole refusal")
				}
			},
		},
		{
			name:  "undo",
			setup: append(append([]string{}, quietDay...), "roll 3/DX --char Ajax --dice 1,3,6"),
			steps: []step{{keys: []tea.KeyPressMsg{ctrl('z'), char('y')}}},
			check: func(t *testing.T, p *playSession, before int64, screen string) {
				if got := headSeq(t, p); got != before+1 {
					t.Errorf("undo: head seq %d from %d, want one event more", got, before)
				}
				// The undone roll is marked in words, and the undo names
				// what it undid by seq, as `ltscamp log` does.
				for _, want := range []string{"\n     7  [undone by seq 8] Ajax: 3/DX [1,3,6]", "\n     8  undo of seq 7\n"} {
					if !strings.Contains(screen, want) {
						t.Errorf("the log pane lacks %q", want)
					}
				}
			},
		},
	}
	for _, sc := range scenarios {
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			name := fmt.Sprintf("%s-%dx%d", sc.name, size[0], size[1])
			t.Run(name, func(t *testing.T) {
				p := newTable(t, sc.setup...)
				before := headSeq(t, p)
				m := driveScreen(t, p, size[0], size[1], sc.steps...)
				screen := plainText(t, m.View())
				if got := strings.Count(screen, "\n"); got != size[1] {
					t.Errorf("%d lines on a screen %d high", got, size[1])
				}
				goldenScreen(t, name, screen)
				sc.check(t, p, before, screen)
			})
		}
	}
}
