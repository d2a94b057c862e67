// Package importers turns files from outside into the same commands the
// CLI makes: rosters of characters and star craft (CSV, YAML, JSON) into a
// campaign.Roster, and backups (NDJSON, written by exports.WriteLog) into
// the events they hold. Parsers check the form of a file — its structure,
// types, required fields — and name the place of every problem; the game's
// rules are the campaign's to apply.
package importers

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ltscamp/ltscamp/campaign"
	"github.com/ltscamp/ltscamp/rules"
)

// Format is a roster file format.
type Format string

// The roster formats.
const (
	FormatCSV  Format = "csv"
	FormatYAML Format = "yaml"
	FormatJSON Format = "json"
)

// MaxRosterSize is the largest roster file read: a party, not a database.
const MaxRosterSize = 8 << 20

// maxNameLen bounds names, so that sheets and tables stay readable: the
// rules' bound, which `char new` and `ship build` check too.
const maxNameLen = rules.MaxNameLength

// RosterFormat picks a roster's format: flag when not empty ("csv",
// "yaml", "yml", "json", in any case), else the file name's extension.
// Standard input ("-") has no extension, so it needs the flag.
func RosterFormat(name, flag string) (Format, error) {
	return pickFormat(name, flag, FormatCSV, FormatYAML, FormatJSON)
}

// pickFormat picks a file's format among allowed: flag when not empty (a
// format's name, "yml" for YAML, in any case), else the file name's
// extension. Standard input ("-") has no extension, so it needs the flag.
func pickFormat(name, flag string, allowed ...Format) (Format, error) {
	names := make([]string, len(allowed))
	exts := make([]string, 0, len(allowed)+1)
	for i, f := range allowed {
		names[i] = string(f)
		exts = append(exts, "."+string(f))
		if f == FormatYAML {
			exts = append(exts, ".yml")
		}
	}
	pick := func(s string) (Format, bool) {
		s = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(s), "."))
		if s == "yml" {
			s = string(FormatYAML)
		}
		for _, f := range allowed {
			if s == string(f) {
				return f, true
			}
		}
		return "", false
	}
	if flag != "" {
		if f, ok := pick(flag); ok {
			return f, nil
		}
		return "", fmt.Errorf("--format %q: choose %s", flag, orList(names))
	}
	if name == "-" {
		return "", fmt.Errorf("standard input has no file name to tell the format by: pass --format %s", strings.Join(names, "|"))
	}
	if f, ok := pick(filepath.Ext(name)); ok {
		return f, nil
	}
	return "", fmt.Errorf("%s: cannot tell the format from its name: use a %s file, or pass --format", name, orList(exts))
}

// orList joins words as "a, b or c".
func orList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " or " + words[len(words)-1]
}

// Problem is one thing wrong with a roster file, at a place.
type Problem struct {
	// Source is the place: the file, the line (0 for the whole file) and,
	// in CSV, the column (the field's number, from 1).
	Source campaign.Source
	// Field is the roster field ("st", "skills"...), "" for a whole row.
	Field   string
	Message string
}

// RosterError lists every problem found in a roster file, in file order.
type RosterError struct {
	File     string
	Problems []Problem
}

// Error implements error: a line that counts the problems, then one line
// each.
func (e *RosterError) Error() string {
	var b strings.Builder
	n := len(e.Problems)
	fmt.Fprintf(&b, "%s: %d %s", e.File, n, map[bool]string{true: "problem", false: "problems"}[n == 1])
	for _, p := range e.Problems {
		b.WriteString("\n  ")
		b.WriteString(p.Source.String())
		if p.Field != "" {
			b.WriteString(": " + p.Field)
		}
		b.WriteString(": " + p.Message)
	}
	return b.String()
}

// problems collects a file's problems.
type problems struct {
	file string
	list []Problem
}

func (ps *problems) add(src campaign.Source, field, format string, a ...any) {
	ps.list = append(ps.list, Problem{Source: src, Field: field, Message: fmt.Sprintf(format, a...)})
}

// err returns the collected problems as a *RosterError, nil when none.
func (ps *problems) err() error {
	if len(ps.list) == 0 {
		return nil
	}
	return &RosterError{File: ps.file, Problems: ps.list}
}

// ParseRoster parses a roster file. name is the file's name as the user
// gave it, used in every Source. It returns a *RosterError listing every
// problem when anything is wrong, and no roster then.
func ParseRoster(name string, data []byte, f Format) (campaign.Roster, error) {
	ps := &problems{file: name}
	whole := campaign.Source{File: name}
	if len(data) > MaxRosterSize {
		ps.add(whole, "", "the file is larger than %d MiB: a roster is a party, not a campaign", MaxRosterSize>>20)
		return campaign.Roster{}, ps.err()
	}
	var r campaign.Roster
	switch f {
	case FormatCSV:
		r = parseCSV(name, data, ps)
	case FormatYAML, FormatJSON:
		r = parseTree(name, data, f, ps)
	default:
		return campaign.Roster{}, fmt.Errorf("importers: unknown roster format %q", f)
	}
	if len(ps.list) == 0 {
		checkDuplicates(r, ps)
	}
	if len(ps.list) == 0 && len(r.Characters) == 0 && len(r.Ships) == 0 {
		ps.add(whole, "", "no characters and no ships: the roster is empty")
	}
	if err := ps.err(); err != nil {
		return campaign.Roster{}, err
	}
	return r, nil
}

// checkName reports what is wrong with a name, "" when nothing is.
func checkName(s string) string {
	switch {
	case s == "":
		return "is empty: every row needs a name"
	case utf8.RuneCountInString(s) > maxNameLen:
		return fmt.Sprintf("is %d characters long; names have at most %d", utf8.RuneCountInString(s), maxNameLen)
	}
	for _, c := range s {
		if rules.Unprintable(c) {
			return fmt.Sprintf("%q holds a control character (%U); names are plain text on one line", s, c)
		}
	}
	return ""
}

// parseAttribute reads an attribute: a whole number from 1 to 99, the
// bound of any combatant's attribute (rules.MaxFoeAttribute; the rules
// check a new character's real bounds, 8 to 16). This keeps absurd values
// out before any sum.
func parseAttribute(s string) (int, string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, "is empty: ST, DX and IQ are required"
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Sprintf("%q is not a whole number", s)
	}
	if n < 1 || n > rules.MaxFoeAttribute {
		return 0, fmt.Sprintf("%d is not an attribute (1 to %d)", n, rules.MaxFoeAttribute)
	}
	return n, ""
}

// checkDuplicates names characters, and ships, that the file gives twice
// (a character may share a name with a ship: they are looked up apart).
func checkDuplicates(r campaign.Roster, ps *problems) {
	seen := map[string]campaign.Source{}
	for _, c := range r.Characters {
		key := strings.ToLower(c.Name)
		if first, dup := seen[key]; dup {
			ps.add(c.Source, "name", "%q is also the name of the character at line %d", c.Name, first.Line)
			continue
		}
		seen[key] = c.Source
	}
	seen = map[string]campaign.Source{}
	for _, s := range r.Ships {
		key := strings.ToLower(s.Name)
		if first, dup := seen[key]; dup {
			ps.add(s.Source, "name", "%q is also the name of the ship at line %d", s.Name, first.Line)
			continue
		}
		seen[key] = s.Source
	}
}
