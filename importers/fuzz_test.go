package importers

import (
	"bytes"
	"encoding/csv"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ltscamp/ltscamp/campaign"
)

// checkParsed holds what every parse must keep, whatever the input: a
// roster whose rows all have a place in the file, or a RosterError with at
// least one problem; never both, never a panic.
func checkParsed(t *testing.T, name string, r campaign.Roster, err error) {
	t.Helper()
	if err != nil {
		var re *RosterError
		if !errors.As(err, &re) || len(re.Problems) == 0 {
			t.Fatalf("err = %v (%T), want a RosterError with problems", err, err)
		}
		for _, p := range re.Problems {
			if p.Source.File != name || p.Source.Line < 0 {
				t.Fatalf("a problem without its place: %+v", p)
			}
		}
		if len(r.Characters)+len(r.Ships) > 0 {
			t.Fatalf("an error and rows both: %+v", r)
		}
		return
	}
	if len(r.Characters)+len(r.Ships) == 0 {
		t.Fatal("no error and no rows")
	}
	for _, c := range r.Characters {
		if c.Source.File != name || c.Source.Line < 1 || c.Name == "" || checkName(c.Name) != "" || c.ST < 1 || c.DX < 1 || c.IQ < 1 {
			t.Fatalf("a character row that should have been refused: %+v", c)
		}
	}
	for _, s := range r.Ships {
		if s.Source.File != name || s.Source.Line < 1 || s.Name == "" || s.Record == "" {
			t.Fatalf("a ship row that should have been refused: %+v", s)
		}
	}
}

// writeCSV writes a roster's characters back as CSV.
func writeCSV(r campaign.Roster) []byte {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	_ = w.Write(csvColumns)
	for _, c := range r.Characters {
		_ = w.Write([]string{c.Name, strconv.Itoa(c.ST), strconv.Itoa(c.DX), strconv.Itoa(c.IQ), strings.Join(c.Skills, ";"), c.Weapon, c.Armor})
	}
	w.Flush()
	return b.Bytes()
}

func FuzzParseRosterCSV(f *testing.F) {
	f.Add([]byte("name,st,dx,iq,skills,weapon,armor\nKira,10,12,10,Pilot:1;Medic:1,,\nBrann,14,10,8,Unarmed:2,,\n"))
	f.Add([]byte("\xef\xbb\xbfName,ST,DX,IQ\r\n\"Smith, Jr.\",10,12,10\r\n"))
	f.Add([]byte("iq,dx,st,name,armour\n10,12,10,Kira,Flak Vest\n"))
	f.Add([]byte("name,st,dx,iq\nOdd,eleven,12,10\n\"Open,1\n"))
	f.Add([]byte("name,st,dx,iq,skills\nA,10,12,10,Pilot:1;;Medic\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRoster("f.csv", data, FormatCSV)
		checkParsed(t, "f.csv", r, err)
		if err != nil {
			return
		}
		again, err := ParseRoster("f.csv", writeCSV(r), FormatCSV)
		if err != nil {
			t.Fatalf("a roster written back as CSV does not parse: %v\n%s", err, writeCSV(r))
		}
		if !reflect.DeepEqual(values(again), values(r)) {
			t.Fatalf("a roster written back as CSV reads differently:\n%+v\n%+v", values(r), values(again))
		}
	})
}

func FuzzParseRosterYAML(f *testing.F) {
	f.Add([]byte(issueYAML))
	f.Add([]byte("characters:\n  - name: A\n    st: eleven\n    dex: 12\n"))
	f.Add([]byte("base: &b {st: 10}\ncharacters:\n  - *b\n"))
	f.Add([]byte("ships:\n  - name: Lark\n    record: E1\n    owner: ~\n    crew: {Operations: [Vess, Kira], Living: Brann}\n"))
	f.Add([]byte("characters:\n  - {name: A, st: 10, dx: 12, iq: 10, skills: [\"Pilot:1\"], armour: Flak Vest}\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRoster("f.yaml", data, FormatYAML)
		checkParsed(t, "f.yaml", r, err)
	})
}

func FuzzParseRosterJSON(f *testing.F) {
	f.Add([]byte(issueJSON))
	f.Add([]byte(`{"characters": [{"name": "A", "name": "B", "st": 1, "dx": 1, "iq": 1}]}`))
	f.Add([]byte("{\n  \"characters\": [\n    {\"name\": \"A\",}\n  ]\n}"))
	f.Add([]byte(`{"ships": [{"name": "Lark", "record": "E1", "crew": {"Operations": ["Vess", null]}}]}`))
	f.Add([]byte(`[1, 2, 3]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseRoster("f.json", data, FormatJSON)
		checkParsed(t, "f.json", r, err)
	})
}
