package main

import (
	"bytes"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/events/memstore"
)

// lifecycleStory is a campaign through every game-time command: adventures,
// days, encounters, attacks, fatigue, a medic, deaths, a wish, storyteller
// karma that expires, an undo and a redo of a `day next`, rest, sleep, a
// curse lifted, and the recovery between adventures.
var lifecycleStory = [][]string{
	{"init", "--name", "Rebuild", "--edition", "2021"},
	{"char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9", "--skill", "Medic:2", "--skill", "Unarmed:2"},
	{"char", "new", "Hector", "--st", "11", "--dx", "12", "--iq", "9"},
	{"char", "new", "Cassandra", "--st", "8", "--dx", "10", "--iq", "14", "--skill", "Storyteller:1"},
	{"xp", "award", "Ajax", "Hector", "20", "--reason", "the envoy"},
	{"adventure", "start", "The Kit-Kat run"},
	{"equip", "Hector", "armor", "flak vest"},
	{"karma", "storytell", "Cassandra", "--to", "Cassandra", "--dice", "2,2,2"},
	{"encounter", "start", "pirates"},
	{"attack", "Ajax", "Hector", "--weapon", "handgun", "--dice", "1,3,6", "--damage-dice", "5,2"},
	{"attack", "Ajax", "Hector", "--skill-bonus", "damage", "--dice", "3,3,3", "--damage-dice", "2"},
	{"damage", "Cassandra", "9", "--source", "a cutlass"},
	{"heal", "Hector", "--medic", "Ajax", "--dice", "2,3,4"},
	{"encounter", "end", "--outcome", "victory"},
	{"sleep"},
	{"xp", "spend", "Ajax", "skill:Medic"},
	{"curse", "add", "Hector", "--reason", "the idol"},
	{"curse", "lift", "Hector", "--by", "attribute"},
	{"day", "next"},
	{"undo", "--reason", "not yet"},
	{"redo", "--reason", "now"},
	{"wish", "grant", "Cassandra"},
	{"wish", "use", "Cassandra"},
	{"rest", "Hector", "--days", "2"},
	{"damage", "Ajax", "4"},
	{"adventure", "end"},
	{"adventure", "start", "The return"},
	{"encounter", "start"},
	{"damage", "Ajax", "24"},
	{"encounter", "end", "--outcome", "fled"},
	{"day", "next", "--days", "2"},
}

// TestLifecycleRebuild (issue 4, acceptance 7) copies the log of a CLI
// story, command by command, into a different store (the in-memory one)
// and rebuilds every projection there. At every command boundary the
// rebuilt sheets equal the CLI's `sheet --as-of SEQ --json`, byte for
// byte; at the end the rebuilt timeline equals `timeline --json`. The copy
// reproduces the hash chain, and delivering a command twice applies it once.
func TestLifecycleRebuild(t *testing.T) {
	dir := t.TempDir()
	for _, args := range lifecycleStory {
		if code, _, stderr := run(t, dir, args...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	if code, stdout, stderr := run(t, dir, "verify"); code != ExitOK {
		t.Fatalf("verify: exit %d: %s%s", code, stdout, stderr)
	}
	cliTimeline := mustRun(t, dir, "timeline", "--json")
	logBefore := mustRun(t, dir, "log", "--all", "--json")

	now := func() time.Time { return time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC) }
	src, err := campaign.Open(filepath.Join(dir, "c.ltscamp"), campaign.Options{Now: now, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	log, err := src.Store().Read(events.Query{})
	src.Close()
	if err != nil {
		t.Fatal(err)
	}

	mem := memstore.New()
	rebuilt, err := campaign.New(mem, campaign.Options{Now: now, Actor: "gm"})
	if err != nil {
		t.Fatal(err)
	}
	commands := 0
	for i := 0; i < len(log); {
		j := i
		for j < len(log) && log[j].CommandID == log[i].CommandID {
			j++
		}
		orig := log[i:j]
		cmd := events.Command{ID: orig[0].CommandID, Actor: orig[0].Actor, RecordedAt: orig[0].RecordedAt, Expected: map[string]int64{}}
		for _, e := range orig {
			cmd.Expected[e.Stream] = events.AnyVersion
			cmd.Events = append(cmd.Events, events.Pending{ID: e.ID, Stream: e.Stream, Type: e.Type, PayloadVersion: e.PayloadVersion, Payload: e.Payload})
		}
		res, err := mem.Append(cmd)
		if err != nil {
			t.Fatalf("appending the command of seq %d: %v", orig[0].Seq, err)
		}
		for k, e := range res.Events {
			if e.Seq != orig[k].Seq || e.StreamVersion != orig[k].StreamVersion || !bytes.Equal(e.Hash, orig[k].Hash) {
				t.Fatalf("seq %d (%s) rebuilt as seq %d, stream version %d, hash %x; the file has stream version %d, hash %x",
					orig[k].Seq, orig[k].Type, e.Seq, e.StreamVersion, e.Hash, orig[k].StreamVersion, orig[k].Hash)
			}
		}
		head := orig[len(orig)-1].Seq

		// The same command delivered again is a duplicate: nothing is
		// appended, nothing applied twice.
		before := rebuiltSheets(t, rebuilt)
		again, err := mem.Append(cmd)
		if err != nil || !again.Duplicate {
			t.Fatalf("the command of seq %d appended twice: duplicate %v, %v", orig[0].Seq, again.Duplicate, err)
		}
		if n, _ := mem.Count(); n != head {
			t.Fatalf("after delivering seq %d's command twice the log has %d events, want %d", orig[0].Seq, n, head)
		}
		if after := rebuiltSheets(t, rebuilt); !equalSheets(before, after) {
			t.Fatalf("delivering the command of seq %d twice changed the sheets", orig[0].Seq)
		}

		// Every sheet rebuilt in the other store is the CLI's sheet as of
		// this point, byte for byte.
		for name, got := range before {
			want := mustRun(t, dir, "sheet", name, "--json", "--as-of", strconv.FormatInt(head, 10))
			if got != want {
				t.Errorf("as of seq %d (%s), %s rebuilt:\n%s\nthe CLI's sheet --as-of:\n%s", head, orig[0].Type, name, got, want)
			}
		}
		commands++
		i = j
	}
	if commands < len(lifecycleStory) {
		t.Fatalf("rebuilt %d commands from a story of %d", commands, len(lifecycleStory))
	}

	tl, err := rebuilt.Timeline(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := encodeJSON(t, tl); got != cliTimeline {
		t.Errorf("rebuilt timeline:\n%s\nthe CLI's timeline --json:\n%s", got, cliTimeline)
	}
	for name, got := range rebuiltSheets(t, rebuilt) {
		if want := mustRun(t, dir, "sheet", name, "--json"); got != want {
			t.Errorf("%s rebuilt:\n%s\nthe CLI's sheet --json:\n%s", name, got, want)
		}
	}
	// Reading appended nothing to the file.
	if got := mustRun(t, dir, "log", "--all", "--json"); got != logBefore {
		t.Error("reading the campaign changed its log")
	}
}

// rebuiltSheets returns every party member's sheet in s, encoded as
// `sheet --json` encodes it, by name.
func rebuiltSheets(t *testing.T, s *campaign.Service) map[string]string {
	t.Helper()
	members, err := s.Characters()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, m := range members {
		sh, err := s.Sheet(m.Name)
		if err != nil {
			t.Fatal(err)
		}
		out[m.Name] = encodeJSON(t, sh)
	}
	return out
}

func equalSheets(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// encodeJSON encodes v as the CLI's --json output does.
func encodeJSON(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	p := &printer{w: &b}
	if err := p.json(v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// mustRun runs one CLI command in dir and returns its standard output.
func mustRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	code, stdout, stderr := run(t, dir, args...)
	if code != ExitOK {
		t.Fatalf("%v: exit %d: %s", args, code, stderr)
	}
	return stdout
}
