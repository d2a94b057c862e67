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
// characters were refused in names, with "Ajax" and "Ajax" + U+200B as two
// characters, still verifies and folds; each is found by his name as
// stored.
func TestOldInvisibleNamesStillFold(t *testing.T) {
	dir := t.TempDir()
	mustRun(t, dir, "init")
	mustRun(t, dir, "char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9")
	now := func() time.Time { return time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC) }
	s, err := campaign.Open(filepath.Join(dir, "c.ltscamp"), campaign.Options{Now: now, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	entropy := ulid.Monotonic(strings.NewReader(strings.Repeat("entropy!", 8)), 0)
	cmdID, evID, charID := ulid.MustNew(ulid.Timestamp(now()), entropy).String(), ulid.MustNew(ulid.Timestamp(now()), entropy).String(), ulid.MustNew(ulid.Timestamp(now()), entropy).String()
	stream := events.CharacterStream(charID)
	created, err := events.Encode(evID, stream, events.CharacterCreated{
		CharacterID: charID, Name: "Ajax\u200b", Edition: "2021",
		Attributes: events.Attributes{ST: 10, DX: 12, IQ: 10}, Skills: []events.SkillLevel{},
	}, &events.GameTime{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Store().Append(events.Command{ID: cmdID, Actor: "gm", RecordedAt: now(),
		Expected: map[string]int64{stream: 0}, Events: []events.Pending{created}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if code, stdout, stderr := run(t, dir, "verify"); code != ExitOK {
		t.Fatalf("verify of the old log: exit %d: %s%s", code, stdout, stderr)
	}
	if out := mustRun(t, dir, "sheet", "Ajax\u200b", "--json"); !strings.Contains(out, `"st": 10`) && !strings.Contains(out, `"ST": 10`) && !strings.Contains(out, `"st":10`) {
		t.Errorf("sheet of the old Ajax\\u200b is not his: %s", out)
	}
	if out := mustRun(t, dir, "char", "list", "--json"); strings.Count(out, `"Ajax`) != 2 {
		t.Errorf("char list does not hold both old characters: %s", out)
	}
}
