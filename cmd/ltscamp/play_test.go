package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/kballard/go-shellquote"

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
	opts := campaign.Options{Now: playClock, Actor: "gm", Entropy: rand.New(rand.NewSource(23)), VerifyKept: true}
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

// screenDriver calls the screen model's Update and View directly, on the
// real runner, as the program's loop would.
type screenDriver struct {
	t *testing.T
	p *playSession
	m tea.Model
}

func newScreen(t *testing.T, p *playSession) *screenDriver {
	t.Helper()
	d := &screenDriver{t: t, p: p, m: play.NewModel(playConfig(p))}
	d.m, _ = d.m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	return d
}

// press sends keys and returns the last one's command.
func (d *screenDriver) press(keys ...tea.KeyPressMsg) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		d.m, cmd = d.m.Update(k)
	}
	return cmd
}

// typeLine types text, without Enter.
func (d *screenDriver) typeLine(text string) {
	for _, r := range text {
		d.press(char(r))
	}
}

func (d *screenDriver) screen() string { return plainText(d.t, d.m.View()) }

// commandLine is the screen's command line (the row starting "> ").
func (d *screenDriver) commandLine() string {
	for _, l := range strings.Split(d.screen(), "\n") {
		if strings.HasPrefix(l, "> ") {
			return l
		}
	}
	d.t.Fatalf("no command line on the screen:\n%s", d.screen())
	return ""
}

// expect fails unless the screen holds each of want.
func (d *screenDriver) expect(want ...string) {
	d.t.Helper()
	s := d.screen()
	for _, w := range want {
		if !strings.Contains(s, w) {
			d.t.Errorf("the screen lacks %q:\n%s", w, s)
		}
	}
}

// lastType is the type of the log's last event.
func lastType(t *testing.T, p *playSession) string {
	t.Helper()
	log, err := p.svc.Log(campaign.LogFilter{All: true, Limit: 1})
	if err != nil || len(log) != 1 {
		t.Fatalf("log: %v %v", log, err)
	}
	return log[0].Type
}

// TestPlayScreenUndoKey: Ctrl-Z names the command it would take back and
// asks; n appends nothing, y appends one command.reverted.
func TestPlayScreenUndoKey(t *testing.T) {
	p := newTable(t, append(append([]string{}, quietDay...), "roll 3/DX --char Ajax --dice 1,3,6")...)
	d := newScreen(t, p)
	before := headSeq(t, p)
	d.press(ctrl('z'))
	d.expect("Undo seq 7, by gm: Ajax: 3/DX [1,3,6] = 10 vs 11, pass? (y/n)")
	d.press(char('n'))
	d.expect("nothing undone")
	if got := headSeq(t, p); got != before {
		t.Fatalf("n: head seq %d, was %d", got, before)
	}
	d.press(ctrl('z'), char('y'))
	if got := headSeq(t, p); got != before+1 {
		t.Fatalf("y: head seq %d, want %d", got, before+1)
	}
	if typ := lastType(t, p); typ != "command.reverted" {
		t.Errorf("y appended a %s", typ)
	}
	// A typed bare undo asks too.
	d.typeLine("undo")
	d.press(keyEnter)
	d.expect("Undo seq 6, by gm:", "(y/n)")
	d.press(char('n'))
	if got := headSeq(t, p); got != before+1 {
		t.Errorf("a typed undo answered n appended: head seq %d", got)
	}
}

// TestPlayScreenRerollKey: Ctrl-R names the latest roll and asks; n
// appends nothing, y spends the karma point and re-rolls.
func TestPlayScreenRerollKey(t *testing.T) {
	p := newTable(t, append(append([]string{}, quietDay...),
		"karma grant Ajax 1 --reason 'good play'", "roll 3/DX --char Ajax --dice 6,6,5")...)
	d := newScreen(t, p)
	before := headSeq(t, p)
	d.press(ctrl('r'))
	d.expect("Spend karma to re-roll seq 8: Ajax: 3/DX [6,6,5] = 17 vs 11, fail")
	d.press(char('n'))
	d.expect("nothing re-rolled")
	if got := headSeq(t, p); got != before {
		t.Fatalf("n: head seq %d, was %d", got, before)
	}
	d.press(ctrl('r'), char('y'))
	if got := headSeq(t, p); got <= before {
		t.Fatalf("y appended nothing: %s", d.screen())
	}
	log, err := p.svc.Log(campaign.LogFilter{All: true, Limit: int(headSeq(t, p) - before)})
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, e := range log {
		types = append(types, e.Type)
	}
	if strings.Join(types, " ") != "karma.spent roll.made" {
		t.Errorf("y appended %v, want the karma spent and the roll made again", types)
	}
}

// TestPlayScreenTurnKey: Ctrl-T ends the side's turn.
func TestPlayScreenTurnKey(t *testing.T) {
	p := newTable(t, fightRound1...)
	d := newScreen(t, p)
	d.expect("round 1, the foes to act")
	d.press(ctrl('t'))
	d.expect("round 2, the party to act", "now: round 2, the party's turn")
	if typ := lastType(t, p); !strings.HasPrefix(typ, "turn.") {
		t.Errorf("Ctrl-T appended a %s", typ)
	}
}

// TestPlayScreenHistory: Up and Down walk the lines run, and come back to
// the line being typed.
func TestPlayScreenHistory(t *testing.T) {
	p := newTable(t, quietDay...)
	d := newScreen(t, p)
	for _, l := range []string{"roll 3/DX --char Ajax --dice 1,3,6", "sheet Ajax"} {
		d.typeLine(l)
		d.press(keyEnter)
	}
	d.typeLine("xp")
	for _, step := range []struct {
		key  tea.KeyPressMsg
		want string
	}{
		{keyUp, "> sheet Ajax"}, {keyUp, "> roll 3/DX --char Ajax --dice 1,3,6"},
		{keyUp, "> roll 3/DX --char Ajax --dice 1,3,6"}, {keyDown, "> sheet Ajax"}, {keyDown, "> xp"},
	} {
		d.press(step.key)
		if got := d.commandLine(); !strings.HasPrefix(got, step.want) {
			t.Errorf("after %s: command line %q, want %q", step.key, got, step.want)
		}
	}
}

// TestPlayScreenCompletion: Tab completes a character's name from what is
// typed of it.
func TestPlayScreenCompletion(t *testing.T) {
	p := newTable(t, quietDay...)
	d := newScreen(t, p)
	d.typeLine("sheet Hec")
	d.press(keyTab)
	if got := d.commandLine(); got != "> sheet Hector" {
		t.Errorf("Tab on %q: command line %q, want %q", "sheet Hec", got, "> sheet Hector")
	}
	d.press(keyEnter)
	d.expect("sheet Hector (Esc closes)")
	d.press(keyEsc)
	d.typeLine("roll 3/DX --char K")
	d.press(keyTab)
	if got := d.commandLine(); !strings.HasPrefix(got, "> roll 3/DX --char Kira") {
		t.Errorf("Tab on a --char value: command line %q", got)
	}
}

// TestPlayScreenRefusal: a line the rules refuse shows its message and
// appends nothing.
func TestPlayScreenRefusal(t *testing.T) {
	p := newTable(t, quietDay...)
	d := newScreen(t, p)
	before := headSeq(t, p)
	d.typeLine("xp spend Kira ST")
	d.press(keyEnter)
	d.expect("ltscamp: cannot raise Kira's ST to 11")
	if got := headSeq(t, p); got != before {
		t.Errorf("a refused line moved the head from %d to %d", before, got)
	}
	d.typeLine("roll 3/DX --char Nobody --dice 1,1,1")
	d.press(keyEnter)
	d.expect(`ltscamp: no character "Nobody"`)
	if got := headSeq(t, p); got != before {
		t.Errorf("a refused roll moved the head from %d to %d", before, got)
	}
}

// TestPlayScreenLive: another process's write (a second campaign.Service
// on the same file, here the CLI's Main) shows after a poll tick, without
// a key.
func TestPlayScreenLive(t *testing.T) {
	p := newTable(t, quietDay...)
	d := newScreen(t, p)
	if code, _, stderr := runDB(t, p.db, "char", "new", "Zed", "--st", "10", "--dx", "12", "--iq", "10", "--no-input"); code != ExitOK {
		t.Fatalf("char new Zed: exit %d: %s", code, stderr)
	}
	if strings.Contains(d.screen(), "Zed") {
		t.Fatal("Zed shows before any poll")
	}
	tick := d.m.Init()
	if tick == nil {
		t.Fatal("the screen does not poll")
	}
	var next tea.Cmd
	d.m, next = d.m.Update(tick())
	d.expect("Zed", "Zed created")
	if next == nil {
		t.Error("the poll does not tick again")
	}
}

// runPlayLines runs `ltscamp play` with stdin (not a terminal) on the
// campaign file db, as `ltscamp play < evening.txt` does.
func runPlayLines(t *testing.T, db, stdin string, flags ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{
		Args:   append([]string{"--db", db, "--actor", "gm", "play"}, flags...),
		Stdin:  strings.NewReader(stdin),
		Stdout: &out, Stderr: &errb,
		Getenv: func(string) string { return "" },
		Now:    playClock,
		// Every line after the first starts from the states the one
		// before kept: each is checked against the log.
		verifyKept: true,
	}
	code = Main(env)
	return code, out.String(), errb.String()
}

// newCampaignFile makes a campaign with the party through the CLI and
// returns its file.
func newCampaignFile(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{
		{"init", "--edition", "2021"},
		{"char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9", "--skill", "Unarmed:2", "--skill", "Medic:2", "--no-input"},
		{"char", "new", "Hector", "--st", "11", "--dx", "12", "--iq", "9", "--skill", "Knife:1", "--skill", "Medic:2", "--skill", "Pilot:1", "--no-input"},
	} {
		if code, _, stderr := run(t, dir, args...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	return filepath.Join(dir, "c.ltscamp")
}

// countEvents is how many events the file's log holds.
func countEvents(t *testing.T, db string) int {
	t.Helper()
	return len(readLog(t, db))
}

// readLog reads a campaign file's whole log, the undo and redo events
// with it.
func readLog(t *testing.T, db string) []campaign.LogEntry {
	t.Helper()
	s, err := campaign.OpenReadOnly(db, campaign.Options{Now: playClock, Actor: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	log, err := s.Log(campaign.LogFilter{All: true})
	if err != nil {
		t.Fatal(err)
	}
	return log
}

// TestPlayLines: the line mode's contract (see `play --help`).
func TestPlayLines(t *testing.T) {
	const roll = "roll 3/DX --char Ajax --dice 1,3,6"
	// The exit statuses the CLI gives the failing lines on their own.
	db := newCampaignFile(t)
	notFound, _, _ := runDB(t, db, "roll", "3/DX", "--char", "Nobody", "--dice", "1,1,1")
	usage, _, _ := runDB(t, db, "fly")
	if notFound == ExitOK || usage != ExitUsage || notFound == usage {
		t.Fatalf("the CLI's statuses: %d for a stranger's roll, %d for fly", notFound, usage)
	}
	tests := []struct {
		name, stdin string
		flags       []string
		code        int
		added       int
		stderr      []string
		notStderr   []string
	}{
		{"errors carry the line number, the first failed line's status wins",
			roll + "\nroll 3/DX --char Nobody --dice 1,1,1\nfly\n" + roll + "\n", nil, notFound, 2,
			[]string{"ltscamp: line 2: ", "line 3: "}, []string{"line 1:", "line 4:"}},
		{"--stop-on-error stops at the first failed line",
			roll + "\nroll 3/DX --char Nobody --dice 1,1,1\nfly\n" + roll + "\n", []string{"--stop-on-error"}, notFound, 1,
			[]string{"line 2: "}, []string{"line 3:"}},
		{"comments and blank lines are skipped",
			"# the evening\n\n   \n\t# indented\n" + roll + "\n", nil, ExitOK, 1, nil, []string{"line"}},
		{"quit ends the session", roll + "\nquit\n" + roll + "\n", nil, ExitOK, 1, nil, nil},
		{"exit ends it too", "exit\n" + roll + "\n", nil, ExitOK, 0, nil, nil},
		{"an ltscamp prefix is taken", "ltscamp " + roll + "\n", nil, ExitOK, 1, nil, nil},
		{"an unbalanced quote is a usage error, nothing appended",
			`xp award Ajax 5 --reason "good play` + "\n", nil, ExitUsage, 0, []string{"ltscamp: line 1: ", "quote"}, nil},
		{"play inside play is refused", "play\n", nil, ExitUsage, 0, []string{"line 1: ", "play is already running"}, nil},
		{"a refused command appends nothing", "xp spend Hector ST\n", nil, ExitRule, 0, []string{"line 1: "}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db := newCampaignFile(t)
			before := countEvents(t, db)
			code, _, stderr := runPlayLines(t, db, tc.stdin, tc.flags...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			if got := countEvents(t, db) - before; got != tc.added {
				t.Errorf("%d events appended, want %d; stderr:\n%s", got, tc.added, stderr)
			}
			for _, w := range tc.stderr {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
			for _, w := range tc.notStderr {
				if strings.Contains(stderr, w) {
					t.Errorf("stderr has %q:\n%s", w, stderr)
				}
			}
		})
	}
}

// ulidPattern and hashPattern match what legitimately differs between two
// logs of the same commands: the IDs of the events, commands and things
// made, and hashes.
var (
	ulidPattern = regexp.MustCompile(`\b[0-9A-HJKMNP-TV-Z]{26}\b`)
	hashPattern = regexp.MustCompile(`\b[0-9a-f]{64}\b`)
)

// normalLog is a log from seq from on, as the lines to compare: type,
// payload version, stream, actor and payload (with the game time in it),
// each ULID named by its first appearance in the log and hashes masked.
func normalLog(t *testing.T, db string, from int64) []string {
	t.Helper()
	ids := map[string]string{}
	name := func(id string) string {
		if n, ok := ids[id]; ok {
			return n
		}
		ids[id] = fmt.Sprintf("<id%d>", len(ids)+1)
		return ids[id]
	}
	var out []string
	for _, e := range readLog(t, db) {
		line := fmt.Sprintf("%s v%d %s by %s: %s", e.Type, e.PayloadVersion, e.Stream, e.Actor, e.Payload)
		line = ulidPattern.ReplaceAllStringFunc(line, name)
		line = hashPattern.ReplaceAllString(line, "<hash>")
		if e.Seq > from {
			out = append(out, line)
		}
	}
	return out
}

// TestPlayEquivalence: lines typed into play append the same events
// (types, payloads, streams, game time) as the same commands run one by
// one through the CLI on a copy of the campaign.
func TestPlayEquivalence(t *testing.T) {
	lines := []string{
		"roll 3/DX --char Ajax --dice 1,3,6",
		`xp award Ajax 12 --reason "good play"`,
		`adventure start "Play"`,
		"damage Hector 3 --source trap",
		"rest Hector --days 1",
		"xp spend Ajax skill:Medic",
		"encounter start Pirates --foes 'Pirate:ST12,DX12,IQ9,cutlass x2'",
		"initiative --dice 5,2",
		"attack Ajax 'Pirate 1' --dice 1,2,3 --damage-dice 3",
		"undo --reason 'wrong pirate'",
		"attack Ajax 'Pirate 2' --dice 1,2,3 --damage-dice 2",
		"turn end",
		"roll 3/IQ --char Hector --dice 2,2,2",
	}
	db := newCampaignFile(t)
	cli := filepath.Join(copyCampaign(t, filepath.Dir(db)), "c.ltscamp")
	start := int64(countEvents(t, db))

	if code, _, stderr := runPlayLines(t, db, strings.Join(lines, "\n")+"\n", "--stop-on-error"); code != ExitOK {
		t.Fatalf("play: exit %d:\n%s", code, stderr)
	}
	for _, l := range lines {
		args, err := shellquote.Split(l)
		if err != nil {
			t.Fatal(err)
		}
		if code, _, stderr := runDB(t, cli, args...); code != ExitOK {
			t.Fatalf("ltscamp %s: exit %d: %s", l, code, stderr)
		}
	}
	viaPlay, viaCLI := normalLog(t, db, start), normalLog(t, cli, start)
	if len(viaPlay) < len(lines) {
		t.Fatalf("play appended %d events for %d lines", len(viaPlay), len(lines))
	}
	if strings.Join(viaPlay, "\n") != strings.Join(viaCLI, "\n") {
		t.Errorf("play and the CLI appended different events:\n--- play:\n%s\n--- CLI:\n%s", strings.Join(viaPlay, "\n"), strings.Join(viaCLI, "\n"))
	}
	// Every kind the issue names is among them.
	all := strings.Join(viaPlay, "\n")
	for _, typ := range []string{"roll.made", "xp.awarded", "adventure.started", "xp.spent", "encounter.started", "initiative.rolled", "command.reverted"} {
		if !strings.Contains(all, typ+" ") {
			t.Errorf("no %s among the events compared", typ)
		}
	}
}

// TestPlayCompleteSaysNothingOnStderr: Tab on a line the completion
// cannot parse (a mistyped flag, an unknown command) gives no candidates
// and writes nothing on the process's standard error, which on the screen
// is the terminal the screen is drawn on.
func TestPlayCompleteSaysNothingOnStderr(t *testing.T) {
	p := newTable(t, quietDay...)
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = f
	var got [][]play.Suggestion
	for _, line := range []string{"roll 3/DX --chaar Aj", "fly --x ", "sheet --nope "} {
		got = append(got, p.Complete(line))
	}
	os.Stderr = saved
	f.Close()
	written, err := os.ReadFile(f.Name())
	if err != nil {
		t.Fatal(err)
	}
	if len(written) > 0 {
		t.Errorf("the completion wrote on standard error: %q", written)
	}
	for i, s := range got {
		if len(s) > 0 {
			t.Errorf("line %d: candidates %v for a line that does not parse", i, s)
		}
	}
	// A line that parses still completes.
	if s := p.Complete("roll 3/DX --char Aj"); len(s) == 0 {
		t.Error("no candidates for roll 3/DX --char Aj")
	}
}

// TestPlayScreenLongQuestion: a question about a long command is shown
// whole at 80 columns, its "(y/n)" with it, wrapped.
func TestPlayScreenLongQuestion(t *testing.T) {
	p := newTable(t, fightRound1...)
	d := newScreen(t, p)
	d.press(ctrl('z'))
	want := "Undo seq 10, by gm: Pirate attacks Hector with Unarmed: 3/DX [2 3 4] = 9 vs 12, hit, dodge [3 3 3] = 9, pass? (y/n)"
	if got := strings.Join(strings.Fields(d.screen()), " "); !strings.Contains(got, want) {
		t.Errorf("the question is not shown whole:\n%s", d.screen())
	}
	d.press(char('n'), ctrl('r'))
	if !strings.Contains(d.screen(), "? (y/n)") {
		t.Errorf("the re-roll's question lost its (y/n):\n%s", d.screen())
	}
}

// TestPlayScreenCompletesQuotedNames: the foes an encounter fields are
// "Pirate 1", "Pirate 2": Tab opens the quote their space needs, goes on
// inside it, and closes it when one name is left.
func TestPlayScreenCompletesQuotedNames(t *testing.T) {
	p := newTable(t,
		"char new Ajax --st 12 --dx 11 --iq 9 --skill Unarmed:2",
		`adventure start "The derelict"`,
		"encounter start Boarders --foes 'Pirate:ST12,DX12,IQ9,cutlass x2'")
	d := newScreen(t, p)
	d.typeLine("attack Ajax Pir")
	d.press(keyTab)
	if got := d.commandLine(); got != "> attack Ajax 'Pirate" {
		t.Errorf("Tab on Pir: %q, want %q", got, "> attack Ajax 'Pirate")
	}
	d.expect("Pirate 1  Pirate 2")
	d.typeLine("2")
	d.press(keyTab)
	if got := d.commandLine(); got != "> attack Ajax 'Pirate 2'" {
		t.Errorf("Tab on 'Pirate 2: %q, want %q", got, "> attack Ajax 'Pirate 2'")
	}
	d.typeLine(" --dice 1,2,3 --damage-dice 3")
	d.press(keyEnter)
	d.expect("Ajax attacks Pirate 2 with Unarmed")
}

// TestPlayScreenChance: while a check is typed, its chance shows on the
// command line, at 80 columns too, before the dice.
func TestPlayScreenChance(t *testing.T) {
	p := newTable(t, quietDay...)
	d := newScreen(t, p)
	before := headSeq(t, p)
	d.typeLine("roll 3/DX --char Hector")
	c, err := p.svc.Chance(campaign.RollRequest{Expr: "3/DX", Character: "Hector"})
	if err != nil {
		t.Fatal(err)
	}
	want := "3/DX Hector: " + rules.FormatProbability(c.Probability)
	for _, w := range []int{80, 120} {
		d.m, _ = d.m.Update(tea.WindowSizeMsg{Width: w, Height: 24})
		got := d.commandLine()
		if !strings.HasPrefix(got, "> roll 3/DX --char Hector") || !strings.HasSuffix(got, want) || ansi.StringWidth(got) > w {
			t.Errorf("%d columns: command line %q, want the line and %q", w, got, want)
		}
	}
	if got := headSeq(t, p); got != before {
		t.Errorf("the chance appended: head seq %d, was %d", got, before)
	}
}

// TestPlayScreenCompletesNameInsideOthers: with "Pirate" and "Pirate 1"
// both on the roster, Tab opens the quote at "Pirate", so that the space
// typed next stays inside the name.
func TestPlayScreenCompletesNameInsideOthers(t *testing.T) {
	p := newTable(t,
		"char new Ajax --st 12 --dx 11 --iq 9 --skill Unarmed:2",
		"foe add Pirate --st 12 --dx 12 --iq 9",
		`adventure start "The derelict"`,
		"encounter start Boarders --foes 'Pirate:ST12,DX12,IQ9,cutlass x2'")
	d := newScreen(t, p)
	d.typeLine("attack Ajax Pir")
	d.press(keyTab)
	if got := d.commandLine(); got != "> attack Ajax 'Pirate" {
		t.Errorf("Tab on Pir: %q, want %q", got, "> attack Ajax 'Pirate")
	}
	d.typeLine(" 1")
	d.press(keyTab)
	if got := d.commandLine(); got != "> attack Ajax 'Pirate 1'" {
		t.Errorf("Tab on 'Pirate 1: %q, want %q", got, "> attack Ajax 'Pirate 1'")
	}
}

// TestPlayScreenLiveProgram: the running screen (teatest, its own poll
// every 250 ms, the default) shows another process's character within a
// second, without a key.
func TestPlayScreenLiveProgram(t *testing.T) {
	p := newTable(t, quietDay...)
	cfg := playConfig(p)
	cfg.Poll = 0
	tm := teatest.NewTestModel(t, play.NewModel(cfg), teatest.WithInitialTermSize(80, 24),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("Kira")) },
		teatest.WithDuration(5*time.Second))
	if code, _, stderr := runDB(t, p.db, "char", "new", "Zedekiah", "--st", "10", "--dx", "12", "--iq", "10", "--no-input"); code != ExitOK {
		t.Fatalf("char new: exit %d: %s", code, stderr)
	}
	start := time.Now()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte("Zedekiah")) },
		teatest.WithDuration(time.Second), teatest.WithCheckInterval(10*time.Millisecond))
	t.Logf("shown after %v", time.Since(start))
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}
