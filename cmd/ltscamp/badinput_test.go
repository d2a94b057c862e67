package main

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
	"github.com/oklog/ulid/v2"
)

// badInputCase is one refused command: its arguments, the exit status, and
// a fragment of the message that says what is wrong.
type badInputCase struct {
	args []string
	code int
	msg  string
}

// badInputCases are numbers past their range (the wrap-around cases of
// issue 13 among them), negative and zero numbers, non-numbers, control
// characters and over-long text, each through the real CLI.
func badInputCases() []badInputCase {
	long := strings.Repeat("x", 501)
	longName := strings.Repeat("N", 65)
	const maxInt = "9223372036854775807"
	return []badInputCase{
		// XP awards and spends.
		{[]string{"xp", "award", "Hector", maxInt, "--reason", "wrap"}, ExitUsage, "cannot award 9223372036854775807 XP: an award is 1 to 10,000 XP"},
		{[]string{"xp", "award", "Hector", "10001", "--reason", "too much"}, ExitUsage, "an award is 1 to 10,000 XP"},
		{[]string{"xp", "award", "Hector", "0", "--reason", "zero"}, ExitUsage, "cannot award 0 XP: an award is 1 to 10,000 XP"},
		{[]string{"xp", "award", "Hector", "-5", "--reason", "negative"}, ExitUsage, "negative numbers are not accepted"},
		{[]string{"xp", "award", "Hector", "five", "--reason", "word"}, ExitUsage, `must be a whole number, not "five"`},
		{[]string{"xp", "award", "Hector", "1.5", "--reason", "fraction"}, ExitUsage, `must be a whole number, not "1.5"`},
		{[]string{"xp", "award", "Hector", "99999999999999999999", "--reason", "huge"}, ExitUsage, "99999999999999999999 is far too large a number"},
		{[]string{"xp", "award", "Hector", "5", "--reason", long}, ExitUsage, "--reason is 501 characters long; it holds at most 500"},
		{[]string{"xp", "award", "Hector", "5", "--reason", "the \x1b[2J bridge"}, ExitUsage, "--reason holds the control character U+001B (escape)"},
		{[]string{"xp", "award", "Hector", "5", "--reason", "line\nbreak"}, ExitUsage, "--reason holds the control character U+000A (newline)"},
		{[]string{"xp", "award", "Hector", "5", "--reason", "tab\there"}, ExitUsage, "--reason holds the control character U+0009 (tab)"},
		{[]string{"xp", "spend", "Ajax", "ST", "--levels", "0"}, ExitUsage, "xp spend --levels 0: a spend is 1 to 20 levels"},
		{[]string{"xp", "spend", "Ajax", "ST", "--levels", "-2"}, ExitUsage, "xp spend --levels -2: a spend is 1 to 20 levels"},
		{[]string{"xp", "spend", "Ajax", "ST", "--levels", maxInt}, ExitUsage, "xp spend --levels 9223372036854775807: a spend is 1 to 20 levels"},
		{[]string{"xp", "spend", "Ajax", "ST", "--levels", "x"}, ExitUsage, `invalid argument "x" for "--levels"`},
		{[]string{"xp", "plotword", "BAD\x07WORD"}, ExitUsage, "the plotword holds the control character U+0007"},
		{[]string{"xp", "plotword", long}, ExitUsage, "the plotword is 501 characters long"},

		// Karma, wishes, curses.
		{[]string{"karma", "grant", "Ajax", maxInt}, ExitUsage, "cannot grant 9223372036854775807 karma: a grant is 1 to 100 karma points"},
		{[]string{"karma", "grant", "Ajax", "101"}, ExitUsage, "a grant is 1 to 100 karma points"},
		{[]string{"karma", "grant", "Ajax", "0"}, ExitUsage, "cannot grant 0 karma"},
		{[]string{"karma", "grant", "Ajax", "lots"}, ExitUsage, `N must be a whole number, not "lots"`},
		{[]string{"karma", "grant", "Ajax", "1", "--reason", "\u009b2J"}, ExitUsage, "--reason holds the control character U+009B"},
		{[]string{"wish", "grant", "Ajax", maxInt}, ExitUsage, "cannot grant 9223372036854775807 wishes: a grant is 1 to 10 wishes"},
		{[]string{"wish", "grant", "Ajax", "11"}, ExitUsage, "a grant is 1 to 10 wishes"},
		{[]string{"wish", "grant", "Ajax", "0"}, ExitUsage, "cannot grant 0 wishes"},
		{[]string{"wish", "grant", "Ajax", "1", "--reason", long}, ExitUsage, "--reason is 501 characters long"},
		{[]string{"curse", "add", "Hector", maxInt}, ExitUsage, "cannot lay 9223372036854775807 curse levels: a curse is 1 to 10 levels"},
		{[]string{"curse", "add", "Hector", "11"}, ExitUsage, "a curse is 1 to 10 levels"},
		{[]string{"curse", "add", "Hector", "0"}, ExitUsage, "cannot lay 0 curse levels"},
		{[]string{"curse", "add", "Hector", "1", "--reason", "idol\x7f"}, ExitUsage, "--reason holds the control character U+007F (delete)"},

		// Damage and healing.
		{[]string{"damage", "Hector", maxInt}, ExitUsage, "cannot deal 9223372036854775807 points: damage dealt at once is 1 to 198 points"},
		{[]string{"damage", "Hector", "199"}, ExitUsage, "damage dealt at once is 1 to 198 points"},
		{[]string{"damage", "Hector", "0"}, ExitUsage, "cannot deal 0 points: deal 1 or more"},
		{[]string{"damage", "Hector", "-3"}, ExitUsage, "damage -3: negative numbers are not accepted here (damage dealt at once is 1 to 198 points; to take damage away, use `ltscamp heal`"},
		{[]string{"damage", "Hector", "three"}, ExitUsage, `N must be a whole number, not "three"`},
		{[]string{"damage", "Hector", "3", "--source", "trap\x1b]0;pwned\x07"}, ExitUsage, "--source holds the control character U+001B (escape)"},
		{[]string{"damage", "Hector", "3", "--source", long}, ExitUsage, "--source is 501 characters long"},
		{[]string{"heal", "Hector", maxInt}, ExitUsage, "cannot heal 9223372036854775807 points: healing is 1 to 198 points"},
		{[]string{"heal", "Hector", "0"}, ExitUsage, "heal 0: heal 1 point or more"},
		{[]string{"heal", "Hector", "-1"}, ExitUsage, "heal -1: negative numbers are not accepted here (healing is 1 to 198 points; to deal damage, use `ltscamp damage`"},
		{[]string{"heal", "Hector", "some"}, ExitUsage, `N must be a whole number, not "some"`},

		// Rolls.
		{[]string{"roll", "-1"}, ExitUsage, "roll -1: negative numbers are not accepted here (a roll is a check such as 3/DX or dice such as 2d6-1, not a number"},
		{[]string{"roll", "3/DX", "--char", "Ajax", "--dice", "1,3,6", "--reason", "cliff\x1b[2J"}, ExitUsage, "--reason holds the control character U+001B"},
		{[]string{"roll", "3/DX", "--char", "Ajax", "--dice", "1,3,6", "--reason", long}, ExitUsage, "--reason is 501 characters long"},
		{[]string{"roll", "99999999999999999999d6"}, ExitUsage, `bad roll "99999999999999999999d6"`},
		{[]string{"roll", "31d6"}, ExitUsage, `bad roll "31d6"`},
		{[]string{"roll", "d6+100"}, ExitUsage, `bad roll "d6+100"`},
		{[]string{"roll", "11/DX", "--char", "Ajax"}, ExitUsage, `bad roll "11/DX"`},
		{[]string{"contest", "Ajax:ST", "Hector:ST", "--reason", "arm\nwrestling"}, ExitUsage, "--reason holds the control character U+000A (newline)"},

		// Game time.
		{[]string{"day", "next", "--days", maxInt}, ExitUsage, "day next --days 9223372036854775807: a step of game time is 1 to 365 days"},
		{[]string{"day", "next", "--days", "366"}, ExitUsage, "a step of game time is 1 to 365 days"},
		{[]string{"day", "next", "--days", "0"}, ExitUsage, "--days 0: advance 1 day or more"},
		{[]string{"day", "next", "--days", "-7"}, ExitUsage, "--days -7: advance 1 day or more"},
		{[]string{"rest", "Hector", "--days", maxInt}, ExitUsage, "rest --days 9223372036854775807: a rest is 1 to 365 days"},
		{[]string{"rest", "Hector", "--days", "0"}, ExitUsage, "--days 0: rest 1 day or more"},
		{[]string{"rest", "Hector", "--days", "week"}, ExitUsage, `invalid argument "week" for "--days"`},
		{[]string{"adventure", "start", "The \x1b[2J run"}, ExitUsage, "the adventure's title holds the control character U+001B"},
		{[]string{"note", "the envoy \x1b[31mlied"}, ExitUsage, "the note holds the control character U+001B"},
		{[]string{"note", strings.Repeat("word ", 401)}, ExitUsage, "the note is 2004 characters long; a note holds at most 2000"},

		// Combat skills and grappling (issue 21).
		{[]string{"char", "set", "Ajax", "--skill-bonus", "sideways"}, ExitUsage, `--skill-bonus "sideways": a combat skill's level goes to hit or to damage`},
		{[]string{"char", "set", "Ajax", "--skill-bonus", "none"}, ExitUsage, `--skill-bonus "none": a combat skill's level goes to hit or to damage`},
		{[]string{"char", "set", "Ajax"}, ExitUsage, "say what to set"},
		{[]string{"char", "set", "Ajax", "--skill-bonus", "hit"}, ExitConflict, "Ajax's combat skill levels already go to hit"},
		{[]string{"xp", "spend", "Ajax", "Swordplay"}, ExitUsage, `cannot spend XP on "Swordplay": it is not ST, DX or IQ, and unknown skill "Swordplay"`},
		{[]string{"attack", "Ajax", "Hector", "--grapple", "--outside"}, ExitUsage, "--grapple and --outside"},
		{[]string{"attack", "Ajax", "Hector", "--outside", "--damage-dice", "1"}, ExitRule, "edition 2021 states no rule for attacks into a grappling space"},
		{[]string{"attack", "Ajax", "Hector", "--grapple", "--skill-bonus", "hit", "--damage-dice", "1"}, ExitRule, "grappling, Unarmed 2 adds to ST"},
		{[]string{"attack", "Ajax", "Hector", "--grapple", "--dodge", "1,1,1", "--damage-dice", "1"}, ExitRule, "Hector cannot dodge: the attack makes no hit roll"},
		// A dodge after the hit, faces after the names (issue 22).
		{[]string{"attack", "Ajax", "Hector", "1,3,6", "--dice", "1,3,6"}, ExitUsage, "the hit faces are given twice, as 1,3,6 and with --dice 1,3,6"},
		{[]string{"attack", "Ajax", "Hector", "1,3,6", "2", "--damage-dice", "2"}, ExitUsage, "the damage faces are given twice"},
		{[]string{"attack", "Ajax", "Hector", "1,3,6", "2", "3"}, ExitUsage, "attack takes ATTACKER and TARGET, then optionally the HIT faces and the DAMAGE faces (got 5 arguments)"},
		{[]string{"attack", "Ajax", "Hector", "--hit-only", "--damage-dice", "2"}, ExitUsage, "--hit-only leaves the damage to come"},
		{[]string{"attack", "Ajax", "Hector", "1,x,6"}, ExitUsage, `"x" is not a number`},
		{[]string{"attack", "Ajax", "Hector", "2,2,2", "--grapple"}, ExitUsage, "a grappling attack makes no hit roll, so there is no hit to record alone"},
		{[]string{"dodge", "Hector", "3,3,3", "--dice", "3,3,3"}, ExitUsage, "the dodge faces are given twice"},
		{[]string{"dodge", "Hector", "3,3,3"}, ExitRule, "no hit on Hector waits for a dodge"},
		{[]string{"damage", "dice", "4"}, ExitRule, "no hit waits for its damage"},
		{[]string{"damage", "dice", "Hector", "x"}, ExitUsage, `damage dice TARGET FACES: "x" are not dice faces`},
		{[]string{"roll", "3/DX", "Ajax", "1,3,6", "--dice", "1,3,6"}, ExitUsage, "the faces are given twice"},
		{[]string{"roll", "3/DX", "Ajax", "1,3,6", "--char", "Ajax"}, ExitUsage, "the character is given twice"},
		{[]string{"roll", "3/DX", "Ajax", "Hector"}, ExitUsage, `roll EXPR NAME FACES: "Hector" are not dice faces`},
		// Characters, foes, ships: attributes and names.
		{[]string{"char", "new", "Zed", "--st", maxInt, "--dx", maxInt, "--iq", "34"}, ExitUsage, "ST 9223372036854775807 is above the most a new character can have, 16"},
		{[]string{"char", "new", "Zed", "--st", "17", "--dx", "8", "--iq", "7"}, ExitUsage, "ST 17 is above the most a new character can have, 16"},
		{[]string{"char", "new", "Zed", "--st", "-8", "--dx", "20", "--iq", "20"}, ExitUsage, "ST -8 is below the minimum of 8"},
		{[]string{"char", "new", "Zed", "--st", "twelve", "--dx", "11", "--iq", "9"}, ExitUsage, `invalid argument "twelve" for "--st"`},
		{[]string{"char", "new", "Zed\x1b[2J", "--st", "12", "--dx", "11", "--iq", "9"}, ExitUsage, `character name "Zed\x1b[2J" holds the control character U+001B (escape)`},
		{[]string{"char", "new", "Ze\td", "--st", "12", "--dx", "11", "--iq", "9"}, ExitUsage, "holds the control character U+0009 (tab)"},
		{[]string{"char", "new", "Ze\u202ed", "--st", "12", "--dx", "11", "--iq", "9"}, ExitUsage, "holds the control character U+202E"},
		{[]string{"char", "new", longName, "--st", "12", "--dx", "11", "--iq", "9"}, ExitUsage, "is 65 characters long; a name has at most 64"},
		{[]string{"char", "new", "Zed", "--st", "12", "--dx", "11", "--iq", "9", "--skill", "Medic:99999999999999999999"}, ExitUsage, "is not a whole number from 1 to 20"},
		{[]string{"foe", "add", "Drone", "--st", maxInt, "--dx", "10", "--iq", "5"}, ExitUsage, "ST 9223372036854775807 (give 1 to 99)"},
		{[]string{"foe", "add", "Drone", "--st", "0", "--dx", "10", "--iq", "5"}, ExitUsage, "ST 0 (give 1 to 99)"},
		{[]string{"foe", "add", "Dro\x1bne", "--st", "10", "--dx", "10", "--iq", "5"}, ExitUsage, "foe name"},
		{[]string{"foe", "add", longName, "--st", "10", "--dx", "10", "--iq", "5"}, ExitUsage, "a name has at most 64"},
		{[]string{"ship", "new", "Kit\x1b[2JKat", "--record", "Cargo1, Engineering1, Operations1, Living1, d6/1, M+1"}, ExitUsage, "ship name"},
		{[]string{"ship", "new", longName, "--record", "Cargo1, Engineering1, Operations1, Living1, d6/1, M+1"}, ExitUsage, "a name has at most 64"},
		{[]string{"ship", "new", "Kat", "--record", "Cargo99999999999999999999, Engineering1, Operations1"}, ExitUsage, "bad ship record"},
		// Party-wide verbs: an unknown name among several is not found, a
		// name twice or names with --party is a usage error, and nothing
		// of the rest is appended; the day does not end in an encounter.
		{[]string{"xp", "award", "Ajax", "Nobody", "5", "--reason", "x"}, ExitNotFound, `no character "Nobody"`},
		{[]string{"xp", "award", "Ajax", "ajax", "5", "--reason", "x"}, ExitUsage, "Ajax is named twice"},
		{[]string{"xp", "award", "--party", "Ajax", "5", "--reason", "x"}, ExitUsage, "with --party, name nobody"},
		{[]string{"karma", "grant", "Ajax", "Hector", "Nobody", "--reason", "x"}, ExitNotFound, `no character "Nobody"`},
		{[]string{"damage", "Ajax", "Nobody", "2"}, ExitNotFound, `"Nobody"`},
		{[]string{"damage", "Hector", "hector", "2"}, ExitUsage, "Hector is named twice"},
		{[]string{"heal", "Hector", "Nobody", "--medic", "Ajax", "--dice", "1,1,1,1,1,1"}, ExitNotFound, `"Nobody"`},
		{[]string{"heal", "Hector", "Ajax", "--medic", "Ajax", "--dice", "1,1,1,1,1"}, ExitUsage, "--dice gives 5 faces for 2 patients"},
		{[]string{"equip", "Ajax", "weapon", "handgun", "weapon", "cutlass"}, ExitUsage, "one weapon at a time"},
		{[]string{"day", "end"}, ExitRule, "the day cannot end: encounter 1 (pirates) is under way"},
		{[]string{"night"}, ExitRule, "the day cannot end"},
		{[]string{"attack", "Ajax", "pirate\x1b[2J", "--dice", "1,1,1", "--damage-dice", "1"}, ExitUsage, `target "pirate\x1b[2J" holds the control character U+001B`},
		{[]string{"attack", "Ajax", "pirate", "--target-st", maxInt, "--dice", "1,1,1", "--damage-dice", "1"}, ExitUsage, "attack --target-st 9223372036854775807: a target's ST is 1 to 99"},
	}
}

// TestBadInput runs every bad-input case through Main, the CLI's entry
// point, and checks its exit status and message, and that the event log
// is byte for byte what it was: a refused command appends nothing.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, setup := range [][]string{
		{"init", "--edition", "2021"},
		{"char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9", "--skill", "Unarmed:2", "--skill", "Medic:2"},
		{"char", "new", "Hector", "--st", "11", "--dx", "12", "--iq", "9"},
		{"xp", "award", "Ajax", "20", "--reason", "the envoy"},
		{"damage", "Hector", "2"},
		{"adventure", "start", "The Kit-Kat run"},
		{"encounter", "start", "pirates"},
	} {
		mustRun(t, dir, setup...)
	}
	before := mustRun(t, dir, "log", "--all", "--json")
	cases := badInputCases()
	if len(cases) < 60 {
		t.Fatalf("%d cases; the table keeps at least 60", len(cases))
	}
	for _, c := range cases {
		code, stdout, stderr := run(t, dir, c.args...)
		if code != c.code || !strings.Contains(stderr, c.msg) {
			t.Errorf("%q: exit %d, stderr %q; want exit %d and %q (stdout %q)", c.args, code, stderr, c.code, c.msg, stdout)
		}
		if strings.Contains(stderr, "\x1b") || strings.Contains(stderr, "\u009b") {
			t.Errorf("%q: the message carries a raw control character: %q", c.args, stderr)
		}
		if after := mustRun(t, dir, "log", "--all", "--json"); after != before {
			t.Fatalf("%q appended to the log:\n%s", c.args, strings.TrimPrefix(after, before))
		}
	}
}

// TestOldControlCharactersAreShownEscaped: text that an old log holds with
// control characters (written before the commands refused them; here
// through the campaign service, which once took them) is shown escaped by
// every human output, and exactly by JSON.
func TestOldControlCharactersAreShownEscaped(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, dir, "init")
	mustRun(t, dir, "char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9")
	forgeOldText(t, dir)
	for _, args := range [][]string{
		{"log"},
		{"log", "--all"},
		{"char", "list"},
		{"sheet", "Evil\x1b[2JName"},
		{"party"},
		{"timeline"},
		{"audit", "xp", "Evil\x1b[2JName"},
		{"audit", "xp", "Evil\x1b[2JName", "--wide"},
		{"export", "sheet", "Evil\x1b[2JName", "--format", "md"},
	} {
		code, stdout, stderr := runAsEnvActor(dir, args...)
		if code != ExitOK {
			t.Errorf("%q: exit %d: %s", args, code, stderr)
			continue
		}
		if strings.ContainsAny(stdout+stderr, "\x1b\x07\u009b") {
			t.Errorf("%q printed a raw control character:\n%q", args, stdout)
		}
		if !strings.Contains(stdout, `x1b`) {
			t.Errorf("%q does not show the name escaped:\n%s", args, stdout)
		}
	}
	if _, stdout, _ := runAsEnvActor(dir, "log"); !strings.Contains(stdout, `old\u009bgm`) || !strings.Contains(stdout, `bell\x07 and \x1b[2J clear`) {
		t.Errorf("log does not show the actor and the reason escaped:\n%s", stdout)
	}
	js := mustRun(t, dir, "sheet", "Evil\x1b[2JName", "--json")
	if !strings.Contains(js, `Evil\u001b[2JName`) {
		t.Errorf("sheet --json does not keep the name exactly: %s", js)
	}
}

// forgeOldText appends, straight to the store, what an old log may hold:
// a character whose name carries an escape sequence, an XP award whose
// reason rings the bell and clears the screen, by an actor with a C1
// control in his name.
func forgeOldText(t *testing.T, dir string) {
	t.Helper()
	now := func() time.Time { return time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC) }
	s, err := campaign.Open(filepath.Join(dir, "c.ltscamp"), campaign.Options{Now: now, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ids := make([]string, 4)
	entropy := ulid.Monotonic(strings.NewReader(strings.Repeat("entropy!", 8)), 0)
	for i := range ids {
		ids[i] = ulid.MustNew(ulid.Timestamp(now()), entropy).String()
	}
	id := ids[3]
	stream := events.CharacterStream(id)
	created, err := events.Encode(ids[1], stream, events.CharacterCreated{
		CharacterID: id, Name: "Evil\x1b[2JName", Edition: "2021",
		Attributes: events.Attributes{ST: 12, DX: 11, IQ: 9}, Skills: []events.SkillLevel{},
	}, &events.GameTime{})
	if err != nil {
		t.Fatal(err)
	}
	award, err := events.Encode(ids[2], stream, events.XPAwarded{Amount: 3, Reason: "bell\x07 and \x1b[2J clear"}, &events.GameTime{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store().Append(events.Command{
		ID: ids[0], Actor: "old\u009bgm", RecordedAt: now(),
		Expected: map[string]int64{stream: 0}, Events: []events.Pending{created, award},
	}); err != nil {
		t.Fatal(err)
	}
}

// runAsEnvActor is run without --actor (which on `log` selects an actor's
// events): the actor comes from $LTSCAMP_ACTOR.
func runAsEnvActor(dir string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	env := &Env{
		Args:   append([]string{"--db", filepath.Join(dir, "c.ltscamp")}, args...),
		Stdin:  strings.NewReader(""),
		Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string {
			if k == "LTSCAMP_ACTOR" {
				return "gm"
			}
			return ""
		},
		Now: func() time.Time { return time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC) },
	}
	code = Main(env)
	return code, out.String(), errb.String()
}

// TestVerifyFlagsOverflow: a log whose XP would wrap round (forged here,
// or written before awards were bounded) is an invalid log to verify, not
// a negative ledger.
func TestVerifyFlagsOverflow(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, dir, "init")
	mustRun(t, dir, "char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9")
	mustRun(t, dir, "xp", "award", "Ajax", "1", "--reason", "first")
	now := func() time.Time { return time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC) }
	s, err := campaign.Open(filepath.Join(dir, "c.ltscamp"), campaign.Options{Now: now, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	sh, err := s.Sheet("Ajax")
	if err != nil {
		t.Fatal(err)
	}
	entropy := ulid.Monotonic(strings.NewReader(strings.Repeat("overflow", 8)), 0)
	id := func() string { return ulid.MustNew(ulid.Timestamp(now()), entropy).String() }
	stream := events.CharacterStream(sh.ID)
	award, err := events.Encode(id(), stream, events.XPAwarded{Amount: math.MaxInt64, Reason: "forged"}, &events.GameTime{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store().Append(events.Command{ID: id(), Actor: "gm", RecordedAt: now(),
		Expected: map[string]int64{stream: sh.Version}, Events: []events.Pending{award}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	code, stdout, stderr := run(t, dir, "verify")
	if code != ExitInvalidLog || !strings.Contains(stdout+stderr, "overflows") {
		t.Errorf("verify: exit %d, want %d with the overflow named:\n%s%s", code, ExitInvalidLog, stdout, stderr)
	}
}

func TestPrintableLines(t *testing.T) {
	got := printableLines("cannot import:\n  line 2: \x1b[2J\n  line 3: ok")
	if want := "cannot import:\n  line 2: \\x1b[2J\n  line 3: ok"; got != want {
		t.Errorf("printableLines = %q, want %q", got, want)
	}
}
