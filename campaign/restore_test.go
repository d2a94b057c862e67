package campaign_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/events"
	"github.com/ltscamp/ltscamp/exports"
	"github.com/ltscamp/ltscamp/importers"
	"github.com/ltscamp/ltscamp/rules"
)

func clock() func() time.Time {
	t := time.Date(2026, 11, 21, 20, 0, 0, 0, time.UTC)
	return func() time.Time { t = t.Add(time.Second); return t }
}

func options() campaign.Options { return campaign.Options{VerifyKept: true, Now: clock(), Actor: "gm"} }

// demoBackup builds the demo campaign in a file and returns its path and
// its backup (export log).
func demoBackup(t *testing.T) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "demo.ltscamp")
	s, err := campaign.Create(path, campaign.DemoName, rules.DefaultEdition, options())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.PlayDemo(); err != nil {
		t.Fatal(err)
	}
	return path, backupOf(t, s)
}

func backupOf(t *testing.T, s *campaign.Service) []byte {
	t.Helper()
	p, err := s.Point("")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	h := exports.LogHeader{CampaignID: p.CampaignID, Campaign: p.Campaign.Name, Edition: string(p.Campaign.Edition), Events: p.Seq, HeadSeq: p.Seq, HeadHash: p.HashHex()}
	n, err := exports.WriteLog(&b, h, s.Events(p.Seq))
	if err != nil || n != p.Seq {
		t.Fatalf("WriteLog = %d, %v; want %d events", n, err, p.Seq)
	}
	return b.Bytes()
}

// restore runs import log on a backup into a new file in dir.
func restore(t *testing.T, dir string, backup []byte) (string, campaign.VerifyReport, error) {
	t.Helper()
	path := filepath.Join(dir, "restored.ltscamp")
	lr, err := importers.NewLogReader("b.ndjson", bytes.NewReader(backup))
	if err != nil {
		return path, campaign.VerifyReport{}, err
	}
	head, err := importers.DecodeHash(lr.Header.HeadHash)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := campaign.RestoreLog(path, campaign.RestoreExpect{Events: lr.Header.Events, HeadHash: head, CampaignID: lr.Header.CampaignID}, lr.Events(), options())
	return path, rep, err
}

func readAll(t *testing.T, path string) []events.Event {
	t.Helper()
	s, err := campaign.Open(path, options())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	evs, err := s.Store().Read(events.Query{})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

func TestRestoreRoundTrip(t *testing.T) {
	orig, backup := demoBackup(t)
	dir := t.TempDir()
	path, rep, err := restore(t, dir, backup)
	if err != nil {
		t.Fatalf("restore: %v", err)
	}
	assertOnlyFiles(t, dir, ".restored.ltscamp.checked", "restored.ltscamp") // the file and its record as ltscamp made it
	if !rep.OK {
		t.Fatalf("the restore's verify report is not ok: %+v", rep)
	}
	want, got := readAll(t, orig), readAll(t, path)
	if len(got) != len(want) || len(got) < 30 {
		t.Fatalf("restored %d events, want %d", len(got), len(want))
	}
	for i := range want {
		w, g := want[i], got[i]
		if g.Seq != w.Seq || g.ID != w.ID || g.CommandID != w.CommandID || g.Stream != w.Stream || g.StreamVersion != w.StreamVersion ||
			g.Type != w.Type || g.PayloadVersion != w.PayloadVersion || !bytes.Equal(g.Payload, w.Payload) || g.Actor != w.Actor ||
			!g.RecordedAt.Equal(w.RecordedAt) || !bytes.Equal(g.PrevHash, w.PrevHash) || !bytes.Equal(g.Hash, w.Hash) {
			t.Fatalf("event %d differs:\n got  %+v\n want %+v", i+1, g, w)
		}
	}
	// The restored campaign folds to the same sheets, and a backup of it is
	// the same backup byte for byte.
	rs, err := campaign.Open(path, options())
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	os_, err := campaign.Open(orig, options())
	if err != nil {
		t.Fatal(err)
	}
	defer os_.Close()
	for _, name := range []string{"Ajax", "Hector"} {
		a, err1 := os_.Sheet(name)
		b, err2 := rs.Sheet(name)
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if err1 != nil || err2 != nil || !bytes.Equal(ja, jb) {
			t.Fatalf("sheet of %s differs after restore (%v, %v):\n%s\n%s", name, err1, err2, ja, jb)
		}
	}
	if again := backupOf(t, rs); !bytes.Equal(again, backup) {
		t.Fatalf("a backup of the restored campaign differs from the backup it came from")
	}
}

// assertOnlyFiles checks that dir holds exactly the named files: no
// temporary file of a restore stays behind.
func assertOnlyFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(names, ",") {
		t.Fatalf("%s holds %v, want %v", dir, got, names)
	}
}

// lines splits a backup into its lines (without newlines).
func lines(b []byte) [][]byte { return bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) }

func join(ls [][]byte) []byte { return append(bytes.Join(ls, []byte("\n")), '\n') }

// rechain recomputes every hash from line from on, as a forger would after
// editing an event, and the header's head hash: only the rules can tell.
func rechain(t *testing.T, ls [][]byte, from int) {
	t.Helper()
	var prev []byte
	for i := from; i < len(ls); i++ {
		e, err := importersParse(ls[i])
		if err != nil {
			t.Fatal(err)
		}
		if prev != nil {
			e.PrevHash = prev
		}
		e.Hash = events.ComputeHash(e.PrevHash, e)
		prev = e.Hash
		if ls[i], err = exports.MarshalLogLine(e); err != nil {
			t.Fatal(err)
		}
	}
	var h exports.LogHeader
	if err := json.Unmarshal(ls[0], &h); err != nil {
		t.Fatal(err)
	}
	h.HeadHash = hex.EncodeToString(prev)
	ls[0], _ = json.Marshal(h)
}

// importersParse reads one event line through a one-event backup.
func importersParse(line []byte) (events.Event, error) {
	var l exports.LogLine
	if err := json.Unmarshal(line, &l); err != nil {
		return events.Event{}, err
	}
	at, err := events.ParseTime(l.RecordedAt)
	if err != nil {
		return events.Event{}, err
	}
	prev, _ := hex.DecodeString(l.PrevHash)
	hash, _ := hex.DecodeString(l.Hash)
	return events.Event{Seq: l.Seq, ID: l.ID, CommandID: l.CommandID, Stream: l.Stream, StreamVersion: l.StreamVersion, Type: l.Type,
		PayloadVersion: l.PayloadVersion, Payload: l.Payload, Actor: l.Actor, RecordedAt: at, PrevHash: prev, Hash: hash}, nil
}

func TestRestoreRefusesTamperedBackups(t *testing.T) {
	_, backup := demoBackup(t)
	firstSpend := -1
	for i, l := range lines(backup) {
		if i > 0 && bytes.Contains(l, []byte(`"type":"xp.spent"`)) {
			firstSpend = i
			break
		}
	}
	if firstSpend < 0 {
		t.Fatal("the demo backup has no xp.spent line")
	}
	for _, tc := range []struct {
		name string
		edit func(ls [][]byte) [][]byte
		// line is the line the error must name; want a phrase of it.
		line string
		want string
	}{
		{"a payload edited", func(ls [][]byte) [][]byte {
			ls[11] = bytes.Replace(ls[11], []byte(`"actor":"gm"`), []byte(`"actor":"mallory"`), 1)
			return ls
		}, "line 12", "does not match the event's contents"},
		{"a line deleted", func(ls [][]byte) [][]byte { return append(ls[:13:13], ls[14:]...) }, "line 14", "seq gap"},
		{"two lines swapped", func(ls [][]byte) [][]byte { ls[9], ls[10] = ls[10], ls[9]; return ls }, "line 10", "seq gap"},
		{"the last lines cut off", func(ls [][]byte) [][]byte { return ls[:len(ls)-3] }, "line ", "cut short"},
		{"a line added", func(ls [][]byte) [][]byte { return append(ls, ls[len(ls)-1]) }, "line ", "lines were added"},
		{"a blank line", func(ls [][]byte) [][]byte {
			return append(ls[:5:5], append([][]byte{{}}, ls[5:]...)...)
		}, "line 6", "blank"},
		{"not JSON", func(ls [][]byte) [][]byte { ls[3] = []byte("seq 3, trust me"); return ls }, "line 4", "not a backup line"},
		{"an unknown field", func(ls [][]byte) [][]byte {
			ls[3] = bytes.Replace(ls[3], []byte(`{"seq"`), []byte(`{"note":"x","seq"`), 1)
			return ls
		}, "line 4", "unknown field"},
		{"a price forged and the chain recomputed", func(ls [][]byte) [][]byte {
			ls[firstSpend] = bytes.Replace(ls[firstSpend], []byte(`"price":`), []byte(`"price":1`), 1)
			rechain(t, ls, firstSpend)
			return ls
		}, "", "xp.spent"},
		{"the header's head hash", func(ls [][]byte) [][]byte {
			ls[0] = bytes.Replace(ls[0], []byte(`"head_hash":"`), []byte(`"head_hash":"00`), 1)
			ls[0] = bytes.Replace(ls[0], []byte(`","events"`), []byte(`","events"`), 1)
			return ls
		}, "line 1", "head_hash"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ls := lines(bytes.Clone(backup))
			for i := range ls {
				ls[i] = bytes.Clone(ls[i])
			}
			dir := t.TempDir()
			_, _, err := restore(t, dir, join(tc.edit(ls)))
			if err == nil {
				t.Fatal("the tampered backup was restored")
			}
			msg := err.Error()
			var re *campaign.RestoreError
			var le *importers.LineError
			if tc.line == "" {
				if !errors.As(err, &re) || re.Seq < 1 {
					t.Fatalf("err = %v, want a RestoreError naming a seq", err)
				}
				if want := int64(firstSpend); re.Seq != want || re.Ordinal != want {
					t.Errorf("the error names seq %d, want %d (the forged spend)", re.Seq, want)
				}
			} else if errors.As(err, &re) {
				msg = "line " + strconv.FormatInt(importers.LineOf(re.Ordinal), 10) + ": " + msg
			} else if !errors.As(err, &le) {
				t.Fatalf("err = %v (%T), want a line or seq named", err, err)
			}
			if !strings.Contains(msg, tc.line) || !strings.Contains(msg, tc.want) {
				t.Fatalf("error %q, want it to name %q and say %q", msg, tc.line, tc.want)
			}
			if rules.CodeOf(err) != rules.CodeInvalidLog && le == nil {
				t.Errorf("code %q, want %q", rules.CodeOf(err), rules.CodeInvalidLog)
			}
			assertOnlyFiles(t, dir)
		})
	}
}

func TestRestoreRefusesAnExistingFile(t *testing.T) {
	orig, backup := demoBackup(t)
	before, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	lr, err := importers.NewLogReader("b.ndjson", bytes.NewReader(backup))
	if err != nil {
		t.Fatal(err)
	}
	head, _ := importers.DecodeHash(lr.Header.HeadHash)
	_, err = campaign.RestoreLog(orig, campaign.RestoreExpect{Events: lr.Header.Events, HeadHash: head, CampaignID: lr.Header.CampaignID}, lr.Events(), options())
	if rules.CodeOf(err) != rules.CodeConflict || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("err = %v, want a conflict: the file exists", err)
	}
	after, _ := os.ReadFile(orig)
	if !bytes.Equal(before, after) {
		t.Fatal("the existing campaign file was changed")
	}
}
