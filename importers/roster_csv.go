package importers

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ltscamp/ltscamp/campaign"
)

// csvColumns are the columns of a CSV roster, in the documented order;
// the first four are required.
var csvColumns = []string{"name", "st", "dx", "iq", "skills", "weapon", "armor"}

// parseCSV reads a CSV roster as spreadsheets save it: UTF-8 with or
// without a byte-order mark, CRLF or LF, quoted fields. The header names
// the columns, in any order and any case. A CSV roster holds characters
// only.
func parseCSV(name string, data []byte, ps *problems) campaign.Roster {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var r campaign.Roster
	if !utf8.Valid(data) {
		line := 1 + bytes.Count(data[:firstInvalid(data)], []byte("\n"))
		ps.add(campaign.Source{File: name, Line: line}, "", "the file is not UTF-8: save it as CSV UTF-8")
		return r
	}
	cr := csv.NewReader(bytes.NewReader(data))
	cr.FieldsPerRecord = 0 // every row as wide as the header
	cr.ReuseRecord = false
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		ps.add(campaign.Source{File: name}, "", "the file is empty: a CSV roster starts with the header %s", strings.Join(csvColumns, ","))
		return r
	}
	if err != nil {
		csvProblem(name, err, ps)
		return r
	}
	col := map[string]int{}
	for i, h := range header {
		key := strings.ToLower(strings.TrimSpace(h))
		if key == "armour" {
			key = "armor"
		}
		src := campaign.Source{File: name, Line: 1, Column: i + 1}
		switch {
		case !contains(csvColumns, key):
			ps.add(src, "", "unknown column %q: the columns are %s", h, strings.Join(csvColumns, ","))
		case hasKey(col, key):
			ps.add(src, "", "column %q is given twice", key)
		default:
			col[key] = i
		}
	}
	for _, req := range csvColumns[:4] {
		if !hasKey(col, req) {
			ps.add(campaign.Source{File: name, Line: 1}, "", "the header has no %q column: the columns are %s", req, strings.Join(csvColumns, ","))
		}
	}
	if len(ps.list) > 0 {
		return r
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			csvProblem(name, err, ps)
			var pe *csv.ParseError
			if errors.As(err, &pe) && errors.Is(pe.Err, csv.ErrFieldCount) {
				continue // the row is named; go on to the next
			}
			break // a quote left open: the rest cannot be read
		}
		line, _ := cr.FieldPos(0)
		row := campaign.RosterCharacter{Source: campaign.Source{File: name, Line: line}, Fields: map[string]campaign.Source{}}
		field := func(key string) (string, campaign.Source, bool) {
			i, ok := col[key]
			if !ok {
				return "", campaign.Source{}, false
			}
			l, _ := cr.FieldPos(i)
			src := campaign.Source{File: name, Line: l, Column: i + 1}
			row.Fields[key] = src
			return rec[i], src, true
		}
		bad := false
		v, src, _ := field("name")
		row.Name = strings.TrimSpace(v)
		if msg := checkName(row.Name); msg != "" {
			ps.add(src, "name", "%s", msg)
			bad = true
		}
		for _, a := range []struct {
			key string
			to  *int
		}{{"st", &row.ST}, {"dx", &row.DX}, {"iq", &row.IQ}} {
			v, src, _ := field(a.key)
			n, msg := parseAttribute(v)
			if msg != "" {
				ps.add(src, a.key, "%s", msg)
				bad = true
			}
			*a.to = n
		}
		if v, src, ok := field("skills"); ok {
			skills, msg := splitSkills(v)
			if msg != "" {
				ps.add(src, "skills", "%s", msg)
				bad = true
			}
			row.Skills = skills
		}
		if v, _, ok := field("weapon"); ok {
			row.Weapon = strings.TrimSpace(v)
		}
		if v, _, ok := field("armor"); ok {
			row.Armor = strings.TrimSpace(v)
		}
		if !bad {
			r.Characters = append(r.Characters, row)
		}
	}
	return r
}

// splitSkills reads a CSV skills cell: "Pilot:1;Medic:1", with spaces
// around items and a trailing ';' allowed. An item without a level is
// passed on as it is (the rules give its default).
func splitSkills(cell string) ([]string, string) {
	cell = strings.TrimSpace(cell)
	if cell == "" {
		return nil, ""
	}
	items := strings.Split(strings.TrimSuffix(cell, ";"), ";")
	out := make([]string, 0, len(items))
	for i, it := range items {
		it = strings.TrimSpace(it)
		if it == "" {
			return nil, "skill " + strconv.Itoa(i+1) + " is empty: write skills as Pilot:1;Medic:1"
		}
		if name, level, ok := strings.Cut(it, ":"); ok {
			it = strings.TrimSpace(name) + ":" + strings.TrimSpace(level)
		}
		out = append(out, it)
	}
	return out, ""
}

// csvProblem turns a csv.Reader error into a problem at its place.
func csvProblem(name string, err error, ps *problems) {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		// The problem is named by line; Source.Column counts fields, and
		// a syntax error's column counts characters, so it goes in the
		// message.
		msg := fmt.Sprintf("%v (at character %d)", pe.Err, pe.Column)
		if errors.Is(pe.Err, csv.ErrFieldCount) {
			msg = "the row does not have as many fields as the header"
		}
		ps.add(campaign.Source{File: name, Line: pe.Line}, "", "%s", msg)
		return
	}
	ps.add(campaign.Source{File: name}, "", "%v", err)
}

func firstInvalid(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func hasKey(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
}
