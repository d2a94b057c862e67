package main

import (
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/events"

	// The tamper test plays the part of someone editing the campaign file
	// by hand, so it talks SQL to it directly; nothing else here does.
	_ "modernc.org/sqlite"
)

// verifyJSON is the documented shape of `ltscamp verify --json`, spelled
// out here so that a renamed field fails the test.
type verifyJSON struct {
	OK               bool   `json:"ok"`
	Events           int    `json:"events"`
	HeadSeq          int64  `json:"head_seq"`
	HeadHash         string `json:"head_hash"`
	Edition          string `json:"edition"`
	RevertedCommands int    `json:"reverted_commands"`
	Chain            struct {
		OK         bool   `json:"ok"`
		Seq        int64  `json:"seq"`
		Kind       string `json:"kind"`
		Problem    string `json:"problem"`
		Unreadable []struct {
			Seq     int64  `json:"seq"`
			Problem string `json:"problem"`
		} `json:"unreadable"`
	} `json:"chain"`
	Violations []struct {
		Seq       int64  `json:"seq"`
		EventID   string `json:"event_id"`
		CommandID string `json:"command_id"`
		Type      string `json:"type"`
		Problem   string `json:"problem"`
	} `json:"violations"`
	Ledgers []struct {
		Character   string `json:"character"`
		CharacterID string `json:"character_id"`
		Earned      int    `json:"earned"`
		Spent       int    `json:"spent"`
		Unspent     int    `json:"unspent"`
		OK          bool   `json:"ok"`
		Seq         int64  `json:"seq"`
		Problem     string `json:"problem"`
	} `json:"ledgers"`
	Schema struct {
		OK       bool     `json:"ok"`
		Problems []string `json:"problems"`
	} `json:"schema"`
	KeptHead *struct {
		Hash     string `json:"hash"`
		OK       bool   `json:"ok"`
		Seq      int64  `json:"seq"`
		FullHash string `json:"full_hash"`
		After    int64  `json:"after"`
		Problem  string `json:"problem"`
	} `json:"kept_head"`
}

// The campaign every tamper case starts from, by seq.
const (
	seqCreated  = 1  // campaign.created
	seqAjax     = 2  // character.created Ajax ST12 DX11 IQ9
	seqHector   = 3  // character.created Hector ST11 DX12 IQ9
	seqAward    = 4  // xp.awarded Ajax 20
	seqSpend    = 5  // xp.spent Ajax ST 12→13 for 18 XP
	seqCheck    = 6  // roll.made Ajax 3/DX [1 3 6] = 10 vs 11
	seqDice     = 7  // roll.made 2d6 [3 4] = 7 on the dice stream
	seqPlotword = 8  // plotword.acquired KITKAT
	seqHead     = 10 // xp.awarded +1 to Ajax (9) and Hector (10)
)

// buildCampaign makes a real campaign file with the CLI, in-process, and
// returns its directory and Ajax's and Hector's IDs. Every store is closed
// when it returns.
func buildCampaign(t *testing.T) (dir, ajaxID, hectorID string) {
	t.Helper()
	dir = t.TempDir()
	for _, args := range [][]string{
		{"init", "--name", "Tamper", "--edition", "2021"},
		{"char", "new", "Ajax", "--st", "12", "--dx", "11", "--iq", "9"},
		{"char", "new", "Hector", "--st", "11", "--dx", "12", "--iq", "9"},
		{"xp", "award", "Ajax", "20", "--reason", "r"},
		{"xp", "spend", "Ajax", "ST"},
		{"roll", "3/DX", "--char", "Ajax", "--dice", "1,3,6"},
		{"roll", "2d6", "--dice", "3,4"},
		{"xp", "plotword", "KITKAT"},
	} {
		if code, _, stderr := run(t, dir, args...); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
	}
	db := openSQL(t, filepath.Join(dir, "c.ltscamp"))
	defer db.Close()
	want := map[int64]string{seqCreated: "campaign.created", seqAjax: "character.created", seqHector: "character.created",
		seqAward: "xp.awarded", seqSpend: "xp.spent", seqCheck: "roll.made", seqDice: "roll.made", seqPlotword: "plotword.acquired",
		9: "xp.awarded", seqHead: "xp.awarded"}
	rows, err := db.Query(`SELECT seq, type FROM events ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var seq int64
		var typ string
		if err := rows.Scan(&seq, &typ); err != nil {
			t.Fatal(err)
		}
		if want[seq] != typ {
			t.Fatalf("seq %d is %s, the test expects %s: the campaign's layout changed", seq, typ, want[seq])
		}
		n++
	}
	if n != len(want) {
		t.Fatalf("the campaign has %d events, the test expects %d", n, len(want))
	}
	for seq, id := range map[int64]*string{seqAjax: &ajaxID, seqHector: &hectorID} {
		if err := db.QueryRow(`SELECT json_extract(payload, '$.character_id') FROM events WHERE seq = ?`, seq).Scan(id); err != nil {
			t.Fatal(err)
		}
	}
	return dir, ajaxID, hectorID
}

// openSQL opens a campaign file with database/sql, as a hand editor would.
func openSQL(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA busy_timeout = 10000`); err != nil {
		t.Fatal(err)
	}
	return db
}

// copyCampaign copies the campaign file of src, with its -wal if one is
// left, into a new directory.
func copyCampaign(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	for _, suffix := range []string{"", "-wal"} {
		in, err := os.Open(filepath.Join(src, "c.ltscamp"+suffix))
		if suffix != "" && errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		out, err := os.Create(filepath.Join(dst, "c.ltscamp"+suffix))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := io.Copy(out, in); err != nil {
			t.Fatal(err)
		}
		in.Close()
		if err := out.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// tamper drops the append-only triggers of the campaign in dir and runs
// stmts; with rehash it then recomputes every prev_hash and hash, so that
// the chain is valid again and only the rules can tell.
func tamper(t *testing.T, dir string, rehash bool, stmts ...string) {
	t.Helper()
	db := openSQL(t, filepath.Join(dir, "c.ltscamp"))
	defer db.Close()
	for _, q := range append([]string{`DROP TRIGGER events_no_update`, `DROP TRIGGER events_no_delete`}, stmts...) {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if rehash {
		rehashChain(t, db)
	}
	// A careful hand puts the triggers back, as the migration made them:
	// only the chain, the rules and a kept head can tell.
	for _, q := range appendOnlyTriggers(t) {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
}

// appendOnlyTriggers returns the CREATE TRIGGER statements of the first
// migration, as it is on disk.
func appendOnlyTriggers(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "events", "sqlitestore", "migrations", "0001_events.sql"))
	if err != nil {
		t.Fatal(err)
	}
	qs := regexp.MustCompile(`(?s)CREATE TRIGGER .*?END;`).FindAllString(string(b), -1)
	if len(qs) != 2 {
		t.Fatalf("the migration has %d triggers, the test expects 2", len(qs))
	}
	return qs
}

// rehashChain rewrites the whole hash chain from the rows as they are now,
// with events.ComputeHash, in lowercase hex as the store writes it.
func rehashChain(t *testing.T, db *sql.DB) {
	t.Helper()
	rows, err := db.Query(`SELECT seq, id, command_id, stream, stream_version, type, payload_version, payload, actor, recorded_at FROM events ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	var evs []events.Event
	for rows.Next() {
		var e events.Event
		var payload, at string
		if err := rows.Scan(&e.Seq, &e.ID, &e.CommandID, &e.Stream, &e.StreamVersion, &e.Type, &e.PayloadVersion, &payload, &e.Actor, &at); err != nil {
			t.Fatal(err)
		}
		e.Payload = []byte(payload)
		if e.RecordedAt, err = events.ParseTime(at); err != nil {
			t.Fatal(err)
		}
		evs = append(evs, e)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	prev := events.GenesisHash()
	for _, e := range evs {
		h := events.ComputeHash(prev, e)
		if _, err := db.Exec(`UPDATE events SET prev_hash = ?, hash = ? WHERE seq = ?`, hex.EncodeToString(prev), hex.EncodeToString(h), e.Seq); err != nil {
			t.Fatal(err)
		}
		prev = h
	}
}

// verify runs `ltscamp verify` and `ltscamp verify --json` on dir.
func verify(t *testing.T, dir string) (code int, stdout, stderr string, rep verifyJSON) {
	t.Helper()
	code, stdout, stderr = run(t, dir, "verify")
	jcode, jout, _ := run(t, dir, "verify", "--json")
	if jcode != code {
		t.Errorf("verify exits %d, verify --json %d", code, jcode)
	}
	if err := json.Unmarshal([]byte(jout), &rep); err != nil {
		t.Fatalf("verify --json: %v\n%s", err, jout)
	}
	return code, stdout, stderr, rep
}

// TestVerifyTampered is acceptance 5 of issue 3: a real campaign file,
// copied, then changed by hand in one way per case.
func TestVerifyTampered(t *testing.T) {
	orig, ajaxID, hectorID := buildCampaign(t)
	// The expected reports name the characters' streams by name.
	ids := strings.NewReplacer(ajaxID, "AJAX", hectorID, "HECTOR")

	t.Run("clean", func(t *testing.T) {
		dir := copyCampaign(t, orig)
		code, stdout, stderr, rep := verify(t, dir)
		if code != ExitOK {
			t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
		}
		first, headLine, _ := strings.Cut(stdout, "\n")
		if !strings.HasPrefix(first, "ok: 10 events, hash chain intact to seq 10 (head ") ||
			!strings.HasSuffix(first, "), every event re-checked by the edition 2021 rules, XP ledgers balance for 2 characters") ||
			strings.Count(stdout, "\n") != 2 || stderr != "" {
			t.Errorf("stdout %q, stderr %q", stdout, stderr)
		}
		if !rep.OK || rep.Events != 10 || rep.HeadSeq != seqHead || len(rep.HeadHash) != 64 || rep.Edition != "2021" ||
			!rep.Chain.OK || rep.Chain.Seq != 0 || len(rep.Violations) != 0 || len(rep.Ledgers) != 2 || !rep.Schema.OK {
			t.Fatalf("report %+v", rep)
		}
		if want := "head: seq 10 " + rep.HeadHash + "\n"; headLine != want {
			t.Errorf("the head line is %q, want %q", headLine, want)
		}
		if !strings.Contains(stdout, "(head "+rep.HeadHash[:12]+"…)") {
			t.Errorf("stdout %q does not show head %s", stdout, rep.HeadHash)
		}
		// The head hash is the last event's, as stored.
		db := openSQL(t, filepath.Join(dir, "c.ltscamp"))
		defer db.Close()
		var head string
		if err := db.QueryRow(`SELECT hash FROM events WHERE seq = ?`, seqHead).Scan(&head); err != nil {
			t.Fatal(err)
		}
		if rep.HeadHash != head {
			t.Errorf("head_hash %s, seq %d's hash %s", rep.HeadHash, seqHead, head)
		}
		if l := rep.Ledgers[0]; l.Character != "Ajax" || l.Earned != 21 || l.Spent != 18 || l.Unspent != 3 || !l.OK {
			t.Errorf("Ajax's ledger %+v", l)
		}
	})

	cases := []struct {
		name   string
		rehash bool
		stmts  []string
		// stdout is the exact human report; stderr its summary line.
		stdout, stderr string
		check          func(t *testing.T, rep verifyJSON)
	}{
		{
			name:   "payload changed",
			stmts:  []string{`UPDATE events SET payload = json_set(payload, '$.amount', 200) WHERE seq = 4`},
			stdout: "seq 4: hash mismatch: the event was changed after it was written\n",
			stderr: "hash chain broken at seq 4",
			check: func(t *testing.T, rep verifyJSON) {
				if rep.Chain.OK || rep.Chain.Seq != seqAward || rep.Chain.Kind != "hash" {
					t.Errorf("chain %+v", rep.Chain)
				}
				// The change is otherwise one the rules allow.
				if len(rep.Violations) != 0 || rep.Ledgers[0].Earned != 201 {
					t.Errorf("violations %+v, ledgers %+v", rep.Violations, rep.Ledgers)
				}
			},
		},
		{
			name:  "row deleted",
			stmts: []string{`DELETE FROM events WHERE seq = 6`},
			stdout: "seq 6 missing: the log jumps from 5 to 7\n" +
				"seq 9 xp.awarded: stream character/AJAX jumps from version 3 to 5 (an event of the stream is missing)\n",
			stderr: "hash chain broken at seq 6; 1 rules violation",
			check: func(t *testing.T, rep verifyJSON) {
				if rep.Chain.OK || rep.Chain.Seq != seqCheck || rep.Chain.Kind != "gap" || rep.Events != 9 {
					t.Errorf("chain %+v, %d events", rep.Chain, rep.Events)
				}
			},
		},
		{
			name:   "first row deleted",
			stmts:  []string{`DELETE FROM events WHERE seq = 1`},
			stdout: "seq 1 missing: the log starts at seq 2\nseq 2 character.created: the log has no campaign.created event in effect: the rules cannot re-check anything\nseq 8 plotword.acquired: stream campaign jumps from version 0 to 2 (an event of the stream is missing)\n",
			stderr: "hash chain broken at seq 1; 2 rules violations",
		},
		{
			name:   "spend price edited, chain rehashed",
			rehash: true,
			stmts:  []string{`UPDATE events SET payload = json_set(payload, '$.price', 5) WHERE seq = 5`},
			stdout: "seq 5 xp.spent: ST 12→13 recorded at 5 XP (current level + 6 = 12 + 6); edition 2021 prices it 18 XP (current level + 6 = 12 + 6)\n",
			stderr: "hash chain intact to seq 10; 1 rules violation",
			check: func(t *testing.T, rep verifyJSON) {
				if !rep.Chain.OK {
					t.Errorf("the rehashed chain does not verify: %+v", rep.Chain)
				}
				if len(rep.Violations) != 1 || rep.Violations[0].Seq != seqSpend || rep.Violations[0].Type != "xp.spent" || rep.Violations[0].EventID == "" {
					t.Errorf("violations %+v", rep.Violations)
				}
				// The ledger agrees with the sheet: only the rules see it.
				if l := rep.Ledgers[0]; !l.OK || l.Spent != 5 || l.Unspent != 16 {
					t.Errorf("Ajax's ledger %+v", l)
				}
			},
		},
		{
			name:   "spend price and formula edited, chain rehashed",
			rehash: true,
			stmts:  []string{`UPDATE events SET payload = json_set(payload, '$.price', 5, '$.formula', 'current level - 7 = 12 - 7') WHERE seq = 5`},
			stdout: "seq 5 xp.spent: ST 12→13 recorded at 5 XP (current level - 7 = 12 - 7); edition 2021 prices it 18 XP (current level + 6 = 12 + 6)\n",
			stderr: "hash chain intact to seq 10; 1 rules violation",
		},
		{
			name:   "award cut below the spend, chain rehashed",
			rehash: true,
			stmts:  []string{`UPDATE events SET payload = json_set(payload, '$.amount', 10) WHERE seq = 4`},
			stdout: "seq 5 xp.spent: ST 12→13 costs 18 XP, but Ajax had 10 unspent\n" +
				"Ajax's XP ledger: the balance goes to -8 XP at seq 5 (spend ST 12→13, -18 XP)\n",
			stderr: "hash chain intact to seq 10; 1 rules violation; 1 XP ledger out of balance",
			check: func(t *testing.T, rep verifyJSON) {
				if l := rep.Ledgers[0]; l.OK || l.Seq != seqSpend || l.Earned != 11 || l.Spent != 18 || l.Unspent != -7 {
					t.Errorf("Ajax's ledger %+v", l)
				}
				if !rep.Ledgers[1].OK {
					t.Errorf("Hector's ledger %+v", rep.Ledgers[1])
				}
			},
		},
		{
			name:   "attribute over the cap at creation, chain rehashed",
			rehash: true,
			stmts:  []string{`UPDATE events SET payload = json_set(payload, '$.attributes.ST', 14) WHERE seq = 2`},
			stdout: "seq 2 character.created: cannot create Ajax: 34 attribute points, a new character has exactly 32 (ST8 DX8 IQ8 + 8 discretionary)\n" +
				"seq 5 xp.spent: ST raised from 12, but Ajax had ST 14\n",
			stderr: "hash chain intact to seq 10; 2 rules violations",
		},
		{
			name:   "roll total edited, chain rehashed",
			rehash: true,
			stmts:  []string{`UPDATE events SET payload = json_set(payload, '$.total', 3, '$.margin', 8) WHERE seq = 6`},
			stdout: "seq 6 roll.made: recorded 3/DX [1 3 6] = 3 vs 11, pass; the rules give 10 vs 11, pass\n",
			stderr: "hash chain intact to seq 10; 1 rules violation",
		},
		{
			name:   "dice roll faces edited, chain rehashed",
			rehash: true,
			stmts:  []string{`UPDATE events SET payload = json_set(payload, '$.faces', json('[6,6]')) WHERE seq = 7`},
			stdout: "seq 7 roll.made: recorded 2d6 [6 6] = 7; the faces give 12\n",
			stderr: "hash chain intact to seq 10; 1 rules violation",
		},
		{
			name:   "roll recorded for another character, chain rehashed",
			rehash: true,
			stmts: []string{`UPDATE events SET payload = json_set(payload, '$.character_id', (SELECT json_extract(payload, '$.character_id') FROM events WHERE seq = 3), '$.character', 'Hector')
				WHERE seq = 6`},
			stdout: "seq 6 roll.made: a roll of Hector (HECTOR) on Ajax's stream\n",
			stderr: "hash chain intact to seq 10; 1 rules violation",
		},
		{
			name:   "award moved to a foreign stream, chain rehashed",
			rehash: true,
			stmts:  []string{`UPDATE events SET stream = 'character/01JZZZZZZZZZZZZZZZZZZZZZZZ', stream_version = 1 WHERE seq = 4`},
			stdout: "seq 4 xp.awarded: xp.awarded for a character that does not exist (stream character/01JZZZZZZZZZZZZZZZZZZZZZZZ)\n" +
				"seq 5 xp.spent: stream character/AJAX jumps from version 1 to 3 (an event of the stream is missing)\n" +
				"seq 5 xp.spent: ST 12→13 costs 18 XP, but Ajax had 0 unspent\n" +
				"Ajax's XP ledger: the balance goes to -18 XP at seq 5 (spend ST 12→13, -18 XP)\n",
			stderr: "hash chain intact to seq 10; 3 rules violations; 1 XP ledger out of balance",
		},
		{
			name:   "plotword moved to a character's stream, chain rehashed",
			rehash: true,
			stmts: []string{`UPDATE events SET stream_version = 3 WHERE seq = 10`,
				`UPDATE events SET stream = (SELECT stream FROM events WHERE seq = 3), stream_version = 2 WHERE seq = 8`},
			stdout: "seq 8 plotword.acquired: plotword.acquired on stream \"character/HECTOR\", not the campaign's\n" +
				"seq 9 xp.awarded: an award for plotword KITKAT, which the party has not acquired\n" +
				"seq 10 xp.awarded: an award for plotword KITKAT, which the party has not acquired\n",
			stderr: "hash chain intact to seq 10; 3 rules violations",
		},
		{
			name:  "hash not hex",
			stmts: []string{`UPDATE events SET hash = 'not a hash' WHERE seq = 3`},
			// Without Hector's creation, his plotword XP is foreign too.
			stdout: "seq 3 cannot be read: hash: encoding/hex: invalid byte: U+006E 'n'\n" +
				"seq 10 xp.awarded: stream character/HECTOR jumps from version 0 to 2 (an event of the stream is missing)\n" +
				"seq 10 xp.awarded: xp.awarded for a character that does not exist (stream character/HECTOR)\n",
			stderr: "hash chain broken at seq 3; 2 rules violations",
			check: func(t *testing.T, rep verifyJSON) {
				if rep.Chain.Kind != "unreadable" || rep.Chain.Seq != seqHector || len(rep.Chain.Unreadable) != 1 || rep.Events != 9 {
					t.Errorf("chain %+v, %d events", rep.Chain, rep.Events)
				}
			},
		},
		{
			name:  "last row deleted",
			stmts: []string{`DELETE FROM events WHERE seq = 10`},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := copyCampaign(t, orig)
			tamper(t, dir, c.rehash, c.stmts...)
			code, stdout, stderr, rep := verify(t, dir)
			t.Logf("stdout:\n%s", stdout)
			if c.name == "last row deleted" {
				// A hash chain cannot tell a log cut short from a
				// shorter one: only the head hash, noted earlier, can.
				if code != ExitOK || rep.HeadSeq != 9 {
					t.Errorf("exit %d, head %d", code, rep.HeadSeq)
				}
				return
			}
			if code != ExitInvalidLog {
				t.Errorf("exit %d, want %d", code, ExitInvalidLog)
			}
			if rep.OK {
				t.Errorf("the JSON report says ok")
			}
			stdout = ids.Replace(stdout)
			if c.stdout != "" && stdout != c.stdout {
				t.Errorf("stdout:\n%s\nwant:\n%s", stdout, c.stdout)
			}
			if c.stderr != "" {
				if want := "ltscamp: " + filepath.Join(dir, "c.ltscamp") + " failed verification: " + c.stderr + "\n"; stderr != want {
					t.Errorf("stderr %q\nwant   %q", stderr, want)
				}
			}
			if c.check != nil {
				c.check(t, rep)
			}
		})
	}
}
