package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
)

// TestNamesThatLookAlike: a name is compared as a person reads it, so a
// second character, foe or ship that looks like the first cannot be
// made with an invisible character or a decomposed accent (exit 2, the
// log unchanged). Each of these once made a second "Kira" or "José".
func TestNamesThatLookAlike(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, dir, "init")
	mustRun(t, dir, "char", "new", "Kira", "--st", "10", "--dx", "12", "--iq", "10")
	mustRun(t, dir, "char", "new", "José", "--st", "10", "--dx", "12", "--iq", "10")
	before := mustRun(t, dir, "log", "--json")
	for _, c := range []struct {
		args  []string
		words string
	}{
		{[]string{"char", "new", "Kira\u200b", "--st", "10", "--dx", "12", "--iq", "10"}, `character name "Kira\u200b" holds the invisible character U+200B (zero-width space)`},
		{[]string{"char", "new", "Ki\u200dra", "--st", "10", "--dx", "12", "--iq", "10"}, "U+200D (zero-width joiner)"},
		{[]string{"char", "new", "\ufeffKira", "--st", "10", "--dx", "12", "--iq", "10"}, "U+FEFF (byte order mark)"},
		{[]string{"char", "new", "Jose\u0301", "--st", "10", "--dx", "12", "--iq", "10"}, "the letter 'e' and the combining mark U+0301 where one character belongs"},
		{[]string{"foe", "add", "Kira\u2060:ST10,DX11,IQ8"}, "U+2060 (word joiner)"},
		{[]string{"ship", "new", "Kit\u00adKat", "--record", "E2, O2, L1, 2d6/2"}, "U+00AD (soft hyphen)"},
	} {
		code, _, stderr := run(t, dir, c.args...)
		if code != ExitUsage || !strings.Contains(stderr, c.words) {
			t.Errorf("%q: exit %d, %q; want %d and %q", c.args, code, stderr, ExitUsage, c.words)
		}
	}
	if after := mustRun(t, dir, "log", "--json"); after != before {
		t.Errorf("a refused name appended to the log")
	}
}

// TestOldInvisibleNamesStillFold: a log written before invisible
// characters and decomposed accents were refused in names, with "Ajax"
// and "Ajax" + U+200B, "José" and "Jose" + U+0301 as four characters,
// still verifies and folds; each is found by his name as stored.
func TestOldInvisibleNamesStillFold(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, dir, "init")
	mustRun(t, dir, "char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9")
	mustRun(t, dir, "char", "new", "José", "--st", "12", "--dx", "11", "--iq", "9")
	now := func() time.Time { return time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC) }
	s, err := campaign.Open(filepath.Join(dir, "c.ltscamp"), campaign.Options{Now: now, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	entropy := ulid.Monotonic(strings.NewReader(strings.Repeat("entropy!", 8)), 0)
	newID := func() string { return ulid.MustNew(ulid.Timestamp(now()), entropy).String() }
	old := []string{"Ajax\u200b", "Jose\u0301"}
	cmd := events.Command{ID: newID(), Actor: "gm", RecordedAt: now(), Expected: map[string]int64{}}
	for _, name := range old {
		id := newID()
		stream := events.CharacterStream(id)
		created, err := events.Encode(newID(), stream, events.CharacterCreated{
			CharacterID: id, Name: name, Edition: "2021",
			Attributes: events.Attributes{ST: 10, DX: 12, IQ: 10}, Skills: []events.SkillLevel{},
		}, &events.GameTime{})
		if err != nil {
			t.Fatal(err)
		}
		cmd.Expected[stream] = 0
		cmd.Events = append(cmd.Events, created)
	}
	if _, err := s.Store().Append(cmd); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if code, stdout, stderr := run(t, dir, "verify"); code != ExitOK {
		t.Fatalf("verify of the old log: exit %d: %s%s", code, stdout, stderr)
	}
	for name, st := range map[string]string{"Ajax": "12", "Ajax\u200b": "10", "José": "12", "Jose\u0301": "10"} {
		if out := mustRun(t, dir, "sheet", name, "--json"); !strings.Contains(out, `"ST": `+st) {
			t.Errorf("sheet %q is not his (ST %s): %s", name, st, out)
		}
	}
	if out := mustRun(t, dir, "char", "list", "--json"); strings.Count(out, `"name"`) != 4 {
		t.Errorf("char list does not hold the four characters: %s", out)
	}
}
