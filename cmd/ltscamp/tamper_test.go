package main

import (
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"
)

// TestTamperTable changes a real campaign file by hand in one way per
// case, as someone with the sqlite3 shell would, and checks what verify
// says: each case is named by verify's output. The head kept is the one
// verify printed before the change.
func TestTamperTable(t *testing.T) {
	orig, _, _ := buildCampaign(t)
	_, _, _, clean := verify(t, orig)
	kept := clean.HeadHash
	type tamperCase struct {
		name string
		// edit changes the copy; restore puts the triggers back after.
		edit    []string
		rehash  bool
		raw     bool // the triggers stay as edit leaves them
		head    string
		code    int
		stdout  []string // lines verify must print
		kind    string   // the chain break's kind, "" when intact
		keptOK  bool
		refuses bool // a write is refused too (exit 7)
	}
	cases := []tamperCase{
		{name: "seq 9: hash mismatch (payload edited, chain left)", edit: []string{`UPDATE events SET payload = json_set(payload, '$.amount', 200) WHERE seq = 9`},
			code: ExitInvalidLog, stdout: []string{"seq 9: hash mismatch: the event was changed after it was written"}, kind: "hash", refuses: true},
		{name: "no event has the kept head (payload edited, chain recomputed)", edit: []string{`UPDATE events SET payload = json_set(payload, '$.reason', 'forged') WHERE seq = 4`},
			rehash: true, head: kept, code: ExitInvalidLog, stdout: []string{"no event of the log has the head hash " + kept + " you kept"}},
		{name: "ok without a kept head (payload edited, chain recomputed)", edit: []string{`UPDATE events SET payload = json_set(payload, '$.reason', 'forged') WHERE seq = 4`},
			rehash: true, code: ExitOK},
		{name: "no event has the kept head (tail deleted)", edit: []string{`DELETE FROM events WHERE seq >= 9`},
			head: kept[:12], code: ExitInvalidLog, stdout: []string{"no event of the log has the head hash " + kept[:12] + " you kept", "it now ends at seq 8"}},
		{name: "trigger events_no_delete is missing (dropped)", edit: []string{`DROP TRIGGER events_no_delete`}, raw: true,
			code: ExitInvalidLog, stdout: []string{"trigger events_no_delete is missing: the events table no longer refuses DELETE"}},
		{name: "trigger events_no_update is not the one ltscamp creates (emptied)", raw: true,
			edit: []string{`DROP TRIGGER events_no_update`, `CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT 1; END`},
			code: ExitInvalidLog, stdout: []string{"trigger events_no_update is not the one ltscamp creates"}},
		{name: "seq 6: prev_hash is not the hash of seq 5 (two events swapped)", edit: []string{`UPDATE events SET seq = -6 WHERE seq = 6`, `UPDATE events SET seq = 6 WHERE seq = 7`, `UPDATE events SET seq = 7 WHERE seq = -6`},
			code: ExitInvalidLog, stdout: []string{"seq 6: prev_hash is not the hash of seq 5"}, kind: "prev_hash", refuses: true},
		{name: "the kept head is seq 10's, but the chain breaks at seq 4 (edited before it)", edit: []string{`UPDATE events SET payload = json_set(payload, '$.reason', 'forged') WHERE seq = 4`},
			head: kept, code: ExitInvalidLog, stdout: []string{"the head hash " + kept + " you kept is seq 10's, but the chain breaks at seq 4, before it"}, kind: "hash"},
		{name: "seqs 4–5 missing (rows deleted mid-log)", edit: []string{`DELETE FROM events WHERE seq IN (4, 5)`},
			code: ExitInvalidLog, stdout: []string{"seqs 4–5 missing: the log jumps from 3 to 6"}, kind: "gap"},
		{name: "kept head: seq 10 is in the log (untouched)", head: kept, code: ExitOK, keptOK: true,
			stdout: []string{"kept head: seq 10 (" + kept + ") is in the log, chain intact up to it, 0 events after it"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := copyCampaign(t, orig)
			if len(c.edit) > 0 {
				if c.raw {
					rawEdit(t, dir, c.edit...)
				} else {
					tamper(t, dir, c.rehash, c.edit...)
				}
			}
			args := []string{}
			if c.head != "" {
				args = append(args, "--head", c.head)
			}
			code, stdout, stderr := run(t, dir, append([]string{"verify"}, args...)...)
			jcode, jout, _ := run(t, dir, append([]string{"verify", "--json"}, args...)...)
			if code != c.code || jcode != c.code {
				t.Fatalf("verify exits %d, --json %d, want %d\n%s%s", code, jcode, c.code, stdout, stderr)
			}
			for _, line := range c.stdout {
				if !strings.Contains(stdout, line) {
					t.Errorf("stdout lacks %q:\n%s", line, stdout)
				}
			}
			rep := decodeVerify(t, jout)
			if rep.OK != (c.code == ExitOK) || rep.Chain.Kind != c.kind {
				t.Errorf("--json: ok %v, chain %+v", rep.OK, rep.Chain)
			}
			if c.head != "" && (rep.KeptHead == nil || rep.KeptHead.OK != (c.code == ExitOK)) {
				t.Errorf("--json: kept_head %+v", rep.KeptHead)
			}
			if c.refuses {
				before := eventCount(t, dir)
				wcode, _, werr := run(t, dir, "xp", "award", "Ajax", "1", "--reason", "after the edit")
				if wcode != ExitInvalidLog || !strings.Contains(werr, "was changed outside ltscamp") || !strings.Contains(werr, "ltscamp verify") {
					t.Errorf("a write on the tampered log: exit %d, %q", wcode, werr)
				}
				if after := eventCount(t, dir); after != before {
					t.Errorf("the refused write appended %d events", after-before)
				}
			}
		})
	}
	t.Run("a head prefix under 12 digits is a usage error", func(t *testing.T) {
		dir := copyCampaign(t, orig)
		code, _, stderr := run(t, dir, "verify", "--head", kept[:11])
		if code != ExitUsage || !strings.Contains(stderr, "first 12 digits or more") {
			t.Errorf("exit %d, %q", code, stderr)
		}
		if code, _, stderr := run(t, dir, "verify", "--head", "zz"+kept[2:20]); code != ExitUsage {
			t.Errorf("a head that is not hex: exit %d, %q", code, stderr)
		}
	})
}

// TestPrintHead: every write prints the new head on request, and verify
// --head takes it.
func TestPrintHead(t *testing.T) {
	dir, _, _ := buildCampaign(t)
	code, _, stderr := run(t, dir, "xp", "award", "Ajax", "2", "--reason", "r", "--print-head", "--quiet")
	if code != ExitOK || !strings.HasPrefix(stderr, "head: seq 11 ") || len(strings.TrimSpace(stderr)) != len("head: seq 11 ")+64 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	head := strings.Fields(stderr)[3]
	code, stdout, stderr := run(t, dir, "verify", "--head", head)
	if code != ExitOK || !strings.Contains(stdout, "kept head: seq 11 ("+head+")") {
		t.Errorf("verify --head: exit %d\n%s%s", code, stdout, stderr)
	}
	// A later write leaves the kept head in place.
	if code, _, stderr := run(t, dir, "roll", "2d6", "--dice", "1,2", "--print-head", "--json"); code != ExitOK || !strings.HasPrefix(stderr, "head: seq 12 ") {
		t.Errorf("roll --print-head: exit %d, %q", code, stderr)
	}
	if code, stdout, _ := run(t, dir, "verify", "--head", head[:16]); code != ExitOK || !strings.Contains(stdout, "1 event after it") {
		t.Errorf("verify --head after a write: exit %d\n%s", code, stdout)
	}
}

// rawEdit runs SQL on a campaign file, leaving the triggers as it finds
// them unless the statements change them.
func rawEdit(t *testing.T, dir string, stmts ...string) {
	t.Helper()
	db := openSQL(t, filepath.Join(dir, "c.ltscamp"))
	defer db.Close()
	for _, q := range append(stmts, `PRAGMA wal_checkpoint(TRUNCATE)`) {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// eventCount counts the events of a campaign file with SQL.
func eventCount(t *testing.T, dir string) int64 {
	t.Helper()
	db := openSQL(t, filepath.Join(dir, "c.ltscamp"))
	defer db.Close()
	var n int64
	if err := db.QueryRow(`SELECT count(*) FROM events`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// decodeVerify decodes verify's --json report.
func decodeVerify(t *testing.T, out string) verifyJSON {
	t.Helper()
	var rep verifyJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("verify --json: %v\n%s", err, out)
	}
	return rep
}

// TestAuditRefusesAnEditedAward: a plain edit of an award (the triggers
// dropped, the payload changed, the hashes left) no longer passes the
// player's audit: it re-hashes every event it shows, and the one before
// each, and refuses the audit (exit 7) naming the seq.
func TestAuditRefusesAnEditedAward(t *testing.T) {
	orig, _, _ := buildCampaign(t)
	if code, _, stderr := run(t, orig, "audit", "xp", "Ajax"); code != ExitOK {
		t.Fatalf("audit of the untouched log: exit %d, %s", code, stderr)
	}
	cases := []struct {
		name, edit, says string
	}{
		{"award edited", `UPDATE events SET payload = json_set(payload, '$.amount', 200) WHERE seq = 4`,
			"seq 4 (award, a row of this audit): hash mismatch: the event was changed after it was written"},
		{"award edited and rehashed on its own", `UPDATE events SET payload = json_set(payload, '$.amount', 200) WHERE seq = 4`,
			"seq 5 (spend, a row of this audit): its prev_hash is not the hash of seq 4"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := copyCampaign(t, orig)
			tamper(t, dir, false, c.edit)
			if i == 1 {
				rehashOne(t, dir, 4)
			}
			code, stdout, stderr := run(t, dir, "audit", "xp", "Ajax")
			if code != ExitInvalidLog || !strings.Contains(stderr, filepath.Join(dir, "c.ltscamp")+" was changed outside ltscamp: "+c.says) || stdout != "" {
				t.Errorf("audit: exit %d\n%s%s", code, stdout, stderr)
			}
		})
	}
}

// rehashOne recomputes the hash of the event at seq from its contents and
// its prev_hash as stored, leaving every other row as it is.
func rehashOne(t *testing.T, dir string, seq int64) {
	t.Helper()
	db := openSQL(t, filepath.Join(dir, "c.ltscamp"))
	defer db.Close()
	var e events.Event
	var payload, at, prev string
	if err := db.QueryRow(`SELECT seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at, prev_hash FROM events WHERE seq = ?`, seq).
		Scan(&e.Seq, &e.ID, &e.CommandID, &e.Stream, &e.StreamVersion, &e.Type, &e.PayloadVersion, &payload, &e.Actor, &at, &prev); err != nil {
		t.Fatal(err)
	}
	e.Payload = []byte(payload)
	var err error
	if e.RecordedAt, err = events.ParseTime(at); err != nil {
		t.Fatal(err)
	}
	p, err := hex.DecodeString(prev)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{`DROP TRIGGER events_no_update`, `UPDATE events SET hash = '` + hex.EncodeToString(events.ComputeHash(p, e)) + `' WHERE seq = ` + strconv.FormatInt(seq, 10)} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range appendOnlyTriggers(t)[:1] {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
}
